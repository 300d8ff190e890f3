package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/weft-hdl/weft/internal/tier"
)

// lintGenerated writes src into a temporary directory as name, lints it
// in-process with the extra flags and returns the exit code, the output and
// how long it took.
func lintGenerated(t *testing.T, name, src string, flags ...string) (int, string, time.Duration) {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	start := time.Now()
	code := run(append(append([]string{"lint"}, flags...), filepath.Join(dir, name)), &stdout, &stderr)
	out := strings.ReplaceAll(stdout.String()+stderr.String(), dir+string(filepath.Separator), "")
	return code, out, time.Since(start)
}

func sumDesign(terms int) string {
	var b strings.Builder
	b.WriteString("module t(input logic clk, input logic [31:0] a, output logic [31:0] y);\n  assign y = a")
	for range terms - 1 {
		b.WriteString(" + a")
	}
	b.WriteString(";\nendmodule\n")
	return b.String()
}

// A generated sum of 10^6 terms overflowed the stack in elaboration; the
// parser now balances it, and 300k and 10^6 terms lint in the long tier.
// By default 100k terms show the balancing as well: unbalanced, any sum of
// more than 4096 terms would fail the expression depth bound.
func TestLintHugeSums(t *testing.T) {
	if testing.Short() {
		t.Skip("lints designs of millions of tokens")
	}
	for _, n := range tier.Pick([]int{100_000}, []int{300_000, 1_000_000}) {
		code, out, took := lintGenerated(t, "sum.sv", sumDesign(n))
		if code != 0 || !strings.HasPrefix(out, "ok: top t:") {
			t.Errorf("%d terms: exit %d\n%.2000s", n, code, out)
		}
		t.Logf("%d terms: %v", n, took)
	}
}

// An expression no grouping can flatten ends at the depth bound with an
// error at its start, quoting a window of its line, not the megabytes of it.
func TestLintDeepExpression(t *testing.T) {
	src := "module t(input logic [31:0] a, output logic [31:0] y);\n  assign y = a" + strings.Repeat(" << a", 100_000) + ";\nendmodule\n"
	code, out, _ := lintGenerated(t, "deep.sv", src)
	want := "deep.sv:2:14: error: expression nested more than 4096 levels deep; split it with intermediate signals"
	if code != 1 || !strings.HasPrefix(out, want+"\n") {
		t.Errorf("exit %d\n%.500s", code, out)
	}
	if len(out) > 1000 {
		t.Errorf("the message quotes %d bytes", len(out))
	}
}

// Parameters defined each through the next: the chain's length bounds
// elaboration's recursion, which overflowed the stack at 250k parameters
// (the long tier's size; 40k pass the bound too, in a fifth the memory).
func TestLintParameterChain(t *testing.T) {
	n := tier.Pick(40_000, 250_000)
	var b strings.Builder
	b.WriteString("module t(output logic [31:0] y);\n")
	for i := range n {
		fmt.Fprintf(&b, "  localparam int P%d = P%d + 1;\n", i, i+1)
	}
	fmt.Fprintf(&b, "  localparam int P%d = 0;\n  assign y = P0;\nendmodule\n", n)
	code, out, _ := lintGenerated(t, "chain.sv", b.String())
	if code != 1 || !strings.Contains(out, ": error: expressions, parameters and types nest more than 32768 levels deep here") {
		t.Errorf("exit %d\n%.1000s", code, out)
	}
}

func TestElabLimitFlags(t *testing.T) {
	src := `module leaf(output logic y);
  assign y = 1'b1;
endmodule
module t(output logic [31:0] y);
  function automatic int f(int n);
    int s = 0;
    for (int i = 0; i < n; i++) s = s + i;
    return s;
  endfunction
  localparam int P = f(100);
  localparam logic [99999:0] W = {100000{1'b1}} + 1;
  logic [3:0] z;
  for (genvar i = 0; i < 4; i++) begin : g
    leaf u(z[i]);
  end
  assign y = P + W[31:0] + z;
endmodule
`
	if code, out, _ := lintGenerated(t, "t.sv", src); code != 0 {
		t.Fatalf("defaults: exit %d\n%s", code, out)
	}
	for _, tc := range []struct{ flag, want string }{
		{"--max-const-steps=100", "t.sv:10:22: error: call of 'f': constant evaluation needs more than 100 steps in this elaboration (elab.Limits.ConstSteps; raise it with --max-const-steps)"},
		{"--max-const-bits=150000", "t.sv:11:34: error: '+' on constants: constant evaluation needs more than 150000 bits in this elaboration (elab.Limits.ConstBits; raise it with --max-const-bits)"},
		{"--max-generate-iterations=3", "t.sv:13:3: error: generate loop 'g': the generate loops of this design run more than 3 iterations in all (elab.Limits.GenerateIterations; raise it with --max-generate-iterations)"},
		{"--max-instances=4", "t.sv:14:10: error: the design has more than 4 instances (elab.Limits.Instances; raise it with --max-instances)"},
	} {
		code, out, _ := lintGenerated(t, "t.sv", src, tc.flag)
		if code != 1 || firstError(out) != tc.want {
			t.Errorf("%s: exit %d, first error\n got: %s\nwant: %s", tc.flag, code, firstError(out), tc.want)
		}
	}
	for _, flag := range []string{"--max-const-steps=1K", "--max-instances=5"} {
		if code, out, _ := lintGenerated(t, "t.sv", src, flag); code != 0 {
			t.Errorf("%s: exit %d\n%s", flag, code, out)
		}
	}
	for _, bad := range []string{"--max-const-steps=0", "--max-const-bits=-1", "--max-instances=x"} {
		if code, _, _ := lintGenerated(t, "t.sv", src, bad); code != 2 {
			t.Errorf("%s: exit %d, want 2", bad, code)
		}
	}
}
