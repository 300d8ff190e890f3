package bench

import (
	"fmt"
	"strings"

	"github.com/weft-hdl/weft/dut"
)

// A Trigger is something bench code waits for: Timer, RisingEdge,
// FallingEdge, Edge, ClockCycles, Until, Join, an Event, a lock, a
// scheduler phase (ReadWrite, ReadOnly, NextTimeStep), or a combination
// (Combine, FirstOf). A trigger starts watching when a wait arms it, not
// when it is made; it may be waited on again (each wait arms it afresh).
type Trigger interface {
	fmt.Stringer
	// arm starts watching from the bench's present; nil after a failure.
	arm(tb *Bench) *waiter
}

// Await waits until t happened.
func (tb *Bench) Await(t Trigger) {
	one := tb.cur.oneTrig
	if one == nil {
		one = make([]Trigger, 1)
		tb.cur.oneTrig = one
	}
	one[0] = t
	tb.wait(one)
	one[0] = nil
}

// Fired says which triggers of a First happened in the evaluation (or at
// the time) that ended the wait.
type Fired struct{ hit []bool }

// Index is the lowest index of a trigger that happened, -1 when none did
// (the bench stopped).
func (f Fired) Index() int {
	for i, h := range f.hit {
		if h {
			return i
		}
	}
	return -1
}

// Has reports whether trigger i happened.
func (f Fired) Has(i int) bool { return i >= 0 && i < len(f.hit) && f.hit[i] }

// Count is how many of the triggers happened.
func (f Fired) Count() int {
	n := 0
	for _, h := range f.hit {
		if h {
			n++
		}
	}
	return n
}

// First waits until one of trigs happened and reports every one that
// happened in the same evaluation (Index: the lowest of them).
func (tb *Bench) First(trigs ...Trigger) Fired {
	if len(trigs) == 0 {
		tb.failf("First: no triggers")
		return Fired{}
	}
	hit := make([]bool, len(trigs))
	if tb.wait(trigs) {
		for i, w := range tb.cur.ws {
			hit[i] = w.done
		}
	}
	return Fired{hit}
}

// AwaitWithin waits until t happened or d passed, whichever is first, and
// reports whether t happened: a wait with its own timeout that returns
// instead of failing.
func (tb *Bench) AwaitWithin(t Trigger, d Time) bool {
	return tb.First(t, Timer(d)).Has(0)
}

// Timer waits d of simulated time.
func (tb *Bench) Timer(d Time) { tb.Await(Timer(d)) }

// RisingEdge waits for sig (1 bit) to go from 0 to 1.
func (tb *Bench) RisingEdge(sig *dut.Signal) { tb.waitArmed(edge{sig, rising}.arm(tb)) }

// FallingEdge waits for sig (1 bit) to go from 1 to 0.
func (tb *Bench) FallingEdge(sig *dut.Signal) { tb.waitArmed(edge{sig, falling}.arm(tb)) }

// Edge waits for sig to change value.
func (tb *Bench) Edge(sig *dut.Signal) { tb.waitArmed(edge{sig, anyChange}.arm(tb)) }

// WaitUntil waits until cond holds (checked now and after every
// evaluation); what names the condition in messages.
func (tb *Bench) WaitUntil(what string, cond func() bool) { tb.Await(Until(what, cond)) }

// ReadOnly waits until every delta step at the current time is done: the
// values then are final for this time. Writing in that phase fails; wait
// for a later time first.
func (tb *Bench) ReadOnly() { tb.Await(ReadOnly()) }

// ReadWrite waits until the writes made so far at the current time were
// evaluated (with every task ready now run first); writes after it are
// evaluated in another delta step at the same time.
func (tb *Bench) ReadWrite() { tb.Await(ReadWrite()) }

// NextTimeStep waits for the first evaluation at the next time anything
// is scheduled.
func (tb *Bench) NextTimeStep() { tb.Await(NextTimeStep()) }

// Combine is the trigger that happens when every one of trigs has
// happened since it was armed (at once for none).
func Combine(trigs ...Trigger) Trigger { return combo{trigs, true} }

// FirstOf is the trigger that happens when any of trigs does (for use
// inside Combine; a wait on several triggers is First).
func FirstOf(trigs ...Trigger) Trigger { return combo{trigs, false} }

type combo struct {
	trigs []Trigger
	all   bool
}

func (c combo) String() string {
	s := make([]string, len(c.trigs))
	for i, t := range c.trigs {
		s[i] = fmt.Sprint(t)
	}
	name := "FirstOf"
	if c.all {
		name = "Combine"
	}
	return name + "(" + strings.Join(s, ", ") + ")"
}

