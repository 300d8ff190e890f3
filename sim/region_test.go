package sim_test

import (
	"bytes"
	"errors"
	"github.com/weft-hdl/weft/internal/tier"
	"testing"

	"github.com/weft-hdl/weft/compile"
	"github.com/weft-hdl/weft/jit"
	"github.com/weft-hdl/weft/sim"
)

var socFiles = []string{"../examples/soc/smp/soc_smp.sv", "../examples/soc/smp/soc_tile.sv", "../examples/soc/smp/soc_shared.sv",
	"../examples/soc/rtl/rv_core.v", "../examples/soc/rtl/rv_alu.v", "../examples/soc/rtl/rv_regfile.v"}

// TestRegionsSoC runs the multi-hart SoC natively, its harts' code looped
// (jit/region.go), in lock step with the interpreter, which compares every
// state bit after every step, until it finishes.
func TestRegionsSoC(t *testing.T) {
	before, segs := jit.RegionRuns(), jit.RegionSegments()
	build := func(be compile.BackendKind, out *bytes.Buffer) *compile.Program {
		p, err := compile.NewBuilder().Files(socFiles...).IncludeDir("../examples/soc/rtl").Backend(be).NoCache().Output(out).
			Param("NCORES", "4").Param("FIRMWARE", `"../examples/soc/fw/bench.hex"`).Param("FW_ARG", "1").Build()
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	var outN, outS bytes.Buffer
	nat, shadow := build(compile.BackendNative, &outN), build(compile.BackendInterp, &outS)
	// Every kernel with the harts' code loops over all four (values
	// reused across blocks would leave the finder a single run).
	if runs, n := jit.RegionRuns()-before, jit.RegionSegments()-segs; runs < 4 || n < 4*runs {
		t.Fatalf("%d region runs over %d segments", runs, n)
	}
	if err := nat.Sim.Shadow(shadow.Sim); err != nil {
		t.Fatal(err)
	}
	d := nat.DUT()
	d.MustSignal("rst_n").Set(0)
	clk := d.MustSignal("clk").Home()
	if _, err := nat.Sim.Tick(clk, 2); err != nil {
		t.Fatal(err)
	}
	d.MustSignal("rst_n").Set(1)
	if !tier.Long() {
		// The default tier compares the first 20,000 cycles (4,000 under
		// the race detector): the boot and every hart's first benchmark
		// loops; the long tier runs to the end.
		cycles := 20000
		if raceEnabled {
			cycles = 4000
		}
		if _, err := nat.Sim.Tick(clk, cycles); err != nil {
			t.Fatalf("%v\n%s", err, outN.String())
		}
		return
	}
	_, err := nat.Sim.Tick(clk, 400000)
	var fe *sim.FinishError
	if !errors.As(err, &fe) {
		t.Fatalf("%v\n%s", err, outN.String())
	}
	if !bytes.Contains(outN.Bytes(), []byte("PASS")) {
		t.Fatalf("output:\n%s", outN.String())
	}
}
