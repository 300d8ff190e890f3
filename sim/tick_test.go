package sim_test

import (
	"bytes"
	"errors"
	"fmt"
	"github.com/weft-hdl/weft/internal/tier"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"github.com/weft-hdl/weft/compile"
	"github.com/weft-hdl/weft/internal/randdesign"
	"github.com/weft-hdl/weft/lanes"
	"github.com/weft-hdl/weft/selector"
	"github.com/weft-hdl/weft/sim"
)

// tickPair is one design built twice: a runs every edge through the step
// loop (DisableTick), b through its fused tick loops where it can, on the
// interpreter too (ForceTickLoops).
type tickPair struct {
	a, b       *compile.Program
	outA, outB *bytes.Buffer
}

func newTickPair(t *testing.T, mk func() *compile.Builder) *tickPair {
	t.Helper()
	tp := &tickPair{outA: &bytes.Buffer{}, outB: &bytes.Buffer{}}
	var err error
	if tp.a, err = mk().Output(tp.outA).Build(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tp.a.Close() })
	tp.a.Sim.DisableTick()
	if tp.b, err = mk().Output(tp.outB).Build(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tp.b.Close() })
	sim.ForceTickLoops(tp.b.Sim)
	return tp
}

// tick runs Tick(clk, n) on both and fails on any difference: cycles,
// outcome, output text, any home. It reports whether the run goes on.
func (tp *tickPair) tick(t *testing.T, clk string, n int, what string) bool {
	t.Helper()
	ha, _ := tp.a.Sim.Lookup(clk)
	hb, _ := tp.b.Sim.Lookup(clk)
	na, errA := tp.a.Sim.Tick(ha, n)
	nb, errB := tp.b.Sim.Tick(hb, n)
	if na != nb || fmt.Sprint(errA) != fmt.Sprint(errB) {
		t.Fatalf("%s: Tick(%s, %d): step loop %d, %v; tick loop %d, %v", what, clk, n, na, errA, nb, errB)
	}
	if tp.outA.String() != tp.outB.String() {
		t.Fatalf("%s: output differs:\n%s", what, lineDiff(tp.outA.String(), tp.outB.String()))
	}
	if err := sim.Compare(tp.b.Sim, tp.a.Sim); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	if tp.a.Sim.Time() != tp.b.Sim.Time() || tp.a.Sim.Steps() != tp.b.Sim.Steps() {
		t.Fatalf("%s: time %d/%d, steps %d/%d", what, tp.a.Sim.Time(), tp.b.Sim.Time(), tp.a.Sim.Steps(), tp.b.Sim.Steps())
	}
	return errA == nil
}

// TestTickLoopCorpus runs every corpus design to its $finish with Tick
// calls of random length, through the step loop and through the fused
// tick loops, comparing after every call.
func TestTickLoopCorpus(t *testing.T) {
	designs, err := filepath.Glob(filepath.Join(corpusDir, "*.sv"))
	if err != nil {
		t.Fatal(err)
	}
	used := 0
	for i, path := range designs {
		name := strings.TrimSuffix(filepath.Base(path), ".sv")
		for _, be := range []compile.BackendKind{compile.BackendInterp, compile.BackendNative} {
			tp := newTickPair(t, func() *compile.Builder {
				return compile.NewBuilder().Files(path).Top("t").Backend(be)
			})
			if tp.a.Sim.Finished() {
				continue
			}
			r := rand.New(rand.NewPCG(uint64(i), 3))
			for cyc := 0; cyc < corpusMaxCycles; {
				n := 1 + r.IntN(40)
				if !tp.tick(t, "clk", n, fmt.Sprintf("%s/%v after %d cycles", name, be, cyc)) {
					break
				}
				cyc += n
			}
			if tp.b.Sim.TickCalls() > 0 {
				used++
			}
		}
	}
	if used < len(designs)/2 {
		t.Errorf("the tick loop ran for only %d of %d design×backend runs", used, 2*len(designs))
	}
}

