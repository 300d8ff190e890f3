package elab

import (
	"fmt"
	"github.com/weft-hdl/weft/internal/bound"
	"github.com/weft-hdl/weft/internal/tier"
	"math/big"
	"math/rand"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/weft-hdl/weft/design"
)

// topParam returns the value of a parameter of the top instance.
func topParam(t *testing.T, d *design.Design, name string) *big.Int {
	t.Helper()
	for _, p := range d.Top.Params {
		if p.Name == name {
			return p.Value
		}
	}
	t.Fatalf("no parameter %s", name)
	return nil
}

// exprDepth is the depth of a design expression.
func exprDepth(e design.Expr) int {
	deepest := 0
	var walk func(e design.Expr, d int)
	walk = func(e design.Expr, d int) {
		deepest = max(deepest, d)
		switch e := e.(type) {
		case *design.Unary:
			walk(e.X, d+1)
		case *design.Binary:
			walk(e.X, d+1)
			walk(e.Y, d+1)
		case *design.Cond:
			walk(e.C, d+1)
			walk(e.Then, d+1)
			walk(e.Else, d+1)
		case *design.Extend:
			walk(e.X, d+1)
		case *design.Trunc:
			walk(e.X, d+1)
		case *design.Slice:
			walk(e.X, d+1)
		}
	}
	walk(e, 1)
	return deepest
}

// assignedExpr is the right side of the single assignment to path.
func assignedExpr(t *testing.T, d *design.Design, path string) design.Expr {
	t.Helper()
	var rhs design.Expr
	design.WalkStmt(procWriting(t, d, path).Body, func(s design.Stmt) bool {
		if a, ok := s.(*design.Assign); ok && rhs == nil {
			rhs = a.RHS
		}
		return true
	})
	return rhs
}

// Constant concatenations and replications are built in time linear in
// their width: {6000000{1'b1}} took over 20 s when each copy shifted the
// value built so far. (design's TestConcatAndReplicateBits times the
// building itself.)
func TestConstReplicationIsLinear(t *testing.T) {
	src := func(n int) string {
		return fmt.Sprintf(`module top(output logic y);
  localparam logic [%d:0] P = {%d{1'b1}};
  localparam logic [%d:0] Q = {{%d{2'b10}}};
  localparam logic [%d:0] R = {P, {%d{3'b101}}};
  assign y = P[5];
endmodule`, n-1, n, n-1, n/2, n+n/2-1, n/6)
	}
	// The work of the fold, as the bytes it allocates, grows with the
	// width like the values it builds: 8 times the width, about 8 times
	// the bytes.
	_, small := bound.Allocs(func() { mustElab(t, src(750_000)) })
	var d *design.Design
	stop := bound.HangGuard(t, "parameters of 6000000 bits")
	_, large := bound.Allocs(func() { d = mustElab(t, src(6_000_000)) })
	stop()
	t.Logf("parameters of 750000 bits: %d bytes allocated, of 6000000 bits: %d", small, large)
	if large > 20*small {
		t.Errorf("parameters of 6000000 bits allocate %d bytes, of 750000 bits %d: %.1f times as much for 8 times the width",
			large, small, float64(large)/float64(small))
	}
	if p := topParam(t, d, "P"); p.Cmp(design.Ones(6000000)) != 0 {
		t.Errorf("P has %d bits set of %d", p.BitLen(), 6000000)
	}
	q := topParam(t, d, "Q")
	if q.BitLen() != 6000000 || q.Bit(0) != 0 || q.Bit(1) != 1 || q.Bit(5999998) != 0 {
		t.Errorf("Q wrong: %d bits", q.BitLen())
	}
	r := topParam(t, d, "R")
	if r.BitLen() != 9000000 || r.Bit(0) != 1 || r.Bit(1) != 0 || r.Bit(2) != 1 || r.Bit(3000000) != 1 {
		t.Errorf("R wrong: %d bits", r.BitLen())
	}
}

