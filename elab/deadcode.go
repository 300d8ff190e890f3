package elab

import (
	"strings"

	"github.com/weft-hdl/weft/hdl"
)

// Constant folding drops code that can never run: the untaken arm of
// `P ? a : b` and of `if (P)`, the right operand of `0 && x`, the arms of a
// case on a constant. That code is never translated, but it is still part of
// the design the user wrote, and other tools reject a misspelled name in it
// (`COMPRESSED_ISA ? mem_rdata_latchd : mem_rdata` with COMPRESSED_ISA = 0).
// deadCheck walks such code and reports only names that resolve to nothing:
// it stays silent about widths, ranges and drivers, which may legitimately be
// out of bounds in a configuration that makes the code dead.
//
// Hierarchical references (a.b) are not checked: they may name a generate
// block that only exists in the configurations where the code is live.
type deadCheck struct {
	x      *ectx
	locals []map[string]bool // names declared inside the dead code itself
}

// checkDeadExpr reports unknown names in an expression that folding dropped.
func (x *ectx) checkDeadExpr(n hdl.Expr) {
	if x.quiet > 0 || n == nil {
		return
	}
	d := &deadCheck{x: x}
	d.expr(n)
}

// checkDeadStmt reports unknown names in a statement that folding dropped.
func (p *pctx) checkDeadStmt(s hdl.Stmt, sc *scope) {
	if s == nil {
		return
	}
	d := &deadCheck{x: p.ex(sc)}
	d.stmt(s)
}

func (d *deadCheck) isLocal(name string) bool {
	for i := len(d.locals) - 1; i >= 0; i-- {
		if d.locals[i][name] {
			return true
		}
	}
	return false
}

func (d *deadCheck) push() { d.locals = append(d.locals, map[string]bool{}) }
func (d *deadCheck) pop()  { d.locals = d.locals[:len(d.locals)-1] }

func (d *deadCheck) declare(name string) {
	if len(d.locals) == 0 {
		d.push()
	}
	d.locals[len(d.locals)-1][name] = true
}

// declItems records the names declared by block items and checks their
// initializers.
func (d *deadCheck) declItems(items []hdl.Item) {
	for _, it := range items {
		switch it := it.(type) {
		case *hdl.VarDecl:
			d.declVar(it)
		case *hdl.ParamDecl:
			for _, dc := range it.Names {
				d.declare(dc.Name)
			}
		case *hdl.Typedef:
			d.declare(it.Name)
			if it.Type != nil && it.Type.Enum != nil {
				for _, ei := range it.Type.Enum.Items {
					d.declare(ei.Name)
				}
			}
		}
	}
	for _, it := range items {
		switch it := it.(type) {
		case *hdl.VarDecl:
			for _, dc := range it.Names {
				d.expr(dc.Init)
			}
		case *hdl.ParamDecl:
			for _, dc := range it.Names {
				d.expr(dc.Init)
			}
		}
	}
}

func (d *deadCheck) declVar(v *hdl.VarDecl) {
	for _, dc := range v.Names {
		d.declare(dc.Name)
	}
	if v.Type != nil && v.Type.Enum != nil {
		for _, ei := range v.Type.Enum.Items {
			d.declare(ei.Name)
		}
	}
}

func (d *deadCheck) name(name string, pos hdl.Pos) {
	if strings.HasPrefix(name, "$") || d.isLocal(name) || d.x.lookup(name) != nil {
		return
	}
	d.x.errorf(pos, "unknown identifier '%s'%s", name, d.x.sc.suggest(name))
}

func (d *deadCheck) scoped(pkg, name string, pos hdl.Pos) {
	var ps *scope
	if pkg == "$unit" {
		ps = d.x.e.unit
	} else {
		ps = d.x.e.pkgScope(pkg, pos)
	}
	if ps != nil && ps.syms[name] == nil {
		d.x.errorf(pos, "unknown identifier '%s::%s'%s", pkg, name, suggestFrom(name, ps.names()))
	}
}

