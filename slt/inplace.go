package slt

import (
	"sort"

	"github.com/weft-hdl/weft/design"
)

// inPlace moves out of each group's Staged the targets evaluate may write
// straight to their homes (FFGroup.InPlace).
//
// A staging copy exists so that every read during evaluate sees pre-edge
// state. Writing the home early is invisible when nobody reads the written
// bits between the write and the end of apply: no other sequential process
// reads them (any group: the generic event evaluates every fired group
// before applying any), and the writing process either does not read them
// after the write on any path, or reads them from a register copy taken
// when it starts (FFProc.Snapshot: homes of at most 64 bits). Comb logic
// runs only after apply. A home is kept
// staged when any of that cannot be shown, or when it is a trigger home
// (derived clocks are compared after apply), a sparse or blocking target,
// or when comb logic writes some of the same bits. The decision is per home: it owns one
// staging object or none.
func (s *Schedule) inPlace() {
	bad := map[*design.Home]bool{}
	for h := range s.trigByHome {
		bad[h] = true
	}
	for _, g := range s.FF {
		for _, a := range g.Sparse {
			bad[a.Home] = true
		}
		for _, a := range g.Immediate {
			bad[a.Home] = true
		}
	}
	// The non-blocking writers of every candidate home.
	type writer struct {
		a    design.Access
		proc *design.Process
	}
	writers := map[*design.Home][]writer{}
	for _, g := range s.FF {
		for _, fp := range g.Evaluate {
			for _, a := range fp.NonBlocking {
				if !bad[a.Home] {
					writers[a.Home] = append(writers[a.Home], writer{a, fp.Proc})
				}
			}
		}
	}
	// Comb logic writing bits a flop writes too (a design error lint
	// reports) keeps the home staged; comb logic writing other bits of it
	// (`assign regs[0] = 0` beside flops held in regs[1..31]) does not.
	for _, it := range s.Items {
		for _, cw := range it.Writes {
			for _, w := range writers[cw.Home] {
				if w.a.Overlaps(cw) {
					bad[cw.Home] = true
					delete(writers, cw.Home)
					break
				}
			}
		}
	}
	if len(writers) == 0 {
		return
	}
	// Writers by first element, with the running maximum of their last
	// element, so a read finds the writers it overlaps by a binary search
	// and a short walk back.
	reach := map[*design.Home][]int{}
	for h, ws := range writers {
		sort.Slice(ws, func(i, j int) bool { return ws[i].a.ElemLo < ws[j].a.ElemLo })
		r := make([]int, len(ws))
		for i, w := range ws {
			r[i] = w.a.ElemHi
			if i > 0 {
				r[i] = max(r[i], r[i-1])
			}
		}
		reach[h] = r
	}
	otherWrites := func(r design.Access, p *design.Process) bool {
		ws, rh := writers[r.Home], reach[r.Home]
		i := sort.Search(len(ws), func(i int) bool { return ws[i].a.ElemLo > r.ElemHi }) - 1
		for ; i >= 0 && rh[i] >= r.ElemLo; i-- {
			if ws[i].proc != p && ws[i].a.Overlaps(r) {
				return true
			}
		}
		return false
	}
	for _, g := range s.FF {
		for _, fp := range g.Evaluate {
			for _, r := range fp.Proc.Reads {
				if !bad[r.Home] && writers[r.Home] != nil && otherWrites(r, fp.Proc) {
					bad[r.Home] = true
				}
			}
		}
	}
	// A process reading a target after writing it reads a copy of the
	// target taken when it starts (FFProc.Snapshot): a register, so only
	// for a home that fits one; otherwise the home stays staged.
	for _, g := range s.FF {
		for _, fp := range g.Evaluate {
			raw := map[*design.Home]bool{}
			w := &readAfterWrite{candidate: func(h *design.Home) bool { return !bad[h] && writers[h] != nil }, raw: raw, written: map[*design.Home][]design.Access{}}
			w.stmt(fp.Proc.Body)
			for h := range raw {
				if h.IsArray() || h.Width > 64 || s.noSnapshot {
					bad[h] = true
				} else {
					fp.Snapshot = append(fp.Snapshot, h)
				}
			}
			sort.Slice(fp.Snapshot, func(i, j int) bool { return fp.Snapshot[i].ID < fp.Snapshot[j].ID })
		}
	}
	for _, g := range s.FF {
		var staged, in []design.Access
		for _, a := range g.Staged {
			if bad[a.Home] || writers[a.Home] == nil {
				staged = append(staged, a)
			} else {
				in = append(in, a)
			}
		}
		g.Staged, g.InPlace = staged, in
		g.Apply = mergeAccesses(append(append([]design.Access(nil), g.Staged...), g.Sparse...))
	}
}

