package kernels

import (
	"fmt"

	"github.com/weft-hdl/weft/sir"
)

// In a large program (Options.LargeMinInsts) the fused and generic event
// units are assembled from optimized parts instead of lowering and
// optimizing the design's body again: an event's evaluate-and-apply unit
// and the settle are lowered once each, and
//
//   - Fused(e) runs a copy of event e's unit, then a copy of Settle;
//   - Event, when the design has a single trigger event, runs a copy of
//     that event's unit when its trigger byte is set.
//
// Statuses keep their meaning: an error status returns at once; $finish,
// $stop and $fatal (which a unit returns at its end) let the settle run
// and are returned after it, the first one recorded winning, as in a unit
// lowered in one piece.

// endStatus reports whether s is one a unit returns at its end after
// completing its work ($finish, $stop, $fatal), not an error that stopped
// it.
func endStatus(s sir.Status) bool {
	return s == sir.StatusFinish || s == sir.StatusStop || s == sir.StatusFatal
}

// fuse builds Fused(e) from event e's optimized unit ev and the optimized
// settle.
func (c *compiler) fuse(name string, ev, settle *sir.Unit) (*sir.Unit, error) {
	b := sir.NewBuilder(name)
	u := b.U
	st := b.Reg(32) // the first end status, 0 while none
	b.ConstTo(st, 0)
	cont := func(s sir.Status) bool { return s == sir.StatusOK || endStatus(s) }
	evEntry, evExits := u.Splice(ev, cont)
	b.Jump(evEntry)
	stEntry, stExits := u.Splice(settle, cont)
	for _, x := range evExits {
		b.SetBlock(x.Block)
		if x.Status != sir.StatusOK {
			b.ConstTo(st, uint64(x.Status))
		}
		b.Jump(stEntry)
	}
	done := b.NewBlock()
	for _, x := range stExits {
		b.SetBlock(x.Block)
		if x.Status != sir.StatusOK {
			none := b.Eq(st, b.Const(32, 0))
			b.OpTo(st, sir.OpMux, none, b.Const(32, uint64(x.Status)), st)
		}
		b.Jump(done)
	}
	b.SetBlock(done)
	for _, s := range []sir.Status{sir.StatusFinish, sir.StatusStop, sir.StatusFatal} {
		yes, no := b.NewBlock(), b.NewBlock()
		b.Branch(b.Eq(st, b.Const(32, uint64(s))), yes, no)
		b.SetBlock(yes)
		b.Return(s)
		b.SetBlock(no)
	}
	b.Return(sir.StatusOK)
	return c.assembled(u)
}

// guardedEvent builds the generic Event unit of a design with the single
// trigger event of index trigger: ev's optimized unit, run when that
// event's trigger byte is set.
func (c *compiler) guardedEvent(ev *sir.Unit, trigger int) (*sir.Unit, error) {
	b := sir.NewBuilder("event")
	u := b.U
	fired := b.Ne(b.Load(8, 1, sir.Addr{Home: c.sp.Triggers().ID, Offset: trigger}), b.Const(8, 0))
	entry, _ := u.Splice(ev, func(sir.Status) bool { return false })
	idle := b.NewBlock()
	b.Branch(fired, entry, idle)
	b.SetBlock(idle)
	b.Return(sir.StatusOK)
	return c.assembled(u)
}

// assembled checks a unit built from copies and counts it against
// Options.MaxInsts.
func (c *compiler) assembled(u *sir.Unit) (*sir.Unit, error) {
	c.insts += u.NumInsts()
	if c.insts > c.opts.MaxInsts {
		return nil, fmt.Errorf("kernels: the units would hold more than %d SIR instructions (Options.MaxInsts) once %s is built; raise the bound", c.opts.MaxInsts, u.Name)
	}
	if err := sir.Check(u); err != nil {
		return nil, fmt.Errorf("kernels: assembling %s produced an invalid unit: %w", u.Name, err)
	}
	return u, nil
}