func (c combo) arm(tb *Bench) *waiter {
	w := &waiter{trig: c, kids: make([]*waiter, 0, len(c.trigs))}
	bounded := c.all
	for i, t := range c.trigs {
		if t == nil {
			tb.failf("%s: trigger %d is nil", c, i)
			return nil
		}
		k := t.arm(tb)
		if k == nil {
			return nil
		}
		w.kids = append(w.kids, k)
		if c.all && !k.bounded {
			bounded = false
		}
		if !c.all && k.bounded {
			bounded = true
		}
	}
	w.bounded = bounded && len(c.trigs) > 0
	w.left = 0
	for _, k := range w.kids {
		if !k.done {
			w.left++
		}
	}
	if !c.all {
		w.left = 1
		for _, k := range w.kids {
			if k.done {
				w.left = 0
			}
		}
		if len(w.kids) == 0 {
			w.left = 1 // FirstOf nothing never happens
		}
	}
	w.done = w.left == 0
	return w
}

// ReadOnly is the trigger that happens when the current time's delta
// steps are done (see Bench.ReadOnly).
func ReadOnly() Trigger { return phaseTrig{"ReadOnly"} }

// ReadWrite is the trigger that happens once the writes made so far at
// the current time were evaluated (see Bench.ReadWrite).
func ReadWrite() Trigger { return phaseTrig{"ReadWrite"} }

// NextTimeStep is the trigger that happens at the first evaluation of
// the next time anything is scheduled.
func NextTimeStep() Trigger { return phaseTrig{"NextTimeStep"} }

type phaseTrig struct{ name string }

func (p phaseTrig) String() string { return p.name + "()" }

func (p phaseTrig) arm(tb *Bench) *waiter {
	w := &waiter{trig: p}
	switch p.name {
	case "ReadOnly":
		if tb.readOnly {
			tb.failf("ReadOnly() in the ReadOnly phase of %s: wait for a later time first", tb.now)
			return nil
		}
		tb.ro = append(tb.ro, w)
	case "ReadWrite":
		if tb.readOnly {
			tb.failf("ReadWrite() in the ReadOnly phase of %s: wait for a later time first", tb.now)
			return nil
		}
		tb.rw = append(tb.rw, w)
	default:
		tb.nts = append(tb.nts, w)
	}
	return w
}

// Timer is the trigger that happens d after it is armed (d >= 0).
func Timer(d Time) Trigger { return timer{d} }

type timer struct{ d Time }

func (t timer) String() string { return "Timer(" + t.d.String() + ")" }

func (t timer) arm(tb *Bench) *waiter {
	if t.d < 0 {
		tb.failf("Timer(%s): negative duration", t.d)
		return nil
	}
	w := tb.newWaiter(t)
	w.bounded, w.reusable = true, true
	tb.schedule(&event{at: tb.now + t.d, w: w, gen: w.gen})
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

// watchable checks that sig can be watched for edges of the given kind;
// t names the trigger only when it cannot (so arming allocates nothing).
func watchable(tb *Bench, t func() Trigger, sig *dut.Signal, oneBit bool) bool {
	switch {
	case sig == nil:
		tb.failf("%s: nil signal", t())
	case sig.IsArray():
		tb.failf("%s: %s is an array; watch one element", t(), sig.Name())
	case oneBit && sig.Width() != 1:
		tb.failf("%s: %s is %d bits wide; edges are defined on 1-bit signals (use Edge for any change)", t(), sig.Name(), sig.Width())
	default:
		return true
	}
	return false
}

func (e edge) arm(tb *Bench) *waiter {
	if !watchable(tb, func() Trigger { return e }, e.sig, e.kind != anyChange) {
		return nil
	}
	w := tb.newWaiter(nil)
	w.sig, w.reusable, w.clock = e.sig, true, tb.clockOf(e.sig)
	switch {
	case e.kind == rising:
		w.watch = watchRise
	case e.kind == falling:
		w.watch = watchFall
	case e.sig.Width() > 64:
		w.watch, w.prevBig = watchChangeBig, e.sig.GetBig()
		return w
	default:
		w.watch = watchChange
	}
	w.prev = e.sig.Get()
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
	if !watchable(tb, func() Trigger { return c }, c.clk, true) {
		return nil
	}
	w := tb.newWaiter(nil)
	w.clock = tb.clockOf(c.clk)
	w.bounded, w.reusable, w.n, w.sig = w.clock != nil, true, c.n, c.clk
	if c.n <= 0 {
		w.done = true
		return w
	}
	w.watch, w.sig, w.count, w.prev = watchCycles, c.clk, c.n, c.clk.Get()
	w.n = c.n
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
	return &waiter{trig: u, watch: watchCond, check: u.cond, done: u.cond()}
}
