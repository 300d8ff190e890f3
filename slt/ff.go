package slt

import (
	"fmt"
	"sort"

	"github.com/weft-hdl/weft/design"
)

// FFGroup is the evaluate/apply work of one trigger group.
//
// Evaluate runs the group's processes in order, reading pre-edge state:
// every non-blocking assignment writes the staging copy of its target
// (InPlace targets excepted: nobody reads them before apply) instead of
// the home (a staging copy starts as the home's value, so bits a
// conditional assignment leaves alone publish unchanged), and blocking
// assignments to process-local variables act at once. Apply publishes the
// staged values. Because evaluation writes only staging storage, locals
// and in-place targets no other process reads, the order in which fired groups evaluate does not matter; all
// applies run after all evaluates.
//
// Apply order: groups in design order (FF index), targets by home ID.
// Elaboration rejects two processes writing overlapping bits, so the
// targets of different groups are disjoint and any order gives the same
// state; inside a process the last non-blocking assignment to a bit wins,
// which evaluate already resolved in its staging copy (or, for Sparse
// targets, in its queue, applied in program order).
type FFGroup struct {
	Index int // in Schedule.FF, == Group.ID
	Group *design.TriggerGroup
	// Evaluate is the group's processes, in order.
	Evaluate []*FFProc
	// Reads is the pre-edge state the group reads (merged).
	Reads []design.Access
	// Staged are the non-blocking targets that need a staging copy: bits
	// of non-array homes and constant-index array elements.
	Staged []design.Access
	// InPlace are non-blocking targets evaluate writes straight to their
	// homes: no process reads them between the write and apply (see
	// Schedule.inPlace), so no staging copy is needed. They are not in
	// Staged nor in Apply.
	InPlace []design.Access
	// Sparse are array homes with a dynamically indexed non-blocking
	// assignment (mem[addr] <= d): copying the whole array each edge is
	// too costly, so evaluate queues (element, bits, value) entries, and
	// apply replays the queue in program order. Every non-blocking target
	// in such a home is queued, so the replay keeps the last write winning.
	Sparse []design.Access
	// Immediate are blocking writes to module-level homes (and writes by
	// called tasks or $readmemh): they act at once, during evaluate. A
	// group whose Immediate bits another group reads is racy (warned).
	Immediate []design.Access
	// Apply is what apply publishes: Staged and Sparse, by home ID.
	Apply []design.Access
	// WritesTrigger is set when a target is a trigger bit (a derived
	// clock: the simulator must detect edges again after apply and settle).
	WritesTrigger bool
}

// FFProc is one sequential process of a group, with its writes split by
// kind (process-local homes excluded).
type FFProc struct {
	Proc        *design.Process
	NonBlocking []design.Access
	Blocking    []design.Access
	// Snapshot are InPlace homes the process may read after writing them:
	// evaluate copies each into a register when the process starts, and
	// the process reads them from there (by home ID).
	Snapshot []*design.Home
	// Effects is set when the process runs system tasks, directly or
	// through a function or task it calls (as Item.Effects).
	Effects bool
}

func (g *FFGroup) String() string {
	return fmt.Sprintf("g%d %s %s", g.Index, g.Group.Inst.Path, g.Group.EventsString())
}

func isLocal(h *design.Home) bool {
	return h.Kind == design.KindBlockLocal || h.Kind == design.KindFuncLocal
}

// ffWrites splits the writes of a sequential process by kind.
func ffWrites(p *design.Process) (nb, bl []design.Access) {
	keep := func(list []design.Access) []design.Access {
		out := list[:0]
		for _, a := range list {
			if !isLocal(a.Home) {
				out = append(out, a)
			}
		}
		return out
	}
	calls := map[*design.Function]bool{}
	design.WalkStmt(p.Body, func(s design.Stmt) bool {
		switch s := s.(type) {
		case *design.Assign:
			if s.NonBlocking {
				nb = lvalueAccesses(s.LHS, nb)
			} else {
				bl = lvalueAccesses(s.LHS, bl)
			}
		case *design.TaskCall:
			calls[s.Func] = true
			for _, o := range s.Outs {
				if o != nil {
					bl = lvalueAccesses(o, bl)
				}
			}
		case *design.SysTask:
			if s.Target != nil {
				bl = append(bl, design.WholeAccess(s.Target))
			}
		}
		return true
	})
	design.WalkStmtExprs(p.Body, func(e design.Expr) {
		if c, ok := e.(*design.Call); ok {
			calls[c.Func] = true
		}
	})
	fns := make([]*design.Function, 0, len(calls))
	for f := range calls {
		fns = append(fns, f)
	}
	sort.Slice(fns, func(i, j int) bool { return fns[i].Name < fns[j].Name })
	for _, f := range fns {
		design.AnalyzeFunction(f)
		bl = append(bl, f.Writes...)
	}
	return mergeAccesses(keep(nb)), mergeAccesses(keep(bl))
}

