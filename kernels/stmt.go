package kernels

import (
	"github.com/weft-hdl/weft/design"
	"github.com/weft-hdl/weft/sir"
	"strings"
)

// stmt lowers a statement into the current block.
func (u *ub) stmt(s design.Stmt) {
	if len(u.snapAt) > 0 && s != nil {
		if hs, ok := u.snapAt[s]; ok {
			u.takeSnapshot(hs)
		}
	}
	switch s := s.(type) {
	case nil:
	case *design.Block:
		if s == nil {
			return
		}
		for _, st := range s.Stmts {
			u.stmt(st)
		}
	case *design.Assign:
		u.assign(s)
	case *design.If:
		c := u.nonzero(u.expr(s.Cond))
		var els func()
		if s.Else != nil {
			els = func() { u.stmt(s.Else) }
		}
		u.branch(c, func() { u.stmt(s.Then) }, els)
	case *design.Case:
		u.caseStmt(s)
	case *design.Loop:
		u.loop(s)
	case *design.Break:
		if len(u.loops) == 0 {
			u.c.fail("%s: break outside a loop", s.Pos)
			return
		}
		u.jumpAway(u.loops[len(u.loops)-1].brk)
	case *design.Continue:
		if len(u.loops) == 0 {
			u.c.fail("%s: continue outside a loop", s.Pos)
			return
		}
		u.jumpAway(u.loops[len(u.loops)-1].cont)
	case *design.Return:
		u.jumpAway(u.ret)
	case *design.SysTask:
		u.sysTask(s)
	case *design.TaskCall:
		u.call(s.Func, s.Args, s.Outs, 0)
	default:
		u.c.fail("cannot lower statement %T", s)
	}
}

func (u *ub) assign(s *design.Assign) {
	nb := s.NonBlocking && u.mode == modeEval
	if l, ok := s.LHS.(*design.HomeRef); ok && l.Home.IsArray() {
		r, ok := s.RHS.(*design.HomeRef)
		if !ok || !r.Home.IsArray() || r.Home.Elems() != l.Home.Elems() || r.Home.Width != l.Home.Width {
			u.c.fail("%s: array assignment from a non-array or an array of another shape", s.Pos)
			return
		}
		src, dst := u.memOf(r.Home), u.memOf(l.Home)
		if nb && !u.c.inPlace[l.Home] {
			if st := u.c.sp.Staging(l.Home); st != nil {
				dst = dst.with(st.ID)
			} else {
				u.c.warn("%s: non-blocking whole-array copy to %s acts at once", s.Pos, l.Home.Path)
			}
		}
		u.copyBytes(src.id, dst.id, 0, src.es*src.elems)
		return
	}
	v := u.expr(s.RHS)
	u.assignTo(s.LHS, v, nb)
}

func (u *ub) caseStmt(s *design.Case) {
	b := u.b
	subj := u.expr(s.Subject)
	t := s.Subject.Type()
	join := b.NewBlock()
	for _, it := range s.Items {
		body := b.NewBlock()
		for _, l := range it.Labels {
			m := u.match(subj, t, l)
			next := b.NewBlock()
			b.Branch(m, body, next)
			b.SetBlock(next)
		}
		miss := b.Block()
		b.SetBlock(body)
		u.stmt(it.Body)
		b.Jump(join)
		b.SetBlock(miss)
	}
	u.stmt(s.Default)
	b.Jump(join)
	b.SetBlock(join)
}

// match returns the 1-bit "subject matches label".
func (u *ub) match(subj value, t design.Type, l *design.CaseLabel) sir.Reg {
	v := u.expr(l.Value)
	if l.Hi != nil {
		hi := u.expr(l.Hi)
		return u.b.And(u.lnot(u.lt(subj, v, t.Signed)), u.lnot(u.lt(hi, subj, t.Signed)))
	}
	if l.Mask != nil {
		m := u.constBig(t.Width, design.Mask(l.Mask, t.Width))
		return u.eq(u.bitwise(sir.OpAnd, subj, m), u.bitwise(sir.OpAnd, v, m))
	}
	return u.eq(subj, v)
}

