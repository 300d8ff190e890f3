package elab

import "github.com/weft-hdl/weft/hdl"

// symIsNet reports whether a variable symbol was declared as a net: with a
// net keyword (`wire w;`), implicitly, or as a port with no data type
// (`output q`, `output [3:0] q`), unless a non-ANSI body declaration
// (`output q; reg q;`) made it a variable.
func symIsNet(s *symbol) bool {
	if s.kind != symVar {
		return false
	}
	if s.implicitNet {
		return true
	}
	if s.portMerged != nil {
		return s.portMerged.Net != hdl.NetNone
	}
	vd := s.varDecl
	if vd == nil {
		return false
	}
	if vd.Net != hdl.NetNone {
		return true
	}
	return s.isPort && !vd.Var && (vd.Type == nil || vd.Type.Kind == hdl.TypeImplicit)
}

// checkProcTarget rejects an assignment in procedural code to a net (IEEE
// 1800-2017 §10.4, 1364-2005 §9.2): nets are driven by continuous
// assignments and ports. Every other tool rejects it too; accepting it would
// let a misdeclared `output q` or `wire w` pass unnoticed. It reports false
// after reporting an error.
func (p *pctx) checkProcTarget(sc *scope, lhs hdl.Expr) bool {
	ok := true
	var walk func(n hdl.Expr)
	walk = func(n hdl.Expr) {
		switch n := n.(type) {
		case *hdl.ParenExpr:
			walk(n.X)
		case *hdl.ConcatExpr:
			for _, it := range n.Items {
				walk(it)
			}
		case *hdl.IndexExpr:
			walk(n.X)
		case *hdl.RangeExpr:
			walk(n.X)
		case *hdl.Ident:
			ex := p.ex(sc)
			s := ex.lookup(n.Name)
			if s == nil || !symIsNet(s) || (s.isPort && s.dir == hdl.DirInput) {
				return
			}
			if s.isPort {
				p.e.errorf(n.Pos, "procedural assignment to output port '%s', which is a net (declared at %s); declare it 'output reg' or 'output logic', or drive it with 'assign'", n.Name, s.pos)
			} else {
				p.e.errorf(n.Pos, "procedural assignment to net '%s' (declared at %s); declare it as a variable ('reg' or 'logic'), or drive it with 'assign'", n.Name, s.pos)
			}
			ok = false
		}
	}
	walk(lhs)
	return ok
}
