package kernels

import (
	"fmt"

	"github.com/weft-hdl/weft/design"
	"github.com/weft-hdl/weft/sir"
	"github.com/weft-hdl/weft/statelayout"
)

// mode says how non-blocking assignments act.
type mode int

const (
	modeComb    mode = iota // comb items: elab already made them blocking
	modeEval                // trigger-group evaluate: NBAs write staging or slots
	modeInitial             // initial processes: NBAs act at once
)

// ub builds one unit.
type ub struct {
	vb
	c *compiler
	// instProcs counts the processes of each instance among instItems
	// (the items runAt last looked at; merge.go).
	instProcs map[*design.Instance]int
	instItems *runItem
	// st is the pending status: the first $finish/$stop/$fatal code; the
	// unit returns it after completing (see end).
	st     sir.Reg
	stUsed bool

	vars map[*design.Home]*regVar
	// snap holds the values reads of a home see while the process being
	// lowered runs (slt.FFProc.Snapshot): its value when the process
	// started, though the process updates the home in place.
	snap map[*design.Home]value
	// snapAt holds, in a merged run, the homes each process snapshots, by
	// the process's arm: stmt takes them as that arm starts, so a run of
	// hundreds of processes keeps one process's snapshots live at a time.
	snapAt map[design.Stmt][]*design.Home
	loops  []loopCtx
	ret    sir.BlockID // where Return jumps (end of the function / process)
	depth  int         // inline depth
	mode   mode
	grp    *groupCtx
	inFn   map[*design.Function]bool
	scope  string // instance path of the code being lowered (for %m)

	// task is set for the tasks of partitioned kernels, which run on lane
	// lane: a finishing status goes to the lane's status word (the task
	// returns OK, so the other lanes complete the step as the sequential
	// kernel would) and an error's diag to the lane's diag word, never to
	// the shared system block. lane -1 (cost measurement) stores neither.
	task bool
	lane int
	// seq is the sequential-order key of the process being lowered
	// (seqKey), which a task's runtime events carry so that the records
	// of several lanes' rings merge into the sequential order.
	seq uint32

	// ownScratch is a measured unit's wide-arithmetic scratch (wideScratch).
	ownScratch *statelayout.Object
}

// wideScratch returns n bytes of scratch for a wide multiply, divide or
// shift loop. A loop's scratch is dead once it ends, so code that never runs
// concurrently shares one object, grown to the largest need: the
// sequential kernels one, the tasks of each lane one per lane. A measured
// unit (lane -1) gets its own, so that the footprints the partitioner
// compares do not all meet in one object.
func (u *ub) wideScratch(n int) sir.Addr {
	words := (n + 7) / 8
	var o *statelayout.Object
	switch {
	case u.task && u.lane < 0:
		if u.ownScratch == nil {
			u.ownScratch = u.c.sp.AddScratch("$wide.measure", 8, words)
		}
		o = u.ownScratch
	default:
		key, name := -1, "$wide"
		if u.task {
			key, name = u.lane, fmt.Sprintf("$wide.lane%d", u.lane)
		}
		if u.c.wideScratch == nil {
			u.c.wideScratch = map[int]*statelayout.Object{}
		}
		if o = u.c.wideScratch[key]; o == nil {
			o = u.c.sp.AddScratch(name, 8, words)
			u.c.wideScratch[key] = o
		}
	}
	// Objects are placed after every unit is built, so growing one is safe.
	o.Elems = max(o.Elems, words)
	return sir.Addr{Home: o.ID}
}

// regVar is a variable kept in registers (process-local and function
// homes that are not arrays).
type regVar struct {
	regs  []sir.Reg
	width int
}

func (v *regVar) value() value { return value{w: v.regs, width: v.width} }

type loopCtx struct{ brk, cont sir.BlockID }

func newUB(c *compiler, name string) *ub {
	b := sir.NewBuilder(name)
	b.SetLimit(c.instBudget())
	u := &ub{vb: vb{b: b}, c: c, vars: map[*design.Home]*regVar{}, inFn: map[*design.Function]bool{}}
	u.vb.scratch = u.wideScratch
	u.st = b.Const(32, 0)
	return u
}