// The parser balances long runs of an associative operator; folding the
// balanced and the left-deep form of random runs must give the same value
// in every context width.
func TestBalancedChainsKeepValues(t *testing.T) {
	rng := rand.New(rand.NewSource(19))
	operand := func() string {
		w := []int{1, 3, 4, 8, 13, 16, 32, 40}[rng.Intn(8)]
		v := rng.Int63n(1 << min(w, 62))
		switch rng.Intn(6) {
		case 0:
			return fmt.Sprintf("%d'sd%d", w, v)
		case 1:
			return fmt.Sprint(rng.Intn(1000) - 500)
		case 2:
			return []string{"'1", "'0"}[rng.Intn(2)]
		case 3:
			return fmt.Sprintf("-%d'sd%d", w, v)
		}
		return fmt.Sprintf("%d'd%d", w, v)
	}
	families := [][]string{{"+"}, {"+", "-"}, {"*"}, {"&"}, {"|"}, {"^"}, {"&&"}, {"||"}}
	for round := 0; round < 40; round++ {
		ops := families[round%len(families)]
		n := 33 + rng.Intn(150)
		terms := []string{operand()}
		var flat strings.Builder
		flat.WriteString(terms[0])
		deep := terms[0]
		for i := 1; i < n; i++ {
			op, x := ops[rng.Intn(len(ops))], operand()
			if op == "*" && rng.Intn(3) > 0 {
				x = fmt.Sprint(rng.Intn(3) + 1) // keep some products nonzero
			}
			flat.WriteString(" " + op + " " + x)
			deep = "(" + deep + " " + op + " " + x + ")"
		}
		for _, typ := range []string{"", "logic [6:0] ", "logic signed [47:0] ", "int ", "logic [99:0] "} {
			src := fmt.Sprintf("module top(output logic y);\n  localparam %sA = %s;\n  localparam %sB = %s;\n  assign y = 1'b0;\nendmodule\n", typ, flat.String(), typ, deep)
			d := mustElab(t, src)
			a, b := topParam(t, d, "A"), topParam(t, d, "B")
			if a.Cmp(b) != 0 {
				t.Fatalf("round %d, %q type %q: balanced %v, left-deep %v\n%s", round, ops, typ, a, b, flat.String())
			}
		}
	}
}

func TestLargeEnumSteps(t *testing.T) {
	for _, n := range []int{20, 1000} {
		// Values out of order and with gaps, so that a search on the value
		// is tested against the declaration order.
		vals := make([]int, n)
		for i := range vals {
			vals[i] = (i*7919)%(4*n) + 1
		}
		var items []string
		for i, v := range vals {
			items = append(items, fmt.Sprintf("E%d = %d", i, v))
		}
		var b strings.Builder
		fmt.Fprintf(&b, "module top(input logic [15:0] s, output logic [15:0] y);\n  typedef enum logic [15:0] {%s} e_t;\n", strings.Join(items, ", "))
		picks := []int{0, 1, n / 2, n - 2, n - 1}
		for j, i := range picks {
			fmt.Fprintf(&b, "  localparam e_t X%d = E%d;\n  localparam e_t N%d = X%d.next(3);\n  localparam e_t P%d = X%d.prev();\n", j, i, j, j, j, j)
		}
		b.WriteString("  localparam e_t Z = e_t'(16'd0);\n  localparam e_t NZ = Z.next();\n")
		b.WriteString("  e_t v;\n  assign v = e_t'(s);\n  assign y = v.next(5);\nendmodule\n")
		d := mustElab(t, b.String())
		for j, i := range picks {
			if got, want := topParam(t, d, fmt.Sprintf("N%d", j)).Int64(), vals[(i+3)%n]; got != int64(want) {
				t.Errorf("n=%d: E%d.next(3) = %d, want %d", n, i, got, want)
			}
			if got, want := topParam(t, d, fmt.Sprintf("P%d", j)).Int64(), vals[(i+n-1)%n]; got != int64(want) {
				t.Errorf("n=%d: E%d.prev() = %d, want %d", n, i, got, want)
			}
		}
		if v := topParam(t, d, "NZ"); v.Sign() != 0 {
			t.Errorf("n=%d: next of a value outside the enum = %v, want 0", n, v)
		}
		if dep := exprDepth(assignedExpr(t, d, "top.y")); dep > 64 {
			t.Errorf("n=%d: v.next(5) nests %d deep", n, dep)
		}
	}
}

