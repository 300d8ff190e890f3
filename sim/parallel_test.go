package sim_test

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/weft-hdl/weft/compile"
	"github.com/weft-hdl/weft/internal/plancheck"
	"github.com/weft-hdl/weft/ordering"
	"github.com/weft-hdl/weft/sim"
	"github.com/weft-hdl/weft/sir"
)

// TestCorpusPartitioned runs every corpus design with partitioned kernels
// (Partition(always): every kernel with work for several lanes is
// partitioned, whatever the estimate) at 2, 3 and 4 lanes on both
// backends, in lock-step with the sequential kernels (sim.Shadow: every
// home, the output text and the outcome compared after every step), checks
// every plan with the independent plan checker, and compares the output
// with the golden.
func TestCorpusPartitioned(t *testing.T) {
	designs, err := filepath.Glob(filepath.Join(corpusDir, "*.sv"))
	if err != nil {
		t.Fatal(err)
	}
	var partitioned atomic.Int32
	for i, path := range designs {
		name := strings.TrimSuffix(filepath.Base(path), ".sv")
		if _, skip := corpusSkip[name]; skip {
			continue
		}
		lanes := 2 + i%3
		backend := []compile.BackendKind{compile.BackendInterp, compile.BackendNative}[i%2]
		t.Run(fmt.Sprintf("%s/lanes=%d/%s", name, lanes, backend), func(t *testing.T) {
			t.Parallel()
			gold, err := os.ReadFile(strings.TrimSuffix(path, ".sv") + ".out")
			if err != nil {
				t.Fatal(err)
			}
			got, p, err := runPartitioned(path, lanes, backend)
			if p != nil && p.Program.Parallel != nil && len(p.Program.Parallel.Kernels()) > 0 {
				partitioned.Add(1)
			}
			if err != nil {
				t.Fatalf("%v\noutput so far:\n%s", err, got)
			}
			if got != string(gold) {
				t.Errorf("output differs from the golden:\n%s", lineDiff(string(gold), got))
			}
		})
	}
	t.Cleanup(func() {
		if n := int(partitioned.Load()); n < len(designs)/2 {
			t.Errorf("only %d of %d corpus designs got a partitioned kernel", n, len(designs))
		}
	})
}

// runPartitioned builds path sequentially and partitioned for lanes,
// checks the plan, and ticks clk in lock-step until $finish.
func runPartitioned(path string, lanes int, backend compile.BackendKind) (string, *compile.Program, error) {
	var out bytes.Buffer
	ref, err := compile.NewBuilder().Files(path).Top("t").Backend(compile.BackendInterp).Output(&bytes.Buffer{}).Build()
	if err != nil {
		return "", nil, err
	}
	p, err := compile.NewBuilder().Files(path).Top("t").Lanes(lanes).Partition(compile.PartitionAlways).
		Backend(backend).Output(&out).Build()
	if err != nil {
		ref.Close()
		return "", nil, err
	}
	defer p.Close()
	if err := plancheck.CheckSimulator(p.Sim); err != nil {
		ref.Close()
		return "", p, fmt.Errorf("plan: %w", err)
	}
	s := p.Sim
	if s.Finished() != ref.Sim.Finished() {
		ref.Close()
		return out.String(), p, fmt.Errorf("initial blocks: finished %v, reference %v", s.Finished(), ref.Sim.Finished())
	}
	if s.Finished() {
		ref.Close()
		return out.String(), p, nil
	}
	if err := s.Shadow(ref.Sim); err != nil {
		ref.Close()
		return out.String(), p, err
	}
	clk, ok := s.Lookup("clk")
	if !ok {
		return out.String(), p, errors.New("no input clk")
	}
	done, err := s.Tick(clk, corpusMaxCycles)
	if err == nil {
		return out.String(), p, fmt.Errorf("no $finish after %d cycles", done)
	}
	var fe *sim.FinishError
	if !errors.As(err, &fe) {
		return out.String(), p, err
	}
	if fe.Task != sir.EvFinish {
		return out.String(), p, fmt.Errorf("the run ended with %v, want $finish", fe)
	}
	return out.String(), p, nil
}

// widenBackend is the interpreter with kernels that claim to store over
// the whole state, as a code generator widening every store might: the
// simulator must recompute the waits from that footprint.
type widenBackend struct {
	sim.Interp
	size int
}

type widenKernel struct {
	sim.Kernel
	size int
}

