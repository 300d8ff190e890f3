package compile_test

import (
	"bytes"
	"errors"
	"fmt"
	"github.com/weft-hdl/weft/internal/tier"
	"math/rand"
	"path/filepath"
	"strings"
	"testing"

	"github.com/weft-hdl/weft/compile"
	"github.com/weft-hdl/weft/program"
	"github.com/weft-hdl/weft/sim"
)

// TestImageRoundTripRuns runs each bundled design (every corpus design
// and every example) twice, from the program the compiler made and from
// that program encoded as an image and decoded (program.Encode,
// program.Decode), and wants every state bit equal after every cycle and
// the same output and outcome: built for 1, 2 and 4 lanes (partitioned
// kernels always run), each on both backends.
func TestImageRoundTripRuns(t *testing.T) {
	type design struct {
		name, dir, top string
		files          []string
		cycles         int
		inputs         func(cyc int, set func(name string, v uint64))
	}
	var designs []design
	corpus, err := filepath.Glob("../sim/testdata/corpus/*.sv")
	if err != nil || len(corpus) == 0 {
		t.Fatalf("no corpus: %v", err)
	}
	// The default tier takes every sixth corpus design (every sixteenth
	// under the race detector); the long tier all.
	step := tier.Pick(6, 1)
	if raceEnabled && !tier.Long() {
		step = 16
	}
	for i, f := range corpus {
		if i%step != 0 {
			continue
		}
		abs, _ := filepath.Abs(f)
		// The corpus's $readmemh paths are relative to sim/.
		designs = append(designs, design{name: strings.TrimSuffix(filepath.Base(f), ".sv"), dir: "../sim", top: "t", files: []string{abs}, cycles: 10000})
	}
	abs := func(glob ...string) []string {
		var out []string
		for _, g := range glob {
			fs, _ := filepath.Glob(g)
			for _, f := range fs {
				a, _ := filepath.Abs(f)
				out = append(out, a)
			}
		}
		return out
	}
	reset := func(cyc int, set func(string, uint64)) { set("rst_n", b2u(cyc >= 4)) }
	soc := abs("../examples/soc/rtl/*.sv", "../examples/soc/rtl/*.v")
	uart := abs("../examples/uart/rtl/uart_pkg.sv", "../examples/uart/rtl/uart_fifo.sv", "../examples/uart/rtl/uart_tx.sv",
		"../examples/uart/rtl/uart_rx.sv", "../examples/uart/rtl/uart_top.sv")
	uartIn := func(cyc int, set func(string, uint64)) {
		reset(cyc, set)
		set("divisor", 4)
		set("tx_data", uint64(0xa5+cyc/40))
		set("tx_valid", b2u(cyc%40 == 10))
		set("rxd", 1)
	}
	rng := rand.New(rand.NewSource(1))
	coresIn := func(cyc int, set func(string, uint64)) {
		reset(cyc, set)
		set("in", uint64(rng.Uint32()))
	}
	cycles := func(long, short int) int {
		if !tier.Long() || raceEnabled {
			return short
		}
		return long
	}
	designs = append(designs,
		design{name: "soc", dir: "..", top: "soc_top", files: soc, cycles: cycles(3000, 200), inputs: reset},
		design{name: "uart", dir: ".", top: "uart_top", files: uart, cycles: cycles(400, 150), inputs: uartIn},
		design{name: "cores", dir: ".", top: "cores", files: abs("../examples/cores/rtl/cores.sv"), cycles: cycles(300, 30), inputs: coresIn},
	)
	for _, d := range designs {
		for _, lanes := range []int{1, 2, 4} {
			for _, be := range []compile.BackendKind{compile.BackendInterp, compile.BackendNative} {
				t.Run(fmt.Sprintf("%s/lanes=%d/%s", d.name, lanes, be), func(t *testing.T) {
					if d.dir != "." {
						t.Chdir(d.dir)
					}
					roundTrip(t, d.files, d.top, lanes, be, d.cycles, d.inputs)
				})
			}
		}
	}
}

// roundTrip builds a design for lanes (native costs), encodes and decodes
// its program, and runs both on backend be in lock-step.
func roundTrip(t *testing.T, files []string, top string, lanes int, be compile.BackendKind, cycles int, inputs func(int, func(string, uint64))) {
	b := compile.NewBuilder().Files(files...).Top(top).Output(&bytes.Buffer{}).NoCache()
	opts := sim.Options{}
	if lanes > 1 {
		b = b.Lanes(lanes).Partition(compile.PartitionAlways)
		opts.Partition = sim.PartitionAlways
	}
	cp, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	defer cp.Close()
	img, err := program.Encode(cp.Program, program.Meta{WeftVersion: "test"})
	if err != nil {
		t.Fatal(err)
	}
	q, _, err := program.Decode(img)
	if err != nil {
		t.Fatal(err)
	}
	var outs [2]bytes.Buffer
	var sims [2]*sim.Simulator
	for i, p := range []*program.Program{cp.Program, q} {
		o := opts
		o.Output = &outs[i]
		o.Backend = compile.SimBackend(be)
		s, err := sim.New(p, o)
		if err != nil {
			t.Fatalf("sim.New (program %d): %v", i, err)
		}
		defer s.Close()
		sims[i] = s
	}
	if err := sim.Compare(sims[0], sims[1]); err != nil {
		t.Fatalf("after the initial blocks: %v", err)
	}
	set := func(name string, v uint64) {
		for _, s := range sims {
			h, ok := s.Lookup(name)
			if !ok {
				t.Fatalf("no input %s", name)
			}
			if err := s.SetInput(h, v); err != nil {
				t.Fatal(err)
			}
		}
	}
	cyc := 0
	for ; cyc < cycles && !sims[0].Finished(); cyc++ {
		if inputs != nil {
			inputs(cyc, set)
		}
		var errs [2]error
		for i, s := range sims {
			clk, ok := s.Lookup("clk")
			if !ok {
				t.Fatal("no clk")
			}
			_, errs[i] = s.Tick(clk, 1)
		}
		if (errs[0] == nil) != (errs[1] == nil) || errs[0] != nil && errs[0].Error() != errs[1].Error() {
			t.Fatalf("cycle %d: errors %v and %v", cyc, errs[0], errs[1])
		}
		if err := sim.Compare(sims[0], sims[1]); err != nil {
			t.Fatalf("cycle %d: %v", cyc, err)
		}
		if errs[0] != nil { // $finish, or the same error in both
			var fe *sim.FinishError
			if !errors.As(errs[0], &fe) {
				t.Logf("cycle %d: %v (both)", cyc, errs[0])
			}
			break
		}
	}
	if outs[0].String() != outs[1].String() {
		t.Fatalf("output differs:\ncompiled:\n%s\ndecoded:\n%s", outs[0].String(), outs[1].String())
	}
	if f0, f1 := sims[0].Finish(), sims[1].Finish(); (f0 == nil) != (f1 == nil) || f0 != nil && f0.Error() != f1.Error() {
		t.Fatalf("outcomes differ: %v and %v", f0, f1)
	}
	t.Logf("%d cycles, %d output bytes, %d-byte image", cyc, outs[0].Len(), len(img))
}

func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}
