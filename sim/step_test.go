package sim_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/weft-hdl/weft/compile"
	"github.com/weft-hdl/weft/sim"
)

func TestPosedgeNegedge(t *testing.T) {
	for _, noFused := range []bool{false, true} {
		b := build(t, `
module t(input logic clk, output logic [7:0] p, output logic [7:0] n, output logic [8:0] sum);
  initial begin p = 0; n = 0; end
  always_ff @(posedge clk) p <= p + 8'd1;
  always_ff @(negedge clk) n <= n + 8'd1;
  assign sum = p + n;
endmodule`, func(c *compile.Builder) { c.SimOptions(sim.Options{NoFused: noFused}) })
		b.set("clk", 1)
		b.step()
		b.expect("p", 1)
		b.expect("n", 0)
		b.step() // no change: no edge
		b.expect("p", 1)
		b.set("clk", 0)
		b.step()
		b.expect("n", 1)
		b.expect("sum", 2)
		b.tick("clk", 10)
		b.expect("p", 11)
		b.expect("n", 11)
		b.expect("sum", 22)
		if b.s.Time() != 20 {
			t.Errorf("time %d, want 20 (one per Tick edge)", b.s.Time())
		}
	}
}

func TestTwoClocksTogether(t *testing.T) {
	for _, noFused := range []bool{false, true} {
		b := build(t, `
module t(input logic a, input logic b, output logic [7:0] ca, output logic [7:0] cb, output logic [7:0] x);
  initial begin ca = 0; cb = 0; x = 0; end
  always_ff @(posedge a) ca <= ca + 8'd1;
  always_ff @(posedge b) cb <= cb + 8'd1;
  // reads the other domain's flop: must see the pre-edge value
  always_ff @(posedge b) x <= ca;
endmodule`, func(c *compile.Builder) { c.SimOptions(sim.Options{NoFused: noFused}) })
		b.set("a", 1)
		b.step()
		b.expect("ca", 1)
		b.expect("cb", 0)
		b.set("a", 0)
		b.step()
		// both clocks rise in the same step: both groups evaluate from
		// pre-edge state, then apply
		b.set("a", 1)
		b.set("b", 1)
		b.step()
		b.expect("ca", 2)
		b.expect("cb", 1)
		b.expect("x", 1)
	}
}

func TestAsyncResetMidCycle(t *testing.T) {
	b := build(t, `
module t(input logic clk, input logic rst_n, output logic [7:0] q);
  always_ff @(posedge clk or negedge rst_n)
    if (!rst_n) q <= 8'd0;
    else q <= q + 8'd1;
endmodule`)
	b.set("rst_n", 1)
	b.step()
	b.tick("clk", 5)
	b.expect("q", 5)
	b.set("clk", 1) // posedge
	b.step()
	b.expect("q", 6)
	b.set("rst_n", 0) // while clk is high: no clock edge, reset acts at once
	b.step()
	b.expect("q", 0)
	b.set("clk", 0)
	b.step()
	b.tick("clk", 3) // held in reset
	b.expect("q", 0)
	b.set("rst_n", 1) // release: no edge of interest
	b.step()
	b.expect("q", 0)
	b.tick("clk", 2)
	b.expect("q", 2)
}

func TestDerivedClock(t *testing.T) {
	for _, noFused := range []bool{false, true} {
		b := build(t, `
module t(input logic clk, input logic rst_n, output logic div, output logic [7:0] slow, output logic [7:0] fast, output logic [7:0] seen);
  always_ff @(posedge clk or negedge rst_n)
    if (!rst_n) div <= 1'b0; else div <= ~div;
  always_ff @(posedge clk or negedge rst_n)
    if (!rst_n) fast <= 8'd0; else fast <= fast + 8'd1;
  // clocked by the divided clock: sees fast after the clk edge that made div rise
  always_ff @(posedge div or negedge rst_n)
    if (!rst_n) begin slow <= 8'd0; seen <= 8'd0; end
    else begin slow <= slow + 8'd1; seen <= fast; end
endmodule`, func(c *compile.Builder) { c.SimOptions(sim.Options{NoFused: noFused}) })
		b.set("rst_n", 0)
		b.step()
		b.set("rst_n", 1)
		b.step()
		b.tick("clk", 1)
		b.expect("div", 1)
		b.expect("slow", 1)
		b.expect("seen", 1) // derived edge comes after the apply of clk's groups
		b.tick("clk", 9)
		b.expect("fast", 10)
		b.expect("slow", 5)
		b.expect("seen", 9)
	}
}

