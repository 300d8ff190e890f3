package slt

import (
	"fmt"

	"github.com/weft-hdl/weft/design"
)

// SplitKind says how an item was cut from its process.
type SplitKind int

const (
	// SplitNone: the item is the whole process (Body == Proc.Body).
	SplitNone SplitKind = iota
	// SplitStmts: the item is a group of the process's top-level
	// statements, independent of the other groups (see split.go).
	SplitStmts
	// SplitConcat: the item is one part of an assignment to a
	// concatenation, {a, b} = rhs, assigning its slice of rhs.
	SplitConcat
)

func (k SplitKind) String() string { return [...]string{"whole", "stmts", "concat"}[k] }

// Item is one comb work item: a whole comb process, or a part of one.
// Items are numbered in design order (the order of design.Design.Comb, and
// source order inside a process); ID is the item's index in Schedule.Items.
type Item struct {
	ID   int
	Name string // Proc.Name, plus "[k]" for part k of a split process
	Proc *design.Process
	// Part is this item's index among the items cut from Proc; Parts how
	// many there are (1 when the process is not split).
	Part, Parts int
	Split       SplitKind
	// Body is what lowering compiles: Proc.Body when the process is not
	// split, otherwise a new statement that shares expression nodes with
	// Proc.Body (treat them as immutable).
	Body design.Stmt
	Pos  design.Pos
	// Reads are the upward-exposed bits the item reads; Writes the bits it
	// may write (exact for constant addresses, envelopes with Dynamic set
	// otherwise). Process-local homes never appear. Read-only for callers.
	Reads, Writes []design.Access
	// Effects is set when the item runs system tasks ($display, $finish,
	// ...): its runtime events must stay in sequential order.
	Effects bool
	// WritesTrigger is set when the item writes a bit that is an event of
	// some trigger group (a derived or gated clock, an internal reset).
	WritesTrigger bool
	// Unconditional is set when Body is a single assignment with no
	// condition: the item always writes all of Writes.
	Unconditional bool
}

func (it *Item) String() string { return fmt.Sprintf("i%d %s", it.ID, it.Name) }

// ReadBytes is the byte-exact read set (bytes holding Reads).
func (it *Item) ReadBytes() []ByteRange { return Bytes(it.Reads) }

// WriteBytes is the byte-exact write set (bytes holding Writes). A partial
// byte counts as written: lowering stores it with a read-modify-write.
func (it *Item) WriteBytes() []ByteRange { return Bytes(it.Writes) }

// effectsCache remembers which functions run system tasks.
type effectsCache map[*design.Function]bool

// stmtEffects reports whether s runs a system task, directly or through a
// called function or task. $readmemh/b is an effect too (it reads a file).
func (c effectsCache) stmtEffects(s design.Stmt) bool {
	found := false
	design.WalkStmt(s, func(st design.Stmt) bool {
		if found {
			return false
		}
		switch st := st.(type) {
		case *design.SysTask:
			found = true
		case *design.TaskCall:
			if c.fnEffects(st.Func) {
				found = true
			}
			for _, a := range st.Args {
				found = found || c.exprEffects(a)
			}
		case *design.Assign:
			found = c.exprEffects(st.RHS) || c.exprEffects(st.LHS)
		case *design.If:
			found = c.exprEffects(st.Cond)
		case *design.Case:
			found = c.exprEffects(st.Subject)
			for _, it := range st.Items {
				for _, l := range it.Labels {
					found = found || c.exprEffects(l.Value) || c.exprEffects(l.Hi)
				}
			}
		case *design.Loop:
			found = c.exprEffects(st.Cond)
		}
		return !found
	})
	return found
}

func (c effectsCache) fnEffects(f *design.Function) bool {
	if v, ok := c[f]; ok {
		return v
	}
	c[f] = false // recursion guard
	v := c.stmtEffects(f.Body)
	c[f] = v
	return v
}

func (c effectsCache) exprEffects(e design.Expr) bool {
	found := false
	design.WalkExpr(e, func(x design.Expr) {
		switch x := x.(type) {
		case *design.Call:
			found = found || c.fnEffects(x.Func)
		case *design.SysFunc:
			// $random/$urandom advance a generator: keep their order.
			found = found || x.Fn == design.FnRandom || x.Fn == design.FnURandom
		}
	})
	return found
}

// localsOf returns the process-local homes s touches, in first-use order.
func localsOf(s design.Stmt) []*design.Home {
	var out []*design.Home
	add := func(h *design.Home) {
		if h.Kind != design.KindBlockLocal {
			return
		}
		for _, o := range out {
			if o == h {
				return
			}
		}
		out = append(out, h)
	}
	design.WalkStmtExprs(s, func(e design.Expr) {
		switch e := e.(type) {
		case *design.HomeRef:
			add(e.Home)
		case *design.ElemRef:
			add(e.Home)
		}
	})
	design.WalkStmt(s, func(st design.Stmt) bool {
		switch st := st.(type) {
		case *design.Block:
			for _, h := range st.Locals {
				add(h)
			}
		case *design.SysTask:
			if st.Target != nil {
				add(st.Target)
			}
		}
		return true
	})
	return out
}

// unconditional reports whether s is a single assignment (possibly wrapped
// in blocks) with a constant-address left-hand side.
func unconditional(s design.Stmt) bool {
	for {
		b, ok := s.(*design.Block)
		if !ok || b == nil || len(b.Stmts) != 1 {
			break
		}
		s = b.Stmts[0]
	}
	a, ok := s.(*design.Assign)
	if !ok {
		return false
	}
	if c, ok := a.LHS.(*design.Concat); ok {
		for _, p := range c.Parts {
			if !staticRef(p) {
				return false
			}
		}
		return true
	}
	return staticRef(a.LHS)
}
