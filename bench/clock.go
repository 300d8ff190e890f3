package bench

import (
	"fmt"
	"strings"

	"github.com/weft-hdl/weft/dut"
)

// Clock is a free-running clock on a 1-bit top-level input, toggled by
// the bench's scheduler.
type Clock struct {
	tb        *Bench
	sig       *dut.Signal
	period    Time
	high, low Time // phase lengths
	level     uint64
	next      Time // when the next toggle is due
	rises     uint64
	stopped   bool
	// waiters: edge and cycle waits on the clock's signal, fired by the
	// scheduler after the evaluation of each toggle (no per-evaluation
	// check, and known in advance for the fast path).
	waiters []*waiter
}

// fireWaiters fires the clock's waiters after the evaluation of a toggle.
func (c *Clock) fireWaiters() {
	rise := c.level == 1
	ended := false
	for _, w := range c.waiters {
		if !w.armed || w.done {
			ended = true
			continue
		}
		switch w.watch {
		case watchRise:
			if !rise {
				continue
			}
		case watchFall:
			if rise {
				continue
			}
		case watchCycles:
			if !rise {
				continue
			}
			if w.count--; w.count > 0 {
				continue
			}
		}
		c.tb.fire(w)
		ended = true
	}
	if ended {
		c.compact()
	}
}

// compact drops ended waiters from the clock's list.
func (c *Clock) compact() {
	live := c.waiters[:0]
	for _, w := range c.waiters {
		if w.armed && !w.done {
			live = append(live, w)
		}
	}
	clear(c.waiters[len(live):])
	c.waiters = live
}

// remove takes w off the clock's list (it was disarmed).
func (c *Clock) remove(w *waiter) {
	for i, x := range c.waiters {
		if x == w {
			c.waiters = append(c.waiters[:i], c.waiters[i+1:]...)
			return
		}
	}
}

// A ClockOption shapes a clock: DutyCycle, Phase, StartHigh.
type ClockOption func(*clockShape)

type clockShape struct {
	high      Time // 0: half the period
	highSet   bool
	phase     Time
	startHigh bool
	err       string
}

// DutyCycle makes the clock high for the fraction f (0 < f < 1) of its
// period, rounded to a picosecond (default 0.5, the high phase getting
// the shorter half of an odd period).
func DutyCycle(f float64) ClockOption {
	return func(c *clockShape) {
		if !(f > 0 && f < 1) {
			c.err = fmt.Sprintf("DutyCycle(%v): the fraction must be between 0 and 1", f)
			return
		}
		c.high, c.highSet = Time(f*1e6), true // scaled by the period below
	}
}

// Phase delays the clock's first toggle by d: the start level lasts d
// longer.
func Phase(d Time) ClockOption {
	return func(c *clockShape) {
		if d < 0 {
			c.err = fmt.Sprintf("Phase(%s): a negative phase", d)
			return
		}
		c.phase = d
	}
}

// StartHigh starts the clock high: the first edge is a falling one.
func StartHigh() ClockOption { return func(c *clockShape) { c.startHigh = true } }

// Clock starts a clock of the given period on sig (a 1-bit top-level
// input). By default sig is driven low now, rises period-period/2 later,
// stays high for period/2, and so on; DutyCycle, Phase and StartHigh
// change that. Several clocks of unrelated periods share the bench's
// time base. The first clock started is the bench's main clock (Tick,
// Reset). Starting a clock on a signal that already has a running one
// fails.
func (tb *Bench) Clock(sig *dut.Signal, period Time, opts ...ClockOption) *Clock {
	var shape clockShape
	for _, o := range opts {
		o(&shape)
	}
	switch {
	case !tb.checkSig("Clock", sig):
		return nil
	case !sig.IsInput() || sig.Width() != 1 || sig.IsArray():
		tb.failf("Clock(%s): a clock must be a 1-bit top-level input; %s is %d bits, %s", sig.Name(), sig.Name(), sig.Width(), inputText(sig))
		return nil
	case period < 2:
		tb.failf("Clock(%s, %s): the period must be at least 2ps", sig.Name(), period)
		return nil
	case shape.err != "":
		tb.failf("Clock(%s): %s", sig.Name(), shape.err)
		return nil
	}
	for _, c := range tb.clocks {
		if !c.stopped && c.sig.Home() == sig.Home() {
			tb.failf("Clock(%s): the signal already has a running clock (period %s); Stop it first", sig.Name(), c.period)
			return nil
		}
	}
	high := period / 2
	if shape.highSet {
		high = Time(float64(period)*float64(shape.high)/1e6 + 0.5)
		if high < 1 || high >= period {
			tb.failf("Clock(%s, %s): a duty cycle of %v leaves a phase shorter than 1ps", sig.Name(), period, float64(shape.high)/1e6)
			return nil
		}
	}
	c := &Clock{tb: tb, sig: sig, period: period, high: high, low: period - high}
	first := c.low
	if shape.startHigh {
		c.level, first = 1, c.high
	}
	if !tb.writable("Clock", sig) {
		return nil
	}
	if tb.force.find(sig.Home(), sig.ElemIndex()) != nil {
		tb.failf("Clock(%s): the signal is forced; Release it first", sig.Name())
		return nil
	}
	if err := sig.Set(c.level); err != nil {
		tb.failf("Clock: %v", err)
		return nil
	}
	c.next = tb.now + shape.phase + first
	tb.clocks = append(tb.clocks, c)
	tb.schedule(&event{at: c.next, clk: c})
	return c
}

