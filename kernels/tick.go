package kernels

import (
	"fmt"
	"slices"

	"github.com/weft-hdl/weft/design"
	"github.com/weft-hdl/weft/sir"
	"github.com/weft-hdl/weft/statelayout"
)

// StatusTickEvents is what a tick loop returns when an edge left runtime
// events in the ring: the simulator drains them and goes on with the next
// edge, as it would after any kernel call.
const StatusTickEvents = sir.StatusUser

// StatusTickDerived is what a tick loop returns when an edge changed a
// derived trigger bit.
const StatusTickDerived = sir.StatusUser + 1

// TickKernel is the fused tick loop of one clock input: Unit runs up to
// the u64 at Count (an object of the layout) edges of the clock — each:
// toggle the clock bit, advance $time by one, settle when comb logic
// reads the clock, record the trigger's new value and run the edge's
// event followed by the settle — without returning to the caller.
// It returns early, after completing the edge, with the pending
// $finish/$stop/$fatal status, with an error status (as the fused kernels
// do), with StatusTickEvents when the edge emitted runtime events, or with
// StatusTickDerived when the edge changed a trigger bit the design writes
// (a reset synchronizer's output, a divided clock): the caller fires what
// that trigger fires, as the step loop's next round would, before the next
// edge. Every edge it ran advanced the time in the system block, which is
// how the caller counts them.
//
// Tick loops exist for top-level clock inputs whose edges each fire at
// most one event, and, in designs with derived triggers, only for clocks
// no comb logic reads (a derived trigger that changed in the settle before
// the edge would fire in the same round as the clock); the simulator uses
// one only while nothing but that clock changes (no pending input
// writes).
type TickKernel struct {
	Clock   *design.Home
	Trigger int // index in Schedule.Triggers (and the prev byte)
	// Rise and Fall are the events (Layout.Space().Events indexes) the
	// rising and falling edges fire, -1 for none.
	Rise, Fall int
	Unit       *sir.Unit
	// Count is the scratch object holding the edges to run.
	Count sir.HomeID
	// Batch is how many edges one call should run so that it stays around
	// tickBudget instructions: native code cannot be preempted, and a long
	// call holds up the garbage collector for every goroutine.
	Batch int
}

// tickBudget is the instructions one tick-loop call aims at (about 100 µs
// of native code).
const tickBudget = 200_000

// maxTickBatch bounds Batch for designs with almost no logic.
const maxTickBatch = 4096

// ticks builds Program.Ticks. It runs after the optimizer: a tick loop
// splices in the optimized Fused (and Settle) units instead of lowering
// and optimizing the design's body once more.
func (c *compiler) ticks() error {
	s, sp := c.s, c.sp
	var derived []int
	for ti, t := range s.Triggers {
		if t.Derived() {
			derived = append(derived, ti)
		}
	}
	combRead := map[*design.Home]bool{}
	for _, it := range s.Items {
		for _, a := range it.Reads {
			if a.Home != nil {
				combRead[a.Home] = true
			}
		}
	}
	var count *statelayout.Object
	for ti, t := range s.Triggers {
		h := t.Home
		if h.Kind != design.KindInput || h.Inst != c.d.Top || h.Width != 1 || h.IsArray() {
			continue
		}
		rise, fall, ok := edgeEvents(sp.Events, ti)
		if !ok || len(derived) > 0 && combRead[h] {
			continue
		}
		if count == nil {
			count = sp.AddScratch("$tick.count", 8, 1)
		}
		tk := &TickKernel{Clock: h, Trigger: ti, Rise: rise, Fall: fall, Count: count.ID}
		if c.opts.Progress != nil {
			c.opts.Progress("building " + tk.String())
		}
		var err error
		if tk.Unit, err = c.assembled(c.tickLoop(tk, combRead[h], derived)); err != nil {
			return err
		}
		tk.Batch = max(1, min(maxTickBatch, tickBudget/max(1, unitCost(tk.Unit))))
		c.p.Ticks = append(c.p.Ticks, tk)
		if par := c.par; par != nil {
			lt, why, err := c.laneTick(len(c.p.Ticks)-1, tk, combRead[h], len(derived) > 0)
			if err != nil {
				return err
			}
			par.Ticks = append(par.Ticks, lt)
			par.TickReasons = append(par.TickReasons, fmt.Sprintf("%s: %s", tk, why))
		}
	}
	if c.laneTickArg != nil && !c.par.HasLaneTicks() {
		// A clock that failed a late check leaves nothing in the state.
		c.sp.Discard(c.laneTickArg.ID)
		c.laneTickArg = nil
	}
	return nil
}

