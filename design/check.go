package design

import (
	"fmt"
	"math/big"
)

// Check verifies the typing invariants every node documents (operand
// widths, 1-bit conditions, assignment widths) on every process and
// function body, and that IDs and references are consistent. It returns one
// error per violation (nil when the design is well formed). Elaboration
// output always passes; tests run it on everything they build.
func Check(d *Design) []error {
	c := &checker{}
	for i, h := range d.Homes {
		if h.ID != i {
			c.errf("home %s has ID %d at index %d", h.Path, h.ID, i)
		}
		if h.Width < 1 {
			c.errf("home %s has width %d", h.Path, h.Width)
		}
	}
	for _, p := range d.Processes() {
		c.where = p.Name
		c.stmt(p.Body)
	}
	for _, f := range d.Functions {
		c.where = f.Name
		c.stmt(f.Body)
	}
	return c.errs
}

type checker struct {
	where string
	errs  []error
}

func (c *checker) errf(format string, args ...any) {
	if len(c.errs) < 100 {
		c.errs = append(c.errs, fmt.Errorf("%s: %s", c.where, fmt.Sprintf(format, args...)))
	}
}

func (c *checker) expr(e Expr) {
	bad := func(msg string) { c.errf("%s in %s", msg, ExprString(e)) }
	if e == nil {
		c.errf("nil expression")
		return
	}
	if e.Type().Width < 1 {
		bad("width < 1")
	}
	switch e := e.(type) {
	case *Const:
		if e.Val == nil || e.Val.Sign() < 0 || e.Val.BitLen() > e.T.Width {
			bad("constant out of range")
		}
		if e.U != nil && (e.U.XZ == nil || e.U.XZ.BitLen() > e.T.Width || new(big.Int).And(e.Val, e.U.XZ).Sign() != 0) {
			bad("constant's x and z bits malformed")
		}
	case *HomeRef:
	case *ElemRef:
		if len(e.Index) != len(e.Home.Unpacked) {
			bad("index count differs from the array's dimensions")
		}
		for _, ix := range e.Index {
			c.expr(ix)
			if ix.Type().Signed {
				bad("signed index")
			}
		}
	case *Slice:
		c.expr(e.X)
		c.expr(e.Lsb)
		if e.Lsb.Type().Signed {
			bad("signed slice offset")
		}
		if h, ok := e.X.(*HomeRef); ok && h.Home.IsArray() {
			bad("slice of a whole array")
		}
	case *Unary:
		c.expr(e.X)
		switch e.Op {
		case OpNeg, OpNot:
			if e.X.Type() != e.T {
				bad("operand type differs from result")
			}
		default:
			if e.T != Bit {
				bad("logical/reduction result not 1 bit")
			}
		}
	case *Binary:
		c.expr(e.X)
		c.expr(e.Y)
		switch {
		case e.Op.IsCompare():
			if e.X.Type() != e.Y.Type() {
				bad("comparison operands differ in type")
			}
			if e.T != Bit {
				bad("comparison result not 1 bit")
			}
		case e.Op.IsShift():
			if e.X.Type() != e.T {
				bad("shifted operand type differs from result")
			}
			if e.Op != OpPow && e.Y.Type().Signed {
				bad("signed shift amount")
			}
			if e.Op == OpAShr && !e.T.Signed {
				bad("arithmetic shift of unsigned")
			}
		default:
			if e.X.Type() != e.T || e.Y.Type() != e.T {
				bad("operand types differ from result")
			}
		}
	case *Cond:
		c.expr(e.C)
		c.expr(e.Then)
		c.expr(e.Else)
		if e.C.Type().Width != 1 {
			bad("condition not 1 bit")
		}
		if e.Then.Type() != e.T || e.Else.Type() != e.T {
			bad("branch types differ from result")
		}
	case *Concat:
		w := 0
		for _, p := range e.Parts {
			c.expr(p)
			w += p.Type().Width
		}
		if w != e.T.Width || e.T.Signed {
			bad("concat width/sign")
		}
	case *Repl:
		c.expr(e.X)
		if e.N < 1 || e.N*e.X.Type().Width != e.T.Width || e.T.Signed {
			bad("replication width/sign")
		}
	case *Extend:
		c.expr(e.X)
		if e.T.Width < e.X.Type().Width {
			bad("extension narrows")
		}
	case *Trunc:
		c.expr(e.X)
		if e.T.Width > e.X.Type().Width {
			bad("truncation widens")
		}
	case *Call:
		if len(e.Args) != len(e.Func.Args) {
			bad("argument count")
		}
		for i, a := range e.Args {
			c.expr(a)
			if i < len(e.Func.Args) && a.Type().Width != e.Func.Args[i].Width {
				bad(fmt.Sprintf("argument %d width %d, want %d", i+1, a.Type().Width, e.Func.Args[i].Width))
			}
		}
		if e.Func.Result == nil || e.Func.Result.Type() != e.T {
			bad("call type differs from the function result")
		}
	case *SysFunc:
		for _, a := range e.Args {
			c.expr(a)
		}
	default:
		bad(fmt.Sprintf("unknown node %T", e))
	}
}