// clockOf is the running bench clock on sig, nil when none.
func (tb *Bench) clockOf(sig *dut.Signal) *Clock {
	if sig == nil {
		return nil
	}
	for _, c := range tb.clocks {
		if !c.stopped && c.sig.Home() == sig.Home() {
			return c
		}
	}
	return nil
}

func inputText(sig *dut.Signal) string {
	if sig.IsInput() {
		return "an input"
	}
	return "not a top-level input"
}

// Signal is the clock's signal.
func (c *Clock) Signal() *dut.Signal { return c.sig }

// Period is the clock's period.
func (c *Clock) Period() Time { return c.period }

// Stop stops the clock where it is (its signal keeps its level). Waits
// on its signal go on watching it (bench code may drive it by hand now).
func (c *Clock) Stop() {
	if c.stopped {
		return
	}
	c.stopped = true
	for _, w := range c.waiters {
		if w.armed && !w.done {
			w.clock, w.prev = nil, c.sig.Get()
			c.tb.armed = append(c.tb.armed, w)
		}
	}
	c.waiters = nil
}

// Cycles counts the clock's rising edges so far.
func (c *Clock) Cycles() uint64 { return c.rises }

// toggle flips the clock and schedules its next toggle, reusing e (its
// event, just popped).
func (c *Clock) toggle(e *event) {
	c.level ^= 1
	if err := c.tb.s.SetInput(c.sig.Home(), c.level); err != nil {
		c.tb.failf("clock %s: %v", c.sig.Name(), err)
		c.stopped = true
		return
	}
	if c.level == 1 {
		c.tb.rose = true
		c.rises++
		c.next += c.high
	} else {
		c.next += c.low
	}
	e.at = c.next
	c.tb.schedule(e)
}

// main is the bench's main clock: the first running one.
func (tb *Bench) main(call string) *Clock {
	for _, c := range tb.clocks {
		if !c.stopped {
			return c
		}
	}
	tb.failf("%s needs a running clock: start one with Clock(sig, period)", call)
	return nil
}

// Tick waits for n rising edges of the main clock. It is ClockCycles on
// that clock, on the simulator's fast path whenever nothing else can
// happen meanwhile (see ClockCycles).
func (tb *Bench) Tick(n int) {
	if tb.err != nil {
		return
	}
	if c := tb.main("Tick"); c != nil {
		tb.ClockCycles(c.sig, n)
	}
}

// ClockCycles waits for n rising edges of clk.
func (tb *Bench) ClockCycles(clk *dut.Signal, n int) {
	tb.waitArmed(cycles{clk, n}.arm(tb))
}

// The fast path. While the only thing scheduled is the toggling of one
// clock, and whatever bench code waits for is a known number of that
// clock's rising edges away (ClockCycles, RisingEdge of the clock, a
// timeout), the scheduler runs those cycles on the simulator's Tick (a
// few function calls per edge, whole batches in one native call) instead
// of evaluating edge by edge: same results, except that $time inside the
// design advances by one per edge during them (it is set right again
// afterwards). Anything else that must look at each evaluation turns it
// off: a wire, a force, an edge sampler, time-stamped output, a trace,
// a watched signal, a phase trigger, a second clock, a timer, a falling
// or any-change wait on the clock.

// fastChunk is how many cycles the fast path runs between looks at the
// spec's context.
const fastChunk = 1 << 16

