package sim_test

import (
	"bytes"
	"fmt"
	"github.com/weft-hdl/weft/internal/tier"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/weft-hdl/weft/compile"
	"github.com/weft-hdl/weft/internal/randdesign"
	"github.com/weft-hdl/weft/sim"
)

// laneTickSrc is a design whose cores never exchange data: each lane
// can run a whole batch of edges alone. sum and mixd read every core
// (sinks: no flop reads them), so they are settled after each batch.
// EDGE is replaced by posedge or negedge, CORE and EXTRA by more logic in
// each core and at the top.
const laneTickSrc = `
module lt_core #(parameter logic [15:0] SEED = 16'd1) (
    input logic clk, input logic rst_n, input logic [7:0] in, output logic [15:0] acc);
  logic [15:0] x, y, t1, mix;
  logic [3:0] cnt;
  assign t1 = x ^ {in, in};
  always_comb mix = t1 + (y << 1) + 16'(cnt);
  always_ff @(EDGE clk or negedge rst_n)
    if (!rst_n) begin
      x <= SEED; y <= 16'd0; acc <= 16'd0; cnt <= 4'd0;
    end else begin
      x <= mix; y <= x + SEED; cnt <= cnt + 4'd1;
      if (cnt == 4'd9) acc <= acc ^ mix; else acc <= acc + mix;
    end
CORE
endmodule

module lt_top #(parameter int N = 6) (
    input logic clk, input logic rst_n, input logic [7:0] in,
    output logic [15:0] sum, output logic [15:0] mixd);
  logic [15:0] accs [N];
  for (genvar i = 0; i < N; i++) begin : g
    lt_core #(.SEED(16'(i * 37 + 5))) c (.clk, .rst_n, .in, .acc(accs[i]));
  end
  always_comb begin
    sum = 16'd0;
    for (int i = 0; i < N; i++) sum = sum + accs[i];
  end
  assign mixd = sum ^ accs[0];
EXTRA
endmodule
`

func laneTickDesign(edge, core, extra string) string {
	return strings.NewReplacer("EDGE", edge, "CORE", core, "EXTRA", extra).Replace(laneTickSrc)
}

// laneTickPair builds src for two lanes (mode) and for one.
func laneTickPair(t *testing.T, src string, be compile.BackendKind, mode compile.PartitionMode) (lanes, seq *bench) {
	t.Helper()
	lanes = build(t, src, func(b *compile.Builder) { b.Backend(be).Lanes(2).Partition(mode).SyncCost(600) })
	seq = build(t, src, func(b *compile.Builder) { b.Backend(be) })
	for _, b := range []*bench{lanes, seq} {
		sim.ForceTickLoops(b.s)
		b.set("rst_n", 0)
		b.step()
		b.set("rst_n", 1)
		b.set("in", 0x5a)
		b.step()
	}
	if err := lanes.s.WaitParallel(); err != nil {
		t.Fatal(err)
	}
	return lanes, seq
}

// TestLaneTickEqualsSequential: a tick loop whose lanes run free leaves
// every signal, $time and the step count as the sequential run does,
// after batches of odd and even length, from either clock level, with
// inputs written and half cycles stepped between them, on both backends
// and for a rising and a falling clock.
func TestLaneTickEqualsSequential(t *testing.T) {
	for _, be := range []compile.BackendKind{compile.BackendInterp, compile.BackendNative} {
		for _, edge := range []string{"posedge", "negedge"} {
			t.Run(be.String()+"/"+edge, func(t *testing.T) {
				lanes, seq := laneTickPair(t, laneTickDesign(edge, "", ""), be, compile.PartitionAlways)
				if lts := lanes.p.Program.Parallel.Ticks; len(lts) == 0 || lts[0] == nil {
					t.Fatalf("no lane tick: %q", lanes.p.Program.Parallel.Reasons)
				}
				sim.SetLaneBatch(lanes.s, 3)
				r := rand.New(rand.NewPCG(1, 2))
				for round := range 60 {
					in, n := uint64(r.IntN(256)), 1+r.IntN(40)
					for _, b := range []*bench{lanes, seq} {
						b.set("in", in)
						switch round % 7 {
						case 3: // half a cycle by hand: the next batch starts from the other level
							b.set("clk", b.get("clk")^1)
							b.step()
						case 5:
							b.step()
						}
						b.tick("clk", n)
					}
					if err := sim.Compare(lanes.s, seq.s); err != nil {
						t.Fatalf("round %d: %v", round, err)
					}
					if lanes.s.Time() != seq.s.Time() || lanes.s.Steps() != seq.s.Steps() {
						t.Fatalf("round %d: time %d steps %d, sequential time %d steps %d", round, lanes.s.Time(), lanes.s.Steps(), seq.s.Time(), seq.s.Steps())
					}
				}
				st := lanes.s.LaneTickStats()
				if len(st) != 1 || st[0].Batches < 60 || st[0].Edges < 1000 {
					t.Errorf("the lanes ran too little: %+v", st)
				}
			})
		}
	}
}

