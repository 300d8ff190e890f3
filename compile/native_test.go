package compile_test

import (
	"bytes"
	"errors"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/weft-hdl/weft/compile"
	"github.com/weft-hdl/weft/sim"
)

// The native backend (JIT where it lowers a kernel, the interpreter
// elsewhere) must leave every home bit-for-bit equal to the interpreter's
// after every clock edge, and print the same output.
func TestNativeMatchesInterp(t *testing.T) {
	if runtime.GOARCH != "amd64" {
		t.Skip("the native backend is amd64-only; this machine runs the interpreter for every kernel")
	}
	soc, _ := filepath.Glob("../examples/soc/rtl/*.sv")
	socV, _ := filepath.Glob("../examples/soc/rtl/*.v")
	uart, _ := filepath.Glob("../examples/uart/rtl/*.sv")
	for _, tc := range []struct {
		name   string
		files  []string
		top    string
		cycles int
		setup  map[string]uint64
	}{
		{"soc", append(soc, socV...), "soc_top", 3000, nil},
		{"uart", uart, "uart_top", 400, map[string]uint64{"divisor": 4, "tx_data": 0xa5, "tx_valid": 1, "rxd": 1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var outs [2]bytes.Buffer
			var sims [2]*sim.Simulator
			for i, bk := range []compile.BackendKind{compile.BackendInterp, compile.BackendNative} {
				p, err := compile.NewBuilder().Files(tc.files...).Top(tc.top).Backend(bk).Output(&outs[i]).Build()
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { p.Close() })
				if bk == compile.BackendNative {
					t.Logf("notes: %v", p.Notes)
				}
				sims[i] = p.Sim
			}
			d := sims[0].Program()
			home := func(name string) int {
				h, ok := d.Lookup(name)
				if !ok {
					t.Fatalf("no %s", name)
				}
				return h.ID
			}
			set := func(name string, v uint64) {
				for _, s := range sims {
					h := s.Program().Signals[home(name)]
					if err := s.SetInput(h, v); err != nil {
						t.Fatal(err)
					}
				}
			}
			for name, v := range tc.setup {
				set(name, v)
			}
			set("rst_n", 0)
			clk := home("clk")
			for cyc := 0; cyc < tc.cycles; cyc++ {
				if cyc == 4 {
					set("rst_n", 1)
				}
				var errs [2]error
				for i, s := range sims {
					_, errs[i] = s.Tick(s.Program().Signals[clk], 1)
				}
				if (errs[0] == nil) != (errs[1] == nil) || (errs[0] != nil && errs[0].Error() != errs[1].Error()) {
					t.Fatalf("cycle %d: interp error %v, native error %v", cyc, errs[0], errs[1])
				}
				compareHomes(t, sims, cyc)
				if errors.Is(errs[0], sim.ErrFinished) {
					break
				}
			}
			if outs[0].String() != outs[1].String() {
				t.Fatalf("output differs:\ninterp:\n%s\nnative:\n%s", outs[0].String(), outs[1].String())
			}
			if tc.name == "soc" && !strings.Contains(outs[1].String(), "result=0x00021363") {
				t.Fatalf("the SoC firmware did not finish:\n%s", outs[1].String())
			}
		})
	}
}

func compareHomes(t *testing.T, sims [2]*sim.Simulator, cyc int) {
	t.Helper()
	for id, h := range sims[0].Program().Signals {
		h2 := sims[1].Program().Signals[id]
		for e := 0; e < h.Elems(); e++ {
			a, err1 := sims[0].GetWords(h, e, nil)
			b, err2 := sims[1].GetWords(h2, e, nil)
			if err1 != nil || err2 != nil {
				t.Fatalf("%s[%d]: %v %v", h.Path, e, err1, err2)
			}
			if !slices.Equal(a, b) {
				t.Fatalf("cycle %d: %s[%d]: interp %x, native %x", cyc, h.Path, e, a, b)
			}
		}
	}
}
