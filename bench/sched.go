package bench

import (
	"container/heap"
	"fmt"
	"math/big"
	"slices"
	"strings"

	"github.com/weft-hdl/weft/dut"
)

// The scheduler: an event queue ordered by (time, insertion order), a
// queue of tasks ready to run, and the loop that alternates between them.
// An event toggles a clock or expires a timer. The loop runs on the
// spec's goroutine while the spec waits:
//
//  1. every ready task runs, one after the other in the order it became
//     ready (fork order among tasks woken by one evaluation), each until it
//     waits again or ends;
//  2. when none is ready and bench code wrote something, the design is
//     evaluated at the current time (a delta step) and the armed triggers
//     look at the result, which may make tasks ready: back to 1;
//  3. then ReadWrite triggers, then ReadOnly triggers, happen;
//  4. then time moves to the next event: every event due then is run, the
//     design is evaluated once for all the clocks they toggled, timers
//     expire, NextTimeStep triggers happen: back to 1.
//
// It returns when the spec's own trigger happened. Waits bound what they
// wait for (Options.Timeout, the spec's context) and fail, naming every
// pending trigger, when nothing is scheduled that could end them.

type event struct {
	at  Time
	seq uint64
	clk *Clock  // a clock toggle, or
	w   *waiter // a timer expiring
	gen uint32  // w's generation when scheduled (waiters are reused)
	// dead: superseded (a clock rescheduled after the fast path)
	dead bool
}

// stale reports whether the event no longer does anything.
func (e *event) stale() bool {
	if e.dead {
		return true
	}
	if e.clk != nil {
		return e.clk.stopped
	}
	return e.gen != e.w.gen || e.w.done || !e.w.armed
}

type queue []*event

func (q queue) Len() int { return len(q) }
func (q queue) Less(i, j int) bool {
	if q[i].at != q[j].at {
		return q[i].at < q[j].at
	}
	return q[i].seq < q[j].seq
}
func (q queue) Swap(i, j int) { q[i], q[j] = q[j], q[i] }
func (q *queue) Push(x any)   { *q = append(*q, x.(*event)) }
func (q *queue) Pop() any {
	old := *q
	e := old[len(old)-1]
	old[len(old)-1] = nil
	*q = old[:len(old)-1]
	return e
}

// schedule adds an event at time at.
func (tb *Bench) schedule(e *event) {
	tb.seq++
	e.seq = tb.seq
	heap.Push(&tb.q, e)
}

// dropStale removes stale events from the head of the queue.
func (tb *Bench) dropStale() {
	for len(tb.q) > 0 && tb.q[0].stale() {
		heap.Pop(&tb.q)
	}
}

// waiter is one armed trigger: done by a timer event, by a check after
// an evaluation, by bench code (an Event set, a lock released, a task
// ended), by a scheduler phase, or at once.
type waiter struct {
	trig  Trigger
	owner *Task // the task waiting (the top waiter of a wait)
	// parent: the Combine or FirstOf this waiter is part of.
	parent *waiter
	kids   []*waiter
	left   int // kids still to happen before the parent does

	// What it watches after every evaluation (watchNone: nothing): an
	// edge or a cycle count of sig (prev: its value at the last look),
	// or a condition.
	watch   watchKind
	sig     *dut.Signal
	clock   *Clock // the running bench clock on sig: it fires w
	prev    uint64
	prevBig *big.Int
	count   int
	n       int // the cycle count asked for
	check   func() bool
	// bounded: it happens by a known time (a timer, cycles of a running
	// bench clock), so the default timeout does not apply.
	bounded bool
	done    bool
	armed   bool
	// reusable: nothing but the scheduler holds it (an edge, cycles, a
	// timer), so the next wait of its task may reuse it; gen counts the
	// reuses so a timer event of an earlier life goes stale.
	reusable bool
	gen      uint32
}

type watchKind uint8

const (
	watchNone watchKind = iota
	watchRise
	watchFall
	watchChange
	watchChangeBig // wider than 64 bits
	watchCycles
	watchCond
)

// newWaiter returns a fresh waiter for trig, reusing one when it can.
func (tb *Bench) newWaiter(trig Trigger) *waiter {
	n := len(tb.free)
	if n == 0 {
		return &waiter{trig: trig}
	}
	w := tb.free[n-1]
	tb.free = tb.free[:n-1]
	*w = waiter{trig: trig, gen: w.gen + 1}
	return w
}

// recycle keeps the reusable waiters of a finished wait for later ones.
func (tb *Bench) recycle(ws []*waiter) {
	for _, w := range ws {
		if w.reusable && !w.armed && len(tb.free) < 64 {
			tb.free = append(tb.free, w)
		}
	}
}

