package design

import "slices"

// HomeElem is one element of a home (Elem 0 for a scalar home).
type HomeElem struct {
	Home *Home
	Elem int
}

// Shared records one continuous copy ShareCopies removed by giving both
// sides one storage location.
type Shared struct {
	// Gone is the home no process references any more; Design.Shares says
	// whose storage it uses.
	Gone *Home
	// Copy is the removed continuous assignment (its position, kind and
	// reads stay what a Force refusal quotes).
	Copy *Process
	// GoneWritten is set when the copy wrote Gone (`assign gone = src`:
	// readers of Gone now read src); otherwise the copy read Gone and
	// wrote the element Gone now shares (`assign arr[k] = gone`: every
	// process that wrote or read Gone now writes or reads arr[k]).
	GoneWritten bool
}

// CopyEnds returns what removed copy sh wrote (Gone, or the element Gone
// now shares) and the path of the home it read.
func (d *Design) CopyEnds(sh *Shared) (target HomeElem, source string) {
	if !sh.GoneWritten {
		target, _ = d.Shares(sh.Gone)
		return target, sh.Gone.Path
	}
	for _, a := range sh.Copy.Reads {
		source = a.Home.Path
	}
	return HomeElem{Home: sh.Gone}, source
}

// ShareCopies returns d without the continuous assignments that only copy
// one storage location to another, `assign w = q;` and `assign regs[k] =
// q;` (a register file's flops gathered into an array): after every
// settle both sides hold the same value, so one location can hold both.
// Each removal renames one side to the other in every process; the
// removed home keeps its name and signal but no storage of its own
// (Design.Shares says whose it uses: the state layout places it there, so
// reading it by name, dumping or forcing it sees the same bits), and
// Design.Shared lists the removed copies. The result shares d's
// instances, homes and functions and the comb and initial processes it
// does not edit (trigger groups and their processes are copies); d itself
// is not changed. It returns d itself when no copy qualifies.
//
// A copy `assign L = R;` (L and R of one type, each a whole scalar home or
// an element of an array home at a constant index in range) qualifies when
// nothing else writes L's bits, no comb logic writes R, no trigger event
// names either side, no function touches either home, neither is an input
// port, a static variable or the target of $readmem, and L's home has no
// initial value (R's may have one). When L is a whole scalar home, its
// readers read R instead; when L is an array element, R a whole scalar
// home and some process reads L's array at a run-time index, R's writers
// and readers use that element instead (R's initial value, if any, is
// written there at time zero). Other copies stay processes.
func ShareCopies(d *Design) *Design {
	var out *Design
	// Each round removes copies whose homes no other removal of the round
	// touches; the next round sees the renamed processes (chains of copies
	// collapse one link per round).
	for cur := d; ; {
		next := shareRound(cur)
		if next == nil {
			break
		}
		out, cur = next, next
	}
	if out == nil {
		return d
	}
	out.Index()
	return out
}

// shareCandidate is one copy to remove: every reference to from becomes a
// reference to to (a whole scalar home or an element at a constant index).
type shareCandidate struct {
	copy   *Process
	from   *Home
	to     Expr // *HomeRef or *ElemRef with constant indexes
	at     HomeElem
	target bool // the copy wrote from
}