// loop lowers a procedural loop with its iteration bound (reaching it
// returns sir.StatusLoopLimit with the loop site in the diag word).
func (u *ub) loop(s *design.Loop) {
	b := u.b
	site, ok := u.c.loopSiteOf[s]
	if !ok {
		site = len(u.c.p.LoopSites)
		u.c.loopSiteOf[s] = site
		max := s.MaxIter
		if max <= 0 {
			max = 1 << 20
		}
		u.c.p.LoopSites = append(u.c.p.LoopSites, LoopSite{Pos: s.Pos, MaxIter: max})
	}
	maxIter := u.c.p.LoopSites[site].MaxIter
	i := b.Reg(64)
	b.ConstTo(i, 0)
	top, chk, body, step, fail, exit := b.NewBlock(), b.NewBlock(), b.NewBlock(), b.NewBlock(), b.NewBlock(), b.NewBlock()
	b.Jump(top)
	b.SetBlock(top)
	b.Branch(b.ULt(i, b.Const(64, uint64(maxIter))), chk, fail)
	b.SetBlock(fail)
	u.failWith(sir.StatusLoopLimit, site)
	u.b.Jump(exit) // unreachable
	b.SetBlock(chk)
	if s.Cond == nil {
		b.Jump(body)
	} else {
		condb := b.NewBlock()
		if s.DoWhile {
			b.Branch(b.Eq(i, b.Const(64, 0)), body, condb)
		} else {
			b.Jump(condb)
		}
		b.SetBlock(condb)
		b.Branch(u.nonzero(u.expr(s.Cond)), body, exit)
	}
	b.SetBlock(body)
	u.loops = append(u.loops, loopCtx{brk: exit, cont: step})
	u.stmt(s.Body)
	u.loops = u.loops[:len(u.loops)-1]
	b.Jump(step)
	b.SetBlock(step)
	u.stmt(s.Step)
	b.OpTo(i, sir.OpAdd, i, b.Const(64, 1), sir.NoReg)
	b.Jump(top)
	b.SetBlock(exit)
}

// call inlines a function or task call. args[i] is the value of argument
// i (nil for output-only); outs[i] (tasks) receives its final value. It
// returns the result (resW bits; zero-width when void).
func (u *ub) call(f *design.Function, args []design.Expr, outs []design.LValue, resW int) value {
	b := u.b
	if f.Recursive || u.inFn[f] {
		u.c.fail("%s: recursive function %s is called at run time and cannot be inlined", f.Pos, f.Name)
		return u.zero(max(resW, 1))
	}
	if u.depth >= u.c.opts.MaxInline {
		u.c.fail("%s: function calls nested deeper than %d", f.Pos, u.c.opts.MaxInline)
		return u.zero(max(resW, 1))
	}
	if u.b.Over() {
		// The unit is past the instruction limit and the build fails with
		// it: inlining further would only spend time, exponentially so for
		// functions that call the next one twice.
		return u.zero(max(resW, 1))
	}
	// Evaluate the arguments in the caller's frame.
	vals := make([]*value, len(f.Args))
	for i, a := range args {
		if i < len(f.Args) && a != nil {
			v := u.resize(u.expr(a), f.Args[i].Width)
			vals[i] = &v
		}
	}
	// A fresh frame: arguments, result and locals (automatic, zeroed).
	saved := map[*design.Home]*regVar{}
	bind := func(h *design.Home, init *value) {
		if _, ok := saved[h]; !ok {
			saved[h] = u.vars[h]
		}
		if h.IsArray() {
			delete(u.vars, h)
			u.zeroObject(u.memOf(h))
			return
		}
		u.vars[h] = u.newVar(h.Width, init)
	}
	for i, h := range f.Args {
		bind(h, vals[i])
	}
	if f.Result != nil {
		bind(f.Result, nil)
	}
	design.WalkStmt(f.Body, func(s design.Stmt) bool {
		if blk, ok := s.(*design.Block); ok {
			for _, h := range blk.Locals {
				bind(h, nil)
			}
		}
		return true
	})
	oldRet, oldLoops := u.ret, u.loops
	u.ret, u.loops = b.NewBlock(), nil
	u.inFn[f] = true
	u.depth++
	oldScope := u.scope
	if f.Inst != nil {
		u.scope = f.Inst.Path
	}
	u.stmt(f.Body)
	u.scope = oldScope
	u.depth--
	delete(u.inFn, f)
	b.Jump(u.ret)
	b.SetBlock(u.ret)
	u.ret, u.loops = oldRet, oldLoops
	var res value
	if f.Result != nil {
		res = u.vars[f.Result].value()
		if resW > 0 {
			res = u.resize(res, resW)
		}
	} else if resW > 0 {
		res = u.zero(resW)
	}
	outVals := make([]value, len(outs))
	for i, o := range outs {
		if o != nil && i < len(f.Args) {
			if v := u.vars[f.Args[i]]; v != nil {
				outVals[i] = v.value()
			}
		}
	}
	for h, v := range saved {
		if v == nil {
			delete(u.vars, h)
		} else {
			u.vars[h] = v
		}
	}
	for i, o := range outs {
		if o != nil && outVals[i].w != nil {
			u.assignTo(o, u.resize(outVals[i], o.Type().Width), false)
		}
	}
	return res
}

// zeroObject clears every byte of a scratch object.
func (u *ub) zeroObject(m memRef) {
	b := u.b
	n := m.es * m.elems
	off := 0
	words := n / 8
	if words > 16 {
		z := b.Const(64, 0)
		u.countedLoop(words, func(i sir.Reg) {
			b.Store(8, sir.Addr{Home: m.id, Index: i, Stride: 8, Count: words}, z)
		})
		off = 8 * words
	}
	for off < n {
		sz := 8
		for sz > n-off {
			sz /= 2
		}
		b.Store(sz, sir.Addr{Home: m.id, Offset: off}, b.Const(8*sz, 0))
		off += sz
	}
}