// happened is w's look at the state after an evaluation.
func (w *waiter) happened() bool {
	switch w.watch {
	case watchCond:
		return w.check()
	case watchChangeBig:
		v := w.sig.GetBig()
		changed := v.Cmp(w.prevBig) != 0
		w.prevBig = v
		return changed
	}
	v := w.sig.Get()
	old := w.prev
	w.prev = v
	switch w.watch {
	case watchRise:
		return old == 0 && v == 1
	case watchFall:
		return old == 1 && v == 0
	case watchChange:
		return old != v
	case watchCycles:
		if old == 0 && v == 1 {
			w.count--
		}
		return w.count <= 0
	}
	return false
}

// register makes w and its parts live.
func (tb *Bench) register(w *waiter) {
	w.armed = true
	switch {
	case w.done:
	case w.clock != nil:
		w.clock.waiters = append(w.clock.waiters, w)
	case w.watch != watchNone:
		tb.armed = append(tb.armed, w)
	}
	for _, k := range w.kids {
		k.parent = w
		tb.register(k)
	}
}

// fire marks w happened and passes that on to its parent or its task.
func (tb *Bench) fire(w *waiter) {
	if w.done || !w.armed {
		return
	}
	w.done = true
	if p := w.parent; p != nil {
		p.left--
		if p.left <= 0 {
			tb.fire(p)
		}
		return
	}
	if t := w.owner; t != nil {
		tb.wake(t)
	}
}

// disarm ends the waiters ws and their parts.
func (tb *Bench) disarm(ws []*waiter) {
	for _, w := range ws {
		tb.disarmOne(w)
	}
}

func (tb *Bench) disarmOne(w *waiter) {
	if !w.armed {
		return
	}
	w.armed = false
	for _, k := range w.kids {
		tb.disarmOne(k)
	}
	switch {
	case w.clock != nil:
		w.clock.remove(w)
	case w.watch != watchNone:
		tb.armedStale = true
	}
}

// observe runs the armed checks after an evaluation.
func (tb *Bench) observe() {
	if tb.armedStale {
		tb.compactArmed()
	}
	for _, w := range tb.armed {
		if w.armed && !w.done && w.happened() {
			tb.fire(w)
			tb.armedStale = true
		}
	}
}

// compactArmed drops disarmed and done waiters from the armed list.
func (tb *Bench) compactArmed() {
	tb.armedStale = false
	live := tb.armed[:0]
	for _, w := range tb.armed {
		if w.armed && !w.done {
			live = append(live, w)
		}
	}
	clear(tb.armed[len(live):])
	tb.armed = live
}

// wake queues t to run (it waits and one of its triggers happened).
func (tb *Bench) wake(t *Task) {
	if t.queued || !t.waiting || t.done {
		return
	}
	t.queued = true
	tb.ready = append(tb.ready, t)
}

// popReady takes the next ready task, nil when none is.
func (tb *Bench) popReady() *Task {
	if tb.readyHead == len(tb.ready) {
		return nil
	}
	t := tb.ready[tb.readyHead]
	tb.ready[tb.readyHead] = nil
	tb.readyHead++
	if tb.readyHead == len(tb.ready) {
		tb.ready, tb.readyHead = tb.ready[:0], 0
	}
	t.queued = false
	return t
}

func (tb *Bench) unqueue(t *Task) {
	for i := tb.readyHead; i < len(tb.ready); i++ {
		if tb.ready[i] == t {
			tb.ready = append(tb.ready[:i], tb.ready[i+1:]...)
			break
		}
	}
	t.queued = false
}

// wait suspends the calling bench code until one of trigs happened and
// reports whether one did (false: the bench stopped). Afterwards the
// caller's ws hold which did.
func (tb *Bench) wait(trigs []Trigger) bool {
	t := tb.cur
	if tb.err != nil {
		tb.stopped(t)
		return false
	}
	tb.recycle(t.ws)
	ws := t.ws[:0]
	ok := true
	for i, tr := range trigs {
		if tr == nil {
			tb.failf("wait: trigger %d is nil", i)
			ok = false
			break
		}
		w := tr.arm(tb)
		if w == nil { // arm failed
			ok = false
			break
		}
		w.owner = t
		tb.register(w)
		ws = append(ws, w)
	}
	t.ws = ws
	if !ok {
		tb.disarm(ws)
		tb.stopped(t)
		return false
	}
	return tb.block(t)
}

