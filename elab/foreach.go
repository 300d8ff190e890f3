package elab

import (
	"fmt"
	"math/big"

	"github.com/weft-hdl/weft/design"
	"github.com/weft-hdl/weft/hdl"
)

// foreachStmt elaborates `foreach (arr[i, j]) body` (IEEE 1800 §12.7.3) as
// the nested for loops it stands for: one int loop variable per named
// dimension, unpacked dimensions first and then packed ones, each running
// from the dimension's left bound to its right bound.
func (p *pctx) foreachStmt(s *hdl.ForeachStmt, sc *scope, out *[]design.Stmt) {
	ex := p.ex(sc)
	ex.quiet++
	r := ex.ref(s.Array, false)
	ex.quiet--
	if r == nil || (r.kind != rkVar && r.kind != rkValue) {
		ex.ref(s.Array, false) // reports why
		p.e.errorf(s.Pos, "foreach needs an array variable")
		return
	}
	dims := append([]design.Dim{}, r.unpacked...)
	if r.pt != nil {
		dims = append(dims, r.pt.asVector().dims...)
	}
	if len(s.Vars) > len(dims) {
		p.e.errorf(s.Pos, "foreach names %d loop variables, but '%s' has %d dimensions", len(s.Vars), r.name, len(dims))
		return
	}
	body := s.Body
	for k := len(s.Vars) - 1; k >= 0; k-- {
		v := s.Vars[k]
		if v == "" {
			continue
		}
		d := dims[k]
		cmp, step := "<=", "++"
		if d.Left > d.Right {
			cmp, step = ">=", "--"
		}
		id := &hdl.Ident{At: s.At, Name: v}
		body = &hdl.ForStmt{
			At: s.At,
			InitDecls: []*hdl.VarDecl{{At: s.At, Type: &hdl.DataType{At: s.At, Kind: hdl.TypeInt},
				Names: []*hdl.Declarator{{At: s.At, Name: v, Init: intLit(s.At, d.Left)}}}},
			Cond: &hdl.BinaryExpr{At: s.At, Op: cmp, X: id, Y: intLit(s.At, d.Right)},
			Step: []hdl.Stmt{&hdl.IncDecStmt{At: s.At, LHS: id, Op: step}},
			Body: body,
		}
	}
	p.stmt(body, sc, out)
}

// intLit is the integer literal v as source would spell it.
func intLit(at hdl.At, v int) hdl.Expr {
	n := &hdl.Number{At: at, Text: fmt.Sprint(abs64(int64(v))), Value: big.NewInt(abs64(int64(v)))}
	if v < 0 {
		return &hdl.UnaryExpr{At: at, Op: "-", X: n}
	}
	return n
}

// loopBody is the body of a for or foreach loop.
func loopBody(s hdl.Stmt) hdl.Stmt {
	switch s := s.(type) {
	case *hdl.ForStmt:
		return s.Body
	case *hdl.ForeachStmt:
		return s.Body
	}
	return nil
}
