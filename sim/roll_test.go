package sim_test

import (
	"bytes"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/weft-hdl/weft/compile"
	"github.com/weft-hdl/weft/internal/gendesign"
	"github.com/weft-hdl/weft/jit"
	"github.com/weft-hdl/weft/sim"
)

// TestRolledNative runs every corpus design, the cores example and
// generated pipeline chains with the native backend rolling (or
// vectorizing, or looping as regions) every run of replicas it can (jit.SetRollMinRun(0): small designs roll too) in lock
// step with the interpreter, which compares every state bit after every
// step, and with the same output.
func TestRolledNative(t *testing.T) {
	defer jit.SetRollMinRun(0)()
	before := jit.RolledRuns() + jit.VectorRuns() + jit.RegionRuns()
	designs, err := filepath.Glob(filepath.Join(corpusDir, "*.sv"))
	if err != nil {
		t.Fatal(err)
	}
	type design struct {
		name, top, src, clk, rst string
		cycles                   int
	}
	var ds []design
	for _, path := range designs {
		ds = append(ds, design{name: filepath.Base(path), top: "t", src: path, clk: "clk", cycles: corpusMaxCycles})
	}
	ds = append(ds,
		design{name: "cores", top: "cores", src: "../examples/cores/rtl/cores.sv", clk: "clk", rst: "rst_n", cycles: 300},
		design{name: "chain", top: "top", src: gendesign.Chain(3000), clk: "clk", rst: "rst", cycles: 200},
		design{name: "counters", top: "top", src: gendesign.Counters(3000), clk: "clk", rst: "rst", cycles: 200})
	for _, d := range ds {
		build := func(be compile.BackendKind, out *bytes.Buffer) *compile.Program {
			b := compile.NewBuilder().Top(d.top).Backend(be).NoCache().Output(out)
			if strings.HasSuffix(d.src, ".sv") {
				b.Files(d.src)
			} else {
				b.Source(d.name+".sv", d.src)
			}
			p, err := b.Build()
			if err != nil {
				t.Fatalf("%s: %v", d.name, err)
			}
			return p
		}
		// nat runs with shadow in lock step (every state bit after every
		// step); alone runs by itself for the output to compare.
		var outN, outS, outA bytes.Buffer
		nat, shadow, alone := build(compile.BackendNative, &outN), build(compile.BackendInterp, &outS), build(compile.BackendInterp, &outA)
		if err := nat.Sim.Shadow(shadow.Sim); err != nil {
			t.Fatalf("%s: %v", d.name, err)
		}
		for _, p := range []*compile.Program{nat, alone} {
			if d.rst != "" {
				lvl := uint64(0)
				if d.rst == "rst" {
					lvl = 1
				}
				p.DUT().MustSignal(d.rst).Set(lvl)
				if _, err := p.Sim.Tick(p.DUT().MustSignal(d.clk).Home(), 2); err != nil {
					t.Fatalf("%s in reset: %v", d.name, err)
				}
				p.DUT().MustSignal(d.rst).Set(1 - lvl)
			}
			if !p.Sim.Finished() {
				_, err := p.Sim.Tick(p.DUT().MustSignal(d.clk).Home(), d.cycles)
				var fe *sim.FinishError
				if err != nil && !errors.As(err, &fe) {
					t.Fatalf("%s: %v", d.name, err)
				}
			}
		}
		if outN.String() != outA.String() {
			t.Errorf("%s: output differs:\n%s", d.name, lineDiff(outA.String(), outN.String()))
		}
		nat.Close() // and the simulator it shadows
		alone.Close()
	}
	// Runs of replicas are rolled, vectorized or looped as regions.
	if n := jit.RolledRuns() + jit.VectorRuns() + jit.RegionRuns() - before; n < 5 {
		t.Errorf("only %d runs rolled, vectorized or looped across %d designs", n, len(ds))
	} else {
		t.Logf("%d runs rolled, vectorized or looped across %d designs", n, len(ds))
	}
}
