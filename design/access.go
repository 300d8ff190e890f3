package design

import (
	"cmp"
	"slices"
	"sort"
)

// Analyze computes p.Reads and p.Writes from p.Body (calls included).
//
// Reads are upward-exposed: a bit range the process has already written on
// every path with a blocking assignment of constant address is not a read
// (nor is a variable bit select of one element all of whose reachable bits
// were so written)
// (this keeps `tmp = a; y = tmp;` from looking like a loop through tmp).
// Non-blocking writes never hide reads. Process-local and function homes
// are excluded from both sets. Constant addresses give exact element and bit
// ranges; a non-constant index or bit offset gives the whole array (and the
// bits the select can reach) with Dynamic set.
func Analyze(p *Process) {
	w := newAccWalker()
	w.stmt(p.Body)
	p.Reads = normalize(w.reads)
	p.Writes = normalize(w.writes)
}

// AnalyzeFunction computes f.Reads and f.Writes (module state touched by f
// and its callees); it is idempotent.
func AnalyzeFunction(f *Function) {
	if f.analyzed {
		return
	}
	if f.analyzing {
		f.Recursive = true
		return
	}
	f.analyzing = true
	w := newAccWalker()
	w.stmt(f.Body)
	f.Reads = normalize(w.reads)
	f.Writes = normalize(w.writes)
	f.analyzing = false
	f.analyzed = true
}

type covKey struct {
	h    *Home
	elem int
}

type accWalker struct {
	reads, writes []Access
	covered       map[covKey][]span
	// track lists local homes to account for like module state (LiveIn).
	track map[*Home]bool
	// coverNB makes non-blocking assignments, not blocking ones, cover
	// (MustWriteNB).
	coverNB bool
}

func newAccWalker() *accWalker { return &accWalker{covered: map[covKey][]span{}} }

func isLocal(h *Home) bool { return h.Kind == KindBlockLocal || h.Kind == KindFuncLocal }

// WholeAccess is the access covering every bit of every element of h.
func WholeAccess(h *Home) Access {
	return Access{Home: h, Lo: 0, Hi: h.Width - 1, ElemLo: 0, ElemHi: h.Elems() - 1}
}

// RefAccess is the access a reference chain (HomeRef, ElemRef, Slice of
// those) denotes, by the rules Analyze uses: exact for constant addresses,
// the whole home or the reachable bits with Dynamic set otherwise. ok is
// false when e is not a reference chain, empty when the address is constant
// and out of range.
func RefAccess(e Expr) (a Access, ok, empty bool) {
	switch e := e.(type) {
	case *HomeRef:
		return WholeAccess(e.Home), true, false
	case *ElemRef:
		a = WholeAccess(e.Home)
		flat := 0
		for i, ix := range e.Index {
			size := e.Home.Unpacked[i].Size()
			v, isc := ConstUint(ix)
			if !isc {
				if _, big := ix.(*Const); big {
					return a, true, true // huge constant: out of range
				}
				a.Dynamic = true
				return a, true, false
			}
			if v >= size {
				return a, true, true
			}
			flat = flat*size + v
		}
		a.ElemLo, a.ElemHi = flat, flat
		return a, true, false
	case *Slice:
		base, ok, empty := RefAccess(e.X)
		if !ok || empty {
			return base, ok, empty
		}
		l, isc := ConstUint(e.Lsb)
		if !isc {
			if _, big := e.Lsb.(*Const); big {
				return base, true, true
			}
			base.Dynamic = true
			return base, true, false
		}
		lo := base.Lo + l
		if lo > base.Hi {
			return base, true, true
		}
		base.Hi = min(lo+e.T.Width-1, base.Hi)
		base.Lo = lo
		return base, true, false
	}
	return Access{}, false, false
}

// indexReads walks the index and offset expressions of a reference chain.
func (w *accWalker) indexReads(e Expr) {
	switch e := e.(type) {
	case *ElemRef:
		for _, ix := range e.Index {
			w.expr(ix)
		}
	case *Slice:
		w.indexReads(e.X)
		w.expr(e.Lsb)
	}
}

// skip reports whether accesses of h are left out of the sets.
func (w *accWalker) skip(h *Home) bool { return isLocal(h) && !w.track[h] }

// LiveIn returns the homes among homes whose value on entry to body can be
// read by it: those with an upward-exposed read (a read of bits not
// written before on every path by a blocking assignment of constant
// address). The analysis is conservative; a home it does not return may be
// given a fresh value on each entry without changing what body computes.
// Callees are not searched for the homes (they cannot name them).
func LiveIn(body Stmt, homes []*Home) []*Home {
	w := newAccWalker()
	w.track = map[*Home]bool{}
	for _, h := range homes {
		w.track[h] = true
	}
	w.stmt(body)
	seen := map[*Home]bool{}
	var out []*Home
	for _, r := range w.reads {
		if w.track[r.Home] && !seen[r.Home] {
			seen[r.Home] = true
			out = append(out, r.Home)
		}
	}
	return out
}