func TestGatedClockFromInput(t *testing.T) {
	// A comb clock gate: with the input settle, the gated clock fires in
	// the same round as clk (both from pre-edge state), like Verilog.
	b := build(t, `
module t(input logic clk, input logic en, output logic [7:0] a, output logic [7:0] g, output logic [7:0] ga);
  logic gclk;
  assign gclk = clk & en;
  initial begin a = 0; g = 0; ga = 0; end
  always_ff @(posedge clk) a <= a + 8'd1;
  always_ff @(posedge gclk) begin g <= g + 8'd1; ga <= a; end
endmodule`)
	b.set("en", 1)
	b.step()
	b.tick("clk", 3)
	b.expect("a", 3)
	b.expect("g", 3)
	b.expect("ga", 2)
	b.set("en", 0)
	b.step()
	b.tick("clk", 2)
	b.expect("a", 5)
	b.expect("g", 3)
}

func TestInputSettleBeforeEdge(t *testing.T) {
	// din and clk written together: the flop sees din's comb consequence.
	b := build(t, `
module t(input logic clk, input logic [7:0] din, output logic [7:0] q);
  logic [7:0] inc;
  assign inc = din + 8'd1;
  always_ff @(posedge clk) q <= inc;
endmodule`)
	b.set("din", 41)
	b.set("clk", 1)
	b.step()
	b.expect("q", 42)
}

func TestOscillation(t *testing.T) {
	b := build(t, `
module t(input logic kick, output logic q);
  logic c;
  assign c = q ^ kick;
  initial q = 0;
  always @(posedge c or negedge c) q <= ~q;
endmodule`, func(c *compile.Builder) { c.SimOptions(sim.Options{MaxRounds: 50}) })
	b.set("kick", 1)
	err := b.s.Step()
	var oe *sim.OscillationError
	if !errors.As(err, &oe) || !strings.Contains(err.Error(), "t.c") || !strings.Contains(err.Error(), "step 1") {
		t.Fatalf("err = %v, want an oscillation naming t.c at step 1", err)
	}
	t.Log(err)
	if err2 := b.s.Step(); err2 != err {
		t.Fatalf("after a failure Step returns %v, want the same error", err2)
	}
}

func TestNoSettle(t *testing.T) {
	b := build(t, `
module t(input logic en, output logic x);
  assign x = en ? ~x : 1'b0;
endmodule`)
	b.set("en", 1)
	err := b.s.Step()
	var se *sim.Error
	if !errors.As(err, &se) || se.Kernel != "settle" || se.Step != 1 {
		t.Fatalf("err = %#v, want a *sim.Error in settle at step 1", err)
	}
	t.Log(err)
	if !strings.Contains(err.Error(), "t.x") {
		t.Fatalf("err = %v, want it to name t.x", err)
	}
}

