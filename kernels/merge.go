package kernels

import (
	"github.com/weft-hdl/weft/design"
)

// A run is consecutive processes of one group, each `if (C) A_i else B_i`
// with the same condition C, lowered as one `if (C) {A_1..A_n} else
// {B_1..B_n}`: replicated flops (a generate loop of registers sharing a
// reset) then test their reset once per edge instead of once per flop.
//
// Every process of the run takes the same arm (C is pure and no process
// of the run writes a bit C reads where a later one would see it), and
// the arms keep their order, so each process does what it did alone. A
// process whose arms could leave it early (return), that queues sparse
// writes (their slots are numbered per process), or that formats %m from
// an instance other than the run's, runs alone.

// minRun is the shortest run worth merging.
const minRun = 2

// mergeIgnoresWrites is set by a test only: runs then ignore writes to
// their condition, to show the differential checks catch that mistake.
var mergeIgnoresWrites = false

// runIf returns the if statement that is all of fp's body, or nil.
func runIf(body design.Stmt) (*design.If, []*design.Home) {
	var locals []*design.Home
	for {
		blk, ok := body.(*design.Block)
		if !ok {
			break
		}
		if blk == nil || len(blk.Stmts) != 1 {
			return nil, nil
		}
		locals = append(locals, blk.Locals...)
		body = blk.Stmts[0]
	}
	s, _ := body.(*design.If)
	return s, locals
}

// mergeable reports whether process k of group gi may join a run whose
// condition is c (its reads cr) and whose processes belong to inst.
func (u *ub) mergeable(gi, k int, c design.Expr, cr []design.Access, inst *design.Instance) bool {
	fp := u.c.s.FF[gi].Evaluate[k]
	s, _ := runIf(fp.Proc.Body)
	if s == nil || !sameExpr(s.Cond, c) {
		return false
	}
	for _, a := range fp.NonBlocking {
		if u.c.sparse[gi][a.Home] {
			return false
		}
		if u.c.sp.Staging(a.Home) == nil && overlapsAny(a, cr) && !mergeIgnoresWrites {
			return false
		}
	}
	for _, a := range fp.Blocking {
		if overlapsAny(a, cr) && !mergeIgnoresWrites {
			return false
		}
	}
	ok := true
	design.WalkStmt(fp.Proc.Body, func(st design.Stmt) bool {
		switch st.(type) {
		case *design.Return:
			ok = false
		case *design.SysTask, *design.TaskCall:
			ok = ok && fp.Proc.Inst == inst
		}
		return ok
	})
	return ok
}

func overlapsAny(a design.Access, list []design.Access) bool {
	for _, b := range list {
		if a.Overlaps(b) {
			return true
		}
	}
	return false
}

// runAt returns the end (exclusive, at most hi) of the run starting at
// process k of group gi: k+1 when process k runs alone.
func (u *ub) runAt(gi, k, hi int) int {
	fp := u.c.s.FF[gi].Evaluate[k]
	s, _ := runIf(fp.Proc.Body)
	if s == nil || !pureExpr(s.Cond) {
		return k + 1
	}
	cr := design.ExprReads(s.Cond, nil)
	if !u.mergeable(gi, k, s.Cond, cr, fp.Proc.Inst) {
		return k + 1
	}
	end := k + 1
	for end < hi && u.mergeable(gi, end, s.Cond, cr, fp.Proc.Inst) {
		end++
	}
	if end-k < minRun {
		return k + 1
	}
	return end
}

// mergedBody is the body of the run of processes k..end-1 of group gi.
func (u *ub) mergedBody(gi, k, end int) design.Stmt {
	var locals []*design.Home
	var then, els []design.Stmt
	var first *design.If
	for i := k; i < end; i++ {
		s, ls := runIf(u.c.s.FF[gi].Evaluate[i].Proc.Body)
		if first == nil {
			first = s
		}
		locals = append(locals, ls...)
		if s.Then != nil {
			then = append(then, s.Then)
		}
		if s.Else != nil {
			els = append(els, s.Else)
		}
	}
	merged := &design.If{Cond: first.Cond, Then: &design.Block{Stmts: then}, Pos: first.Pos}
	if len(els) > 0 {
		merged.Else = &design.Block{Stmts: els}
	}
	return &design.Block{Locals: locals, Stmts: []design.Stmt{merged}}
}

// pureExpr reports whether e only reads state (no calls, no system
// functions), so evaluating it once or many times is the same.
func pureExpr(e design.Expr) bool { return sameExpr(e, e) }

// sameExpr reports whether a and b are the same pure expression: the same
// tree over the same homes and constants.
func sameExpr(a, b design.Expr) bool {
	switch x := a.(type) {
	case *design.Const:
		y, ok := b.(*design.Const)
		return ok && x.T == y.T && x.Val.Cmp(y.Val) == 0
	case *design.HomeRef:
		y, ok := b.(*design.HomeRef)
		return ok && x.Home == y.Home
	case *design.ElemRef:
		y, ok := b.(*design.ElemRef)
		return ok && x.Home == y.Home && sameExprs(x.Index, y.Index)
	case *design.Slice:
		y, ok := b.(*design.Slice)
		return ok && x.T == y.T && sameExpr(x.X, y.X) && sameExpr(x.Lsb, y.Lsb)
	case *design.Unary:
		y, ok := b.(*design.Unary)
		return ok && x.Op == y.Op && x.T == y.T && sameExpr(x.X, y.X)
	case *design.Binary:
		y, ok := b.(*design.Binary)
		return ok && x.Op == y.Op && x.T == y.T && sameExpr(x.X, y.X) && sameExpr(x.Y, y.Y)
	case *design.Cond:
		y, ok := b.(*design.Cond)
		return ok && x.T == y.T && sameExpr(x.C, y.C) && sameExpr(x.Then, y.Then) && sameExpr(x.Else, y.Else)
	case *design.Concat:
		y, ok := b.(*design.Concat)
		return ok && x.T == y.T && sameExprs(x.Parts, y.Parts)
	case *design.Repl:
		y, ok := b.(*design.Repl)
		return ok && x.T == y.T && x.N == y.N && sameExpr(x.X, y.X)
	case *design.Extend:
		y, ok := b.(*design.Extend)
		return ok && x.T == y.T && x.SignExt == y.SignExt && sameExpr(x.X, y.X)
	case *design.Trunc:
		y, ok := b.(*design.Trunc)
		return ok && x.T == y.T && sameExpr(x.X, y.X)
	}
	return false
}

func sameExprs(a, b []design.Expr) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !sameExpr(a[i], b[i]) {
			return false
		}
	}
	return true
}
