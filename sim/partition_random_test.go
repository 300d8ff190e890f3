package sim_test

import (
	"bytes"
	"errors"
	"fmt"
	"github.com/weft-hdl/weft/internal/tier"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/weft-hdl/weft/compile"
	"github.com/weft-hdl/weft/internal/plancheck"
	"github.com/weft-hdl/weft/internal/randdesign"
	"github.com/weft-hdl/weft/program"
	"github.com/weft-hdl/weft/sim"
)

// randSteps is how many stimulus steps each random run drives.
const randSteps = 200

// randOptions size the random designs: smaller than the generator's
// defaults, so that 20 seeds build and run in time under -race.
var randOptions = randdesign.Options{Modules: 3, Signals: 4, Flops: 2}

// randRegressions are generated designs that once showed a difference
// between partitioned and sequential kernels; they run on every test run
// besides the rotating seeds (seed, lanes, backend).
var randRegressions = []struct {
	seed    uint64
	lanes   int
	backend compile.BackendKind
}{}

// TestPartitionRandom is a differential test of the partitioned pipeline
// on random designs (internal/randdesign: hierarchy, element-disjoint
// array writers, partial writes, two clocks, an asynchronous reset,
// $display, wide values): each design runs with partitioned kernels
// (Partition(always)) for 2 lanes and for 1 to 8 lanes in rotation, on
// the interpreter and the native backend alternately, in lock-step with
// the sequential interpreter (sim.Shadow compares every home, the output
// text and the outcome after every step), under random stimulus on the
// data inputs, the clocks and the reset. Every plan is checked with the
// independent plan checker. A failure names the seed, lanes and backend
// and keeps the design source in a directory it logs.
//
// WEFT_RANDSEEDS=n runs n seeds instead, from WEFT_RANDSEED_BASE (default
// 0), and WEFT_RANDFULL=1 uses the generator's default (larger) sizes: for
// hunting bugs, not for CI.
func TestPartitionRandom(t *testing.T) {
	n := tier.Pick(6, 20)
	if raceEnabled && !tier.Long() {
		n = 3
	}
	var base uint64
	if v, err := strconv.Atoi(os.Getenv("WEFT_RANDSEEDS")); err == nil && v > 0 {
		n = v
	}
	if v, err := strconv.ParseUint(os.Getenv("WEFT_RANDSEED_BASE"), 10, 64); err == nil {
		base = v
	}
	opts := randOptions
	if os.Getenv("WEFT_RANDFULL") != "" {
		opts = randdesign.Options{}
	}
	type run struct {
		seed    uint64
		lanes   int
		backend compile.BackendKind
	}
	var runs []run
	for i := 0; i < n; i++ {
		lanes := []int{2}
		if l := 1 + i%8; l != 2 {
			lanes = append(lanes, l)
		}
		for j, l := range lanes {
			runs = append(runs, run{base + uint64(i), l, []compile.BackendKind{compile.BackendInterp, compile.BackendNative}[(i+j)%2]})
		}
	}
	for _, r := range randRegressions {
		runs = append(runs, run(r))
	}
	var multi, partitioned atomic.Int32
	start := time.Now()
	t.Run("group", func(t *testing.T) {
		for _, r := range runs {
			t.Run(fmt.Sprintf("seed=%d/lanes=%d/%s", r.seed, r.lanes, r.backend), func(t *testing.T) {
				t.Parallel()
				d := randdesign.Generate(r.seed, opts)
				res, err := randDiff(d.Source, d.Source, d, r.seed, r.lanes, r.backend, randSteps)
				t.Logf("%d partitioned kernels; build %v, run %v", res.partitioned, res.build.Round(time.Millisecond), res.run.Round(time.Millisecond))
				if r.lanes >= 2 {
					multi.Add(1)
					if res.partitioned > 0 {
						partitioned.Add(1)
					}
				}
				if err != nil {
					t.Errorf("seed %d, lanes %d, backend %s: %v\ndesign source: %s\n(regenerate: randdesign.Generate(%d, %#v))",
						r.seed, r.lanes, r.backend, err, keepRandDesign(t, d.Source, r.seed, r.lanes, r.backend), r.seed, opts)
				}
			})
		}
	})
	t.Logf("%d runs in %v; %d of %d runs with 2 or more lanes got partitioned kernels", len(runs), time.Since(start).Round(time.Millisecond), partitioned.Load(), multi.Load())
	if m, p := multi.Load(), partitioned.Load(); p == 0 || p < m/2 {
		t.Errorf("only %d of %d runs with 2 or more lanes got a partitioned kernel: the test checks too little", p, m)
	}
}

