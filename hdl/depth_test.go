package hdl

import (
	"strings"
	"testing"
)

// treeDepth is the depth of an expression tree (iterative, as deepExpr).
func treeDepth(e Expr) int {
	type item struct {
		e Expr
		d int
	}
	deepest := 0
	stack := []item{{e, 1}}
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		deepest = max(deepest, it.d)
		exprChildren(it.e, func(c Expr) {
			if c != nil {
				stack = append(stack, item{c, it.d + 1})
			}
		})
	}
	return deepest
}

// assignRHS parses `module m; assign y = RHS; endmodule` and returns RHS.
func assignRHS(t *testing.T, rhs string) (Expr, error) {
	t.Helper()
	st, _, err := ParseString("t.sv", "module m; assign y = "+rhs+"; endmodule")
	if err != nil {
		return nil, err
	}
	return st.Modules[0].Items[0].(*ContAssign).RHS, nil
}

// leaves lists the operands of a run of the operators in ops, left to
// right, with the operator before each (the first has "").
func leaves(e Expr, ops string) (names, before []string) {
	var walk func(e Expr, op string)
	walk = func(e Expr, op string) {
		if b, ok := e.(*BinaryExpr); ok && strings.Contains(ops, b.Op) {
			walk(b.X, op)
			walk(b.Y, b.Op)
			return
		}
		names = append(names, e.(*Ident).Name)
		before = append(before, op)
	}
	walk(e, "")
	return names, before
}

func TestLongRunsAreBalanced(t *testing.T) {
	const n = 100_000
	for _, op := range []string{"+", "*", "&", "|", "^", "&&", "||"} {
		var b strings.Builder
		b.WriteString("a0")
		for i := 1; i < n; i++ {
			b.WriteString(" " + op + " a" + itoa(i))
		}
		x, err := assignRHS(t, b.String())
		if err != nil {
			t.Fatalf("%s: %v", op, err)
		}
		if d := treeDepth(x); d > 20 {
			t.Errorf("%s: %d operands nest %d deep, want a balanced tree", op, n, d)
		}
		names, _ := leaves(x, op)
		if len(names) != n || names[0] != "a0" || names[n-1] != "a"+itoa(n-1) || names[n/2] != "a"+itoa(n/2) {
			t.Errorf("%s: operands out of order: %d of them, %v ... %v", op, len(names), names[:3], names[len(names)-3:])
		}
		if x.Position().Col != 22 {
			t.Errorf("%s: the root is at column %d, want the first operand's, 22", op, x.Position().Col)
		}
	}
}

// TestAdditiveRuns checks that a long run of + and - becomes the sum of
// the operands after a + less the sum of those after a -, operands in order.
func TestAdditiveRuns(t *testing.T) {
	var b strings.Builder
	b.WriteString("a0")
	var wantPos, wantNeg []string
	wantPos = append(wantPos, "a0")
	for i := 1; i < 1000; i++ {
		op := "+"
		if i%3 == 0 {
			op = "-"
		}
		name := "a" + itoa(i)
		b.WriteString(op + name)
		if op == "+" {
			wantPos = append(wantPos, name)
		} else {
			wantNeg = append(wantNeg, name)
		}
	}
	x, err := assignRHS(t, b.String())
	if err != nil {
		t.Fatal(err)
	}
	sub, ok := x.(*BinaryExpr)
	if !ok || sub.Op != "-" {
		t.Fatalf("root is %T, want the difference of two sums", x)
	}
	pos, _ := leaves(sub.X, "+")
	neg, _ := leaves(sub.Y, "+")
	if strings.Join(pos, ",") != strings.Join(wantPos, ",") || strings.Join(neg, ",") != strings.Join(wantNeg, ",") {
		t.Errorf("sums regrouped wrongly:\n+ %v\n- %v", pos, neg)
	}
	if d := treeDepth(x); d > 12 {
		t.Errorf("depth %d", d)
	}
}

// Short runs keep the usual left-deep shape (and the dumps and messages
// that show it).
func TestShortRunsStayLeftDeep(t *testing.T) {
	x, err := assignRHS(t, "a + b - c + d * e * f")
	if err != nil {
		t.Fatal(err)
	}
	if got := exprString(x); got != "(((a + b) - c) + ((d * e) * f))" {
		t.Errorf("got %s", got)
	}
	// Precedence still binds within and around a long run.
	rhs := "x == " + strings.TrimSuffix(strings.Repeat("a * b + ", 40), " + ") + " && z"
	x, err = assignRHS(t, rhs)
	if err != nil {
		t.Fatal(err)
	}
	and, ok := x.(*BinaryExpr)
	if !ok || and.Op != "&&" {
		t.Fatalf("root %s, want &&", exprString(x))
	}
	eq, ok := and.X.(*BinaryExpr)
	if !ok || eq.Op != "==" {
		t.Fatalf("left of && is %s, want ==", exprString(and.X))
	}
	terms, _ := leaves(eq.Y, "+*")
	if len(terms) != 80 {
		t.Errorf("%d leaves in the sum of products, want 80", len(terms))
	}
}

