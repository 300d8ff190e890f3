//go:build amd64 && (linux || darwin || freebsd || netbsd || openbsd)

package jit_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/weft-hdl/weft/compile"
	"github.com/weft-hdl/weft/internal/tier"
	"github.com/weft-hdl/weft/jit"
	"github.com/weft-hdl/weft/kernels"
	"github.com/weft-hdl/weft/sir"
)

// maxRollWork bounds the roll search's work per instruction compiled: each
// search of a block may examine 64/4 instructions per instruction, and the
// last candidate run the block's length again; a unit's blocks are
// searched twice for vector runs and twice for scalar ones (before and
// after sir/opt's Reuse). The quadratic search did 550 per instruction at
// 16,384 bits and 2,165 at 65,536.
const maxRollWork = 4 * (64/4 + 4)

// wideKernels compiles src (top t) to kernels, for the interpreter: the
// test compiles the units natively itself.
func wideKernels(t *testing.T, src string) *kernels.Program {
	t.Helper()
	p, err := compile.NewBuilder().Source("t.sv", src).Top("t").Backend(compile.BackendInterp).NoCache().Build()
	if err != nil {
		t.Fatalf("build: %v", err)
	}
	t.Cleanup(func() { p.Close() })
	return p.Kernels
}

// compileAll compiles every unit of kp natively and returns the SIR
// instructions compiled and the roll search's work on them.
func compileAll(t *testing.T, kp *kernels.Program) (insts, work int64) {
	t.Helper()
	units := []*sir.Unit{kp.Settle, kp.Event, kp.Initial}
	for _, e := range kp.Events {
		units = append(units, e.Fused)
	}
	for _, tk := range kp.Ticks {
		units = append(units, tk.Unit)
	}
	before := jit.RollSearchWork()
	for _, u := range units {
		if u == nil {
			continue
		}
		for _, b := range u.Blocks {
			if b != nil {
				insts += int64(len(b.Insts))
			}
		}
		k, err := jit.Compile(u, kp.Layout, jit.Options{StateSize: kp.StateSize})
		var ue *jit.UnsupportedError
		if errors.As(err, &ue) {
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", u.Name, err)
		}
		k.Close()
	}
	return insts, jit.RollSearchWork() - before
}

// The word-by-word code of very wide vectors is long blocks of near-
// replicas (the loads of every word, then the ops on them) that fail to
// roll only at the end of each candidate run: the search that looked for
// runs tried each of them again from every instruction, and compiling a
// million-bit design natively took minutes where the interpreter started
// in seconds. The search's work is now bounded per instruction.
func TestWideVectorsCompileInLinearWork(t *testing.T) {
	design := func(bits int) string {
		return fmt.Sprintf(`module t(input logic clk);
  logic [%[1]d:0] a, b, c;
  always_ff @(posedge clk) begin
    a <= a + 1;
    b <= b ^ a;
    c <= (a & b) | (c << 3);
  end
endmodule
`, bits-1)
	}
	small, large := tier.Pick(16_384, 250_000), tier.Pick(65_536, 1_000_000)
	si, sw := compileAll(t, wideKernels(t, design(small)))
	li, lw := compileAll(t, wideKernels(t, design(large)))
	t.Logf("%d bits: %d SIR instructions, roll search work %d; %d bits: %d, %d", small, si, sw, large, li, lw)
	perSmall, perLarge := float64(sw)/float64(si), float64(lw)/float64(li)
	if perSmall > maxRollWork || perLarge > maxRollWork {
		t.Errorf("roll search work per instruction: %.1f at %d bits, %.1f at %d bits", perSmall, small, perLarge, large)
	}
}

// Wide multiplication and division are loops in SIR; around them the
// straight-line code of the operands' words is what the roll search sees.
// A 100,000-bit product, quotient and remainder took 20 s of CPU to compile
// natively, against 1.4 s to run interpreted.
func TestWideMulDivCompileInLinearWork(t *testing.T) {
	design := func(words int) string {
		return fmt.Sprintf(`module t(input logic clk);
  logic [%[1]d:0] a = {%[2]d{32'h9e3779b9}}, b = {%[2]d{32'h7f4a7c15}}, p, q, r;
  always_ff @(posedge clk) begin
    p <= a * b;
    q <= a / (b | 1);
    r <= a %% (b | 1);
    a <= a + p[%[1]d:0] + 1;
  end
endmodule
`, 32*words-1, words)
	}
	small, large := tier.Pick(256, 781), tier.Pick(1024, 3125)
	si, sw := compileAll(t, wideKernels(t, design(small)))
	li, lw := compileAll(t, wideKernels(t, design(large)))
	t.Logf("%d bits: %d SIR instructions, roll search work %d; %d bits: %d, %d", 32*small, si, sw, 32*large, li, lw)
	perSmall, perLarge := float64(sw)/float64(si), float64(lw)/float64(li)
	if perSmall > maxRollWork || perLarge > maxRollWork {
		t.Errorf("roll search work per instruction: %.1f at %d bits, %.1f at %d bits", perSmall, 32*small, perLarge, 32*large)
	}
}
