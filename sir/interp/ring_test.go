package interp

import (
	"encoding/binary"
	"reflect"
	"testing"

	"github.com/weft-hdl/weft/sir"
)

const eventUnit = `unit ev
b0:
  r1:8 = load.1 h0+0
  r2:64 = const 0xfedcba9876543210
  r3:36 = const 0x123456789
  event display fmt=7 level=0 (r1:s8, {r2, r3}:u100)
  r4:8 = add r1, r1
  event write fmt=8 level=0 (r4:u8)
  event finish fmt=0 level=2 ()
  ret finish
`

func TestEventRingFormat(t *testing.T) {
	u := parse(t, eventUnit)
	l, size := sir.PackedLayout([]int{8}, 256)
	f := compile(t, u, l)
	state := make([]byte, size)
	ring := state[8:]
	sir.InitRing(ring, 256)
	state[0] = 0xfe
	if st := f.Run(state); st != sir.StatusFinish {
		t.Fatalf("status %v", st)
	}
	// Byte format of the first record.
	le := binary.LittleEndian
	if le.Uint32(ring[0:]) != 3 || le.Uint32(ring[4:]) != 64+40+24 || le.Uint32(ring[8:]) != 256 || le.Uint32(ring[12:]) != 0 {
		t.Fatalf("header % x", ring[:16])
	}
	rec := ring[16:]
	wantRec := []byte{
		byte(sir.EvDisplay), 0, 2, 0, 7, 0, 0, 0, 0, 0, 0, 0, 64, 0, 0, 0,
		0, 0, 0, 0, 0, 0, 0, 0,
		8, 0, 0, 0, 1, 0, 0, 0, 0xfe, 0, 0, 0, 0, 0, 0, 0,
		100, 0, 0, 0, 0, 0, 0, 0, 0x10, 0x32, 0x54, 0x76, 0x98, 0xba, 0xdc, 0xfe,
		0x89, 0x67, 0x45, 0x23, 0x01, 0, 0, 0,
	}
	if !reflect.DeepEqual(rec[:len(wantRec)], wantRec) {
		t.Errorf("record bytes\n got % x\nwant % x", rec[:len(wantRec)], wantRec)
	}
	recs, dropped, err := sir.DecodeRing(ring)
	if err != nil || dropped != 0 {
		t.Fatal(err, dropped)
	}
	want := []sir.Record{
		{Kind: sir.EvDisplay, Format: 7, Args: []sir.Value{{Width: 8, Signed: true, Words: []uint64{0xfe}}, {Width: 100, Words: []uint64{0xfedcba9876543210, 0x123456789}}}},
		{Kind: sir.EvWrite, Format: 8, Args: []sir.Value{{Width: 8, Words: []uint64{0xfc}}}},
		{Kind: sir.EvFinish, Level: 2},
	}
	if !reflect.DeepEqual(recs, want) {
		t.Errorf("decoded %+v\nwant %+v", recs, want)
	}
	sir.ResetRing(ring)
	if recs, _, _ := sir.DecodeRing(ring); len(recs) != 0 {
		t.Error("ResetRing left records")
	}
}

// Overflow: the ring keeps a prefix of the events, counts the rest, never
// writes past its capacity, and an OK return becomes ringfull.
func TestEventRingOverflow(t *testing.T) {
	u := parse(t, `unit many
b0:
  r1:8 = const 0
  jump b1
b1:
  event display fmt=1 level=0 (r1:u8)
  r1:8 = add r1, r2
  r2:8 = const 1
  r3:1 = ult r1, r4
  r4:8 = const 10
  branch r3, b1, b2
b2:
  ret ok
`)
	// r2 and r4 are read before assigned in b1: rewrite the unit so they are set in b0.
	u.Blocks[0].Insts = append(u.Blocks[0].Insts, sir.Inst{Op: sir.OpConst, Dst: 2, Imm: 1}, sir.Inst{Op: sir.OpConst, Dst: 4, Imm: 10})
	const capacity = 40*4 + 8 // four 40-byte records fit, the fifth does not
	l, size := sir.PackedLayout([]int{8}, capacity+80)
	f := compile(t, u, l)
	state := make([]byte, size)
	ring := state[8:]
	sir.InitRing(ring, capacity)
	for i := range ring[sir.RingHeaderSize+capacity:] {
		ring[sir.RingHeaderSize+capacity+i] = 0xcc
	}
	if st := f.Run(state); st != sir.StatusRingFull {
		t.Errorf("status %v, want ringfull", st)
	}
	recs, dropped, err := sir.DecodeRing(ring)
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 4 || dropped != 6 {
		t.Errorf("%d records, %d dropped; want 4 and 6", len(recs), dropped)
	}
	for i, r := range recs {
		if r.Args[0].Words[0] != uint64(i) {
			t.Errorf("record %d holds %d: not the program-order prefix", i, r.Args[0].Words[0])
		}
	}
	for i, c := range ring[sir.RingHeaderSize+capacity:] {
		if c != 0xcc {
			t.Fatalf("byte %d past the ring capacity was written", i)
		}
	}
	// A corrupt capacity larger than memory is clamped to the memory there
	// is (capacity+80 bytes: six records), not trusted.
	sir.InitRing(ring, 1<<30)
	if st := f.Run(state); st != sir.StatusRingFull {
		t.Errorf("status %v with a corrupt capacity, want ringfull", st)
	}
	if n := binary.LittleEndian.Uint32(ring[0:]); n != 6 {
		t.Errorf("%d records with a corrupt capacity, want 6", n)
	}
	// A non-OK status is kept even when events were dropped.
	fin := compile(t, parse(t, eventUnit), l)
	sir.InitRing(ring, 8)
	if st := fin.Run(state); st != sir.StatusFinish || sir.RingDropped(ring) != 3 {
		t.Errorf("status %v dropped %d, want finish and 3", st, sir.RingDropped(ring))
	}
}