// waitArmed is wait for one trigger already armed as w (nil: arming
// failed), for the wait methods that skip making a Trigger value.
func (tb *Bench) waitArmed(w *waiter) bool {
	t := tb.cur
	tb.recycle(t.ws)
	t.ws = t.ws[:0]
	if w == nil || tb.err != nil {
		tb.stopped(t)
		return false
	}
	w.owner = t
	tb.register(w)
	t.ws = append(t.ws, w)
	return tb.block(t)
}

// block suspends the calling bench code on its armed waiters t.ws.
func (tb *Bench) block(t *Task) bool {
	ws := t.ws
	t.deadline = -1
	if d := tb.timeoutFor(ws); d > 0 && t == tb.root {
		t.deadline = tb.now + d
	}
	t.waiting = true
	for _, w := range ws {
		if w.done {
			tb.wake(t)
			break
		}
	}
	if t == tb.root {
		tb.run()
	} else {
		tb.suspend(t)
	}
	t.waiting = false
	t.deadline = -1
	tb.disarm(ws)
	if tb.armedStale && len(tb.armed) > 0 {
		tb.compactArmed() // so that no waiter is reused while listed
	}
	for _, w := range ws {
		if w.done {
			return true
		}
	}
	tb.stopped(t)
	return false
}

// stopped ends a task whose wait cannot go on because the bench stopped;
// the spec's wait returns instead.
func (tb *Bench) stopped(t *Task) {
	if t != tb.root {
		t.killed = true
		panic(errKilled)
	}
}

// DefaultTimeout bounds a wait whose end is not known in advance (an
// edge, a condition, an event) when Options.Timeout is 0.
const DefaultTimeout = 100 * MS

// timeoutFor is how long a wait on ws may take (0: unbounded).
func (tb *Bench) timeoutFor(ws []*waiter) Time {
	switch d := tb.opts.Timeout; {
	case d > 0:
		return d
	case d < 0:
		return 0
	}
	for _, w := range ws {
		if w.bounded {
			return 0
		}
	}
	return DefaultTimeout
}

// Bounds on the work at one simulated time, so that bench code that keeps
// writing or waking other tasks without letting time pass fails instead
// of hanging.
const (
	maxEvalsPerTime   = 100_000
	maxResumesPerTime = 1_000_000
)

// run is the scheduler loop (see the top of this file); it runs on the
// spec's goroutine and returns when the spec is ready or the bench
// stopped.
func (tb *Bench) run() {
	for tb.err == nil {
		if t := tb.popReady(); t != nil {
			if t == tb.root {
				return
			}
			if tb.resumes++; tb.resumes > maxResumesPerTime {
				tb.failf("bench code ran %d times at %s without letting time pass (tasks waking each other in a loop?); pending: %s", maxResumesPerTime, tb.now, tb.pendingText())
				return
			}
			tb.resume(t)
			continue
		}
		if tb.s.Pending() {
			tb.evaluate()
		} else if !tb.phase() {
			tb.endTimeStep()
			tb.nextTime()
		}
		tb.sortReady()
	}
}

// sortReady puts the tasks one evaluation or one time woke in fork
// order, so that their order does not depend on when each armed its
// trigger. (The queue was empty before: only then does time move or the
// design get evaluated.)
func (tb *Bench) sortReady() {
	r := tb.ready[tb.readyHead:]
	if len(r) > 1 {
		slices.SortFunc(r, func(a, b *Task) int { return a.id - b.id })
	}
}

// evaluate is a delta step at the current time for the writes bench code
// made.
func (tb *Bench) evaluate() {
	if tb.evals++; tb.evals > maxEvalsPerTime {
		tb.failf("the design was evaluated %d times at %s without time passing (bench code writing in a loop?); pending: %s", maxEvalsPerTime, tb.now, tb.pendingText())
		return
	}
	tb.step()
}

// phase runs the ReadWrite, then the ReadOnly triggers armed now; it
// reports whether there were any.
func (tb *Bench) phase() bool {
	if list := tb.firePhase(&tb.rw); list {
		return true
	}
	if len(tb.ro) > 0 {
		tb.readOnly = true
		return tb.firePhase(&tb.ro)
	}
	return false
}

// firePhase fires the live waiters of a phase list and empties it.
func (tb *Bench) firePhase(list *[]*waiter) bool {
	any := false
	ws := *list
	*list = nil
	for _, w := range ws {
		if w.armed && !w.done {
			tb.fire(w)
			any = true
		}
	}
	return any
}

