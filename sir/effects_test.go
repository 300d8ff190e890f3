package sir_test

import (
	"reflect"
	"testing"

	"github.com/weft-hdl/weft/sir"
)

func TestEffects(t *testing.T) {
	u := mustParse(t, `unit fx
b0:
  r1:8 = load.1 h0+0
  r2:16 = load.2 h0+1
  r3:32 = load.4 h1+4[r1*4<4]
  store.8 h2+0, r3
  storebits h2+8, 13, r1
  r4:3 = loadbits h3+0, 6
  event display fmt=0 level=0 (r1:u8)
  ret ok
`)
	l := &sir.MapLayout{Offsets: map[sir.HomeID]int{0: 0, 1: 16, 2: 64, 3: 96, sir.RingHome: 128}}
	fp := sir.Effects(u, l)
	want := sir.Footprint{
		Reads: []sir.Range{
			{Home: 0, Lo: 0, Hi: 3},                            // two adjacent loads merged
			{Home: 1, Lo: 20, Hi: 20 + 3*4 + 4, Dynamic: true}, // element envelope
			{Home: 3, Lo: 96, Hi: 98},                          // bits 6..8 cover two bytes
			{Home: sir.RingHome, Lo: 128, Hi: 128 + sir.RingHeaderSize, Dynamic: true},
		},
		Writes: []sir.Range{
			{Home: 2, Lo: 64, Hi: 72},
			{Home: 2, Lo: 73, Hi: 75}, // bits 13..20 after byte 8: bytes 9 and 10
			{Home: sir.RingHome, Lo: 128, Hi: 128 + sir.RingHeaderSize, Dynamic: true},
		},
	}
	if !reflect.DeepEqual(fp, want) {
		t.Errorf("Effects =\n%+v\nwant\n%+v", fp, want)
	}
	// With sizes known, a dynamic access covers its whole home.
	l.Sizes = map[sir.HomeID]int{1: 40, sir.RingHome: 1000}
	fp = sir.Effects(u, l)
	if r := fp.Reads[1]; r != (sir.Range{Home: 1, Lo: 16, Hi: 56, Dynamic: true}) {
		t.Errorf("dynamic read with sizes: %+v", r)
	}
	if r := fp.Writes[len(fp.Writes)-1]; r.Hi != 1128 {
		t.Errorf("ring with sizes: %+v", r)
	}
}
