package dut_test

import (
	"errors"
	"io"
	"math/big"
	"strings"
	"testing"

	"github.com/weft-hdl/weft/compile"
	"github.com/weft-hdl/weft/dut"
	"github.com/weft-hdl/weft/sim"
)

const src = `
module leaf #(parameter int W = 8) (input logic clk, input logic [W-1:0] din, output logic [W-1:0] dout);
  logic [W-1:0] state;
  always_ff @(posedge clk) state <= din;
  assign dout = state;
endmodule
module top(input logic clk, input logic [7:0] din, input logic signed [7:0] sdin,
           input logic [99:0] wide_in, output logic [99:0] wide_out,
           output logic [7:0] dout, output logic signed [7:0] sout);
  logic [15:0] mem [0:7];
  logic [3:0] grid [1:2][0:2];
  leaf u_leaf (.clk(clk), .din(din), .dout(dout));
  assign sout = sdin;
  assign wide_out = wide_in;
  always_ff @(posedge clk) mem[din[2:0]] <= {8'd0, din};
  for (genvar i = 0; i < 2; i++) begin : g
    leaf #(.W(4)) u_l (.clk(clk), .din(din[3:0]), .dout());
  end
endmodule`

func newDUT(t *testing.T) (*dut.DUT, *compile.Program) {
	t.Helper()
	p, err := compile.NewBuilder().Source("top.sv", src).Output(io.Discard).Build()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	return p.DUT(), p
}

func TestHandles(t *testing.T) {
	d, p := newDUT(t)
	din := d.MustSignal("din")
	if din.Width() != 8 || din.Signed() || !din.IsInput() || din.Path() != "top.din" {
		t.Fatalf("din: width %d signed %v input %v path %s", din.Width(), din.Signed(), din.IsInput(), din.Path())
	}
	if err := din.Set(0x5a); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Sim.Tick(d.MustSignal("clk").Home(), 1); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"dout", "top.dout", "u_leaf.state", "top.u_leaf.state", "u_leaf.dout", "u_leaf.din"} {
		sig, err := d.Signal(name)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if sig.Get() != 0x5a {
			t.Errorf("%s = %#x, want 0x5a", name, sig.Get())
		}
	}
	// signed
	sd := d.MustSignal("sdin")
	if err := sd.SetSigned(-5); err != nil {
		t.Fatal(err)
	}
	p.Sim.Step()
	if got := d.MustSignal("sout").GetSigned(); got != -5 {
		t.Errorf("sout = %d, want -5", got)
	}
	if got := d.MustSignal("sout").Get(); got != 0xfb {
		t.Errorf("sout bits = %#x", got)
	}
	// wide
	w := new(big.Int).Lsh(big.NewInt(3), 98)
	w.Add(w, big.NewInt(7))
	if err := d.MustSignal("wide_in").SetBig(w); err != nil {
		t.Fatal(err)
	}
	p.Sim.Step()
	if got := d.MustSignal("wide_out").GetBig(); got.Cmp(w) != 0 {
		t.Errorf("wide_out = %x, want %x", got, w)
	}
	// memory
	mem := d.MustSignal("mem")
	if !mem.IsArray() || mem.Len() != 8 {
		t.Fatalf("mem: array %v len %d", mem.IsArray(), mem.Len())
	}
	if v, err := mem.Peek(2); err != nil || v != 0x5a {
		t.Errorf("mem[2] = %#x, %v", v, err)
	}
	if err := mem.Poke(7, 0xbeef); err != nil {
		t.Fatal(err)
	}
	if v := d.MustSignal("mem[7]").Get(); v != 0xbeef {
		t.Errorf("mem[7] = %#x", v)
	}
	if err := mem.Load([]uint64{1, 2, 3}); err != nil {
		t.Fatal(err)
	}
	if ws, _ := mem.Words(); ws[0] != 1 || ws[2] != 3 || ws[7] != 0xbeef {
		t.Errorf("mem = %x", ws)
	}
	e, err := d.MustSignal("grid").Elem(2, 1)
	if err != nil {
		t.Fatal(err)
	}
	if err := e.Deposit(9); err != nil {
		t.Fatal(err)
	}
	if v := d.MustSignal("grid[2][1]").Get(); v != 9 || e.Path() != "top.grid[2][1]" {
		t.Errorf("grid[2][1] = %d (%s)", v, e.Path())
	}
	// any width as words, least significant first
	ws := []uint64{0x0123456789abcdef, 0xf}
	if err := d.MustSignal("wide_in").SetWords(ws); err != nil {
		t.Fatal(err)
	}
	p.Sim.Step()
	if got := d.MustSignal("wide_out").GetBig().Text(16); got != "f0123456789abcdef" {
		t.Errorf("wide_out after SetWords = %s", got)
	}
	if err := d.MustSignal("mem[3]").DepositWords([]uint64{0x77}); err != nil {
		t.Fatal(err)
	}
	if err := d.MustSignal("mem[4]").DepositBig(big.NewInt(0x88)); err != nil {
		t.Fatal(err)
	}
	if v, _ := mem.Peek(3); v != 0x77 {
		t.Errorf("mem[3] = %#x", v)
	}
	if v, _ := mem.Peek(4); v != 0x88 {
		t.Errorf("mem[4] = %#x", v)
	}
	// Deposit on an internal flop
	st := d.MustSignal("u_leaf.state")
	if err := st.Deposit(0x11); err != nil {
		t.Fatal(err)
	}
	p.Sim.Step()
	if d.MustSignal("dout").Get() != 0x11 {
		t.Errorf("dout after Deposit = %#x", d.MustSignal("dout").Get())
	}
}