// newVar allocates registers for a width-bit variable initialised to init
// (zero when init is nil).
func (u *ub) newVar(width int, init *value) *regVar {
	v := &regVar{regs: make([]sir.Reg, nwords(width)), width: width}
	for i := range v.regs {
		v.regs[i] = u.b.Reg(wordWidth(width, i))
		if init != nil {
			u.b.CopyTo(v.regs[i], init.w[i])
		} else {
			u.b.ConstTo(v.regs[i], 0)
		}
	}
	return v
}

// setVar assigns x (of the variable's width) to v, safely when x shares
// registers with v.
func (u *ub) setVar(v *regVar, x value) {
	in := map[sir.Reg]int{}
	for i, r := range v.regs {
		in[r] = i
	}
	clash := false
	for i, r := range x.w {
		if j, ok := in[r]; ok && j != i {
			clash = true
		}
	}
	if clash {
		t := make([]sir.Reg, len(x.w))
		for i, r := range x.w {
			t[i] = u.b.Copy(r)
		}
		x = value{w: t, width: x.width}
	}
	for i, r := range v.regs {
		if x.w[i] != r {
			u.b.CopyTo(r, x.w[i])
		}
	}
}

// setStatus records a finishing status (the first one wins).
func (u *ub) setStatus(s sir.Status) {
	u.stUsed = true
	b := u.b
	isOK := b.Eq(u.st, b.Const(32, 0))
	b.OpTo(u.st, sir.OpMux, isOK, b.Const(32, uint64(s)), u.st)
}

// fail stores diag in the system block and returns status s at once; the
// builder continues in a fresh block.
func (u *ub) failWith(s sir.Status, diag int) {
	b := u.b
	switch {
	case !u.task:
		b.Store(4, sir.Addr{Home: u.c.sp.Sys().ID, Offset: statelayout.SysDiag}, b.Const(32, uint64(diag)))
	case u.lane >= 0:
		b.Store(4, sir.Addr{Home: u.c.par.Status[u.lane], Offset: LaneDiag}, b.Const(32, uint64(diag)))
	}
	b.Return(s)
	b.SetBlock(b.NewBlock())
}

// end returns the pending status.
func (u *ub) end() {
	b := u.b
	if u.task {
		if u.stUsed && u.lane >= 0 {
			a := sir.Addr{Home: u.c.par.Status[u.lane], Offset: LaneStatus}
			old := b.Load(32, 4, a)
			b.Store(4, a, b.Op(sir.OpMux, b.Eq(old, b.Const(32, 0)), u.st, old))
		}
		b.Return(sir.StatusOK)
		return
	}
	if !u.stUsed {
		b.Return(sir.StatusOK)
		return
	}
	for _, s := range []sir.Status{sir.StatusFinish, sir.StatusStop, sir.StatusFatal} {
		yes, no := b.NewBlock(), b.NewBlock()
		b.Branch(b.Eq(u.st, b.Const(32, uint64(s))), yes, no)
		b.SetBlock(yes)
		b.Return(s)
		b.SetBlock(no)
	}
	b.Return(sir.StatusOK)
}

// branch emits if cond { then() } else { els() } and continues after.
func (u *ub) branch(cond sir.Reg, then, els func()) {
	b := u.b
	tb, eb, jb := b.NewBlock(), b.NewBlock(), b.NewBlock()
	b.Branch(cond, tb, eb)
	b.SetBlock(tb)
	if then != nil {
		then()
	}
	b.Jump(jb)
	b.SetBlock(eb)
	if els != nil {
		els()
	}
	b.Jump(jb)
	b.SetBlock(jb)
}

// jumpAway ends the current block with a jump and continues in a fresh
// (unreachable) block.
func (u *ub) jumpAway(to sir.BlockID) {
	u.b.Jump(to)
	u.b.SetBlock(u.b.NewBlock())
}

// countedLoop emits for i := 0; i < n; i++ { body(i) } with a 64-bit
// counter register.
func (u *ub) countedLoop(n int, body func(i sir.Reg)) {
	if n <= 0 {
		return
	}
	b := u.b
	i := b.Reg(64)
	b.ConstTo(i, 0)
	head, exit := b.NewBlock(), b.NewBlock()
	b.Jump(head)
	b.SetBlock(head)
	body(i)
	b.OpTo(i, sir.OpAdd, i, b.Const(64, 1), sir.NoReg)
	b.Branch(b.ULt(i, b.Const(64, uint64(n))), head, exit)
	b.SetBlock(exit)
}