func TestLargeInsideSet(t *testing.T) {
	var set []string
	for i := 0; i < 5000; i++ {
		set = append(set, fmt.Sprint(3*i))
	}
	s := strings.Join(set, ", ")
	d := mustElab(t, fmt.Sprintf(`module top(input logic [15:0] a, output logic y);
  localparam bit IN = 300 inside {%s};
  localparam bit OUT = 301 inside {%s};
  assign y = a inside {%s};
endmodule`, s, s, s))
	if topParam(t, d, "IN").Int64() != 1 || topParam(t, d, "OUT").Int64() != 0 {
		t.Error("inside of a constant gave the wrong value")
	}
	if dep := exprDepth(assignedExpr(t, d, "top.y")); dep > 40 {
		t.Errorf("a 5000-item set nests %d deep", dep)
	}
}

func TestConstWorkBudget(t *testing.T) {
	// A power of a 16-Mbit value would square 16-Mbit numbers 16 million
	// times: refused before it starts, so that beyond A's 2 MiB little is
	// allocated (a single square would be 4 MiB).
	stop := bound.HangGuard(t, "A ** A of 16 Mbit")
	_, bytes := bound.Allocs(func() {
		expectError(t, `module top(output logic y);
  localparam logic [16777215:0] A = '1;
  localparam logic [16777215:0] B = A ** A;
  assign y = B[0];
endmodule`, Options{}, "t.sv:3:37: error: '**' on constants: constant evaluation needs more than 34359738368 bits in this elaboration (elab.Limits.ConstBits; raise it with --max-const-bits)")
	})
	stop()
	if bytes > 16<<20 {
		t.Errorf("refusing A ** A of 16 Mbit allocated %d MiB: was the power started?", bytes>>20)
	}

	// The same folds within a larger limit.
	wide := `module top(output logic y);
  localparam logic [999:0] A = {1000{1'b1}};
  localparam logic [999:0] B = A + A + A + A + A + A + A + A + A + A;
  assign y = B[0];
endmodule`
	expectError(t, wide, Options{Limits: Limits{ConstBits: 5000}},
		"t.sv:3:32: error: '+' on constants: constant evaluation needs more than 5000 bits in this elaboration (elab.Limits.ConstBits; raise it with --max-const-bits)")
	if d, diags := elabString(t, wide, Options{Limits: Limits{ConstBits: 1 << 20}}); d == nil {
		t.Errorf("within the limit: %v", diags.Err())
	}

	// Steps: every call of a constant function counts against one budget.
	steps := `module top(output logic [31:0] y);
  function automatic int f(int n);
    int s = 0;
    for (int i = 0; i < n; i++) s = s + i;
    return s;
  endfunction
  localparam int A = f(1000);
  localparam int B = f(1000);
  assign y = A + B;
endmodule`
	expectError(t, steps, Options{Limits: Limits{ConstSteps: 5000}},
		"t.sv:8:22: error: call of 'f': constant evaluation needs more than 5000 steps in this elaboration (elab.Limits.ConstSteps; raise it with --max-const-steps)")
	if d, diags := elabString(t, steps, Options{Limits: Limits{ConstSteps: 10000}}); d == nil {
		t.Errorf("within the limit: %v", diags.Err())
	}

	// An initial block elaboration only tries to run has a budget of its
	// own: running out of it leaves the block to run time, and no
	// parameter after it goes short.
	d, diags := elabString(t, `module top(input logic [9:0] a, output logic [31:0] y);
  logic [31:0] m [1024];
  initial for (int i = 0; i < 1024; i++) m[i] = i;
  function automatic int f(int n);
    int s = 0;
    for (int i = 0; i < n; i++) s = s + i;
    return s;
  endfunction
  localparam int P = f(100);
  assign y = m[a] + P;
endmodule`, Options{Limits: Limits{ConstSteps: 1000}})
	if d == nil {
		t.Fatalf("an initial block over the budget failed the design: %v", diags.Err())
	}
	if len(d.Initial) != 1 || topParam(t, d, "P").Int64() != 4950 {
		t.Errorf("%d initial processes (want the block kept for run time), P = %v", len(d.Initial), topParam(t, d, "P"))
	}
}