func TestHierarchy(t *testing.T) {
	d, _ := newDUT(t)
	top := d.Top()
	if top.Module() != "top" || top.Parent() != nil {
		t.Fatalf("top: %s", top.Module())
	}
	var kids []string
	for _, c := range top.Children() {
		kids = append(kids, c.Path())
	}
	if k := strings.Join(kids, " "); len(kids) != 3 || !strings.Contains(k, "top.u_leaf") || !strings.Contains(k, "top.g[1].u_l") {
		t.Errorf("children: %v", kids)
	}
	sc, err := d.Scope("u_leaf")
	if err != nil {
		t.Fatal(err)
	}
	sigs := strings.Join(sc.Signals(), " ")
	for _, want := range []string{"clk", "din", "dout", "state"} {
		if !strings.Contains(" "+sigs+" ", " "+want+" ") {
			t.Errorf("u_leaf signals %q lack %s", sigs, want)
		}
	}
	if sig, err := sc.Signal("state"); err != nil || sig.Home().Path != "top.u_leaf.state" {
		t.Errorf("relative lookup: %v", err)
	}
	if len(d.Signals()) < 10 {
		t.Errorf("Signals: %v", d.Signals())
	}
	if _, err := d.Scope("u_leef"); err == nil || !strings.Contains(err.Error(), `"u_leef"`) || !strings.Contains(err.Error(), "u_leaf") {
		t.Errorf("unknown scope: %v", err)
	}
}

