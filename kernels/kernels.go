package kernels

import (
	"fmt"
	"sort"

	"github.com/weft-hdl/weft/design"
	"github.com/weft-hdl/weft/sir"
	"github.com/weft-hdl/weft/slt"
	"github.com/weft-hdl/weft/statelayout"
)

// process lowers one activation of a process body (or comb item).
// Process-local scalar variables live in registers during the activation:
// loaded from their homes at the start, stored back at the end (they are
// static: a latch-like local keeps its value between activations).
func (u *ub) process(body design.Stmt, inst *design.Instance) {
	b := u.b
	locals := blockLocals(body)
	for _, h := range locals {
		m := u.memOf(h)
		v := u.loadElem(m.addr(0, sir.NoReg), h.Width, m.es)
		u.vars[h] = u.newVar(h.Width, &v)
	}
	if inst != nil {
		u.scope = inst.Path
	}
	end := b.NewBlock()
	u.ret = end
	u.stmt(body)
	b.Jump(end)
	b.SetBlock(end)
	for _, h := range locals {
		m := u.memOf(h)
		u.storeElem(m.addr(0, sir.NoReg), u.vars[h].value(), m.es)
		delete(u.vars, h)
	}
}

// blockLocals lists the process-local non-array homes s touches, by ID.
func blockLocals(s design.Stmt) []*design.Home {
	seen := map[*design.Home]bool{}
	add := func(h *design.Home) {
		if h.Kind == design.KindBlockLocal && !h.IsArray() {
			seen[h] = true
		}
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
		if blk, ok := st.(*design.Block); ok {
			for _, h := range blk.Locals {
				add(h)
			}
		}
		return true
	})
	out := make([]*design.Home, 0, len(seen))
	for h := range seen {
		out = append(out, h)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// ---- settle ----

// settle lowers every comb node in the schedule's order.
func (u *ub) settle() {
	u.mode = modeComb
	for _, n := range u.c.s.Nodes {
		u.node(n)
	}
}

// node lowers one comb node: its item, or its loop to a fixpoint.
func (u *ub) node(n *slt.Node) {
	u.seq = nodeSeq(n)
	if n.Loop == nil {
		u.process(n.Items[0].Body, n.Items[0].Proc.Inst)
		return
	}
	u.loopNode(n.Loop)
}

// span is a byte range of one object.
type span struct {
	id     sir.HomeID
	off, n int
}

// loopSpans are the bytes holding a loop's feedback bits, merged per home.
func (u *ub) loopSpans(l *slt.Loop) []span {
	byHome := map[*design.Home][]span{}
	var homes []*design.Home
	for _, a := range l.Signals {
		m := u.memOf(a.Home)
		s := span{id: m.id}
		if a.Dynamic {
			s.off, s.n = 0, m.es*m.elems
		} else {
			s.off = a.ElemLo*m.es + a.Lo/8
			s.n = a.ElemHi*m.es + a.Hi/8 + 1 - s.off
		}
		if _, ok := byHome[a.Home]; !ok {
			homes = append(homes, a.Home)
		}
		byHome[a.Home] = append(byHome[a.Home], s)
	}
	var out []span
	for _, h := range homes {
		ss := byHome[h]
		sort.Slice(ss, func(i, j int) bool { return ss[i].off < ss[j].off })
		m := ss[:1]
		for _, s := range ss[1:] {
			t := &m[len(m)-1]
			if s.off <= t.off+t.n {
				t.n = max(t.n, s.off+s.n-t.off)
				continue
			}
			m = append(m, s)
		}
		out = append(out, m...)
	}
	return out
}

// loopNode iterates a comb loop until its feedback bytes stop changing, at
// most MaxIter passes; otherwise it returns sir.StatusNoSettle with the
// loop index in the diag word.
func (u *ub) loopNode(l *slt.Loop) {
	b := u.b
	spans := u.loopSpans(l)
	iter := b.Reg(32)
	b.ConstTo(iter, 0)
	head, more, fail, exit := b.NewBlock(), b.NewBlock(), b.NewBlock(), b.NewBlock()
	b.Jump(head)
	b.SetBlock(head)
	type snap struct {
		regs    []sir.Reg
		scratch *statelayout.Object
	}
	snaps := make([]snap, len(spans))
	for i, s := range spans {
		if s.n <= 64 {
			for off := 0; off < s.n; {
				sz := chunk(s.n - off)
				snaps[i].regs = append(snaps[i].regs, b.Load(8*sz, sz, sir.Addr{Home: s.id, Offset: s.off + off}))
				off += sz
			}
			continue
		}
		key := [2]int{l.Index, i}
		o := u.c.snap[key]
		if o == nil {
			o = u.c.sp.AddScratch(fmt.Sprintf("$loop%d.snap%d", l.Index, i), 8, (s.n+7)/8)
			u.c.snap[key] = o
		}
		snaps[i].scratch = o
		u.copyToScratch(s, o.ID)
	}
	for _, it := range l.Items {
		u.process(it.Body, it.Proc.Inst)
	}
	changed := b.Const(1, 0)
	for i, s := range spans {
		if snaps[i].scratch != nil {
			changed = b.Or(changed, u.diffBytes(s.id, s.off, snaps[i].scratch.ID, 0, s.n))
			continue
		}
		k := 0
		for off := 0; off < s.n; {
			sz := chunk(s.n - off)
			now := b.Load(8*sz, sz, sir.Addr{Home: s.id, Offset: s.off + off})
			changed = b.Or(changed, b.Ne(now, snaps[i].regs[k]))
			k++
			off += sz
		}
	}
	b.Branch(changed, more, exit)
	b.SetBlock(more)
	b.OpTo(iter, sir.OpAdd, iter, b.Const(32, 1), sir.NoReg)
	b.Branch(b.ULt(iter, b.Const(32, uint64(l.MaxIter))), head, fail)
	b.SetBlock(fail)
	u.failWith(sir.StatusNoSettle, l.Index)
	b.Jump(exit) // unreachable
	b.SetBlock(exit)
}

func chunk(n int) int {
	sz := 8
	for sz > n {
		sz /= 2
	}
	return sz
}

// copyToScratch copies a span into a scratch object (from offset 0).
func (u *ub) copyToScratch(s span, to sir.HomeID) {
	b := u.b
	words := s.n / 8
	if words > 0 {
		u.countedLoop(words, func(i sir.Reg) {
			r := b.Load(64, 8, sir.Addr{Home: s.id, Offset: s.off, Index: i, Stride: 8, Count: words})
			b.Store(8, sir.Addr{Home: to, Index: i, Stride: 8, Count: words}, r)
		})
	}
	for off := 8 * words; off < s.n; {
		sz := chunk(s.n - off)
		r := b.Load(8*sz, sz, sir.Addr{Home: s.id, Offset: s.off + off})
		b.Store(sz, sir.Addr{Home: to, Offset: off}, r)
		off += sz
	}
}

// ---- trigger groups ----

// groupCtx is the state of one group's evaluation in a unit.
type groupCtx struct {
	index int
	sites []*site
	// next is the ordinal of the group's next non-blocking write site:
	// sites are numbered over the group's processes in order, so a part
	// lowered alone (partitioned kernels) reuses the slots of the whole
	// group (compiler.siteBase).
	next int
}

// site is one non-blocking write to a sparse target: evaluate fills its
// slot (valid flag, element index, value or mask+value), apply replays it.
//
// Slot layout: +0 u8 valid; +8 u64 element index (>= elems: out of
// range); +16 value words (static bit window) or mask words then value
// words (dynamic window), 8 bytes each.
type site struct {
	slot  *statelayout.Object
	mem   memRef
	dyn   bool
	lo, n int
}

func (u *ub) siteWrite(l *loc, v value) {
	b := u.b
	g := u.grp
	key := [2]int{g.index, g.next}
	g.next++
	st := &site{mem: l.mem, dyn: l.dyn, lo: l.lo, n: l.n}
	nw := nwords(l.W)
	size := 16 + 8*nwords(max(l.n, 1))
	if l.dyn {
		size = 16 + 16*nw
	}
	o := u.c.slots[key]
	if o == nil || o.Size() < size {
		if o != nil {
			u.c.fail("non-blocking write site %d of group %d differs between kernels", key[1], key[0])
		}
		o = u.c.sp.AddScratch(fmt.Sprintf("$nba.g%d.s%d", key[0], key[1]), 8, size/8)
		u.c.slots[key] = o
	}
	st.slot = o
	g.sites = append(g.sites, st)
	id := o.ID
	b.Store(1, sir.Addr{Home: id}, b.Const(8, 1))
	var idx sir.Reg
	if l.idx != sir.NoReg {
		idx = b.ZExt(64, l.idx)
	} else {
		idx = b.Const(64, uint64(l.elem))
	}
	b.Store(8, sir.Addr{Home: id, Offset: 8}, idx)
	if l.dyn {
		vs := u.bitwise(sir.OpAnd, u.shift(sir.OpShl, u.resize(v, l.W), u.single(l.off)), l.mask)
		for i, r := range l.mask.w {
			b.Store(8, sir.Addr{Home: id, Offset: 16 + 8*i}, r)
		}
		for i, r := range vs.w {
			b.Store(8, sir.Addr{Home: id, Offset: 16 + 8*nw + 8*i}, r)
		}
		return
	}
	for i, r := range u.resize(v, l.n).w {
		b.Store(8, sir.Addr{Home: id, Offset: 16 + 8*i}, r)
	}
}

// applySite replays one site.
func (u *ub) applySite(s *site) {
	b := u.b
	id := s.slot.ID
	valid := b.Load(8, 1, sir.Addr{Home: id})
	u.branch(b.Ne(valid, b.Const(8, 0)), func() {
		b.Store(1, sir.Addr{Home: id}, b.Const(8, 0))
		idx := b.Load(64, 8, sir.Addr{Home: id, Offset: 8})
		a := s.mem.addr(0, idx)
		W := s.mem.width
		load := func(off, width int) value {
			v := value{w: make([]sir.Reg, nwords(width)), width: width}
			for i := range v.w {
				v.w[i] = b.Load(wordWidth(width, i), 8, sir.Addr{Home: id, Offset: off + 8*i})
			}
			return v
		}
		if s.dyn {
			nw := nwords(W)
			mask := load(16, W)
			val := load(16+8*nw, W)
			old := u.loadElem(a, W, s.mem.es)
			u.storeElem(a, u.bitwise(sir.OpOr, u.bitwise(sir.OpAnd, old, u.not(mask)), val), s.mem.es)
			return
		}
		v := load(16, s.n)
		if s.lo == 0 && s.n == W {
			u.storeElem(a, v, s.mem.es)
		} else {
			u.storeField(a, s.lo, v)
		}
	}, nil)
}

// ffPart is a contiguous run of one trigger group's processes,
// g.Evaluate[lo:hi]: the whole group in the sequential kernels, a part of
// it in partitioned ones (ffsplit).
type ffPart struct {
	group, lo, hi int
}

func (c *compiler) wholeGroup(gi int) ffPart {
	return ffPart{group: gi, hi: len(c.s.FF[gi].Evaluate)}
}

func (p ffPart) whole(c *compiler) bool { return p.lo == 0 && p.hi == len(c.s.FF[p.group].Evaluate) }

// partStaging lists what evaluate copies home → staging (and apply back)
// for a part: the group's Staged accesses and whole-staged homes (sparse
// targets written inside a loop) — all of them for a whole group, those
// overlapping the part's non-blocking writes otherwise.
func (c *compiler) partStaging(p ffPart) (acc []design.Access, whole []*design.Home) {
	g := c.s.FF[p.group]
	all := p.whole(c)
	var nb []design.Access
	if !all {
		for _, fp := range g.Evaluate[p.lo:p.hi] {
			nb = append(nb, fp.NonBlocking...)
		}
	}
	touches := func(a design.Access) bool {
		if all {
			return true
		}
		for _, w := range nb {
			if w.Home == a.Home && w.ElemLo <= a.ElemHi && a.ElemLo <= w.ElemHi && w.Lo <= a.Hi && a.Lo <= w.Hi {
				return true
			}
		}
		return false
	}
	for _, a := range g.Staged {
		if touches(a) {
			acc = append(acc, a)
		}
	}
	seen := map[*design.Home]bool{}
	for _, a := range g.Sparse {
		h := a.Home
		if seen[h] || c.sp.Staging(h) == nil || c.sparse[g.Index][h] {
			continue
		}
		seen[h] = true
		if all || touches(design.Access{Home: h, ElemLo: 0, ElemHi: h.Elems() - 1, Lo: 0, Hi: h.Width - 1}) {
			whole = append(whole, h)
		}
	}
	return acc, whole
}

// stage copies the staged bits of parts home → staging (in = true) or
// back (in = false), each access and home once. Copying in skips the bits
// the parts' processes assign on every path (the copy would only be
// overwritten before apply publishes it).
func (u *ub) stage(parts []ffPart, in bool) {
	seenA := map[string]bool{}
	seenH := map[*design.Home]bool{}
	var must map[mustKey][]design.Access
	if in && !u.c.opts.NoMustWrite {
		must = u.c.mustWrites(parts)
	}
	for _, p := range parts {
		acc, whole := u.c.partStaging(p)
		for _, a := range acc {
			k := a.String()
			if seenA[k] {
				continue
			}
			seenA[k] = true
			home, stg := sir.HomeID(a.Home.ID), u.c.sp.Staging(a.Home).ID
			if in {
				for _, r := range notWritten(a, must) {
					u.copyAccess(r, home, stg)
				}
			} else {
				u.copyAccess(a, stg, home)
			}
		}
		for _, h := range whole {
			if seenH[h] {
				continue
			}
			seenH[h] = true
			m := u.memOf(h)
			if in {
				u.copyBytes(m.id, u.c.sp.Staging(h).ID, 0, m.es*m.elems)
			} else {
				u.copyBytes(u.c.sp.Staging(h).ID, m.id, 0, m.es*m.elems)
			}
		}
	}
}

// evalPart lowers the evaluation of one part's processes (the staging
// copies are the caller's) and returns its write sites.
func (u *ub) evalPart(p ffPart) *groupCtx { return u.evalParts([]ffPart{p})[0] }

// evalParts lowers the evaluation of parts in order (the staging copies
// are the caller's) and returns each part's write sites. A run of
// processes sharing their if condition (merge.go) may span parts: the
// replicas of a module are one trigger group per instance.
func (u *ub) evalParts(parts []ffPart) []*groupCtx {
	ctxs := make([]*groupCtx, len(parts))
	var items []runItem
	for pi, p := range parts {
		ctxs[pi] = &groupCtx{index: p.group}
		for k := p.lo; k < p.hi; k++ {
			items = append(items, runItem{part: pi, group: p.group, k: k, fp: u.c.s.FF[p.group].Evaluate[k]})
		}
	}
	// enter makes item it's part the current group and positions its write
	// site numbering (see groupCtx.next).
	enter := func(it runItem) {
		ctx := ctxs[it.part]
		u.grp = ctx
		u.seq = u.c.ffSeq(it.group, it.k)
		key := [2]int{it.group, it.k}
		if base, ok := u.c.siteBase[key]; ok {
			ctx.next = base
		} else {
			u.c.siteBase[key] = ctx.next
		}
	}
	for i := 0; i < len(items); {
		it := items[i]
		enter(it)
		if end := u.runAt(items, i); end > i+1 {
			for _, o := range items[i+1 : end] {
				enter(o) // runs queue no sparse writes: only the numbering moves on
			}
			u.grp = ctxs[it.part]
			u.seq = u.c.ffSeq(it.group, it.k) // the run's events carry its first key (runAt)
			u.snapshotArms(items[i:end])
			u.process(u.mergedBody(items[i:end]), it.fp.Proc.Inst)
			u.snap, u.snapAt = nil, nil
			i = end
			continue
		}
		u.takeSnapshot(it.fp.Snapshot)
		u.process(it.fp.Proc.Body, it.fp.Proc.Inst)
		u.snap = nil
		i++
	}
	u.grp = nil
	return ctxs
}

// takeSnapshot loads into u.snap the homes a process reads after
// updating them in place (slt.FFProc.Snapshot), before it runs.
func (u *ub) takeSnapshot(homes []*design.Home) {
	for _, h := range homes {
		if u.snap == nil {
			u.snap = map[*design.Home]value{}
		}
		m := u.memOf(h)
		u.snap[h] = u.loadElem(m.addr(0, sir.NoReg), h.Width, m.es)
	}
}

// snapshotOneLate is set by a test only: a merged run's snapshots are
// then taken at the next process's arms, after the process updated the
// home, to show the differential checks catch that.
var snapshotOneLate = false

// snapshotArms has the snapshots of a merged run's processes taken where
// each process's arm starts (u.snapAt), not all before the run: that is
// the same value (the condition is pure, and no other process writes a
// home one updates in place), and it does not keep every process's
// snapshot in a register across the whole run.
func (u *ub) snapshotArms(procs []runItem) {
	for i, it := range procs {
		if len(it.fp.Snapshot) == 0 {
			continue
		}
		s, _ := runIf(it.fp.Proc.Body)
		if snapshotOneLate && i+1 < len(procs) {
			s, _ = runIf(procs[i+1].fp.Proc.Body)
		}
		for _, arm := range []design.Stmt{s.Then, s.Else} {
			if arm == nil {
				continue
			}
			if u.snapAt == nil {
				u.snapAt = map[design.Stmt][]*design.Home{}
			}
			u.snapAt[arm] = it.fp.Snapshot
		}
	}
}

// event lowers evaluate + apply of trigger groups: the given groups
// unconditionally, or (groups == nil) every group guarded by its trigger
// bytes.
func (u *ub) event(groups []int) {
	b := u.b
	s := u.c.s
	generic := groups == nil
	if generic {
		groups = make([]int, len(s.FF))
		for i := range groups {
			groups[i] = i
		}
	}
	fired := map[int]sir.Reg{}
	if generic {
		for _, gi := range groups {
			var f sir.Reg
			for _, ev := range u.c.sp.Events {
				if !containsInt(ev.Groups, gi) {
					continue
				}
				t := b.Load(8, 1, sir.Addr{Home: u.c.sp.Triggers().ID, Offset: ev.Index})
				nz := b.Ne(t, b.Const(8, 0))
				if f == sir.NoReg {
					f = nz
				} else {
					f = b.Or(f, nz)
				}
			}
			if f == sir.NoReg {
				f = b.Const(1, 0)
			}
			fired[gi] = f
		}
	}
	guard := func(gi int, body func()) {
		if generic {
			u.branch(fired[gi], body, nil)
		} else {
			body()
		}
	}
	if !generic {
		// Every group runs: their processes are one sequence, so runs of
		// processes sharing a condition can span groups.
		parts := make([]ffPart, len(groups))
		for i, gi := range groups {
			parts[i] = u.c.wholeGroup(gi)
		}
		u.mode = modeEval
		u.stage(parts, true)
		ctxs := u.evalParts(parts)
		u.mode = modeComb
		u.applyParts(parts, ctxs)
		return
	}
	ctxs := map[int]*groupCtx{}
	u.mode = modeEval
	for _, gi := range groups {
		part := []ffPart{u.c.wholeGroup(gi)}
		guard(gi, func() {
			u.stage(part, true)
			ctxs[gi] = u.evalPart(part[0])
		})
	}
	u.mode = modeComb
	for _, gi := range groups {
		part := []ffPart{u.c.wholeGroup(gi)}
		guard(gi, func() { u.applyParts(part, []*groupCtx{ctxs[gi]}) })
	}
}

// applyParts publishes parts: their staged bits, then their write sites in
// program order.
func (u *ub) applyParts(parts []ffPart, ctxs []*groupCtx) {
	u.stage(parts, false)
	for _, ctx := range ctxs {
		for _, st := range ctx.sites {
			u.applySite(st)
		}
	}
}

func containsInt(xs []int, x int) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// ---- initial ----

// initial lowers the initial processes in order ($readmemh calls are
// recorded in Program.Readmems, not executed).
func (u *ub) initial() {
	u.mode = modeInitial
	for _, p := range u.c.d.Initial {
		u.c.checkReadmems(p)
	}
	for _, p := range u.c.d.Initial {
		u.process(p.Body, p.Inst)
	}
	u.mode = modeComb
}

// checkReadmems rejects the $readmemh/b uses the simulator cannot perform
// faithfully: it loads every file after the initial values and before the
// Initial unit runs, which equals the source order only when the load is
// unconditional and no initial block also writes that memory.
func (c *compiler) checkReadmems(p *design.Process) {
	top := map[design.Stmt]bool{}
	var topLevel func(s design.Stmt)
	topLevel = func(s design.Stmt) {
		top[s] = true
		if b, ok := s.(*design.Block); ok && b != nil {
			for _, st := range b.Stmts {
				topLevel(st)
			}
		}
	}
	topLevel(p.Body)
	design.WalkStmt(p.Body, func(s design.Stmt) bool {
		st, ok := s.(*design.SysTask)
		if !ok || (st.Kind != design.TaskReadmemh && st.Kind != design.TaskReadmemb) {
			return true
		}
		if !top[st] {
			c.fail("%s: %s under a run-time condition or loop is not supported yet; make the condition constant (a parameter) or call it unconditionally", st.Pos, st.Kind)
			return true
		}
		if st.Target == nil {
			return true
		}
		for _, q := range c.d.Initial {
			if assignsHome(q.Body, st.Target) {
				c.fail("%s: %s loads %s, which an initial block also assigns; weft performs the load before every initial block, so this is not supported yet", st.Pos, st.Kind, st.Target.Path)
				return true
			}
		}
		return true
	})
}

// assignsHome reports whether body assigns h other than by $readmemh/b:
// through an assignment, or a task call's outputs or body.
func assignsHome(body design.Stmt, h *design.Home) bool {
	found := false
	design.WalkStmt(body, func(s design.Stmt) bool {
		switch x := s.(type) {
		case *design.Assign:
			found = found || lvalueHas(x.LHS, h)
		case *design.TaskCall:
			for _, o := range x.Outs {
				found = found || (o != nil && lvalueHas(o, h))
			}
			for _, w := range x.Func.Writes {
				found = found || w.Home == h
			}
		}
		return !found
	})
	return found
}

func lvalueHas(lv design.Expr, h *design.Home) bool {
	switch x := lv.(type) {
	case *design.HomeRef:
		return x.Home == h
	case *design.ElemRef:
		return x.Home == h
	case *design.Slice:
		return lvalueHas(x.X, h)
	case *design.Concat:
		for _, p := range x.Parts {
			if lvalueHas(p, h) {
				return true
			}
		}
	}
	return false
}

// mustWriteHook, set by a test only, replaces what a process must write:
// to show the differential checks catch a must-write analysis that claims
// a conditional write.
var mustWriteHook func(p *design.Process, must []design.Access) []design.Access

// mustKey is one element of a home.
type mustKey struct {
	h    *design.Home
	elem int
}

// mustWrites returns, per element, the bit spans some process of parts
// assigns with a non-blocking assignment on every path (design.MustWriteNB,
// computed once per process), sorted by first bit.
func (c *compiler) mustWrites(parts []ffPart) map[mustKey][]design.Access {
	out := map[mustKey][]design.Access{}
	for _, p := range parts {
		for _, fp := range c.s.FF[p.group].Evaluate[p.lo:p.hi] {
			list, ok := c.mustNB[fp.Proc]
			if !ok {
				list = design.MustWriteNB(fp.Proc.Body)
				if mustWriteHook != nil {
					list = mustWriteHook(fp.Proc, list)
				}
				c.mustNB[fp.Proc] = list
			}
			for _, a := range list {
				k := mustKey{a.Home, a.ElemLo}
				out[k] = append(out[k], a)
			}
		}
	}
	for _, spans := range out {
		sort.Slice(spans, func(i, j int) bool { return spans[i].Lo < spans[j].Lo })
	}
	return out
}

// notWritten returns the runs of elements of a whose bits [a.Lo, a.Hi] are
// not all in must (each run keeps a's bit range).
func notWritten(a design.Access, must map[mustKey][]design.Access) []design.Access {
	if len(must) == 0 || a.Dynamic {
		return []design.Access{a}
	}
	covered := func(e int) bool {
		next := a.Lo
		for _, s := range must[mustKey{a.Home, e}] { // sorted by Lo
			if s.Lo > next {
				break
			}
			next = max(next, s.Hi+1)
		}
		return next > a.Hi
	}
	var out []design.Access
	for e := a.ElemLo; e <= a.ElemHi; e++ {
		if covered(e) {
			continue
		}
		if n := len(out); n > 0 && out[n-1].ElemHi == e-1 {
			out[n-1].ElemHi = e
			continue
		}
		r := a
		r.ElemLo, r.ElemHi = e, e
		out = append(out, r)
	}
	return out
}