// shareRound removes the copies of d that qualify and touch no home
// another one of them touches; nil when none does.
func shareRound(d *Design) *Design {
	excluded := map[*Home]bool{}
	for _, g := range d.Groups {
		for _, ev := range g.Events {
			excluded[ev.Home] = true
		}
	}
	for _, f := range d.Functions {
		AnalyzeFunction(f)
		for _, a := range f.Reads {
			excluded[a.Home] = true
		}
		for _, a := range f.Writes {
			excluded[a.Home] = true
		}
	}
	procs := d.Processes()
	writers := map[*Home][]Access{}
	combWritten, dynRead := map[*Home]bool{}, map[*Home]bool{}
	for _, p := range procs {
		for _, a := range p.Writes {
			writers[a.Home] = append(writers[a.Home], a)
			combWritten[a.Home] = combWritten[a.Home] || p.Kind.Comb()
		}
		for _, a := range p.Reads {
			dynRead[a.Home] = dynRead[a.Home] || a.Dynamic
		}
		WalkStmt(p.Body, func(s Stmt) bool {
			if t, ok := s.(*SysTask); ok && t.Target != nil {
				excluded[t.Target] = true
			}
			return true
		})
	}
	for h := range d.shares {
		excluded[h] = true
	}
	touched := map[*Home]bool{}
	var cands []shareCandidate
	for _, p := range d.Comb {
		c, ok := shareable(p, writers, excluded, combWritten, dynRead)
		if !ok || touched[c.from] || touched[c.at.Home] {
			continue
		}
		touched[c.from], touched[c.at.Home] = true, true
		cands = append(cands, c)
	}
	if len(cands) == 0 {
		return nil
	}
	out := *d
	out.byPath = nil
	out.shares = make(map[*Home]HomeElem, len(d.shares)+len(cands))
	for h, at := range d.shares {
		out.shares[h] = at
	}
	out.Shared = slices.Clone(d.Shared)
	byFrom := map[*Home]*shareCandidate{}
	gone := map[*Process]bool{}
	for i := range cands {
		c := &cands[i]
		byFrom[c.from] = c
		gone[c.copy] = true
		out.shares[c.from] = c.at
		out.Shared = append(out.Shared, &Shared{Gone: c.from, Copy: c.copy, GoneWritten: c.target})
	}
	keep := func(h *Home) *Home { return h }
	cp := &Copier{Home: keep, Ref: func(h *Home) Expr {
		if c := byFrom[h]; c != nil {
			return (&Copier{Home: keep}).Expr(c.to)
		}
		return nil
	}}
	// edit returns p with the removed homes renamed (p itself when it
	// names none).
	edit := func(p *Process) *Process {
		if !mentionsAny(p, byFrom) {
			return p
		}
		np := *p
		cp.seen = nil
		np.Body = cp.Stmt(p.Body)
		np.Sensitivity = slices.Clone(p.Sensitivity)
		for i, h := range np.Sensitivity {
			if c := byFrom[h]; c != nil {
				np.Sensitivity[i] = c.at.Home
			}
		}
		Analyze(&np)
		return &np
	}
	out.Comb = nil
	for _, p := range d.Comb {
		if !gone[p] {
			out.Comb = append(out.Comb, edit(p))
		}
	}
	out.Initial = make([]*Process, len(d.Initial))
	for i, p := range d.Initial {
		out.Initial[i] = edit(p)
	}
	out.Groups = make([]*TriggerGroup, len(d.Groups))
	for i, g := range d.Groups {
		ng := *g
		ng.Procs = make([]*Process, len(g.Procs))
		for j, p := range g.Procs {
			np := edit(p)
			if np == p {
				np = &Process{}
				*np = *p
			}
			np.Group = &ng
			ng.Procs[j] = np
		}
		out.Groups[i] = &ng
	}
	return &out
}

// shareable reports whether comb process p is a copy ShareCopies removes.
func shareable(p *Process, writers map[*Home][]Access, excluded, combWritten, dynRead map[*Home]bool) (shareCandidate, bool) {
	body := p.Body
	if b, ok := body.(*Block); ok && len(b.Stmts) == 1 && len(b.Locals) == 0 {
		body = b.Stmts[0]
	}
	as, ok := body.(*Assign)
	if !ok || p.Kind != ProcContAssign {
		return shareCandidate{}, false
	}
	lhs, lok := plainLocation(as.LHS)
	rhs, rok := plainLocation(as.RHS)
	if !lok || !rok || lhs.Home == rhs.Home || lhs.Home.Type() != rhs.Home.Type() {
		return shareCandidate{}, false
	}
	for _, h := range []*Home{lhs.Home, rhs.Home} {
		if excluded[h] || h.Kind == KindInput || h.Kind == KindStatic || isLocal(h) {
			return shareCandidate{}, false
		}
	}
	// A comb-driven source would fold the copy into comb logic, where a
	// loop through it would be reported under other names.
	if lhs.Home.Init != nil || combWritten[rhs.Home] {
		return shareCandidate{}, false
	}
	// Nothing but the copy may write the target's bits.
	for _, w := range writers[lhs.Home] {
		if w.ElemLo <= lhs.Elem && lhs.Elem <= w.ElemHi && !slices.Contains(p.Writes, w) {
			return shareCandidate{}, false
		}
	}
	if n := len(writers[lhs.Home]); !lhs.Home.IsArray() && n != 1 {
		return shareCandidate{}, false
	}
	if !lhs.Home.IsArray() {
		return shareCandidate{copy: p, from: lhs.Home, to: as.RHS, at: rhs, target: true}, true
	}
	// Gathering scalars into an array pays where the array is read at
	// run-time indexes (a register file): elsewhere the copies stay, so
	// that each flop keeps its own scope (what lanes are cut along).
	if rhs.Home.IsArray() || !dynRead[lhs.Home] {
		return shareCandidate{}, false
	}
	return shareCandidate{copy: p, from: rhs.Home, to: as.LHS, at: lhs}, true
}

// plainLocation returns the location e names when it is a whole scalar
// home or an element of an array home at constant, in-range indexes.
func plainLocation(e Expr) (HomeElem, bool) {
	switch r := e.(type) {
	case *HomeRef:
		if r.Home.IsArray() {
			return HomeElem{}, false
		}
		return HomeElem{Home: r.Home}, true
	case *ElemRef:
		a, ok, empty := RefAccess(r)
		if !ok || empty || a.Dynamic {
			return HomeElem{}, false
		}
		return HomeElem{Home: r.Home, Elem: a.ElemLo}, true
	}
	return HomeElem{}, false
}

// mentionsAny reports whether p's body names a home of m.
func mentionsAny(p *Process, m map[*Home]*shareCandidate) bool {
	found := false
	WalkStmtExprs(p.Body, func(e Expr) {
		switch r := e.(type) {
		case *HomeRef:
			found = found || m[r.Home] != nil
		case *ElemRef:
			found = found || m[r.Home] != nil
		}
	})
	return found
}
