package statelayout

import (
	"math/big"
	"sort"
	"strings"
	"testing"

	"github.com/weft-hdl/weft/design"
	"github.com/weft-hdl/weft/elab"
	"github.com/weft-hdl/weft/hdl"
	"github.com/weft-hdl/weft/sir"
	"github.com/weft-hdl/weft/slt"
)

func build(t *testing.T, src string, opts Options) (*design.Design, *slt.Schedule, *Space) {
	t.Helper()
	st, fs, err := hdl.ParseString("t.sv", src)
	if err != nil {
		t.Fatal(err)
	}
	diags := hdl.NewDiagnostics(fs)
	d := elab.Elaborate(st, fs, elab.Options{}, diags)
	if d == nil || diags.ErrorCount() > 0 {
		t.Fatalf("elaborate: %v", diags.Err())
	}
	s, err := slt.Analyze(d, slt.Options{StageAll: true}) // every flop staged: the tests place staging objects
	if err != nil {
		t.Fatal(err)
	}
	sp, err := NewSpace(d, s, opts)
	if err != nil {
		t.Fatal(err)
	}
	return d, s, sp
}

const src = `
module m(input logic clk, input logic rst_n, input logic [3:0] a, output logic [15:0] q);
  logic       b1 = 1'b1;
  logic [8:0] b9 = 9'h1a5;
  logic [16:0] b17;
  logic [32:0] b33 = 33'h1_0000_0001;
  logic signed [63:0] b64 = -64'sd2;
  logic [64:0] b65 = {1'b1, 64'h8000_0000_0000_0001};
  logic [129:0] b130;
  logic [7:0] mem [0:4] = '{8'd1, 8'd2, 8'd3, 8'd4, 8'd5};
  logic [99:0] wmem [2][3];
  always_ff @(posedge clk or negedge rst_n)
    if (!rst_n) q <= 0;
    else begin
      q[7:0] <= {4'd0, a};
      b17 <= b17 + 1;
    end
  always_ff @(negedge clk) b130 <= {b130[128:0], a[0]};
endmodule`

func TestElemSize(t *testing.T) {
	for _, c := range []struct{ w, s int }{{1, 1}, {8, 1}, {9, 2}, {16, 2}, {17, 4}, {32, 4}, {33, 8}, {64, 8}, {65, 16}, {128, 16}, {129, 24}} {
		if got := ElemSize(c.w); got != c.s {
			t.Errorf("ElemSize(%d) = %d, want %d", c.w, got, c.s)
		}
	}
}

func TestPackedOffsets(t *testing.T) {
	d, s, sp := build(t, src, Options{RingCap: 100})
	scratch := sp.AddScratch("x", 8, 3)
	l := Packed(sp)
	if l.Offset(scratch.ID) < 0 {
		t.Fatal("scratch not placed")
	}
	type iv struct {
		lo, hi int
		name   string
	}
	var ivs []iv
	for _, o := range append(append([]*Object{}, sp.Objects()...), sp.Ring()) {
		off := l.Offset(o.ID)
		if off%o.Align != 0 {
			t.Errorf("%s at %d, not %d-aligned", o.Name, off, o.Align)
		}
		if o.Kind == KindHome || o.Kind == KindStaging {
			h := o.Home
			if o.ElemSize != ElemSize(h.Width) || o.Elems != h.Elems() {
				t.Errorf("%s: %d x %d bytes, want %d x %d", o.Name, o.Elems, o.ElemSize, h.Elems(), ElemSize(h.Width))
			}
			if want := min(ElemSize(h.Width), 8); o.Align != want {
				t.Errorf("%s: align %d, want %d", o.Name, o.Align, want)
			}
		}
		if l.Size(o.ID) != o.Size() {
			t.Errorf("Size(%s) = %d, want %d", o.Name, l.Size(o.ID), o.Size())
		}
		ivs = append(ivs, iv{off, off + o.Size(), o.Name})
	}
	sort.Slice(ivs, func(i, j int) bool { return ivs[i].lo < ivs[j].lo })
	for i := 1; i < len(ivs); i++ {
		if ivs[i].lo < ivs[i-1].hi {
			t.Errorf("%s [%d,%d) overlaps %s [%d,%d)", ivs[i].name, ivs[i].lo, ivs[i].hi, ivs[i-1].name, ivs[i-1].lo, ivs[i-1].hi)
		}
	}
	if last := ivs[len(ivs)-1]; last.hi > l.StateSize() || l.StateSize()%64 != 0 {
		t.Errorf("state size %d, last object ends at %d", l.StateSize(), last.hi)
	}
	// staging: q (bits 7:0 and the reset's whole home), b17 and b130
	for _, name := range []string{"q", "b17", "b130"} {
		h, _ := d.Lookup(name)
		st, ok := l.Staging(h)
		if !ok || st.Size != l.Home(h).Size {
			t.Errorf("%s: staging %+v ok=%v", name, st, ok)
		}
	}
	if h, _ := d.Lookup("b9"); sp.Staging(h) != nil {
		t.Errorf("b9 has a staging copy")
	}
	// one trigger byte per (bit, edge): posedge clk, negedge clk, negedge rst_n
	if len(sp.Events) != 3 || l.Triggers().Size != 3 || sp.Prev().Elems != len(s.Triggers) || len(s.Triggers) != 2 {
		t.Errorf("events %v, triggers %d", sp.Events, len(s.Triggers))
	}
	for i, ev := range sp.Events {
		if ev.Index != i || l.TriggerByte(i) != l.Triggers().Offset+i {
			t.Errorf("event %d: %+v", i, ev)
		}
	}
	if sp.RingCap() != 104 || l.Ring().Size != sir.RingHeaderSize+104 {
		t.Errorf("ring cap %d size %d", sp.RingCap(), l.Ring().Size)
	}
	var b strings.Builder
	l.Dump(&b)
	if !strings.Contains(b.String(), "m.b130$stage") {
		t.Errorf("dump:\n%s", b.String())
	}
}