// nextTime moves time to the next event and runs it, or fails when
// nothing can happen, a wait timed out or the spec was interrupted.
func (tb *Bench) nextTime() {
	tb.dropStale()
	if len(tb.q) == 0 {
		if len(tb.tasks) == 0 {
			tb.failf("waiting for %s: nothing is scheduled (no clock, no timer), so it can never happen", describeWaiters(tb.root.ws))
		} else {
			tb.failf("nothing is scheduled (no clock, no timer), so no wait can end: %s", tb.pendingText())
		}
		return
	}
	next := tb.q[0].at
	if d, t := tb.firstDeadline(); t != nil && d < next {
		tb.now = d
		limit := tb.opts.Timeout
		if limit == 0 {
			limit = DefaultTimeout
		}
		also := ""
		if len(tb.tasks) > 0 {
			also = "; also pending: " + tb.pendingTasks()
		}
		tb.failf("still waiting for %s after %s (Options.Timeout)%s", describeWaiters(t.ws), limit, also)
		return
	}
	if tb.interrupted("waiting") || tb.fast() {
		return
	}
	tb.advance(next)
}

// interrupted fails when the spec's context is done (a Ginkgo
// SpecTimeout, an interrupt); what says what the bench was doing.
func (tb *Bench) interrupted(what string) bool {
	if tb.ctxDone == nil {
		return false
	}
	select {
	case <-tb.ctxDone:
		// Ginkgo keeps its own timeout message and drops later failures:
		// the output says where the bench was.
		msg := fmt.Sprintf("interrupted (%v) while %s; pending: %s", tb.opts.Context.Err(), what, tb.pendingText())
		fmt.Fprintf(tb.opts.Output, "bench: at %s: %s\n", tb.now, msg)
		tb.failf("%s", msg)
		return true
	default:
		return false
	}
}

// firstDeadline is the earliest timeout of a waiting task.
func (tb *Bench) firstDeadline() (Time, *Task) {
	var first *Task
	if r := tb.root; r.waiting && r.deadline >= 0 {
		first = r
	}
	for _, t := range tb.tasks {
		if t.waiting && t.deadline >= 0 && (first == nil || t.deadline < first.deadline) {
			first = t
		}
	}
	if first == nil {
		return -1, nil
	}
	return first.deadline, first
}

// advance moves to time t (the head of the queue), runs every event due
// then, evaluates once when an input changed, and fires NextTimeStep.
func (tb *Bench) advance(t Time) {
	if t != tb.now {
		tb.now = t
		tb.evals, tb.resumes = 0, 0
	}
	tb.readOnly = false
	toggled := tb.toggled[:0]
	for len(tb.q) > 0 && tb.q[0].at == t {
		e := heap.Pop(&tb.q).(*event)
		switch {
		case e.stale():
		case e.clk != nil:
			e.clk.toggle(e)
			toggled = append(toggled, e.clk)
		default:
			tb.fire(e.w)
		}
	}
	if len(toggled) > 0 {
		tb.evaluate()
		for _, c := range toggled {
			c.fireWaiters()
		}
	}
	tb.toggled = toggled[:0] // clocks live as long as the bench: no need to clear
	tb.firePhase(&tb.nts)
}

// pendingText lists what every waiting piece of bench code waits for.
func (tb *Bench) pendingText() string { return tb.pending(true) }

// pendingTasks is pendingText without the spec.
func (tb *Bench) pendingTasks() string { return tb.pending(false) }

func (tb *Bench) pending(spec bool) string {
	var parts []string
	add := func(t *Task) {
		if t.waiting && len(t.ws) > 0 {
			parts = append(parts, fmt.Sprintf("%s waits for %s", t, describeWaiters(t.ws)))
		}
	}
	if spec {
		add(tb.root)
	}
	for _, t := range tb.tasks {
		add(t)
	}
	if len(parts) == 0 {
		return "nothing"
	}
	return strings.Join(parts, "; ")
}

func describeWaiters(ws []*waiter) string {
	trigs := make([]Trigger, len(ws))
	for i, w := range ws {
		trigs[i] = w.trigger()
	}
	return describe(trigs)
}

// trigger is what w waits for; edge and cycle waiters keep no Trigger
// value, to arm without allocating one.
func (w *waiter) trigger() Trigger {
	switch {
	case w.trig != nil:
		return w.trig
	case w.watch == watchRise:
		return edge{w.sig, rising}
	case w.watch == watchFall:
		return edge{w.sig, falling}
	case w.watch == watchChange || w.watch == watchChangeBig:
		return edge{w.sig, anyChange}
	}
	return cycles{w.sig, w.n}
}

func describe(trigs []Trigger) string {
	if len(trigs) == 1 {
		return trigs[0].String()
	}
	s := make([]string, len(trigs))
	for i, t := range trigs {
		s[i] = t.String()
	}
	return "the first of " + strings.Join(s, ", ")
}
