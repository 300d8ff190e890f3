package kernels

import (
	"github.com/weft-hdl/weft/design"
	"github.com/weft-hdl/weft/program"
	"github.com/weft-hdl/weft/slt"
)

// forceLimits says, per home, which elements a test bench's Force cannot
// hold (program.ForceLimit): a forced value is rewritten after every
// evaluation, which cannot hold against comb logic (every settle
// recomputes it), a clock or reset the design drives (its edges act
// within one evaluation) or a clocked process that reads back its own
// blocking assignment. The limits are listed in that order of precedence.
func forceLimits(d *design.Design, s *slt.Schedule) map[*design.Home][]program.ForceLimit {
	out := map[*design.Home][]program.ForceLimit{}
	for _, p := range d.Comb {
		for _, w := range p.Writes {
			h := w.Home
			if h == nil {
				continue
			}
			var drivers []string
			seen := map[*design.Home]bool{h: true}
			for _, a := range p.Reads {
				if a.Home == nil || seen[a.Home] {
					continue
				}
				seen[a.Home] = true
				drivers = append(drivers, a.Home.Path)
			}
			out[h] = append(out[h], program.ForceLimit{ElemLo: w.ElemLo, ElemHi: w.ElemHi, Reason: program.ForceComb,
				Pos: p.Pos, Process: p.Kind.String(), Drivers: drivers})
		}
	}
	for _, t := range s.Triggers {
		if t.Derived() {
			out[t.Home] = append(out[t.Home], program.ForceLimit{ElemLo: t.Elem, ElemHi: t.Elem, Reason: program.ForceClock})
		}
	}
	for _, g := range d.Groups {
		for _, p := range g.Procs {
			back := map[*design.Home]*design.Pos{}
			for _, w := range p.Writes {
				h := w.Home
				if h == nil {
					continue
				}
				at, seen := back[h]
				if !seen {
					if a, ok := readsBack(p.Body, h); ok {
						at = &a
					}
					back[h] = at
				}
				if at != nil {
					out[h] = append(out[h], program.ForceLimit{ElemLo: w.ElemLo, ElemHi: w.ElemHi, Reason: program.ForceReadBack,
						Pos: p.Pos, ReadPos: *at})
				}
			}
		}
	}
	for _, sh := range d.Shared {
		shareLimits(d, out, sh)
	}
	return out
}

// shareLimits gives back the limits a copy design.ShareCopies removed
// implied: its target is driven by comb logic (forcing it would move its
// source too, which shares its storage), and the source of an
// `assign arr[k] = src` keeps the limits its drivers give arr[k] now.
func shareLimits(d *design.Design, out map[*design.Home][]program.ForceLimit, sh *design.Shared) {
	target, src := d.CopyEnds(sh)
	if !sh.GoneWritten {
		kept := out[target.Home][:0:0]
		for _, l := range out[target.Home] {
			if l.ElemLo == target.Elem && l.ElemHi == target.Elem {
				l.ElemLo, l.ElemHi = 0, 0
				out[sh.Gone] = append(out[sh.Gone], l)
				continue
			}
			kept = append(kept, l)
		}
		out[target.Home] = kept
	}
	out[target.Home] = append(out[target.Home], program.ForceLimit{ElemLo: target.Elem, ElemHi: target.Elem,
		Reason: program.ForceComb, Pos: sh.Copy.Pos, Process: sh.Copy.Kind.String(), Drivers: []string{src}})
}

// readsBack reports where body may read h after assigning it with a
// blocking assignment (or a task output) in the same run, in source
// order; a loop that does both counts, since its next iteration reads
// what the previous one wrote. Branches are not told apart (a write in
// one arm and a read in a later statement count), which errs on the side
// of refusing.
func readsBack(body design.Stmt, h *design.Home) (design.Pos, bool) {
	written, found := false, false
	var at design.Pos
	design.WalkStmt(body, func(st design.Stmt) bool {
		if found {
			return false
		}
		if l, ok := st.(*design.Loop); ok && loopReadsBack(l, h) {
			at, found = l.Pos, true
			return false
		}
		if stmtAccess(st, h, func(e design.Expr, pos design.Pos) {
			if !found && written && mentions(e, h) {
				at, found = pos, true
			}
		}) {
			written = true
		}
		return !found
	})
	return at, found
}

// loopReadsBack reports whether loop l both assigns h with a blocking
// assignment and reads it.
func loopReadsBack(l *design.Loop, h *design.Home) bool {
	writes, reads := false, mentions(l.Cond, h)
	for _, s := range []design.Stmt{l.Body, l.Step} {
		design.WalkStmt(s, func(st design.Stmt) bool {
			if stmtAccess(st, h, func(e design.Expr, _ design.Pos) { reads = reads || mentions(e, h) }) {
				writes = true
			}
			return true
		})
	}
	return writes && reads
}

// stmtAccess calls read for every expression statement st itself reads
// (not those of the statements nested in it), and reports whether st
// assigns h with a blocking assignment or a task output.
func stmtAccess(st design.Stmt, h *design.Home, read func(design.Expr, design.Pos)) bool {
	writes := false
	switch st := st.(type) {
	case *design.Assign:
		read(st.RHS, st.Pos)
		lvalueReads(st.LHS, func(e design.Expr) { read(e, st.Pos) })
		writes = !st.NonBlocking && mentions(st.LHS, h)
	case *design.If:
		read(st.Cond, st.Pos)
	case *design.Case:
		read(st.Subject, st.Pos)
		for _, it := range st.Items {
			for _, l := range it.Labels {
				read(l.Value, st.Pos)
				read(l.Hi, st.Pos)
			}
		}
	case *design.Loop:
		read(st.Cond, st.Pos)
	case *design.SysTask:
		for _, a := range st.Args {
			read(a, st.Pos)
		}
	case *design.TaskCall:
		for _, a := range st.Args {
			read(a, st.Pos)
		}
		for _, o := range st.Outs {
			if o != nil {
				lvalueReads(o, func(e design.Expr) { read(e, st.Pos) })
				writes = writes || mentions(o, h)
			}
		}
	}
	return writes
}

// mentions reports whether expression e refers to h anywhere.
func mentions(e design.Expr, h *design.Home) bool {
	found := false
	design.WalkExpr(e, func(x design.Expr) { found = found || refersTo(x, h) })
	return found
}

// refersTo reports whether x itself names h.
func refersTo(x design.Expr, h *design.Home) bool {
	switch x := x.(type) {
	case *design.HomeRef:
		return x.Home == h
	case *design.ElemRef:
		return x.Home == h
	}
	return false
}

// lvalueReads calls fn for the expressions an assignment target reads:
// indexes and bit offsets, not the home it writes.
func lvalueReads(lv design.Expr, fn func(design.Expr)) {
	switch x := lv.(type) {
	case *design.ElemRef:
		for _, ix := range x.Index {
			fn(ix)
		}
	case *design.Slice:
		fn(x.Lsb)
		lvalueReads(x.X, fn)
	case *design.Concat:
		for _, p := range x.Parts {
			lvalueReads(p, fn)
		}
	}
}