func exprString(e Expr) string {
	switch e := e.(type) {
	case *Ident:
		return e.Name
	case *BinaryExpr:
		return "(" + exprString(e.X) + " " + e.Op + " " + exprString(e.Y) + ")"
	}
	return "?"
}

func TestExprDepthBound(t *testing.T) {
	const want = "expression nested more than 4096 levels deep; split it with intermediate signals"
	for _, tc := range []struct {
		name, src string
		ok        bool
	}{
		{"shift chain at the bound", "module m; assign y = a" + strings.Repeat(" << a", MaxExprDepth/2-1) + "; endmodule", true},
		{"shift chain", "module m; assign y = a" + strings.Repeat(" << a", MaxExprDepth) + "; endmodule", false},
		{"conditional chain", "module m; assign y = " + strings.Repeat("c ? a : ", MaxExprDepth) + "b; endmodule", false},
		{"select chain", "module m; assign y = a" + strings.Repeat("[0]", MaxExprDepth+1) + "; endmodule", false},
		{"assigned select chain", "module m; always_comb a" + strings.Repeat("[0]", MaxExprDepth+1) + " = 1; endmodule", false},
		{"member chain", "module m; assign y = a" + strings.Repeat(".b", MaxExprDepth+1) + "; endmodule", false},
		{"inside chain", "module m; assign y = a" + strings.Repeat(" inside {1}", MaxExprDepth+1) + "; endmodule", false},
		{"sum in a range", "module m; logic [a" + strings.Repeat(" - a", MaxExprDepth) + ":0] y; endmodule", true},
		{"shifts in a range", "module m; logic [a" + strings.Repeat(" >> a", MaxExprDepth) + ":0] y; endmodule", false},
	} {
		_, _, err := ParseString("deep.sv", tc.src)
		if tc.ok {
			if err != nil {
				t.Errorf("%s: %v", tc.name, err.(*ErrorList).First().Msg)
			}
			continue
		}
		list, _ := err.(*ErrorList)
		if list == nil || len(list.List) != 1 || list.First().Msg != want {
			msg := "no error"
			if list != nil {
				msg = list.First().Msg
			}
			t.Errorf("%s: got %s", tc.name, msg)
		}
	}
}

// A conditional chain is read in a loop: it is not limited by the
// parser's recursion bound (500) but only by MaxExprDepth.
func TestLongConditionalChain(t *testing.T) {
	x, err := assignRHS(t, strings.Repeat("s == 1 ? a : ", 3000)+"b")
	if err != nil {
		t.Fatal(err.(*ErrorList).First().Msg)
	}
	n := 0
	for c, ok := x.(*CondExpr); ok; c, ok = c.Else.(*CondExpr) {
		n++
		if c.Then.(*Ident).Name != "a" {
			t.Fatal("then branch lost")
		}
		if _, last := c.Else.(*Ident); last && c.Else.(*Ident).Name != "b" {
			t.Fatal("final else lost")
		}
	}
	if n != 3000 {
		t.Errorf("%d conditionals, want 3000", n)
	}
	if _, _, err := ParseString("t.sv", "module m; assign y = c ? a b; endmodule"); err == nil ||
		!strings.Contains(err.(*ErrorList).First().Msg, "expected ':' in conditional expression") {
		t.Errorf("missing ':': %v", err)
	}
}

func TestLongLinesAreQuotedInPart(t *testing.T) {
	line := "  assign y = " + strings.Repeat("a<<", 10_000) + "a;"
	col := 3000
	q, caret := quoteLine(line, col)
	if len(q) > maxQuote+6 || !strings.HasPrefix(q, "...") || !strings.HasSuffix(q, "...") {
		t.Fatalf("quote %q", q)
	}
	if q[caret-1] != line[col-1] || q[caret-4:caret+4] != line[col-4:col+4] {
		t.Errorf("caret at %d of the quote does not point at column %d", caret, col)
	}
	d := &Diagnostic{Pos: Pos{File: "t.sv", Line: 1, Col: col}, Msg: "m", LineText: q, caretCol: caret}
	lines := strings.Split(d.Error(), "\n")
	if len(lines) != 3 || len(lines[2]) != len("    ")+caret || lines[1][len(lines[2])-1] != line[col-1] {
		t.Errorf("caret line does not point at the column:\n%s", d.Error())
	}
	if q, c := quoteLine("short", 3); q != "short" || c != 0 {
		t.Errorf("a short line is quoted whole: %q %d", q, c)
	}
	// A cut never splits a UTF-8 sequence.
	utf := strings.Repeat("é", 500)
	if q, _ := quoteLine(utf, 401); !strings.HasPrefix(q, "...é") {
		t.Errorf("cut inside a character: %q", q[:8])
	}
}

func itoa(i int) string {
	if i == 0 {
		return "0"
	}
	var b []byte
	for ; i > 0; i /= 10 {
		b = append([]byte{byte('0' + i%10)}, b...)
	}
	return string(b)
}
