package bench

import (
	"fmt"

	"github.com/weft-hdl/weft/dut"
)

// A Trigger is something a spec waits for: Timer, RisingEdge,
// FallingEdge, Edge, ClockCycles, Until. Triggers are values, so they can
// be combined (First) and, later, awaited by forked tasks. A trigger
// starts watching when a wait arms it, not when it is made; it may be
// waited on again (each wait arms it afresh).
type Trigger interface {
	fmt.Stringer
	// arm starts watching from the bench's present; nil after a failure.
	arm(tb *Bench) *waiter
}

// Await waits until t happened.
func (tb *Bench) Await(t Trigger) { tb.wait([]Trigger{t}) }

// First waits until one of trigs happened and returns the index of the
// first of them that did (the lowest index when several happened in the
// same evaluation), or -1 when the bench stopped.
func (tb *Bench) First(trigs ...Trigger) int {
	if len(trigs) == 0 {
		tb.failf("First: no triggers")
		return -1
	}
	return tb.wait(trigs)
}

// Timer waits d of simulated time.
func (tb *Bench) Timer(d Time) { tb.Await(Timer(d)) }

// RisingEdge waits for sig (1 bit) to go from 0 to 1.
func (tb *Bench) RisingEdge(sig *dut.Signal) { tb.Await(RisingEdge(sig)) }

// FallingEdge waits for sig (1 bit) to go from 1 to 0.
func (tb *Bench) FallingEdge(sig *dut.Signal) { tb.Await(FallingEdge(sig)) }

// Edge waits for sig to change value.
func (tb *Bench) Edge(sig *dut.Signal) { tb.Await(Edge(sig)) }

// WaitUntil waits until cond holds (checked now and after every
// evaluation); what names the condition in messages.
func (tb *Bench) WaitUntil(what string, cond func() bool) { tb.Await(Until(what, cond)) }

// Timer is the trigger that happens d after it is armed (d >= 0).
func Timer(d Time) Trigger { return timer{d} }

type timer struct{ d Time }

func (t timer) String() string { return "Timer(" + t.d.String() + ")" }

func (t timer) arm(tb *Bench) *waiter {
	if t.d < 0 {
		tb.failf("Timer(%s): negative duration", t.d)
		return nil
	}
	w := &waiter{trig: t}
	tb.schedule(&event{at: tb.now + t.d, w: w})
	return w
}

// RisingEdge is the trigger that happens when sig (1 bit) goes 0 → 1.
func RisingEdge(sig *dut.Signal) Trigger { return edge{sig, rising} }

// FallingEdge is the trigger that happens when sig (1 bit) goes 1 → 0.
func FallingEdge(sig *dut.Signal) Trigger { return edge{sig, falling} }

// Edge is the trigger that happens when sig changes value (any width).
func Edge(sig *dut.Signal) Trigger { return edge{sig, anyChange} }

type edgeKind int

const (
	rising edgeKind = iota
	falling
	anyChange
)

type edge struct {
	sig  *dut.Signal
	kind edgeKind
}

func (e edge) String() string {
	name := [...]string{"RisingEdge", "FallingEdge", "Edge"}[e.kind]
	return fmt.Sprintf("%s(%s)", name, sigName(e.sig))
}

func sigName(sig *dut.Signal) string {
	if sig == nil {
		return "<nil>"
	}
	return sig.Path()
}

// watchable checks that sig can be watched for edges of the given kind.
func watchable(tb *Bench, t Trigger, sig *dut.Signal, oneBit bool) bool {
	switch {
	case sig == nil:
		tb.failf("%s: nil signal", t)
	case sig.IsArray():
		tb.failf("%s: %s is an array; watch one element", t, sig.Name())
	case oneBit && sig.Width() != 1:
		tb.failf("%s: %s is %d bits wide; edges are defined on 1-bit signals (use Edge for any change)", t, sig.Name(), sig.Width())
	default:
		return true
	}
	return false
}

func (e edge) arm(tb *Bench) *waiter {
	if !watchable(tb, e, e.sig, e.kind != anyChange) {
		return nil
	}
	w := &waiter{trig: e}
	sig := e.sig
	if e.kind == anyChange && sig.Width() > 64 {
		prev := sig.GetBig()
		w.check = func() bool {
			v := sig.GetBig()
			changed := v.Cmp(prev) != 0
			prev = v
			return changed
		}
		return w
	}
	prev := sig.Get()
	kind := e.kind
	w.check = func() bool {
		v := sig.Get()
		old := prev
		prev = v
		switch kind {
		case rising:
			return old == 0 && v == 1
		case falling:
			return old == 1 && v == 0
		}
		return old != v
	}
	return w
}

// ClockCycles is the trigger that happens at the n-th rising edge of clk
// after it is armed (at once for n <= 0).
func ClockCycles(clk *dut.Signal, n int) Trigger { return cycles{clk, n} }

type cycles struct {
	clk *dut.Signal
	n   int
}

func (c cycles) String() string { return fmt.Sprintf("ClockCycles(%s, %d)", sigName(c.clk), c.n) }

func (c cycles) arm(tb *Bench) *waiter {
	if !watchable(tb, c, c.clk, true) {
		return nil
	}
	w := &waiter{trig: c}
	if c.n <= 0 {
		w.done = true
		return w
	}
	sig, left, prev := c.clk, c.n, c.clk.Get()
	w.check = func() bool {
		v := sig.Get()
		if prev == 0 && v == 1 {
			left--
		}
		prev = v
		return left == 0
	}
	return w
}

// Until is the trigger that happens when cond holds: at once if it does
// when armed, else after the first evaluation that makes it true. what
// names it in messages.
func Until(what string, cond func() bool) Trigger { return until{what, cond} }

type until struct {
	what string
	cond func() bool
}

func (u until) String() string { return fmt.Sprintf("Until(%s)", u.what) }

func (u until) arm(tb *Bench) *waiter {
	if u.cond == nil {
		tb.failf("%s: nil condition", u)
		return nil
	}
	return &waiter{trig: u, check: u.cond, done: u.cond()}
}