func TestErrors(t *testing.T) {
	d, p := newDUT(t)
	check := func(what string, err error, parts ...string) {
		t.Helper()
		if err == nil {
			t.Errorf("%s: no error", what)
			return
		}
		for _, part := range parts {
			if !strings.Contains(err.Error(), part) {
				t.Errorf("%s: %q lacks %q", what, err, part)
			}
		}
	}
	_, err := d.Signal("u_leaf.stat")
	check("unknown", err, `"u_leaf.stat"`, `did you mean "u_leaf.state"`)
	var ue *dut.UnknownError
	if !errors.As(err, &ue) {
		t.Errorf("unknown: %T", err)
	}
	_, err = d.Signal("no_such_thing_at_all")
	check("unknown, nothing close", err, `no signal "no_such_thing_at_all"`)
	_, err = d.Signal("mem[8]")
	check("index", err, "mem", "index 8 out of range [0:7]")
	_, err = d.Signal("din[3]")
	check("bit select", err, "din", "not an array")
	_, err = d.MustSignal("grid").Elem(1)
	check("dims", err, "grid", "2 unpacked dimensions")

	check("set oversize", d.MustSignal("din").Set(256), "din", "256", "does not fit in 8 bits")
	check("set big oversize", d.MustSignal("wide_in").SetBig(new(big.Int).Lsh(big.NewInt(1), 100)), "wide_in", "does not fit in 100 bits")
	check("set big negative", d.MustSignal("din").SetBig(big.NewInt(-1)), "din", "does not fit")
	check("set signed", d.MustSignal("sdin").SetSigned(128), "sdin", "128", "does not fit")
	check("set signed unsigned", d.MustSignal("din").SetSigned(-1), "din", "-1")
	check("set output", d.MustSignal("dout").Set(1), "dout", "not a top-level input", "use Deposit")
	check("set internal", d.MustSignal("u_leaf.state").Set(1), "u_leaf.state", "not a top-level input")
	// a child port connected straight to a top input is that input
	if err := d.MustSignal("u_leaf.din").Set(1); err != nil {
		t.Errorf("set through a port alias: %v", err)
	}
	check("deposit oversize", d.MustSignal("u_leaf.state").Deposit(1<<8), "u_leaf.state", "does not fit")
	check("deposit array", d.MustSignal("mem").Deposit(1), "mem", "is an array")
	check("set words oversize", d.MustSignal("wide_in").SetWords([]uint64{0, 1 << 36}), "wide_in", "does not fit in 100 bits")
	check("set words extra", d.MustSignal("din").SetWords([]uint64{1, 1}), "din", "does not fit in 8 bits")
	_, err = d.MustSignal("mem").Value()
	check("value array", err, "mem", "is an array")
	_, err = d.MustSignal("mem").Peek(8)
	check("peek range", err, "mem", "index 8 out of range")
	check("poke oversize", d.MustSignal("mem").Poke(1, 1<<16), "mem", "does not fit word 1")
	check("load too many", d.MustSignal("mem").Load(make([]uint64, 9)), "mem", "9 values")
	check("load oversize", d.MustSignal("mem").Load([]uint64{0, 1 << 20}), "mem", "does not fit in 16 bits")
	_, err = d.MustSignal("din").Peek(0)
	check("peek scalar", err, "din", "not an array")
	_, err = d.MustSignal("grid").Peek(1)
	check("peek 2-d", err, "grid", "Elem")

	func() {
		defer func() {
			r := recover()
			if r == nil || !strings.Contains(r.(error).Error(), "nope") {
				t.Errorf("MustSignal panic: %v", r)
			}
		}()
		d.MustSignal("nope")
	}()

	din := d.MustSignal("din")
	p.Close()
	_, err = din.Value()
	check("closed", err, "din", "closed")
	if !errors.Is(err, sim.ErrClosed) {
		t.Errorf("closed: %v is not ErrClosed", err)
	}
	check("closed set", din.Set(1), "din", "closed")
	if din.Get() != 0 || din.GetBig().Sign() != 0 {
		t.Error("Get after Close is not 0")
	}
}

// TestWritesDoNotAllocate: a test bench writes inputs every cycle, so the
// writes of at most 64 bits must not allocate.
func TestWritesDoNotAllocate(t *testing.T) {
	d, _ := newDUT(t)
	din, st, mem := d.MustSignal("din"), d.MustSignal("u_leaf.state"), d.MustSignal("mem")
	v := uint64(0)
	allocs := testing.AllocsPerRun(100, func() {
		v = (v + 1) & 0xff
		if din.Set(v) != nil || st.Deposit(v) != nil || mem.Poke(2, v) != nil {
			t.Fatal("write failed")
		}
	})
	if allocs != 0 {
		t.Errorf("%v allocations per Set, Deposit and Poke", allocs)
	}
}

// BenchmarkSetInput64 measures Signal.Set on an 8-bit top-level input,
// the write a test bench makes most; it must not allocate.
func BenchmarkSetInput64(b *testing.B) {
	p, err := compile.NewBuilder().Source("top.sv", src).Output(io.Discard).Build()
	if err != nil {
		b.Fatal(err)
	}
	defer p.Close()
	din := p.DUT().MustSignal("din")
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		if err := din.Set(uint64(i) & 0xff); err != nil {
			b.Fatal(err)
		}
	}
}