func (s *Schedule) ffGroups() {
	d := s.Design
	s.FF = make([]*FFGroup, len(d.Groups))
	eff := effectsCache{}
	for gi, grp := range d.Groups {
		g := &FFGroup{Index: gi, Group: grp}
		var reads, nbAll, imm []design.Access
		for _, p := range grp.Procs {
			nb, bl := ffWrites(p)
			g.Evaluate = append(g.Evaluate, &FFProc{Proc: p, NonBlocking: nb, Blocking: bl, Effects: eff.stmtEffects(p.Body)})
			reads = append(reads, p.Reads...)
			nbAll = append(nbAll, nb...)
			imm = append(imm, bl...)
		}
		sparse := map[*design.Home]bool{}
		for _, a := range nbAll {
			if a.Dynamic && a.Home.IsArray() {
				sparse[a.Home] = true
			}
		}
		var staged, sp []design.Access
		for _, a := range nbAll {
			if sparse[a.Home] {
				sp = append(sp, a)
			} else {
				staged = append(staged, a)
			}
		}
		g.Reads = mergeAccesses(reads)
		g.Staged = mergeAccesses(staged)
		g.Sparse = mergeAccesses(sp)
		g.Immediate = mergeAccesses(imm)
		g.Apply = mergeAccesses(append(append([]design.Access(nil), g.Staged...), g.Sparse...))
		for _, list := range [][]design.Access{g.Apply, g.Immediate} {
			for _, a := range list {
				for _, t := range s.trigByHome[a.Home] {
					if overlap(a, t.Access()) {
						g.WritesTrigger = true
						if n := len(t.FF); n == 0 || t.FF[n-1] != gi {
							t.FF = append(t.FF, gi)
						}
					}
				}
			}
		}
		s.FF[gi] = g
	}
}

// Trigger is one event bit: bit Bit of element Elem of Home, which fires
// the groups in Uses. Items and FF say who writes it: a trigger written by
// comb logic or by a trigger group is a derived (or gated) clock or an
// internal reset, so a settle or an apply that changes it must be followed
// by edge detection again.
type Trigger struct {
	Home      *design.Home
	Elem, Bit int
	Uses      []TriggerUse
	// Items are the IDs of comb items writing the bit, ascending.
	Items []int
	// FF are the indexes of the trigger groups writing the bit, ascending.
	FF []int
}

// TriggerUse is one group a trigger bit fires, and on which edge.
type TriggerUse struct {
	Group int // index in Schedule.FF and Design.Groups
	Edge  design.Edge
}

// Access is the trigger bit as a one-bit access.
func (t *Trigger) Access() design.Access {
	return design.Access{Home: t.Home, Lo: t.Bit, Hi: t.Bit, ElemLo: t.Elem, ElemHi: t.Elem}
}

// Derived reports whether the design itself writes the trigger bit.
func (t *Trigger) Derived() bool { return len(t.Items) > 0 || len(t.FF) > 0 }

func (t *Trigger) String() string {
	s := t.Home.Path
	if t.Home.IsArray() {
		s += fmt.Sprintf("@%d", t.Elem)
	}
	if t.Home.Width > 1 {
		s += fmt.Sprintf("[%d]", t.Bit)
	}
	return s
}

// WritesTrigger reports whether a covers a trigger bit.
func (s *Schedule) WritesTrigger(a design.Access) bool {
	for _, t := range s.trigByHome[a.Home] {
		if overlap(a, t.Access()) {
			return true
		}
	}
	return false
}

// triggers collects the event bits and marks the comb items writing them.
func (s *Schedule) triggers() {
	type key struct {
		h         *design.Home
		elem, bit int
	}
	byKey := map[key]*Trigger{}
	for gi, g := range s.Design.Groups {
		for _, ev := range g.Events {
			k := key{ev.Home, ev.Elem, ev.Bit}
			t := byKey[k]
			if t == nil {
				t = &Trigger{Home: ev.Home, Elem: ev.Elem, Bit: ev.Bit}
				byKey[k] = t
				s.Triggers = append(s.Triggers, t)
			}
			t.Uses = append(t.Uses, TriggerUse{Group: gi, Edge: ev.Edge})
		}
	}
	sort.Slice(s.Triggers, func(i, j int) bool {
		a, b := s.Triggers[i], s.Triggers[j]
		if a.Home.ID != b.Home.ID {
			return a.Home.ID < b.Home.ID
		}
		if a.Elem != b.Elem {
			return a.Elem < b.Elem
		}
		return a.Bit < b.Bit
	})
	s.trigByHome = map[*design.Home][]*Trigger{}
	for _, t := range s.Triggers {
		if len(s.trigByHome[t.Home]) == 0 {
			s.TriggerHomes = append(s.TriggerHomes, t.Home)
		}
		s.trigByHome[t.Home] = append(s.trigByHome[t.Home], t)
	}
	if len(s.Triggers) == 0 {
		return
	}
	for _, it := range s.Items {
		for _, w := range it.Writes {
			for _, t := range s.trigByHome[w.Home] {
				if overlap(w, t.Access()) {
					it.WritesTrigger = true
					if n := len(t.Items); n == 0 || t.Items[n-1] != it.ID {
						t.Items = append(t.Items, it.ID)
					}
				}
			}
		}
	}
}