func (c *checker) lvalue(lv LValue) {
	switch lv := lv.(type) {
	case *HomeRef, *ElemRef:
		c.expr(lv)
	case *Slice:
		if _, ok := lv.X.(LValue); !ok {
			c.errf("slice of a non-lvalue assigned: %s", ExprString(lv))
		}
		if _, ok := lv.X.(*Concat); ok {
			c.errf("slice of a concatenation assigned: %s", ExprString(lv))
		}
		c.expr(lv)
	case *Concat:
		for _, p := range lv.Parts {
			pl, ok := p.(LValue)
			if !ok {
				c.errf("concat of a non-lvalue assigned")
				continue
			}
			c.lvalue(pl)
		}
	default:
		c.errf("bad lvalue %T", lv)
	}
}

func (c *checker) stmt(s Stmt) {
	switch s := s.(type) {
	case nil:
	case *Block:
		if s == nil {
			return
		}
		for _, st := range s.Stmts {
			c.stmt(st)
		}
	case *Assign:
		c.lvalue(s.LHS)
		c.expr(s.RHS)
		if l, ok := s.LHS.(*HomeRef); ok && l.Home.IsArray() {
			r, ok := s.RHS.(*HomeRef)
			if !ok || r.Home.Elems() != l.Home.Elems() || r.Home.Width != l.Home.Width {
				c.errf("array copy of different shapes at %s", s.Pos)
			}
			return
		}
		if s.LHS.Type().Width != s.RHS.Type().Width {
			c.errf("assignment width %d = %d at %s: %s = %s", s.LHS.Type().Width, s.RHS.Type().Width, s.Pos, ExprString(s.LHS), ExprString(s.RHS))
		}
	case *If:
		c.expr(s.Cond)
		if s.Cond.Type().Width != 1 {
			c.errf("if condition not 1 bit at %s", s.Pos)
		}
		c.stmt(s.Then)
		c.stmt(s.Else)
	case *Case:
		c.expr(s.Subject)
		for _, it := range s.Items {
			for _, l := range it.Labels {
				c.expr(l.Value)
				if l.Value.Type() != s.Subject.Type() {
					c.errf("case label type %s differs from subject %s at %s", l.Value.Type(), s.Subject.Type(), s.Pos)
				}
				if l.Hi != nil {
					c.expr(l.Hi)
					if l.Hi.Type() != s.Subject.Type() {
						c.errf("case range type differs at %s", s.Pos)
					}
				}
			}
			c.stmt(it.Body)
		}
		c.stmt(s.Default)
	case *Loop:
		if s.Cond != nil {
			c.expr(s.Cond)
			if s.Cond.Type().Width != 1 {
				c.errf("loop condition not 1 bit at %s", s.Pos)
			}
		}
		if s.MaxIter <= 0 {
			c.errf("loop without an iteration bound at %s", s.Pos)
		}
		c.stmt(s.Body)
		c.stmt(s.Step)
	case *Break, *Continue, *Return:
	case *SysTask:
		for _, a := range s.Args {
			c.expr(a)
		}
	case *TaskCall:
		for i, a := range s.Args {
			if a != nil {
				c.expr(a)
				if a.Type().Width != s.Func.Args[i].Width {
					c.errf("task argument %d width at %s", i+1, s.Pos)
				}
			}
		}
		for i, o := range s.Outs {
			if o != nil {
				c.lvalue(o)
				if o.Type().Width != s.Func.Args[i].Width {
					c.errf("task output %d width at %s", i+1, s.Pos)
				}
			}
		}
	default:
		c.errf("unknown statement %T", s)
	}
}
