package compile_test

import (
	"fmt"
	"github.com/weft-hdl/weft/internal/tier"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/weft-hdl/weft/compile"
	"github.com/weft-hdl/weft/hdl"
)

// TestDeepExpressionsStack builds designs whose expressions nest as deep as
// the parser lets them (hdl.MaxExprDepth), in the shapes it cannot balance,
// through the whole pipeline (elaboration, the design walkers, slt, the
// lowering, sir/opt and both backends) under a goroutine stack limit of
// 64 MiB, a sixteenth of Go's default: past it the test binary dies with a
// stack overflow. Measured at the bound, the deepest pass needs 4-8 MiB
// (elaboration's self-determined types, about 0.7 KiB a level).
func TestDeepExpressionsStack(t *testing.T) {
	tier.LongOnly(t, "builds designs of thousands of levels (hdl and elab check each walker's depth on their own)")
	defer debug.SetMaxStack(debug.SetMaxStack(64 << 20))
	d := hdl.MaxExprDepth - 4
	conds := func() string {
		var b strings.Builder
		for i := 0; i < d; i++ {
			fmt.Fprintf(&b, "a == %d ? %d : ", i, i+1)
		}
		return b.String() + "99"
	}
	for _, tc := range []struct {
		name, rhs string
		want      uint64
	}{
		{"shifts", "(a + 7)" + strings.Repeat(" >> a[31:30]", d), 10},
		{"quotients", "(a * 1000)" + strings.Repeat(" / 1", d), 3000},
		{"comparisons", "a" + strings.Repeat(" < a", d), 1},
		{"conditionals", conds(), 4},
		{"sum", "a" + strings.Repeat(" + a", 2*d), uint64(3 * (2*d + 1))},
	} {
		src := "module top(input logic clk, input logic [31:0] a, output logic [31:0] q);\n" +
			"  always_ff @(posedge clk) q <= " + tc.rhs + ";\nendmodule\n"
		for _, bk := range []compile.BackendKind{compile.BackendInterp, compile.BackendNative} {
			p, err := compile.NewBuilder().Source("top.sv", src).Backend(bk).Build()
			if err != nil {
				t.Fatalf("%s %s: %v", tc.name, bk, err)
			}
			dt := p.DUT()
			dt.MustSignal("a").Set(3)
			if _, err := p.Sim.Tick(dt.MustSignal("clk").Home(), 1); err != nil {
				t.Fatalf("%s %s: %v", tc.name, bk, err)
			}
			if got := dt.MustSignal("q").Get(); got != tc.want {
				t.Errorf("%s %s: q = %d, want %d", tc.name, bk, got, tc.want)
			}
			p.Close()
		}
	}
}
