package kernels

import (
	"github.com/weft-hdl/weft/design"
	"github.com/weft-hdl/weft/slt"
)

// A run is consecutive processes (of one group, or of the groups a fused
// kernel evaluates one after another), each `if (C) A_i else B_i`
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

// runItem is one process of a sequence being lowered: process k of group
// group, in part part of the caller's parts.
type runItem struct {
	part, group, k int
	fp             *slt.FFProc
}

// mergeable reports whether it may join a run whose condition is c (its
// reads cr) and whose processes belong to inst.
func (u *ub) mergeable(it runItem, c design.Expr, cr []design.Access, inst *design.Instance) bool {
	fp := it.fp
	s, _ := runIf(fp.Proc.Body)
	if s == nil || !sameExpr(s.Cond, c) {
		return false
	}
	for _, a := range fp.NonBlocking {
		if u.c.sparse[it.group][a.Home] {
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

// runAt returns the end (exclusive) of the run starting at items[i]: i+1
// when the process runs alone (always, under Options.NoMerge).
func (u *ub) runAt(items []runItem, i int) int {
	if u.c.opts.NoMerge {
		return i + 1
	}
	first := items[i]
	s, _ := runIf(first.fp.Proc.Body)
	if s == nil || !pureExpr(s.Cond) {
		return i + 1
	}
	cr := design.ExprReads(s.Cond, nil)
	inst := first.fp.Proc.Inst
	if !u.mergeable(first, s.Cond, cr, inst) {
		return i + 1
	}
	end := i + 1
	events := first.fp.Effects
	for end < len(items) && u.sameRunInst(items, inst, items[end].fp.Proc.Inst) && u.mergeable(items[end], s.Cond, cr, inst) {
		// A task's run is lowered with its first process's event key
		// (ub.seq). Within one part the processes are consecutive in the
		// sequential order, so no other lane's record can fall between
		// theirs; across parts one could, so a run that prints stops there.
		e := items[end].fp.Effects
		if u.task && items[end].part != first.part && (events || e) {
			break
		}
		events = events || e
		end++
	}
	if end-i < minRun {
		return i + 1
	}
	return end
}

// mergedBody is the body of the run items.
func (u *ub) mergedBody(items []runItem) design.Stmt {
	var locals []*design.Home
	var then, els []design.Stmt
	var first *design.If
	for _, it := range items {
		s, ls := runIf(it.fp.Proc.Body)
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

// mergeInstProcs is the most processes an instance may have among the
// items for a run to go on from it into another instance.
const mergeInstProcs = 8

// sameRunInst reports whether a run of inst's processes may go on with a
// process of next: in the same instance, or in another instance of the
// same module when both are small (a pipeline's stages share their reset
// test). Larger instances keep their code apart from the next one's,
// which lets the native backend run several instances' code as one loop
// (jit/region.go).
func (u *ub) sameRunInst(items []runItem, inst, next *design.Instance) bool {
	if inst == next {
		return true
	}
	if inst == nil || next == nil || inst.Module != next.Module {
		return false
	}
	if u.instProcs == nil || u.instItems != &items[0] {
		u.instProcs, u.instItems = map[*design.Instance]int{}, &items[0]
		for _, it := range items {
			u.instProcs[it.fp.Proc.Inst]++
		}
	}
	return u.instProcs[inst] < mergeInstProcs && u.instProcs[next] < mergeInstProcs
}