// fast runs the cycles up to the next clock waiter through sim.Tick when
// it may, and reports whether it did.
func (tb *Bench) fast() bool {
	// Cheapest refusals first: this runs before every time step.
	c := tb.q[0].clk
	if c == nil || c.level != 1 { // from low, the next edge is a rise: take it the usual way
		return false
	}
	k := fastChunk
	for _, w := range c.waiters {
		switch {
		case !w.armed || w.done:
		case w.watch == watchCycles:
			k = min(k, w.count)
		default: // a rise (one cycle) or a fall, change
			return false
		}
	}
	if k < 2 || len(tb.armed) > 0 || len(tb.wires) > 0 || tb.force.active() || len(tb.samplers) > 0 ||
		tb.opts.Timestamps || len(tb.traces) > 0 || len(tb.rw)+len(tb.ro)+len(tb.nts) > 0 {
		return false // one cycle costs less edge by edge than through Tick
	}
	for _, x := range tb.clocks {
		if !x.stopped && x != c {
			return false
		}
	}
	for _, e := range tb.q {
		if !e.stale() && e.clk != c {
			return false
		}
	}
	if d, t := tb.firstDeadline(); t != nil {
		// The k-th cycle ends at c.next + c.low + (k-1)*period.
		if first := c.next + c.low; d < first {
			return false
		} else {
			k = min(k, int((d-first)/c.period)+1)
		}
	}
	if k < 2 {
		return false
	}
	tb.fastTick(c, k)
	if tb.err != nil {
		return true
	}
	for _, w := range c.waiters {
		if !w.armed || w.done {
			continue
		}
		if w.watch == watchCycles {
			w.count -= k
			if w.count > 0 {
				continue
			}
		}
		tb.fire(w)
	}
	c.compact()
	return true
}

// fastTick runs n cycles of c (high, its fall due at c.next) on sim.Tick.
func (tb *Bench) fastTick(c *Clock, n int) {
	start := tb.now
	end := c.next + Time(n-1)*c.period + c.low
	k, err := tb.s.Tick(c.sig.Home(), n)
	if err != nil {
		if k < 1 {
			k = 1
		}
		tb.now = c.next + Time(k-1)*c.period // the fall of cycle k
		c.rises += uint64(k - 1)
		if c.sig.Get() == 1 {
			tb.now += c.low // or its rise
			c.rises++
		}
		tb.s.SetTime(uint64(tb.now))
		tb.simErr(err)
		return
	}
	tb.fastCycles += uint64(n)
	tb.now = end
	tb.evals, tb.resumes = 0, 0
	c.rises += uint64(n)
	tb.s.SetTime(uint64(tb.now))
	c.next = end + c.high
	tb.dropStale()
	// Reschedule c's pending toggle: its event sits in the queue.
	for _, e := range tb.q {
		if e.clk == c {
			e.dead = true
		}
	}
	tb.schedule(&event{at: c.next, clk: c})
	tb.checkErrors(start)
}

// Polarity says which level of a reset signal is active.
type Polarity int

const (
	// Inferred: active low when the signal's name ends in "n" ("rst_n",
	// "resetn", the rule `weft run` uses), active high otherwise.
	Inferred Polarity = iota
	ActiveLow
	ActiveHigh
)

func (p Polarity) activeLow(sig *dut.Signal) bool {
	switch p {
	case ActiveLow:
		return true
	case ActiveHigh:
		return false
	}
	name := sig.Name()
	name = name[strings.LastIndexByte(name, '.')+1:]
	return strings.HasSuffix(strings.ToLower(name), "n")
}

// Reset drives rst active now, holds it for cycles rising edges of the
// main clock, releases it right after the last one and evaluates the
// release at that time.
func (tb *Bench) Reset(rst *dut.Signal, p Polarity, cycles int) {
	if tb.err != nil || !tb.checkSig("Reset", rst) {
		return
	}
	if rst.Width() != 1 || rst.IsArray() {
		tb.failf("Reset(%s): a reset must be a 1-bit signal; it is %d bits", rst.Name(), rst.Width())
		return
	}
	active := uint64(1)
	if p.activeLow(rst) {
		active = 0
	}
	tb.Set(rst, active)
	tb.ReadWrite()
	if cycles > 0 {
		if c := tb.main("Reset"); c != nil {
			tb.ClockCycles(c.sig, cycles)
		}
	}
	tb.Set(rst, active^1)
	tb.ReadWrite()
}