// keepRandDesign writes the source of a failing design where it outlives
// the test ($WEFT_RANDDESIGN_DIR, or a new directory under the system
// temporary directory) and returns its path.
func keepRandDesign(t *testing.T, src string, seed uint64, lanes int, backend compile.BackendKind) string {
	dir := os.Getenv("WEFT_RANDDESIGN_DIR")
	if dir == "" {
		var err error
		if dir, err = os.MkdirTemp("", "weft-randdesign-"); err != nil {
			dir = t.TempDir()
		}
	}
	path := filepath.Join(dir, fmt.Sprintf("seed%d_lanes%d_%s.sv", seed, lanes, backend))
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		return fmt.Sprintf("(not written: %v)", err)
	}
	t.Logf("design source kept in %s", path)
	return path
}

// randResult is what a differential run found besides its error.
type randResult struct {
	partitioned int           // partitioned kernels
	build, run  time.Duration // building both programs, driving them
}

// randDiff builds refSrc sequentially on the interpreter as the
// reference and src with lanes lanes (Partition(always)) on backend,
// checks the partitioned plan, shadows the reference and drives random
// stimulus for steps steps. d names the clocks, resets and inputs.
func randDiff(src, refSrc string, d randdesign.Design, seed uint64, lanes int, backend compile.BackendKind, steps int) (res randResult, err error) {
	t0 := time.Now()
	ref, err := compile.NewBuilder().Source("rand.sv", refSrc).Top(d.Top).Backend(compile.BackendInterp).Output(&bytes.Buffer{}).Build()
	if err != nil {
		return res, fmt.Errorf("building the reference: %w", err)
	}
	var out bytes.Buffer
	p, err := compile.NewBuilder().Source("rand.sv", src).Top(d.Top).Lanes(lanes).Partition(compile.PartitionAlways).
		Backend(backend).Output(&out).Build()
	if err != nil {
		ref.Close()
		return res, fmt.Errorf("building with %d lanes: %w", lanes, err)
	}
	if p.Program.Parallel != nil {
		res.partitioned = len(p.Program.Parallel.Kernels())
	}
	if lanes >= 2 && p.Program.Parallel == nil {
		ref.Close()
		p.Close()
		return res, fmt.Errorf("Threads(%d) built no partitioned program", lanes)
	}
	if err := plancheck.CheckSimulator(p.Sim); err != nil {
		ref.Close()
		p.Close()
		return res, fmt.Errorf("plan check: %w", err)
	}
	if err := p.Sim.Shadow(ref.Sim); err != nil {
		ref.Close()
		p.Close()
		return res, fmt.Errorf("time zero: %w", err)
	}
	defer p.Close() // closes the reference too
	res.build = time.Since(t0)
	t0 = time.Now()
	defer func() { res.run = time.Since(t0) }()
	if err := randDrive(p.Sim, d, seed, steps); err != nil {
		return res, fmt.Errorf("%w\noutput of the partitioned run so far:\n%s", err, tail(out.String(), 2000))
	}
	return res, nil
}

// tail returns the last n bytes of s.
func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "..." + s[len(s)-n:]
}