// readAfterWrite walks one process body in execution order and collects in
// raw the candidate homes it may read after writing them with a
// non-blocking assignment (a may-analysis: writes of either arm count
// after an if, a loop's writes count before its first read).
type readAfterWrite struct {
	candidate func(*design.Home) bool
	raw       map[*design.Home]bool
	// written are the candidate bits written so far on some path.
	written map[*design.Home][]design.Access
	scratch []design.Access
}

func (w *readAfterWrite) check(reads []design.Access) {
	for _, r := range reads {
		for _, x := range w.written[r.Home] {
			if x.Overlaps(r) {
				w.raw[r.Home] = true
				break
			}
		}
	}
	w.scratch = reads[:0]
}

func (w *readAfterWrite) expr(e design.Expr) { w.check(design.ExprReads(e, w.scratch[:0])) }

func (w *readAfterWrite) wrote(lv design.LValue) {
	for _, a := range lvalueAccesses(lv, nil) {
		if w.candidate(a.Home) {
			w.written[a.Home] = append(w.written[a.Home], a)
		}
	}
}

// mark and rewind let branches start from the same written set: written
// only grows, so a mark is the length of every home's list.
func (w *readAfterWrite) mark() map[*design.Home]int {
	m := make(map[*design.Home]int, len(w.written))
	for h, l := range w.written {
		m[h] = len(l)
	}
	return m
}

// rewind returns written to mark m and the writes made since, copied.
func (w *readAfterWrite) rewind(m map[*design.Home]int) map[*design.Home][]design.Access {
	added := map[*design.Home][]design.Access{}
	for h, l := range w.written {
		n := m[h]
		if len(l) > n {
			added[h] = append([]design.Access(nil), l[n:]...)
		}
		if n == 0 {
			delete(w.written, h)
		} else {
			w.written[h] = l[:n]
		}
	}
	return added
}

func (w *readAfterWrite) join(added []map[*design.Home][]design.Access) {
	for _, a := range added {
		for h, l := range a {
			w.written[h] = append(w.written[h], l...)
		}
	}
}

func (w *readAfterWrite) arms(arms ...design.Stmt) {
	m := w.mark()
	var added []map[*design.Home][]design.Access
	for _, s := range arms {
		w.stmt(s)
		added = append(added, w.rewind(m))
	}
	w.join(added)
}

func (w *readAfterWrite) stmt(s design.Stmt) {
	switch s := s.(type) {
	case *design.Block:
		if s == nil {
			return
		}
		for _, st := range s.Stmts {
			w.stmt(st)
		}
	case *design.Assign:
		w.expr(s.RHS)
		w.check(design.IndexReads(s.LHS, w.scratch[:0]))
		if s.NonBlocking {
			w.wrote(s.LHS)
		}
	case *design.If:
		w.expr(s.Cond)
		w.arms(s.Then, s.Else)
	case *design.Case:
		w.expr(s.Subject)
		arms := []design.Stmt{s.Default}
		for _, it := range s.Items {
			for _, l := range it.Labels {
				w.expr(l.Value)
				w.expr(l.Hi)
			}
			arms = append(arms, it.Body)
		}
		w.arms(arms...)
	case *design.Loop:
		// A later iteration reads after every write of an earlier one.
		for _, body := range []design.Stmt{s.Body, s.Step} {
			design.WalkStmt(body, func(st design.Stmt) bool {
				if a, ok := st.(*design.Assign); ok && a.NonBlocking {
					w.wrote(a.LHS)
				}
				return true
			})
		}
		w.expr(s.Cond)
		w.stmt(s.Body)
		w.stmt(s.Step)
	case *design.SysTask:
		for _, a := range s.Args {
			w.expr(a)
		}
	case *design.TaskCall:
		for _, a := range s.Args {
			w.expr(a)
		}
		design.AnalyzeFunction(s.Func)
		w.check(append(w.scratch[:0], s.Func.Reads...))
		for _, o := range s.Outs {
			if o != nil {
				w.check(design.IndexReads(o, w.scratch[:0]))
			}
		}
	}
}