func (d *deadCheck) expr(n hdl.Expr) {
	switch n := n.(type) {
	case nil:
	case *hdl.Ident:
		d.name(n.Name, n.Pos)
	case *hdl.ScopedIdent:
		d.scoped(n.Package, n.Name, n.Pos)
	case *hdl.MemberExpr:
		// Possibly hierarchical: see the type comment.
	case *hdl.ParenExpr:
		d.expr(n.X)
	case *hdl.UnaryExpr:
		d.expr(n.X)
	case *hdl.BinaryExpr:
		d.expr(n.X)
		d.expr(n.Y)
	case *hdl.CondExpr:
		d.expr(n.Cond)
		d.expr(n.Then)
		d.expr(n.Else)
	case *hdl.IndexExpr:
		d.expr(n.X)
		d.expr(n.Index)
	case *hdl.RangeExpr:
		d.expr(n.X)
		d.expr(n.Left)
		d.expr(n.Right)
	case *hdl.ConcatExpr:
		d.exprs(n.Items)
	case *hdl.ReplicateExpr:
		d.expr(n.Count)
		d.exprs(n.Items)
	case *hdl.StreamExpr:
		d.expr(n.Slice)
		d.exprs(n.Items)
	case *hdl.CallExpr:
		switch {
		case n.System, n.Scope != nil:
		case n.Package != "":
			d.scoped(n.Package, n.Name, n.Pos)
		case !d.isLocal(n.Name) && d.x.lookup(n.Name) == nil:
			d.x.errorf(n.Pos, "unknown function '%s'%s", n.Name, d.x.sc.suggest(n.Name))
		}
		d.exprs(n.Args)
		for _, a := range n.NamedArgs {
			d.expr(a)
		}
	case *hdl.CastExpr:
		d.expr(n.Width)
		d.expr(n.X)
	case *hdl.InsideExpr:
		d.expr(n.X)
		d.exprs(n.Set)
	case *hdl.PatternExpr:
		// Keys name members or types; only the values are checked.
		d.exprs(n.Items)
		d.expr(n.Default)
		d.expr(n.Repeat)
	}
}

func (d *deadCheck) exprs(list []hdl.Expr) {
	for _, n := range list {
		d.expr(n)
	}
}

func (d *deadCheck) stmt(s hdl.Stmt) {
	switch s := s.(type) {
	case nil:
	case *hdl.BlockStmt:
		d.push()
		if s.Label != "" {
			d.declare(s.Label)
		}
		d.declItems(s.Decls)
		for _, st := range s.Stmts {
			d.stmt(st)
		}
		d.pop()
	case *hdl.DeclStmt:
		d.declVar(s.Decl)
		for _, dc := range s.Decl.Names {
			d.expr(dc.Init)
		}
	case *hdl.AssignStmt:
		d.expr(s.LHS)
		d.expr(s.RHS)
		d.expr(s.Delay)
	case *hdl.IncDecStmt:
		d.expr(s.LHS)
	case *hdl.IfStmt:
		d.expr(s.Cond)
		d.stmt(s.Then)
		d.stmt(s.Else)
	case *hdl.Assertion:
		d.expr(s.Cond)
		d.stmt(s.Pass)
		d.stmt(s.Fail)
	case *hdl.CaseStmt:
		d.expr(s.Expr)
		for _, it := range s.Items {
			d.exprs(it.Exprs)
			d.stmt(it.Body)
		}
	case *hdl.ForStmt:
		d.push()
		for _, v := range s.InitDecls {
			d.declVar(v)
			for _, dc := range v.Names {
				d.expr(dc.Init)
			}
		}
		for _, st := range s.Init {
			d.stmt(st)
		}
		d.expr(s.Cond)
		for _, st := range s.Step {
			d.stmt(st)
		}
		d.stmt(s.Body)
		d.pop()
	case *hdl.ForeachStmt:
		d.expr(s.Array)
		d.push()
		for _, v := range s.Vars {
			if v != "" {
				d.declVar(&hdl.VarDecl{At: s.At, Names: []*hdl.Declarator{{At: s.At, Name: v}}})
			}
		}
		d.stmt(s.Body)
		d.pop()
	case *hdl.WhileStmt:
		d.expr(s.Cond)
		d.stmt(s.Body)
	case *hdl.RepeatStmt:
		d.expr(s.Count)
		d.stmt(s.Body)
	case *hdl.ForeverStmt:
		d.stmt(s.Body)
	case *hdl.EventStmt:
		for _, ev := range s.Events {
			d.expr(ev.Expr)
			d.expr(ev.Iff)
		}
		d.stmt(s.Body)
	case *hdl.DelayStmt:
		d.stmt(s.Body)
	case *hdl.WaitStmt:
		d.expr(s.Cond)
		d.stmt(s.Body)
	case *hdl.ExprStmt:
		d.expr(s.X)
	case *hdl.ReturnStmt:
		d.expr(s.Value)
	}
}

// checkDeadArms checks the bodies of the arms of a case on a constant other
// than the one taken (nil when none is).
func (p *pctx) checkDeadArms(s *hdl.CaseStmt, taken *hdl.CaseItem, sc *scope) {
	for _, it := range s.Items {
		if it != taken {
			p.checkDeadStmt(it.Body, sc)
		}
	}
}
