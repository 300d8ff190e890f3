package interp

import (
	"bytes"
	"encoding/binary"
	"testing"

	"github.com/weft-hdl/weft/sir"
)

func parse(t *testing.T, text string) *sir.Unit {
	t.Helper()
	u, err := sir.Parse(text)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

func compile(t *testing.T, u *sir.Unit, l sir.Layout) *Func {
	t.Helper()
	f, err := Compile(u, l, Options{})
	if err != nil {
		t.Fatalf("%v\n%s", err, u)
	}
	return f
}

// Dynamic indexes: in range they address Offset + Index*Stride; out of range
// a load gives 0 and a store does nothing.
func TestDynamicIndex(t *testing.T) {
	u := parse(t, `unit dyn
b0:
  r1:8 = load.1 h0+0
  r2:16 = load.2 h1+2[r1*4<3]
  store.2 h0+8, r2
  r3:16 = const 0xbeef
  store.2 h1+2[r1*4<3], r3
  r4:9 = loadbits h1+0[r1*4<3], 20
  store.2 h0+10, r4
  r5:3 = const 5
  storebits h1+0[r1*4<3], 29, r5
  ret ok
`)
	l, size := sir.PackedLayout([]int{16, 12}, 0)
	f := compile(t, u, l)
	le := binary.LittleEndian
	for idx := 0; idx < 256; idx++ {
		state := make([]byte, size)
		h1 := state[16:28]
		for i := range h1 {
			h1[i] = byte(0x10 + i)
		}
		state[0] = byte(idx)
		before := append([]byte(nil), h1...)
		if st := f.Run(state); st != sir.StatusOK {
			t.Fatalf("idx %d: status %v", idx, st)
		}
		if idx >= 3 {
			if got := le.Uint16(state[8:]); got != 0 {
				t.Errorf("idx %d: out-of-range load = %#x, want 0", idx, got)
			}
			if got := le.Uint16(state[10:]); got != 0 {
				t.Errorf("idx %d: out-of-range loadbits = %#x, want 0", idx, got)
			}
			if !bytes.Equal(h1, before) {
				t.Errorf("idx %d: out-of-range store changed h1: % x", idx, h1)
			}
			continue
		}
		e := 4 * idx
		if got, want := le.Uint16(state[8:]), le.Uint16(before[e+2:]); got != want {
			t.Errorf("idx %d: load = %#x, want %#x", idx, got, want)
		}
		if got := le.Uint16(h1[e+2:]); got != 0xbeef {
			t.Errorf("idx %d: store wrote %#x", idx, got)
		}
		// loadbits 20..28 of element idx, read after the store.
		el := uint64(le.Uint32(h1[e:]))
		el0 := uint64(le.Uint16(before[e:])) | 0xbeef<<16
		if got, want := uint64(le.Uint16(state[10:])), el0>>20&0x1ff; got != want {
			t.Errorf("idx %d: loadbits = %#x, want %#x", idx, got, want)
		}
		if want := el0&^(7<<29) | 5<<29; el != want {
			t.Errorf("idx %d: storebits element = %#x, want %#x", idx, el, want)
		}
		for i := range h1 { // other elements untouched
			if i/4 != idx && h1[i] != before[i] {
				t.Errorf("idx %d: byte %d of h1 changed", idx, i)
			}
		}
	}
}

// Bit-field stores read-modify-write exactly the bytes they cover.
func TestStoreBits(t *testing.T) {
	for lo := 0; lo < 24; lo++ {
		for _, w := range []int{1, 3, 8, 13, 57} {
			if lo%8+w > 64 {
				continue
			}
			b := sir.NewBuilder("bits")
			v := b.Load(w, 8, sir.Addr{Home: 0})
			b.StoreBits(sir.Addr{Home: 1, Offset: 1}, lo, v)
			r := b.LoadBits(w, sir.Addr{Home: 1, Offset: 1}, lo)
			b.Store(8, sir.Addr{Home: 0, Offset: 8}, r)
			b.Return(sir.StatusOK)
			l, size := sir.PackedLayout([]int{16, 16}, 0)
			f := compile(t, b.U, l)
			state := make([]byte, size)
			for i := 16; i < 32; i++ {
				state[i] = 0xa5
			}
			val := uint64(0x0123456789abcdef) & sir.Mask(w)
			binary.LittleEndian.PutUint64(state, val)
			f.Run(state)
			for bit := 0; bit < 128; bit++ {
				got := state[16+bit/8] >> (bit % 8) & 1
				want := byte(0xa5) >> (bit % 8) & 1
				if fb := bit - 8 - lo; fb >= 0 && fb < w {
					want = byte(val >> fb & 1)
				}
				if got != want {
					t.Fatalf("lo %d w %d: bit %d of h1 = %d, want %d", lo, w, bit, got, want)
				}
			}
			if got := binary.LittleEndian.Uint64(state[8:]); got != val {
				t.Errorf("lo %d w %d: loadbits = %#x, want %#x", lo, w, got, val)
			}
		}
	}
}

// Loads truncate to the register width; stores zero-extend to Size bytes.
func TestLoadTruncStoreExtend(t *testing.T) {
	u := parse(t, `unit t
b0:
  r1:5 = load.4 h0+0
  store.8 h0+8, r1
  ret ok
`)
	l, size := sir.PackedLayout([]int{16}, 0)
	state := make([]byte, size)
	for i := range state {
		state[i] = 0xff
	}
	compile(t, u, l).Run(state)
	if got := binary.LittleEndian.Uint64(state[8:]); got != 0x1f {
		t.Errorf("got %#x, want 0x1f", got)
	}
}

func TestStatusAndGuards(t *testing.T) {
	loop := parse(t, `unit spin
b0:
  jump b0
`)
	l, size := sir.PackedLayout([]int{8}, 0)
	f, err := Compile(loop, l, Options{MaxSteps: 1000})
	if err != nil {
		t.Fatal(err)
	}
	if st := f.Run(make([]byte, size)); st != sir.StatusStepLimit {
		t.Errorf("infinite loop: status %v, want steplimit", st)
	}
	short := compile(t, parse(t, "unit s\nb0:\n  r1:8 = const 1\n  store.8 h0+4, r1\n  ret ok\n"), l)
	if short.MinState() != 12 {
		t.Errorf("MinState = %d, want 12", short.MinState())
	}
	if st := short.Run(make([]byte, 11)); st != sir.StatusBadState {
		t.Errorf("short state: status %v, want badstate", st)
	}
	fin := compile(t, parse(t, "unit f\nb0:\n  ret finish\n"), l)
	if st := fin.Run(make([]byte, size)); st != sir.StatusFinish {
		t.Errorf("status %v, want finish", st)
	}
	if _, err := Compile(parse(t, "unit m\nb0:\n  r1:8 = load.1 h7+0\n  ret ok\n"), l, Options{}); err == nil {
		t.Error("Compile accepted a home the layout does not place")
	}
	if _, err := Compile(parse(t, "unit m\nb0:\n  r1:8 = copy r1\n  ret ok\n"), l, Options{}); err == nil {
		t.Error("Compile accepted a unit Check rejects")
	}
}

func TestRunDoesNotAllocate(t *testing.T) {
	u := parse(t, `unit a
b0:
  r1:8 = load.1 h0+0
  r2:8 = add r1, r1
  store.1 h0+1, r2
  event display fmt=1 level=0 (r2:u8)
  ret ok
`)
	l, size := sir.PackedLayout([]int{8}, 1<<20)
	f := compile(t, u, l)
	state := make([]byte, size)
	sir.InitRing(state[8:], 1<<20)
	if n := testing.AllocsPerRun(100, func() { f.Run(state) }); n != 0 {
		t.Errorf("Run allocates %v times", n)
	}
}