// randDrive drives random stimulus: reset held for the first steps and
// pulsed now and then, random data inputs, the two clocks toggled
// independently (sometimes together, sometimes not at all), and
// sometimes a few Tick cycles of clk.
func randDrive(s *sim.Simulator, d randdesign.Design, seed uint64, steps int) error {
	r := rand.New(rand.NewPCG(seed, 0x73746d6c))
	look := func(name string) (*program.Signal, error) {
		h, ok := s.Lookup(name)
		if !ok {
			return nil, fmt.Errorf("no input %s", name)
		}
		return h, nil
	}
	var clks, rsts, ins []*program.Signal
	for _, n := range d.Clocks {
		h, err := look(n)
		if err != nil {
			return err
		}
		clks = append(clks, h)
	}
	for _, n := range d.Resets {
		h, err := look(n)
		if err != nil {
			return err
		}
		rsts = append(rsts, h)
	}
	for _, in := range d.Inputs {
		h, err := look(in.Name)
		if err != nil {
			return err
		}
		ins = append(ins, h)
	}
	setRandom := func(h *program.Signal) error {
		ws := make([]uint64, (h.Width+63)/64)
		for i := range ws {
			switch r.IntN(6) {
			case 0:
				ws[i] = 0
			case 1:
				ws[i] = ^uint64(0)
			case 2:
				ws[i] = uint64(r.IntN(16))
			default:
				ws[i] = r.Uint64()
			}
		}
		if rem := h.Width % 64; rem != 0 {
			ws[len(ws)-1] &= 1<<rem - 1
		}
		if len(ws) == 1 {
			return s.SetInput(h, ws[0])
		}
		return s.SetInputWords(h, 0, ws)
	}
	clkv := make([]uint64, len(clks))
	setRst := func(v uint64) error {
		for _, h := range rsts {
			if err := s.SetInput(h, v); err != nil {
				return err
			}
		}
		return nil
	}
	// Time zero: clocks low, reset active, random inputs.
	for _, h := range clks {
		if err := s.SetInput(h, 0); err != nil {
			return err
		}
	}
	if err := setRst(0); err != nil {
		return err
	}
	for _, h := range ins {
		if err := setRandom(h); err != nil {
			return err
		}
	}
	if err := s.Step(); err != nil {
		return fmt.Errorf("step 0: %w", err)
	}
	resetLeft := 3 + r.IntN(4)
	toggle := func(i int) error {
		clkv[i] ^= 1
		return s.SetInput(clks[i], clkv[i])
	}
	for step := 1; step <= steps; step++ {
		for _, h := range ins {
			if r.IntN(3) == 0 {
				if err := setRandom(h); err != nil {
					return err
				}
			}
		}
		alone := false // a reset edge in a step without clock edges
		switch {
		case resetLeft > 0:
			resetLeft--
			if resetLeft == 0 {
				if err := setRst(1); err != nil {
					return err
				}
				alone = r.IntN(2) == 0
			}
		case r.IntN(30) == 0:
			if err := setRst(0); err != nil {
				return err
			}
			resetLeft = 1 + r.IntN(3)
			alone = r.IntN(2) == 0
		}
		if !alone {
			switch x := r.IntN(20); {
			case x < 9:
				if err := toggle(0); err != nil {
					return err
				}
			case x < 15:
				if err := toggle(len(clks) - 1); err != nil {
					return err
				}
			case x < 18:
				for i := range clks {
					if err := toggle(i); err != nil {
						return err
					}
				}
			case x < 19:
				// Inputs only.
			default:
				// Whole cycles of clk: it ends where it started.
				k := 1 + r.IntN(3)
				if _, err := s.Tick(clks[0], k); err != nil {
					return fmt.Errorf("step %d (Tick %d): %w", step, k, err)
				}
				continue
			}
		}
		if err := s.Step(); err != nil {
			return fmt.Errorf("step %d: %w", step, err)
		}
	}
	return nil
}

// The harness must be able to fail: a reference built from a different
// source (another constant, another $display text) must make Shadow
// report an *sim.EquivalenceError through randDiff.

const randHarnessSrc = `
module rtop(input logic clk, input logic clk2, input logic rst_n, input logic [7:0] in0, output logic [7:0] out0);
  logic [7:0] r, q;
  logic [7:0] m [0:3];
  always_ff @(posedge clk or negedge rst_n)
    if (!rst_n) r <= 8'd0;
    else r <= r + 8'd%d;
  always_ff @(posedge clk2) begin
    q <= q ^ in0;
    if (q[0]) $display("%s q=%%0d", q);
  end
  for (genvar j = 0; j < 4; j++) begin : g
    always_ff @(posedge clk) m[j] <= m[(j + 1) %% 4] + r + 8'(j);
  end
  assign out0 = r ^ q ^ m[0];
endmodule
`

var randHarnessDesign = randdesign.Design{Top: "rtop", Clocks: []string{"clk", "clk2"}, Resets: []string{"rst_n"},
	Inputs: []randdesign.Input{{Name: "in0", Width: 8}}}

func TestPartitionRandomHarnessCatchesStateDifference(t *testing.T) {
	src := fmt.Sprintf(randHarnessSrc, 1, "q")
	refSrc := fmt.Sprintf(randHarnessSrc, 3, "q")
	for _, backend := range []compile.BackendKind{compile.BackendInterp, compile.BackendNative} {
		_, err := randDiff(src, refSrc, randHarnessDesign, 1, 2, backend, randSteps)
		var ee *sim.EquivalenceError
		if !errors.As(err, &ee) || ee.What != "state" {
			t.Errorf("%s: a reference with another constant: got %v, want a state *sim.EquivalenceError", backend, err)
		}
		// The same source passes.
		if _, err := randDiff(src, src, randHarnessDesign, 1, 2, backend, randSteps); err != nil {
			t.Errorf("%s: the same source: %v", backend, err)
		}
	}
}

func TestPartitionRandomHarnessCatchesOutputDifference(t *testing.T) {
	src := fmt.Sprintf(randHarnessSrc, 1, "q")
	refSrc := fmt.Sprintf(randHarnessSrc, 1, "Q")
	_, err := randDiff(src, refSrc, randHarnessDesign, 1, 3, compile.BackendNative, randSteps)
	var ee *sim.EquivalenceError
	if !errors.As(err, &ee) || ee.What != "output" {
		t.Errorf("a reference with another $display text: got %v, want an output *sim.EquivalenceError", err)
	}
}