var eventKinds = map[design.SysTaskKind]sir.EventKind{
	design.TaskDisplay: sir.EvDisplay,
	design.TaskWrite:   sir.EvWrite,
	design.TaskFinish:  sir.EvFinish,
	design.TaskStop:    sir.EvStop,
	design.TaskError:   sir.EvError,
	design.TaskFatal:   sir.EvFatal,
	design.TaskWarning: sir.EvWarning,
	design.TaskInfo:    sir.EvInfo,
}

func (u *ub) sysTask(s *design.SysTask) {
	if s.Kind == design.TaskReadmemh || s.Kind == design.TaskReadmemb {
		if u.mode != modeInitial {
			u.c.fail("%s: %s is only supported in initial blocks", s.Pos, s.Kind)
			return
		}
		u.c.readmem(s)
		return
	}
	kind, ok := eventKinds[s.Kind]
	if !ok {
		u.c.fail("%s: cannot lower %s", s.Pos, s.Kind)
		return
	}
	ev := &sir.Event{Kind: kind, Format: u.c.format(s, u.scope)}
	if u.task {
		ev.Seq = u.seq
	}
	switch s.Kind {
	case design.TaskFinish, design.TaskStop, design.TaskFatal:
		ev.Level = max(s.Level, 0)
	}
	if len(s.Args) > sir.MaxEventArgs {
		u.c.failAt(s.Pos, "%s has %d arguments; at most %d are supported", s.Kind, len(s.Args), sir.MaxEventArgs)
		return
	}
	for i, a := range s.Args {
		if w := a.Type().Width; w > sir.MaxEventArgWidth {
			u.c.failAt(s.Pos, "%s argument %d is %d bits wide; at most %d bits can be printed", s.Kind, i+1, w, sir.MaxEventArgWidth)
			return
		}
		v := u.expr(a)
		ev.Args = append(ev.Args, sir.EventArg{Words: v.w, Width: v.width, Signed: a.Type().Signed})
	}
	// A record larger than the whole ring would be dropped on every call,
	// so the task could never print: say so now, with the size to ask for.
	if size, ring := sir.RecordSize(ev), u.c.sp.RingCap(); size > ring {
		u.c.failAt(s.Pos, "%s needs %d bytes in the runtime-event ring for one call, but the ring holds %d; raise it to at least %d bytes with --ring (weft run) or compile.Builder.RingCap (Go)",
			s.Kind, size, ring, size)
		return
	}
	u.b.Event(ev)
	switch s.Kind {
	case design.TaskFinish:
		u.setStatus(sir.StatusFinish)
	case design.TaskStop:
		u.setStatus(sir.StatusStop)
	case design.TaskFatal:
		u.setStatus(sir.StatusFatal)
	}
}

// format returns the format-table id of a system task site. The copies of
// one site in several instances share an entry unless the text could name
// the scope (%m): their events are then the same instruction, which lets
// the native backend run the instances' code as one loop.
func (c *compiler) format(s *design.SysTask, scope string) int {
	if id, ok := c.formatOf[s]; ok {
		return id
	}
	if s.Scope != "" {
		scope = s.Scope
	}
	f := Format{Kind: s.Kind, Text: s.Format, HasFormat: s.HasFormat, Pos: s.Pos, Scope: scope}
	key := f
	if !strings.ContainsAny(f.Text, "mM") {
		key.Scope = ""
	}
	if c.formatKey == nil {
		c.formatKey = map[Format]int{}
	}
	id, ok := c.formatKey[key]
	if !ok {
		id = len(c.p.Formats)
		c.formatKey[key] = id
		c.p.Formats = append(c.p.Formats, f)
	}
	c.formatOf[s] = id
	return id
}

// readmem records a $readmemh/b of an initial process (once).
func (c *compiler) readmem(s *design.SysTask) {
	if c.readmemSeen == nil {
		c.readmemSeen = map[*design.SysTask]bool{}
	}
	if c.readmemSeen[s] {
		return
	}
	c.readmemSeen[s] = true
	r := Readmem{File: s.File, Home: s.Target, Hex: s.Kind == design.TaskReadmemh, Start: -1, End: -1, Pos: s.Pos}
	if len(s.Args) > 0 {
		if v, ok := design.ConstUint(s.Args[0]); ok {
			r.Start = v
		}
	}
	if len(s.Args) > 1 {
		if v, ok := design.ConstUint(s.Args[1]); ok {
			r.End = v
		}
	}
	if s.Target == nil {
		c.fail("%s: %s without a target memory", s.Pos, s.Kind)
		return
	}
	c.p.Readmems = append(c.p.Readmems, r)
}
