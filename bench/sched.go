package bench

import (
	"container/heap"
	"strings"
)

// The scheduler: an event queue ordered by (time, insertion order). An
// event toggles a clock or expires a timer. Waits pop every event of the
// next time, evaluate the design once for all the inputs they changed
// (two clocks with a common edge fire in one evaluation), let the armed
// waiters look, and stop when one of the waiters they were given is done.

type event struct {
	at  Time
	seq uint64
	clk *Clock  // a clock toggle, or
	w   *waiter // a timer expiring
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
	return e.w.done || !e.w.armed
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
// an evaluation, or at once.
type waiter struct {
	trig  Trigger
	check func() bool // called after every evaluation; nil: timer only
	done  bool
	armed bool
}

// arm makes w live: its check runs after every evaluation.
func (tb *Bench) arm(w *waiter) {
	w.armed = true
	if w.check != nil && !w.done {
		tb.armed = append(tb.armed, w)
	}
}

// disarm removes the waiters ws.
func (tb *Bench) disarm(ws []*waiter) {
	for _, w := range ws {
		w.armed = false
	}
	live := tb.armed[:0]
	for _, w := range tb.armed {
		if w.armed {
			live = append(live, w)
		}
	}
	clear(tb.armed[len(live):])
	tb.armed = live
}

// observe runs the armed checks after an evaluation.
func (tb *Bench) observe() {
	for _, w := range tb.armed {
		if !w.done && w.check() {
			w.done = true
		}
	}
}

// wait advances time until one of trigs happened and returns the index
// of the first that did (-1 when the bench stopped). Writes the spec made
// before the call are evaluated at the current time first, with the
// triggers already watching.
func (tb *Bench) wait(trigs []Trigger) int {
	if tb.err != nil {
		return -1
	}
	ws := make([]*waiter, len(trigs))
	for i, t := range trigs {
		if t == nil {
			tb.failf("wait: trigger %d is nil", i)
			return -1
		}
		ws[i] = t.arm(tb)
		if ws[i] == nil { // arm failed
			tb.disarm(ws[:i])
			return -1
		}
		tb.arm(ws[i])
	}
	defer tb.disarm(ws)
	tb.step()
	deadline := Time(-1)
	if tb.opts.Timeout > 0 {
		deadline = tb.now + tb.opts.Timeout
	}
	for {
		for i, w := range ws {
			if w.done {
				return i
			}
		}
		if tb.err != nil {
			return -1
		}
		tb.dropStale()
		if len(tb.q) == 0 {
			tb.failf("waiting for %s: nothing is scheduled (no clock, no timer), so it can never happen", describe(trigs))
			return -1
		}
		t := tb.q[0].at
		if deadline >= 0 && t > deadline {
			tb.now = deadline
			tb.failf("still waiting for %s after %s (Options.Timeout)", describe(trigs), tb.opts.Timeout)
			return -1
		}
		tb.advance(t)
	}
}

// advance moves to time t (the head of the queue), runs every event due
// then and evaluates once when an input changed.
func (tb *Bench) advance(t Time) {
	tb.now = t
	changed := false
	for len(tb.q) > 0 && tb.q[0].at == t {
		e := heap.Pop(&tb.q).(*event)
		switch {
		case e.stale():
		case e.clk != nil:
			e.clk.toggle(e)
			changed = true
		default:
			e.w.done = true
		}
	}
	if changed {
		tb.step()
	}
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