func TestClose(t *testing.T) {
	b := build(t, `
module t(input logic clk, input logic [7:0] d, output logic [7:0] q);
  always_ff @(posedge clk) q <= d;
endmodule`)
	h := b.home("d")
	clk := b.home("clk")
	if err := b.s.Close(); err != nil {
		t.Fatal(err)
	}
	if err := b.s.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
	if !b.s.Closed() {
		t.Fatal("Closed() false after Close")
	}
	for name, err := range map[string]error{
		"Step":     b.s.Step(),
		"SetInput": b.s.SetInput(h, 1),
		"Deposit":  b.s.Deposit(h, 0, 1),
		"SetTime":  b.s.SetTime(3),
		"SetMem":   b.s.SetMem(h, 0, nil),
	} {
		if !errors.Is(err, sim.ErrClosed) {
			t.Errorf("%s after Close: %v, want ErrClosed", name, err)
		}
	}
	if _, err := b.s.Get(h, 0); !errors.Is(err, sim.ErrClosed) {
		t.Errorf("Get after Close: %v", err)
	}
	if _, err := b.s.GetBig(h, 0); !errors.Is(err, sim.ErrClosed) {
		t.Errorf("GetBig after Close: %v", err)
	}
	if _, err := b.s.Tick(clk, 1); !errors.Is(err, sim.ErrClosed) {
		t.Errorf("Tick after Close: %v", err)
	}
}

func TestAccessErrors(t *testing.T) {
	b := build(t, `
module t(input logic clk, input logic [7:0] d, input logic [99:0] w, output logic [7:0] q, output logic [99:0] wq);
  logic [3:0] mem [0:3];
  always_ff @(posedge clk) begin q <= d; wq <= w; mem[d[1:0]] <= d[3:0]; end
endmodule`)
	if err := b.s.SetInput(b.home("d"), 256); err == nil || !strings.Contains(err.Error(), "t.d") {
		t.Errorf("oversize: %v", err)
	}
	if err := b.s.SetInput(b.home("q"), 1); err == nil || !strings.Contains(err.Error(), "t.q is not a top-level input") {
		t.Errorf("non-input: %v", err)
	}
	if err := b.s.Deposit(b.home("mem"), 4, 1); err == nil || !strings.Contains(err.Error(), "element 4") {
		t.Errorf("element: %v", err)
	}
	if _, err := b.s.Tick(b.home("d"), 1); err == nil || !strings.Contains(err.Error(), "1-bit") {
		t.Errorf("Tick on a byte: %v", err)
	}
	ws := []uint64{0x0123456789abcdef, 0xfedcba987}
	if err := b.s.SetInputWords(b.home("w"), 0, ws); err != nil {
		t.Fatal(err)
	}
	if err := b.s.SetInputWords(b.home("w"), 0, []uint64{0, 1 << 36}); err == nil {
		t.Error("101-bit value into 100 bits accepted")
	}
	b.set("d", 0x5a)
	b.tick("clk", 1)
	got, _ := b.s.GetWords(b.home("wq"), 0, nil)
	if len(got) != 2 || got[0] != ws[0] || got[1] != ws[1] {
		t.Errorf("wq = %x, want %x", got, ws)
	}
	m, _ := b.s.GetMem(b.home("mem"))
	if m[2] != 0xa {
		t.Errorf("mem = %v", m)
	}
	if err := b.s.SetMem(b.home("mem"), 0, []uint64{1, 2, 3, 4}); err != nil {
		t.Fatal(err)
	}
	if err := b.s.SetMem(b.home("mem"), 1, []uint64{1, 2, 3, 4}); err == nil {
		t.Error("SetMem past the end accepted")
	}
	if err := b.s.SetMem(b.home("mem"), 0, []uint64{16}); err == nil || !strings.Contains(err.Error(), "t.mem element 0") {
		t.Errorf("SetMem oversize: %v", err)
	}
}

func TestDepositFlop(t *testing.T) {
	// A deposited flop keeps its value; the next apply must not publish a
	// stale staging copy.
	b := build(t, `
module t(input logic clk, input logic en, output logic [7:0] q, output logic [7:0] q1);
  always_ff @(posedge clk) if (en) q <= q + 8'd1;
  assign q1 = q + 8'd1;
endmodule`)
	b.set("en", 1)
	b.tick("clk", 3)
	b.expect("q", 3)
	if err := b.s.Deposit(b.home("q"), 0, 100); err != nil {
		t.Fatal(err)
	}
	b.step()
	b.expect("q1", 101)
	b.set("en", 0)
	b.tick("clk", 2)
	b.expect("q", 100)
	b.set("en", 1)
	b.tick("clk", 1)
	b.expect("q", 101)
}
