package kernels

import (
	"fmt"

	"github.com/weft-hdl/weft/design"
	"github.com/weft-hdl/weft/sir"
	"github.com/weft-hdl/weft/statelayout"
)

// StatusTickEvents is what a tick loop returns when an edge left runtime
// events in the ring: the simulator drains them and goes on with the next
// edge, as it would after any kernel call.
const StatusTickEvents = sir.StatusUser

// TickKernel is the fused tick loop of one clock input: Unit runs up to
// the u64 at Count (an object of the layout) edges of the clock — each:
// toggle the clock bit, advance $time by one, settle when comb logic
// reads the clock, record the trigger's new value and run the edge's
// event followed by the settle — without returning to the caller.
// It returns early, after completing the edge, with the pending
// $finish/$stop/$fatal status, with an error status (as the fused kernels
// do), or with StatusTickEvents when the edge emitted runtime events; every
// edge it ran advanced the time in the system block, which is how the
// caller counts them.
//
// Tick loops exist only for designs whose triggers are all top-level
// inputs (no derived clocks, so one edge fires nothing further) and whose
// clock edges each fire at most one event; the simulator uses one only
// while nothing but that clock changes (no pending input writes).
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

// ticks builds Program.Ticks.
func (c *compiler) ticks() error {
	s, sp := c.s, c.sp
	for _, t := range s.Triggers {
		if t.Derived() {
			return nil
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
		if !ok {
			continue
		}
		if count == nil {
			count = sp.AddScratch("$tick.count", 8, 1)
		}
		tk := &TickKernel{Clock: h, Trigger: ti, Rise: rise, Fall: fall, Count: count.ID}
		var err error
		tk.Unit, err = c.unit("tick "+h.Path, func(u *ub) { u.tickLoop(tk, combRead[h]) })
		if err != nil {
			return err
		}
		tk.Batch = max(1, min(maxTickBatch, tickBudget/max(1, unitCost(tk.Unit))))
		c.p.Ticks = append(c.p.Ticks, tk)
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

// tickLoop emits the loop of a TickKernel: count times { toggle the clock;
// the edge's work }. The edge is a rise or a fall by the clock's new
// value, so a caller may start with the clock at either level.
func (u *ub) tickLoop(tk *TickKernel, combRead bool) {
	b, sp := u.b, u.c.sp
	n := b.Load(64, 8, sir.Addr{Home: tk.Count})
	i := b.Reg(64)
	b.ConstTo(i, 0)
	head, body, exit := b.NewBlock(), b.NewBlock(), b.NewBlock()
	b.Jump(head)
	b.SetBlock(head)
	b.Branch(b.ULt(i, n), body, exit)
	b.SetBlock(body)
	clk := sir.Addr{Home: sir.HomeID(tk.Clock.ID)}
	prev := sir.Addr{Home: sp.Prev().ID, Offset: tk.Trigger}
	timeAt := sir.Addr{Home: sp.Sys().ID, Offset: statelayout.SysTime}
	u.evFlag = b.Reg(1)
	b.ConstTo(u.evFlag, 0)
	v := b.Xor(b.Load(1, 1, clk), b.Const(1, 1))
	b.Store(1, clk, v)
	b.Store(8, timeAt, b.Add(b.Load(64, 8, timeAt), b.Const(64, 1)))
	if combRead {
		u.settle()
	}
	b.Store(1, prev, v)
	run := func(ev int) func() {
		if ev < 0 {
			return nil
		}
		return func() {
			u.event(sp.Events[ev].Groups)
			u.settle()
		}
	}
	u.branch(v, run(tk.Rise), run(tk.Fall))
	if u.stUsed {
		done, goOn := b.NewBlock(), b.NewBlock()
		b.Branch(b.Ne(u.st, b.Const(32, 0)), done, goOn)
		b.SetBlock(done)
		u.end()
		b.SetBlock(goOn)
	}
	if u.events > 0 {
		events, goOn := b.NewBlock(), b.NewBlock()
		b.Branch(u.evFlag, events, goOn)
		b.SetBlock(events)
		b.Return(StatusTickEvents)
		b.SetBlock(goOn)
	}
	b.OpTo(i, sir.OpAdd, i, b.Const(64, 1), sir.NoReg)
	b.Jump(head)
	b.SetBlock(exit)
}

// String is a TickKernel's display name.
func (tk *TickKernel) String() string { return fmt.Sprintf("tick %s", tk.Clock.Path) }