// edgeEvents finds the events trigger ti fires on its rising and falling
// edges; ok is false when an edge fires more than one.
func edgeEvents(events []*statelayout.Event, ti int) (rise, fall int, ok bool) {
	rise, fall = -1, -1
	set := func(e *int, idx int) bool {
		if *e >= 0 {
			return false
		}
		*e = idx
		return true
	}
	for _, ev := range events {
		if ev.TriggerIndex != ti {
			continue
		}
		switch ev.Edge {
		case design.Posedge:
			ok = set(&rise, ev.Index)
		case design.Negedge:
			ok = set(&fall, ev.Index)
		default:
			ok = set(&rise, ev.Index) && set(&fall, ev.Index)
		}
		if !ok {
			return -1, -1, false
		}
	}
	return rise, fall, true
}

// tickLoop builds the unit of a TickKernel: count times { toggle the
// clock; the edge's work }, where the edge's work is a copy of the
// optimized Fused unit of the event it fires (and of Settle first when
// comb logic reads the clock). The edge is a rise or a fall by the
// clock's new value, so a caller may start with the clock at either level.
// A copied unit's error or $finish return leaves the loop with that
// status, after the edge, as the fused kernel would; an edge that emitted
// runtime events returns StatusTickEvents, one after which a derived
// trigger's bit differs from its previous value StatusTickDerived.
func (c *compiler) tickLoop(tk *TickKernel, combRead bool, derived []int) *sir.Unit {
	sp := c.sp
	b := sir.NewBuilder(tk.String())
	u := b.U
	loop := newCountedLoop(b, sir.Addr{Home: tk.Count})
	latch := loop.latch
	evFlag := b.Reg(1)
	// The copied units: Settle when comb logic reads the clock, then the
	// Fused unit of each edge's event. An edge that emits runtime events
	// must return to the caller, so each copied event sets a flag.
	var copied []*sir.Unit
	if combRead {
		copied = append(copied, c.p.Settle)
	}
	for _, ev := range []int{tk.Rise, tk.Fall} {
		if ev >= 0 {
			copied = append(copied, c.p.Events[ev].Fused)
		}
	}
	events := slices.ContainsFunc(copied, emitsEvents)
	if events {
		b.ConstTo(evFlag, 0)
	}
	clk := sir.Addr{Home: sir.HomeID(tk.Clock.ID)}
	prev := sir.Addr{Home: sp.Prev().ID, Offset: tk.Trigger}
	timeAt := sir.Addr{Home: sp.Sys().ID, Offset: statelayout.SysTime}
	v := b.Xor(b.Load(1, 1, clk), b.Const(1, 1))
	b.Store(1, clk, v)
	b.Store(8, timeAt, b.Add(b.Load(64, 8, timeAt), b.Const(64, 1)))
	// splice runs src from the current block, continuing at next; each
	// copied event sets the flag.
	splice := func(src *sir.Unit, next sir.BlockID) {
		entry := spliceOK(b, src, next)
		for _, blk := range u.Blocks[entry:] {
			for j := 0; j < len(blk.Insts); j++ {
				if blk.Insts[j].Op == sir.OpEvent {
					blk.Insts = slices.Insert(blk.Insts, j+1, sir.Inst{Op: sir.OpConst, Dst: evFlag, Imm: 1})
				}
			}
		}
	}
	if combRead {
		after := b.NewBlock()
		splice(c.p.Settle, after)
		b.SetBlock(after)
	}
	b.Store(1, prev, v)
	edge := func(ev int) sir.BlockID {
		if ev < 0 {
			return latch
		}
		at := b.NewBlock()
		b.SetBlock(at)
		splice(c.p.Events[ev].Fused, latch)
		return at
	}
	from := b.Block()
	rise, fall := edge(tk.Rise), edge(tk.Fall)
	b.SetBlock(from)
	b.Branch(v, rise, fall)
	b.SetBlock(latch)
	if events {
		yes, goOn := b.NewBlock(), b.NewBlock()
		b.Branch(evFlag, yes, goOn)
		b.SetBlock(yes)
		b.Return(StatusTickEvents)
		b.SetBlock(goOn)
	}
	if len(derived) > 0 {
		var changed sir.Reg
		for _, ti := range derived {
			t := c.s.Triggers[ti]
			o := sp.Home(t.Home)
			cur := b.Reg(1)
			b.Emit(sir.Inst{Op: sir.OpLoadBits, Dst: cur, Lo: t.Bit % 8, Addr: sir.Addr{Home: o.ID, Offset: t.Elem*o.ElemSize + t.Bit/8}})
			ne := b.Ne(cur, b.Load(1, 1, sir.Addr{Home: sp.Prev().ID, Offset: ti}))
			if changed == sir.NoReg {
				changed = ne
			} else {
				changed = b.Or(changed, ne)
			}
		}
		yes, goOn := b.NewBlock(), b.NewBlock()
		b.Branch(changed, yes, goOn)
		b.SetBlock(yes)
		b.Return(StatusTickDerived)
		b.SetBlock(goOn)
	}
	loop.close()
	return u
}