func (k widenKernel) Footprint() []ordering.Range { return []ordering.Range{{Lo: 0, Hi: k.size}} }

func (b widenBackend) Compile(u *sir.Unit, l sir.Layout) (sim.Kernel, error) {
	k, err := b.Interp.Compile(u, l)
	return widenKernel{Kernel: k, size: b.size}, err
}

// TestWaitsFromFinalFootprint: the waits packed for the lane pool come from
// the footprints the backend reports, not only from the SIR.
func TestWaitsFromFinalFootprint(t *testing.T) {
	src := `module m(input logic clk, input logic [15:0] x, output logic [15:0] a, output logic [15:0] b, output logic [15:0] s);
  always_ff @(posedge clk) a <= (a * 16'd3 + x) ^ (a >> 2) ^ ((a + x) * (x | 16'd1));
  always_ff @(posedge clk) b <= (b * 16'd5 + x) ^ (b >> 3) ^ ((b + x) * (x | 16'd7));
  assign s = a ^ b;
endmodule`
	build := func(opts sim.Options) *compile.Program {
		p, err := compile.NewBuilder().Source("m.sv", src).Backend(compile.BackendInterp).Lanes(2).
			Partition(compile.PartitionAlways).SimOptions(opts).Output(&bytes.Buffer{}).Build()
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { p.Close() })
		return p
	}
	waits := func(p *compile.Program) (n int) {
		for _, k := range p.Program.Parallel.Kernels() {
			for _, lane := range p.Sim.TaskWaits(k) {
				for _, ws := range lane {
					n += len(ws)
				}
			}
		}
		return n
	}
	plain := build(sim.Options{})
	wide := build(sim.Options{Backend: widenBackend{size: plain.Program.Layout.StateSize()}})
	if waits(wide) <= waits(plain) {
		t.Errorf("whole-state footprints: %d waits, SIR footprints: %d", waits(wide), waits(plain))
	}
	for _, p := range []*compile.Program{plain, wide} {
		if err := plancheck.CheckSimulator(p.Sim); err != nil {
			t.Errorf("plan check: %v", err)
		}
	}
	ref, err := compile.NewBuilder().Source("m.sv", src).Backend(compile.BackendInterp).Output(&bytes.Buffer{}).Build()
	if err != nil {
		t.Fatal(err)
	}
	if err := wide.Sim.Shadow(ref.Sim); err != nil {
		t.Fatal(err)
	}
	x := wide.DUT().MustSignal("x")
	for i := range 50 {
		x.Set(uint64(i * 977))
		if _, err := wide.Sim.Tick(wide.DUT().MustSignal("clk").Home(), 1); err != nil {
			t.Fatal(err)
		}
	}
}

// arenaBackend is the interpreter with kernels that claim a register arena
// where CompileAt put them, 8 bytes per register plus extra.
type arenaBackend struct {
	sim.Interp
	extra int
}

type arenaKernel struct {
	sim.Kernel
	off, size int
}

func (k arenaKernel) ArenaOffset() int { return k.off }
func (k arenaKernel) ArenaSize() int   { return k.size }

func (b arenaBackend) CompileAt(u *sir.Unit, l sir.Layout, arena int) (sim.Kernel, error) {
	k, err := b.Interp.Compile(u, l)
	return arenaKernel{Kernel: k, off: arena, size: 8*len(u.Regs) + b.extra}, err
}

// TestArenaCheck: a task whose code needs more arena than its lane was
// given is refused when the simulator is made, not run over another
// lane's registers.
func TestArenaCheck(t *testing.T) {
	p, err := compile.NewBuilder().Source("m.sv", sharedSrc).Top("m").Backend(compile.BackendInterp).Lanes(2).
		Partition(compile.PartitionAlways).Output(&bytes.Buffer{}).Build()
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	fits, err := sim.New(p.Program, sim.Options{Backend: arenaBackend{}, Partition: sim.PartitionAlways, Output: &bytes.Buffer{}})
	if err != nil {
		t.Fatalf("arenas that fit: %v", err)
	}
	fits.Close()
	_, err = sim.New(p.Program, sim.Options{Backend: arenaBackend{extra: 1 << 16}, Partition: sim.PartitionAlways, Output: &bytes.Buffer{}})
	if err == nil || !strings.Contains(err.Error(), "outside its lane's") {
		t.Fatalf("an arena past its lane's room: %v", err)
	}
}