func (w *accWalker) read(a Access) {
	if w.skip(a.Home) {
		return
	}
	if a.Dynamic && a.ElemLo == a.ElemHi && len(subSpans(span{a.Lo, a.Hi}, w.covered[covKey{a.Home, a.ElemLo}])) == 0 {
		return // a variable bit select of bits all written before
	}
	if !a.Dynamic && a.ElemLo == a.ElemHi {
		for _, s := range subSpans(span{a.Lo, a.Hi}, w.covered[covKey{a.Home, a.ElemLo}]) {
			b := a
			b.Lo, b.Hi = s.lo, s.hi
			w.reads = append(w.reads, b)
		}
		return
	}
	w.reads = append(w.reads, a)
}

// write records a write of a; covers says it counts towards covered (a
// blocking assignment, or a non-blocking one for MustWriteNB).
func (w *accWalker) write(a Access, covers bool) {
	if w.skip(a.Home) {
		return
	}
	w.writes = append(w.writes, a)
	if covers && !a.Dynamic {
		for e := a.ElemLo; e <= a.ElemHi && e-a.ElemLo < 4096; e++ {
			k := covKey{a.Home, e}
			w.covered[k] = addSpan(w.covered[k], span{a.Lo, a.Hi})
		}
	}
}

func (w *accWalker) expr(e Expr) {
	switch e := e.(type) {
	case nil, *Const:
	case *HomeRef, *ElemRef, *Slice:
		if a, ok, empty := RefAccess(e); ok {
			w.indexReads(e)
			if !empty {
				w.read(a)
			}
			return
		}
		s := e.(*Slice)
		w.expr(s.X)
		w.expr(s.Lsb)
	case *Unary:
		w.expr(e.X)
	case *Binary:
		w.expr(e.X)
		w.expr(e.Y)
	case *Cond:
		w.expr(e.C)
		w.expr(e.Then)
		w.expr(e.Else)
	case *Concat:
		for _, p := range e.Parts {
			w.expr(p)
		}
	case *Repl:
		w.expr(e.X)
	case *Extend:
		w.expr(e.X)
	case *Trunc:
		w.expr(e.X)
	case *Call:
		for _, a := range e.Args {
			w.expr(a)
		}
		w.call(e.Func)
	case *SysFunc:
		for _, a := range e.Args {
			w.expr(a)
		}
	}
}

func (w *accWalker) call(f *Function) {
	if w.track != nil {
		return // LiveIn: callees cannot name the tracked homes
	}
	AnalyzeFunction(f)
	for _, r := range f.Reads {
		w.read(r)
	}
	for _, x := range f.Writes {
		w.write(x, false)
	}
}

func (w *accWalker) lvalue(lv LValue, blocking bool) {
	if c, ok := lv.(*Concat); ok {
		for _, p := range c.Parts {
			w.lvalue(p.(LValue), blocking)
		}
		return
	}
	a, ok, empty := RefAccess(lv)
	w.indexReads(lv)
	if ok && !empty {
		w.write(a, blocking != w.coverNB)
	}
}

func (w *accWalker) snapshot() map[covKey][]span {
	c := make(map[covKey][]span, len(w.covered))
	for k, v := range w.covered {
		c[k] = v
	}
	return c
}

func meet(a, b map[covKey][]span) map[covKey][]span {
	out := map[covKey][]span{}
	for k, x := range a {
		if y, ok := b[k]; ok {
			if s := intersectSpans(x, y); len(s) > 0 {
				out[k] = s
			}
		}
	}
	return out
}

func (w *accWalker) stmt(s Stmt) {
	switch s := s.(type) {
	case nil:
	case *Block:
		if s == nil {
			return
		}
		for _, st := range s.Stmts {
			w.stmt(st)
		}
	case *Assign:
		w.expr(s.RHS)
		w.lvalue(s.LHS, !s.NonBlocking)
	case *If:
		w.expr(s.Cond)
		pre := w.snapshot()
		w.stmt(s.Then)
		afterThen := w.covered
		w.covered = pre
		w.stmt(s.Else)
		w.covered = meet(afterThen, w.covered)
	case *Case:
		w.expr(s.Subject)
		for _, it := range s.Items {
			for _, l := range it.Labels {
				w.expr(l.Value)
				w.expr(l.Hi)
			}
		}
		pre := w.snapshot()
		var acc map[covKey][]span
		arms := make([]Stmt, 0, len(s.Items)+1)
		for _, it := range s.Items {
			arms = append(arms, it.Body)
		}
		arms = append(arms, s.Default) // a missing default is an empty arm
		for _, b := range arms {
			w.covered = copyCov(pre)
			w.stmt(b)
			if acc == nil {
				acc = w.covered
			} else {
				acc = meet(acc, w.covered)
			}
		}
		w.covered = acc
	case *Loop:
		pre := w.snapshot()
		if s.DoWhile {
			w.stmt(s.Body)
			w.stmt(s.Step)
			w.expr(s.Cond)
			return // the body ran at least once: its writes cover
		}
		w.expr(s.Cond)
		w.stmt(s.Body)
		w.stmt(s.Step)
		w.covered = pre
	case *SysTask:
		for _, a := range s.Args {
			w.expr(a)
		}
		if s.Target != nil && !w.skip(s.Target) {
			w.write(WholeAccess(s.Target), false)
		}
	case *TaskCall:
		for _, a := range s.Args {
			w.expr(a)
		}
		w.call(s.Func)
		for _, o := range s.Outs {
			if o != nil {
				w.lvalue(o, true)
			}
		}
	}
}

