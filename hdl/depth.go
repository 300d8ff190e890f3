package hdl

// MaxExprDepth bounds how deeply one expression tree nests. Elaboration, the
// design walkers, constant evaluation, slt and the lowering all recurse over
// expressions; at this depth the whole pipeline needs 4-8 MiB of goroutine
// stack (compile's TestDeepExpressionsStack runs it under a 64 MiB limit),
// far from Go's 1 GiB, past which an overflow is a crash rather than an
// error. What nests expressions in each other (parameters defined through
// parameters, calls of constant functions) has bounds of its own in elab
// and design.Machine. Long runs of one associative operator do not count
// against it: the parser balances them (see opRun).
const MaxExprDepth = 4096

// balanceMin is the run length from which the parser balances a run of an
// associative operator; shorter runs keep the usual left-deep shape.
const balanceMin = 32

// deepExpr reports whether e nests more than limit levels deep. It walks
// the tree with an explicit stack: it must not itself be the recursion it
// guards against.
func deepExpr(e Expr, limit int) bool {
	type item struct {
		e     Expr
		depth int
	}
	var buf [32]item
	stack := append(buf[:0], item{e, 1})
	var kids [8]Expr
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if it.depth > limit {
			return true
		}
		for _, c := range appendChildren(kids[:0], it.e) {
			if c != nil {
				stack = append(stack, item{c, it.depth + 1})
			}
		}
	}
	return false
}

// exprChildren calls f for each operand of e, including the expressions in
// a data type written inside it (a cast's type, a $bits argument).
func exprChildren(e Expr, f func(Expr)) {
	var kids [8]Expr
	for _, c := range appendChildren(kids[:0], e) {
		f(c)
	}
}

// appendChildren appends the operands of e to dst (see exprChildren).
func appendChildren(dst []Expr, e Expr) []Expr {
	switch e := e.(type) {
	case *MemberExpr:
		return append(dst, e.X)
	case *UnaryExpr:
		return append(dst, e.X)
	case *BinaryExpr:
		return append(dst, e.X, e.Y)
	case *CondExpr:
		return append(dst, e.Cond, e.Then, e.Else)
	case *IndexExpr:
		return append(dst, e.X, e.Index)
	case *RangeExpr:
		return append(dst, e.X, e.Left, e.Right)
	case *ConcatExpr:
		return append(dst, e.Items...)
	case *ReplicateExpr:
		return append(append(dst, e.Count), e.Items...)
	case *StreamExpr:
		return append(append(dst, e.Slice), e.Items...)
	case *CallExpr:
		dst = append(append(dst, e.Scope), e.Args...)
		for _, a := range e.NamedArgs {
			dst = append(dst, a)
		}
		return dst
	case *CastExpr:
		dst = append(dst, e.Width, e.X)
		typeExprs(e.Type, func(x Expr) { dst = append(dst, x) })
		return dst
	case *InsideExpr:
		return append(append(dst, e.X), e.Set...)
	case *PatternExpr:
		dst = append(append(dst, e.Keys...), e.Items...)
		return append(dst, e.Default, e.Repeat)
	case *TypeExpr:
		typeExprs(e.Type, func(x Expr) { dst = append(dst, x) })
		return dst
	case *ParenExpr:
		return append(dst, e.X)
	}
	return dst
}

// typeExprs calls f for the expressions of a data type. Types nest only as
// deep as the parser recursed to read them, so recursion is safe here.
func typeExprs(t *DataType, f func(Expr)) {
	if t == nil {
		return
	}
	ranges := func(rs []*Range) {
		for _, r := range rs {
			if r != nil {
				f(r.Left)
				f(r.Right)
				f(r.Size)
			}
		}
	}
	ranges(t.Packed)
	f(t.TypeRef)
	if t.Enum != nil {
		typeExprs(t.Enum.Base, f)
		for _, it := range t.Enum.Items {
			f(it.Value)
		}
	}
	if t.Struct != nil {
		for _, m := range t.Struct.Members {
			typeExprs(m.Type, f)
			for _, d := range m.Names {
				ranges(d.Unpacked)
				f(d.Init)
			}
		}
	}
}

// opRun collects a run of one associative operator (`a + b + c`, `a & b &
// c`, ...) while the parser reads it, so that a long run becomes a balanced
// tree instead of a left-deep one: a generated sum of 10^6 terms then nests
// 20 levels, not 10^6. The operands of +, -, *, &, | and ^ are
// context-determined, so SystemVerilog sizes them all to one common width
// and signedness whatever the grouping, and at that width these operators
// are associative (a run of + and - is the sum of its first operand and
// the operands after a + less the sum of those after a -); && and || are
// associative on truth values and still short-circuit left to right. The
// regrouping would change values only for real operands, whose rounding
// depends on it, and weft rejects real arithmetic.
type opRun struct {
	ops []string // ops[i] joins ys[i] to what precedes it
	ys  []Expr
}

// runFamily returns the run an operator can extend: "+" for + and -, the
// operator itself for the other associative ones, "" when it cannot be
// regrouped.
func runFamily(op string) string {
	switch op {
	case "+", "-":
		return "+"
	case "*", "&", "|", "^", "&&", "||":
		return op
	}
	return ""
}

// extends reports whether op continues the run.
func (r *opRun) extends(op string) bool {
	return len(r.ops) > 0 && runFamily(op) != "" && runFamily(op) == runFamily(r.ops[0])
}

func (r *opRun) push(op string, y Expr) {
	r.ops = append(r.ops, op)
	r.ys = append(r.ys, y)
}

// flush builds x followed by the run and empties the run.
func (r *opRun) flush(x Expr) Expr {
	ops, ys := r.ops, r.ys
	r.ops, r.ys = r.ops[:0], r.ys[:0]
	if len(ys)+1 < balanceMin {
		for i, y := range ys {
			x = &BinaryExpr{At: At{x.Position()}, Op: ops[i], X: x, Y: y}
		}
		return x
	}
	if runFamily(ops[0]) != "+" {
		return balanced(ops[0], append([]Expr{x}, ys...))
	}
	pos := []Expr{x}
	var neg []Expr
	for i, y := range ys {
		if ops[i] == "-" {
			neg = append(neg, y)
		} else {
			pos = append(pos, y)
		}
	}
	t := balanced("+", pos)
	if len(neg) > 0 {
		t = &BinaryExpr{At: At{t.Position()}, Op: "-", X: t, Y: balanced("+", neg)}
	}
	return t
}

// balanced joins xs (at least one) with op into a tree of depth log2(len).
// Each node is at its leftmost operand, as in a left-deep tree.
func balanced(op string, xs []Expr) Expr {
	if len(xs) == 1 {
		return xs[0]
	}
	mid := len(xs) / 2
	l := balanced(op, xs[:mid])
	return &BinaryExpr{At: At{l.Position()}, Op: op, X: l, Y: balanced(op, xs[mid:])}
}