func TestInitValues(t *testing.T) {
	d, _, sp := build(t, src, Options{})
	l := Packed(sp)
	state := make([]byte, l.StateSize())
	for i := range state {
		state[i] = 0xee // Init clears everything first
	}
	l.Init(state)
	get := func(name string, e int) *big.Int {
		h, ok := d.Lookup(name)
		if !ok {
			t.Fatalf("no %s", name)
		}
		return l.Get(state, h, e)
	}
	hexv := func(s string) *big.Int { v, _ := new(big.Int).SetString(s, 16); return v }
	checks := []struct {
		name string
		elem int
		want *big.Int
	}{
		{"b1", 0, big.NewInt(1)},
		{"b9", 0, big.NewInt(0x1a5)},
		{"b17", 0, big.NewInt(0)},
		{"b33", 0, hexv("100000001")},
		{"b64", 0, hexv("fffffffffffffffe")},
		{"b65", 0, hexv("18000000000000001")},
		{"mem", 0, big.NewInt(1)},
		{"mem", 4, big.NewInt(5)},
	}
	for _, c := range checks {
		if got := get(c.name, c.elem); got.Cmp(c.want) != 0 {
			t.Errorf("%s[%d] = %#x, want %#x", c.name, c.elem, got, c.want)
		}
	}
	// exact bytes: little-endian, padding zero
	h, _ := d.Lookup("b9")
	s := l.Home(h)
	if state[s.Offset] != 0xa5 || state[s.Offset+1] != 0x01 {
		t.Errorf("b9 bytes % x", state[s.Offset:s.Offset+2])
	}
	h, _ = d.Lookup("b65")
	s = l.Home(h)
	want := []byte{1, 0, 0, 0, 0, 0, 0, 0x80, 1, 0, 0, 0, 0, 0, 0, 0}
	if string(state[s.Offset:s.Offset+16]) != string(want) {
		t.Errorf("b65 bytes % x", state[s.Offset:s.Offset+16])
	}
	h, _ = d.Lookup("mem")
	s = l.Home(h)
	if string(state[s.Offset:s.Offset+5]) != "\x01\x02\x03\x04\x05" || s.ElemSize != 1 || s.Elems != 5 {
		t.Errorf("mem %+v bytes % x", s, state[s.Offset:s.Offset+5])
	}
	h, _ = d.Lookup("wmem")
	if s = l.Home(h); s.ElemSize != 16 || s.Elems != 6 {
		t.Errorf("wmem %+v", s)
	}
	// bit addressing
	h, _ = d.Lookup("b9")
	off, sh := l.Bit(h, 0, 8)
	if state[off]>>sh&1 != 1 || off != l.Home(h).Offset+1 || sh != 0 {
		t.Errorf("Bit(b9, 8) = %d, %d", off, sh)
	}
	// staging equals its home; non-state objects are zero; ring header
	h, _ = d.Lookup("b130")
	st, _ := l.Staging(h)
	hs := l.Home(h)
	if string(state[st.Offset:st.Offset+st.Size]) != string(state[hs.Offset:hs.Offset+hs.Size]) {
		t.Errorf("staging differs from home")
	}
	r := l.Ring()
	recs, dropped, err := sir.DecodeRing(state[r.Offset : r.Offset+r.Size])
	if err != nil || len(recs) != 0 || dropped != 0 {
		t.Errorf("ring: %v %d %v", recs, dropped, err)
	}
	// Set / Get round trip, masking to the width
	h, _ = d.Lookup("b33")
	l.Set(state, h, 0, hexv("3ffffffff"))
	if got := l.GetUint(state, h, 0); got != 0x1ffffffff {
		t.Errorf("b33 = %#x", got)
	}
	if s := l.Home(h); state[s.Offset+4] != 1 || state[s.Offset+5] != 0 {
		t.Errorf("padding bits of b33 not zero: % x", state[s.Offset:s.Offset+8])
	}
}

func TestSpaceErrors(t *testing.T) {
	_, s, _ := build(t, src, Options{})
	if _, err := NewSpace(nil, s, Options{}); err == nil {
		t.Error("nil design accepted")
	}
	if _, err := NewSpace(s.Design, s, Options{RingCap: -1}); err == nil {
		t.Error("negative ring capacity accepted")
	}
	other := &design.Home{ID: 0, Name: "x", Width: 1}
	if _, err := NewSpace(s.Design, s, Options{Stage: []*design.Home{other}}); err == nil {
		t.Error("foreign home accepted in Stage")
	}
	sp, _ := NewSpace(s.Design, s, Options{})
	Packed(sp)
	defer func() {
		if recover() == nil {
			t.Error("AddScratch after placement did not panic")
		}
	}()
	sp.AddScratch("late", 8, 1)
}