// TestTickLoopRandom drives random designs (two clocks, an asynchronous
// reset, data inputs) with random input writes between Tick calls of
// random length on either clock: pending writes must send the next edge
// through the step loop, and everything must match it.
func TestTickLoopRandom(t *testing.T) {
	seeds := tier.Pick(3, 6)
	used := 0
	for seed := range uint64(seeds) {
		d := randdesign.Generate(1000+seed, randOptions)
		for _, be := range []compile.BackendKind{compile.BackendInterp, compile.BackendNative} {
			what := fmt.Sprintf("seed %d/%v", 1000+seed, be)
			tp := newTickPair(t, func() *compile.Builder {
				return compile.NewBuilder().Source("rand.sv", d.Source).Top(d.Top).Backend(be)
			})
			r := rand.New(rand.NewPCG(seed, 9))
			set := func(name string, v uint64) {
				for _, p := range []*compile.Program{tp.a, tp.b} {
					p.DUT().MustSignal(name).Set(v)
				}
			}
			for call := 0; call < 60; call++ {
				switch r.IntN(4) {
				case 0:
					for _, in := range d.Inputs {
						set(in.Name, r.Uint64()&(1<<min(in.Width, 63)-1))
					}
				case 1:
					for _, rst := range d.Resets {
						set(rst, uint64(r.IntN(2)))
					}
				}
				clk := d.Clocks[r.IntN(len(d.Clocks))]
				if !tp.tick(t, clk, 1+r.IntN(30), fmt.Sprintf("%s call %d", what, call)) {
					break
				}
			}
			if tp.b.Sim.TickCalls() > 0 {
				used++
			}
		}
	}
	if used == 0 {
		t.Error("no random design used a tick loop")
	}
	t.Logf("tick loops ran in %d of %d runs", used, 2*seeds)
}

// TestTickLoopFinishMidBatch: a $finish in the middle of a batch ends the
// Tick call at that edge, as the step loop does.
func TestTickLoopFinishMidBatch(t *testing.T) {
	src := `module t(input logic clk, output logic [15:0] n);
  always_ff @(posedge clk) begin
    n <= n + 16'd1;
    if (n == 16'd1234) $finish;
    if (n[6:0] == 7'd0) $display("n=%0d", n);
  end
endmodule`
	tp := newTickPair(t, func() *compile.Builder { return compile.NewBuilder().Source("t.sv", src).Top("t") })
	if tp.tick(t, "clk", 5000, "finish") {
		t.Fatal("no $finish")
	}
	var fe *sim.FinishError
	if _, err := tp.b.Sim.Tick(tp.b.DUT().MustSignal("clk").Home(), 1); !errors.As(err, &fe) {
		t.Errorf("after $finish: %v", err)
	}
	if tp.b.Sim.TickCalls() < 2 {
		t.Errorf("%d tick-loop calls: the $display lines should have split the run", tp.b.Sim.TickCalls())
	}
	if got := tp.b.DUT().MustSignal("n").Get(); got != 1235 {
		t.Errorf("n = %d", got)
	}
}

// TestTickLoopWithSelector: with partitioned alternatives in auto mode (the
// sixteen cores on two lanes), the
// tick loop runs the sequential kernels while the selector has decided for
// them, hands the edges back for each re-check, and the run matches a
// sequential one.
func TestTickLoopWithSelector(t *testing.T) {
	// A margin no partition can beat: the selector keeps the sequential
	// kernel after every measurement.
	pol := selector.Policy{BlockCalls: 8, WarmupCalls: 2, Rounds: 2, KeepRatio: 1e-9, FirstRecheck: 100, MaxRecheck: 400}
	for _, be := range []compile.BackendKind{compile.BackendInterp, compile.BackendNative} {
		auto, err := lanesDesigns[0].build().Backend(be).Lanes(2).SyncCost(lanes.SyncCostNative).
			SimOptions(sim.Options{SelectorPolicy: &pol, AttachWait: true}).Output(&bytes.Buffer{}).Build()
		if err != nil {
			t.Fatal(err)
		}
		defer auto.Close()
		if len(auto.Program.Parallel.Kernels()) == 0 {
			t.Fatal("nothing partitioned")
		}
		seq, err := lanesDesigns[0].build().Backend(be).Output(&bytes.Buffer{}).Build()
		if err != nil {
			t.Fatal(err)
		}
		defer seq.Close()
		sim.ForceTickLoops(auto.Sim)
		for _, p := range []*compile.Program{auto, seq} {
			lanesDesigns[0].setup(&bench{t: t, p: p, s: p.Sim})
			if _, err := p.Sim.Tick(p.DUT().MustSignal("clk").Home(), 3000); err != nil {
				t.Fatal(err)
			}
		}
		if err := sim.Compare(auto.Sim, seq.Sim); err != nil {
			t.Fatalf("%v: %v", be, err)
		}
		if auto.Sim.TickCalls() == 0 {
			t.Errorf("%v: the tick loop never ran", be)
		}
		var calls, par uint64
		for _, st := range auto.Sim.ParallelStats() {
			calls += st.Calls
			par += st.Parallel
		}
		// Every cycle is a call of the posedge slot; the partitioned
		// kernel, here the tick loop's free-running lanes, ran only while
		// measuring: a warm-up of 2 and 2 rounds of 8 calls of 64 edges
		// (576 cycles); the re-check, 100 calls later, would come after
		// the run's 94.
		if calls < 3000 || par == 0 || par > 18*32 {
			t.Errorf("%v: %d calls, %d partitioned: %v %+v", be, calls, par, auto.Sim.ParallelStats(), auto.Sim.LaneTickStats())
		}
	}
}