// TestLaneTickRefused: where lanes cannot run a batch alone, the clock's
// tick loop gets no free-running lanes, the plan says why, and the run
// still equals the sequential one.
func TestLaneTickRefused(t *testing.T) {
	for _, c := range []struct {
		name, core, extra, why string
	}{
		{"a flop reads every core", "", "logic [15:0] chk;\n  always_ff @(posedge clk) chk <= sum;", "1 independent islands of logic for 2 lanes"},
		{"runtime events", "always_ff @(posedge clk) if (acc == 16'h1234) $display(\"hit %m\");", "", "runtime events"},
		{"comb reads the clock", "", "logic gated;\n  assign gated = clk & rst_n;", "comb logic reads the clock"},
		{"derived clock", "", "logic div;\n  logic [3:0] dc;\n  always_ff @(posedge clk) div <= ~div;\n  always_ff @(posedge div) dc <= dc + 4'd1;", "derived triggers"},
	} {
		t.Run(c.name, func(t *testing.T) {
			lanes, seq := laneTickPair(t, laneTickDesign("posedge", c.core, c.extra), compile.BackendNative, compile.PartitionAlways)
			par := lanes.p.Program.Parallel
			for i, tk := range lanes.p.Program.Ticks {
				if lanes.p.Program.Signals[tk.Clock].Name == "clk" && i < len(par.Ticks) && par.Ticks[i] != nil {
					t.Fatalf("the clock has free-running lanes")
				}
			}
			found := false
			for _, r := range par.Reasons {
				found = found || strings.HasPrefix(r, "tick lt_top.clk: ") && strings.Contains(r, c.why)
			}
			if !found {
				t.Errorf("no reason %q among %q", c.why, par.Reasons)
			}
			for _, b := range []*bench{lanes, seq} {
				b.tick("clk", 300)
			}
			if err := sim.Compare(lanes.s, seq.s); err != nil {
				t.Fatal(err)
			}
			if st := lanes.s.LaneTickStats(); len(st) != 0 {
				t.Errorf("lanes ran: %+v", st)
			}
		})
	}
}

// TestLaneTickAuto: in auto mode the lanes attach after the background
// build and compete with the sequential tick loop through their own
// selector (measured in blocks of whole batches); whatever it picks, the
// run equals the sequential one.
func TestLaneTickAuto(t *testing.T) {
	lanes, seq := laneTickPair(t, laneTickDesign("posedge", "", ""), compile.BackendNative, compile.PartitionAuto)
	for round := range 5 {
		for _, b := range []*bench{lanes, seq} {
			b.set("in", uint64(round*17))
			b.tick("clk", 4000)
		}
		if err := sim.Compare(lanes.s, seq.s); err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
	}
	st := lanes.s.LaneTickStats()
	if len(st) != 1 || st[0].Batches == 0 || !strings.Contains(st[0].Selector, "of 2") || strings.Contains(st[0].Selector, " 0 checks") {
		t.Errorf("the lanes were not measured: %+v", st)
	}
}

// TestLaneTickUART: the UART's transmitter and receiver are islands of
// their own; with the bench looping txd back into rxd a few cycles at a
// time and pushing and popping characters, the free-running lanes leave
// every signal as the sequential run does.
func TestLaneTickUART(t *testing.T) {
	mk := func(lanes int, mode compile.PartitionMode) *bench {
		p, err := uartBuilder().Backend(compile.BackendNative).Lanes(lanes).Partition(mode).Output(&bytes.Buffer{}).Build()
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { p.Close() })
		bb := &bench{t: t, p: p, s: p.Sim}
		uartSetup(bb)
		return bb
	}
	lanes, seq := mk(2, compile.PartitionAlways), mk(1, compile.PartitionAuto)
	if lts := lanes.p.Program.Parallel.Ticks; len(lts) == 0 || lts[0] == nil {
		t.Fatalf("no lane tick: %q", lanes.p.Program.Parallel.Reasons)
	}
	r := rand.New(rand.NewPCG(3, 4))
	received := 0
	for round := range 400 {
		data, valid, ready, n := uint64(r.IntN(256)), uint64(r.IntN(2)), uint64(r.IntN(2)), 1+r.IntN(12)
		for _, b := range []*bench{lanes, seq} {
			b.set("rxd", b.get("txd"))
			b.set("tx_data", data)
			b.set("tx_valid", valid)
			b.set("rx_ready", ready)
			b.tick("clk", n)
		}
		if err := sim.Compare(lanes.s, seq.s); err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
		received += int(seq.get("rx_valid"))
	}
	if st := lanes.s.LaneTickStats(); len(st) != 1 || st[0].Batches < 400 {
		t.Errorf("the lanes ran too little: %+v", st)
	}
	if received < 20 {
		t.Errorf("a character was waiting after %d rounds of 400: the loop-back did not work", received)
	}
}