// A string parameter is a number of 8 bits a character: used as a width it
// is refused at once, without printing its millions of digits.
func TestStringParameterAsNumber(t *testing.T) {
	refuse := func(n int) {
		s := strings.Repeat("w", n)
		expectError(t, "module top(output logic y);\n  parameter S = \""+s+"\";\n  logic [S:0] x;\n  assign y = x[0];\nendmodule\n", Options{},
			fmt.Sprintf("t.sv:3:10: error: range bound (a %d-bit number) is too large", 8*n-1))
		expectError(t, "module top(output logic y);\n  parameter S = \""+s+"\";\n  assign y = ^{S{1'b1}};\nendmodule\n", Options{},
			fmt.Sprintf("t.sv:3:16: error: replication count (a %d-bit number) is too large", 8*n-1))
	}
	// The digits of a number cost allocations that grow with its length
	// (9000 for a million characters); refusing it without them costs
	// about as many allocations for 8 times the characters.
	small, _ := bound.Allocs(func() { refuse(125_000) })
	stop := bound.HangGuard(t, "a string parameter of 1000000 characters as a number")
	large, _ := bound.Allocs(func() { refuse(1_000_000) })
	stop()
	t.Logf("refusing strings of 125000 characters: %d allocations, of 1000000: %d", small, large)
	if large > 2*small {
		t.Errorf("refusing strings of 1000000 characters takes %d allocations, of 125000 %d: is the number printed?", large, small)
	}
	if got := numText(big.NewInt(-12)); got != "-12" {
		t.Errorf("numText(-12) = %s", got)
	}
}

func TestGenerateAndInstanceLimits(t *testing.T) {
	expectError(t, `module top(output logic y);
  for (genvar i = 0; i < 20; i++) begin : a
    for (genvar j = 0; j < 20; j++) begin : b
      logic t;
      assign t = 1'b0;
    end
  end
  assign y = 1'b0;
endmodule`, Options{Limits: Limits{GenerateIterations: 100}},
		"t.sv:3:5: error: generate loop 'b': the generate loops of this design run more than 100 iterations in all (elab.Limits.GenerateIterations; raise it with --max-generate-iterations)")
	tree := `module m #(parameter int N = 4) (output logic y);
  if (N > 0) begin : g
    logic a, b;
    m #(N-1) u1(a);
    m #(N-1) u2(b);
    assign y = a ^ b;
  end else begin : l
    assign y = 1'b1;
  end
endmodule
module top(output logic y);
  m #(4) u(y);
endmodule`
	expectError(t, tree, Options{Limits: Limits{Instances: 10}},
		"t.sv:5:14: error: the design has more than 10 instances (elab.Limits.Instances; raise it with --max-instances)")
	if d, diags := elabString(t, tree, Options{Limits: Limits{Instances: 32}}); d == nil {
		t.Errorf("32 instances within the limit: %v", diags.Err())
	}
}

// Parameters and types defined each through the next nest elaboration's
// recursion as deep as the chain is long: the chain is bounded, and at the
// bound the recursion fits in a fraction of the stack Go allows.
func TestDefinitionChains(t *testing.T) {
	defer debug.SetMaxStack(debug.SetMaxStack(256 << 20))
	params := func(n int) string {
		var b strings.Builder
		b.WriteString("module top(output logic [31:0] y);\n")
		for i := 0; i < n; i++ {
			fmt.Fprintf(&b, "  localparam int P%d = P%d + 1;\n", i, i+1)
		}
		fmt.Fprintf(&b, "  localparam int P%d = 0;\n  assign y = P0;\nendmodule\n", n)
		return b.String()
	}
	d := mustElab(t, params(2000))
	if v := topParam(t, d, "P0"); v.Int64() != 2000 {
		t.Errorf("P0 = %v", v)
	}
	const nest = "error: expressions, parameters and types nest more than 32768 levels deep here (each defined through the next); define them in fewer steps"
	// 40,000 levels pass the bound; the long tier goes five times as
	// deep (1.3 GB of stack under the race detector).
	n := tier.Pick(40_000, 200_000)
	stop := bound.HangGuard(t, fmt.Sprintf("a chain of %d parameters", n))
	d, diags := elabString(t, params(n), Options{})
	stop()
	if d != nil || diags.ErrorCount() != 1 || !strings.Contains(diags.List[0].Error(), nest) {
		t.Errorf("a chain of %d parameters: %v", n, diags.Err())
	}
	var b strings.Builder
	b.WriteString("module top(output logic [31:0] y);\n")
	for i := 0; i < 40000; i++ {
		fmt.Fprintf(&b, "  typedef T%d T%d;\n", i+1, i)
	}
	b.WriteString("  typedef logic [31:0] T40000;\n  T0 v;\n  assign v = 0;\n  assign y = v;\nendmodule\n")
	d, diags = elabString(t, b.String(), Options{})
	if d != nil || diags.ErrorCount() != 1 || !strings.Contains(diags.List[0].Error(), nest) {
		t.Errorf("a chain of 40000 typedefs: %v", diags.Err())
	}
}