func copyCov(c map[covKey][]span) map[covKey][]span {
	o := make(map[covKey][]span, len(c))
	for k, v := range c {
		o[k] = v
	}
	return o
}

// normalize merges accesses of the same home: bit ranges of the same
// element range, then element ranges with the same bit range; the result is
// sorted by home ID, element, bit.
func normalize(list []Access) []Access {
	if len(list) == 0 {
		return nil
	}
	type ek struct {
		h      *Home
		lo, hi int
		dyn    bool
	}
	byElems := map[ek][]span{}
	var order []ek
	for _, a := range list {
		k := ek{a.Home, a.ElemLo, a.ElemHi, a.Dynamic}
		if _, ok := byElems[k]; !ok {
			order = append(order, k)
		}
		byElems[k] = addSpan(byElems[k], span{a.Lo, a.Hi})
	}
	type bk struct {
		h      *Home
		lo, hi int
		dyn    bool
	}
	byBits := map[bk][]span{}
	var order2 []bk
	for _, k := range order {
		for _, s := range byElems[k] {
			b := bk{k.h, s.lo, s.hi, k.dyn}
			if _, ok := byBits[b]; !ok {
				order2 = append(order2, b)
			}
			byBits[b] = addSpan(byBits[b], span{k.lo, k.hi})
		}
	}
	var out []Access
	for _, b := range order2 {
		for _, s := range byBits[b] {
			out = append(out, Access{Home: b.h, Lo: b.lo, Hi: b.hi, ElemLo: s.lo, ElemHi: s.hi, Dynamic: b.dyn})
		}
	}
	// A dynamic access subsumes the static accesses inside its envelope.
	var dyn []Access
	for _, a := range out {
		if a.Dynamic {
			dyn = append(dyn, a)
		}
	}
	if len(dyn) > 0 {
		kept := out[:0]
		for _, a := range out {
			sub := false
			if !a.Dynamic {
				for _, d := range dyn {
					if d.Home == a.Home && d.Lo <= a.Lo && a.Hi <= d.Hi && d.ElemLo <= a.ElemLo && a.ElemHi <= d.ElemHi {
						sub = true
						break
					}
				}
			}
			if !sub {
				kept = append(kept, a)
			}
		}
		out = kept
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Home.ID != b.Home.ID {
			return a.Home.ID < b.Home.ID
		}
		if a.Home != b.Home {
			return a.Home.Path < b.Home.Path
		}
		if a.ElemLo != b.ElemLo {
			return a.ElemLo < b.ElemLo
		}
		if a.Lo != b.Lo {
			return a.Lo < b.Lo
		}
		return !a.Dynamic && b.Dynamic
	})
	return out
}

// ExprReads appends to out the module state e reads, by Analyze's rules
// (callees' reads included, process-local homes left out).
func ExprReads(e Expr, out []Access) []Access {
	w := newAccWalker()
	w.reads = out
	w.expr(e)
	return w.reads
}

// IndexReads appends to out the module state read by the index and offset
// expressions of the lvalue lv (every part of a concatenation).
func IndexReads(lv Expr, out []Access) []Access {
	w := newAccWalker()
	w.reads = out
	var walk func(e Expr)
	walk = func(e Expr) {
		if c, ok := e.(*Concat); ok {
			for _, p := range c.Parts {
				walk(p)
			}
			return
		}
		w.indexReads(e)
	}
	walk(lv)
	return w.reads
}

// MustWriteNB returns the bits body assigns with non-blocking assignments
// of constant address on every path through it, per element (one access
// per element and bit span, at most 4096 elements of one assignment). A
// body that can return early assigns nothing for certain here.
func MustWriteNB(body Stmt) []Access {
	early := false
	WalkStmt(body, func(s Stmt) bool {
		if _, ok := s.(*Return); ok {
			early = true
		}
		return !early
	})
	if early {
		return nil
	}
	w := newAccWalker()
	w.coverNB = true
	w.stmt(body)
	var out []Access
	for k, spans := range w.covered {
		for _, sp := range spans {
			out = append(out, Access{Home: k.h, ElemLo: k.elem, ElemHi: k.elem, Lo: sp.lo, Hi: sp.hi})
		}
	}
	slices.SortFunc(out, func(a, b Access) int { return cmp.Or(a.Home.ID-b.Home.ID, a.ElemLo-b.ElemLo, a.Lo-b.Lo) })
	return out
}