// TestLaneTickRandom is a differential test of free-running lanes on
// random designs (internal/randdesign without $display): a top with three
// copies of a random design on shared clocks, reset and inputs is run on
// two lanes always partitioned and sequentially, both native, under
// random inputs, ticks of clk of random length, hand-made edges of clk2
// and reset pulses, and compared on every signal after each. Enough seeds
// must give clk free-running lanes for the test to mean something.
func TestLaneTickRandom(t *testing.T) {
	seeds := tier.Pick(3, 8)
	if raceEnabled && !tier.Long() {
		seeds = 1 // seed 0 gets lanes; each seed is 20 s under the race detector
	}
	withLanes := 0
	for seed := range uint64(seeds) {
		d := randdesign.Generate(seed, randdesign.Options{Modules: 3, Signals: 4, Flops: 2, NoDisplay: true})
		var ports, decls strings.Builder
		for _, in := range d.Inputs {
			fmt.Fprintf(&decls, ", input logic [%d:0] %s", in.Width-1, in.Name)
			fmt.Fprintf(&ports, ", .%s(%s)", in.Name, in.Name)
		}
		src := d.Source + fmt.Sprintf(`
module copies(input logic clk, input logic clk2, input logic rst_n%s);
  for (genvar i = 0; i < 3; i++) begin : c
    %s u(.clk(clk), .clk2(clk2), .rst_n(rst_n)%s);
  end
endmodule
`, decls.String(), d.Top, ports.String())
		mk := func(lanes int, mode compile.PartitionMode) *bench {
			p, err := compile.NewBuilder().Source("r.sv", src).Top("copies").Backend(compile.BackendNative).
				Lanes(lanes).Partition(mode).Output(&bytes.Buffer{}).Build()
			if err != nil {
				t.Fatalf("seed %d: %v", seed, err)
			}
			t.Cleanup(func() { p.Close() })
			return &bench{t: t, p: p, s: p.Sim}
		}
		lanes, seq := mk(2, compile.PartitionAlways), mk(1, compile.PartitionAuto)
		if lanes.p.Program.Parallel.HasLaneTicks() {
			withLanes++
		}
		r := rand.New(rand.NewPCG(seed, 9))
		for _, b := range []*bench{lanes, seq} {
			b.set("rst_n", 0)
			b.step()
			b.set("rst_n", 1)
			b.step()
		}
		for round := range 40 {
			vals := make([]uint64, len(d.Inputs))
			for i := range vals {
				vals[i] = r.Uint64()
			}
			action, n := r.IntN(10), 1+r.IntN(30)
			for _, b := range []*bench{lanes, seq} {
				for i, in := range d.Inputs {
					if err := b.s.SetInput(b.home(in.Name), vals[i]&(1<<min(in.Width, 63)-1)); err != nil {
						t.Fatal(err)
					}
				}
				switch action {
				case 0: // an edge of the other clock
					b.set("clk2", b.get("clk2")^1)
					b.step()
				case 1: // a reset pulse
					b.set("rst_n", 0)
					b.step()
					b.set("rst_n", 1)
					b.step()
				}
				b.tick("clk", n)
			}
			if err := sim.Compare(lanes.s, seq.s); err != nil {
				t.Fatalf("seed %d, round %d: %v\n%s", seed, round, err, src)
			}
		}
	}
	if withLanes < max(1, seeds/4) {
		t.Errorf("only %d of %d seeds gave clk free-running lanes", withLanes, seeds)
	}
	t.Logf("%d of %d seeds ran on free-running lanes", withLanes, seeds)
}