// A recursive constant function whose body nests deep recursion of the
// evaluator into every call: bounded, with an error rather than a crash.
func TestConstFunctionNesting(t *testing.T) {
	defer debug.SetMaxStack(debug.SetMaxStack(256 << 20))
	expectError(t, `module top(output logic [31:0] y);
  function automatic int f(int n);
    return n == 0 ? 0 : (f(n - 1)`+strings.Repeat(" >> 0", 3000)+`);
  endfunction
  localparam int X = f(200);
  assign y = X;
endmodule`, Options{}, "t.sv:5:22: error: call of 'f' is not a constant: evaluation nested more than 65536 levels deep")
}

// A packed pattern with a default fills the positions no item names in
// runs: a 16-Mbit vector of '{default: a} is one replication, not 16
// million parts for every later pass to walk.
func TestLargePackedPatterns(t *testing.T) {
	d := mustElab(t, `module top(input logic a, b, output logic y, output logic [15:0] z);
  localparam logic [99999:0] P = '{3: 1'b0, 99990: 1'b0, default: 1'b1};
  localparam logic [15:0] Q = '{2: 1'b1, 15: 1'b1, default: 1'b0};
  logic [16777215:0] v;
  assign v = '{7: b, default: a};
  assign y = v[5] ^ v[7] ^ P[3];
  assign z = '{1: b, default: a};
endmodule`)
	p := topParam(t, d, "P")
	for _, bit := range []int{0, 2, 4, 99989, 99991, 99999} {
		if p.Bit(bit) != 1 {
			t.Errorf("P[%d] = 0", bit)
		}
	}
	if p.Bit(3) != 0 || p.Bit(99990) != 0 {
		t.Error("P's named bits are not 0")
	}
	if q := topParam(t, d, "Q"); q.Int64() != 1<<15|1<<2 {
		t.Errorf("Q = %#x", q)
	}
	c, ok := assignedExpr(t, d, "top.v").(*design.Concat)
	if !ok || len(c.Parts) != 9 {
		t.Fatalf("'{7: b, default: a} is %s", design.ExprString(assignedExpr(t, d, "top.v")))
	}
	if r, ok := c.Parts[0].(*design.Repl); !ok || r.N != 16777216-8 {
		t.Errorf("the default above element 7 is %T", c.Parts[0])
	}
	if c, ok := assignedExpr(t, d, "top.z").(*design.Concat); !ok || len(c.Parts) != 16 {
		t.Errorf("a short pattern keeps one part per element: %s", design.ExprString(assignedExpr(t, d, "top.z")))
	}
	expectError(t, `module top(output logic [3:0] y);
  assign y = '{0: 1'b1, 2: 1'b0, 3: 1'b1};
endmodule`, Options{}, "t.sv:2:14: error: the pattern gives no value for element 1")
}

// TestLongGenerateLoop: one generate loop may run past 2^16 iterations
// (each loop used to be refused there); only the design's total is bound.
func TestLongGenerateLoop(t *testing.T) {
	d := mustElab(t, `module top(output logic y);
  for (genvar i = 0; i < 70000; i++) begin : g
  end
  assign y = 1'b1;
endmodule`)
	if d.Top == nil {
		t.Fatal("no top")
	}
	expectError(t, `module top(output logic y);
  for (genvar i = 0; i < 70000; i++) begin : g
  end
  assign y = 1'b1;
endmodule`, Options{Limits: Limits{GenerateIterations: 65536}},
		"t.sv:2:3: error: generate loop 'g': the generate loops of this design run more than 65536 iterations in all (elab.Limits.GenerateIterations; raise it with --max-generate-iterations)")
}