// countedLoop is "for i := 0; i < count; i++ { body }; return OK" under
// construction in a builder: newCountedLoop leaves the builder in the
// body, which ends by jumping to latch; close, called in the latch's last
// block, counts and loops.
type countedLoop struct {
	b                 *sir.Builder
	i                 sir.Reg
	head, latch, exit sir.BlockID
}

// newCountedLoop starts a loop of as many iterations as the u64 at count.
func newCountedLoop(b *sir.Builder, count sir.Addr) *countedLoop {
	n := b.Load(64, 8, count)
	l := &countedLoop{b: b, i: b.Reg(64)}
	b.ConstTo(l.i, 0)
	var body sir.BlockID
	l.head, body, l.latch, l.exit = b.NewBlock(), b.NewBlock(), b.NewBlock(), b.NewBlock()
	b.Jump(l.head)
	b.SetBlock(l.head)
	b.Branch(b.ULt(l.i, n), body, l.exit)
	b.SetBlock(body)
	return l
}

// close ends the latch and the loop: the unit returns OK after it.
func (l *countedLoop) close() {
	b := l.b
	b.OpTo(l.i, sir.OpAdd, l.i, b.Const(64, 1), sir.NoReg)
	b.Jump(l.head)
	b.SetBlock(l.exit)
	b.Return(sir.StatusOK)
}

// spliceOK runs a copy of src from b's current block, continuing at next
// where src returns OK (its other returns stay returns), and returns the
// copy's first block.
func spliceOK(b *sir.Builder, src *sir.Unit, next sir.BlockID) sir.BlockID {
	u := b.U
	entry, exits := u.Splice(src, func(s sir.Status) bool { return s == sir.StatusOK })
	b.Jump(entry)
	for _, x := range exits {
		u.Blocks[x.Block].Term = sir.Term{Kind: sir.TermJump, Then: next}
	}
	return entry
}

// String is a TickKernel's display name.
func (tk *TickKernel) String() string { return fmt.Sprintf("tick %s", tk.Clock.Path) }

// emitsEvents reports whether u has an OpEvent.
func emitsEvents(u *sir.Unit) bool {
	for _, b := range u.Blocks {
		for i := range b.Insts {
			if b.Insts[i].Op == sir.OpEvent {
				return true
			}
		}
	}
	return false
}