// derivedTriggersSrc has the derived triggers real designs have: a reset
// synchronizer (asynchronous assert, released on the clock), a clock
// divided by two and one divided by eight, a $display at the edge that
// releases the reset, and a gated clock comb logic builds from the clock
// in a second module (where no tick loop may be built).
const derivedTriggersSrc = `
module t(input logic clk, input logic rst_n, output logic [31:0] q);
  logic [1:0] sync;
  always_ff @(posedge clk or negedge rst_n)
    if (!rst_n) sync <= 2'b00; else sync <= {sync[0], 1'b1};
  logic rst_s;
  assign rst_s = sync[1];
  always_ff @(posedge clk) if (rst_n && sync == 2'b01) $display("release at %0t", $time);
  logic div;
  always_ff @(posedge clk or negedge rst_s)
    if (!rst_s) div <= 1'b0; else div <= ~div;
  logic [31:0] a, b;
  always_ff @(posedge clk or negedge rst_s)
    if (!rst_s) a <= 32'd1; else a <= a * 32'd3 + 32'd7;
  always_ff @(posedge div or negedge rst_s)
    if (!rst_s) b <= '0; else b <= b + a;
  logic [2:0] cnt;
  always_ff @(posedge clk) cnt <= cnt + 3'd1;
  logic slow;
  assign slow = cnt[2];
  logic [7:0] c;
  always_ff @(negedge slow) begin
    c <= c + 8'd1;
    if (c[4:0] == 5'd31) $display("c wrapped at %0t", $time);
  end
  assign q = a ^ b ^ {24'b0, c};
endmodule

module g(input logic clk, input logic en, input logic rst_n, output logic [7:0] n);
  logic [1:0] sync;
  always_ff @(posedge clk or negedge rst_n)
    if (!rst_n) sync <= 2'b00; else sync <= {sync[0], 1'b1};
  logic gclk;
  assign gclk = clk & en & sync[1];
  always_ff @(posedge gclk) n <= n + 8'd1;
endmodule
`

// TestTickLoopDerivedTriggers: designs whose clock edges change triggers
// the design writes run in the tick loop, hand each such edge back for the
// derived trigger's round, and match the step loop after every call,
// resets asserted and released on the way; a clock comb logic reads gets
// no tick loop when derived triggers exist.
func TestTickLoopDerivedTriggers(t *testing.T) {
	for _, be := range []compile.BackendKind{compile.BackendInterp, compile.BackendNative} {
		tp := newTickPair(t, func() *compile.Builder {
			return compile.NewBuilder().Source("t.sv", derivedTriggersSrc).Top("t").Backend(be)
		})
		set := func(name string, v uint64) {
			for _, p := range []*compile.Program{tp.a, tp.b} {
				p.DUT().MustSignal(name).Set(v)
			}
		}
		r := rand.New(rand.NewPCG(7, uint64(be)))
		set("rst_n", 0)
		tp.tick(t, "clk", 3, "in reset")
		set("rst_n", 1)
		for call := 0; call < 80; call++ {
			if call == 40 {
				set("rst_n", 0)
				tp.tick(t, "clk", 2, "reset again")
				set("rst_n", 1)
			}
			tp.tick(t, "clk", 1+r.IntN(60), fmt.Sprintf("%v call %d", be, call))
		}
		if be == compile.BackendNative && tp.b.Sim.TickCalls() < 40 {
			t.Errorf("%v: %d tick-loop calls", be, tp.b.Sim.TickCalls())
		}
		if !strings.Contains(tp.outB.String(), "release at") || !strings.Contains(tp.outB.String(), "c wrapped") {
			t.Errorf("%v: output %q", be, tp.outB.String())
		}

		gp := newTickPair(t, func() *compile.Builder {
			return compile.NewBuilder().Source("t.sv", derivedTriggersSrc).Top("g").Backend(be)
		})
		for _, p := range []*compile.Program{gp.a, gp.b} {
			p.DUT().MustSignal("rst_n").Set(0)
			p.DUT().MustSignal("en").Set(1)
		}
		gp.tick(t, "clk", 2, "g in reset")
		for _, p := range []*compile.Program{gp.a, gp.b} {
			p.DUT().MustSignal("rst_n").Set(1)
		}
		gp.tick(t, "clk", 100, "g")
		if gp.b.Sim.TickCalls() != 0 {
			t.Errorf("%v: a gated clock design ran %d tick-loop calls", be, gp.b.Sim.TickCalls())
		}
		if n := gp.b.DUT().MustSignal("n").Get(); n < 90 {
			t.Errorf("%v: gated counter %d", be, n)
		}
	}
}
