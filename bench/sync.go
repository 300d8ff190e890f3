package bench

import "fmt"

// Event is a flag that bench code sets and other bench code waits for:
// Wait happens when the event is set (at once if it is). Set wakes every
// waiter at the current time; the event stays set until Clear.
type Event struct {
	tb      *Bench
	name    string
	set     bool
	waiters []*waiter
}

// NewEvent returns a cleared event; name appears in messages.
func (tb *Bench) NewEvent(name string) *Event { return &Event{tb: tb, name: name} }

// Set sets the event and wakes its waiters.
func (e *Event) Set() {
	e.set = true
	ws := e.waiters
	e.waiters = nil
	for _, w := range ws {
		e.tb.fire(w)
	}
}

// Clear clears the event: later waits block until the next Set.
func (e *Event) Clear() { e.set = false }

// IsSet reports whether the event is set.
func (e *Event) IsSet() bool { return e.set }

// Wait is the trigger that happens when the event is set.
func (e *Event) Wait() Trigger { return eventWait{e} }

type eventWait struct{ e *Event }

func (w eventWait) String() string { return fmt.Sprintf("Event(%s).Wait()", w.e.name) }

func (w eventWait) arm(*Bench) *waiter {
	x := &waiter{trig: w, done: w.e.set}
	if !x.done {
		live := w.e.waiters[:0] // drop waits that ended otherwise (AwaitWithin)
		for _, o := range w.e.waiters {
			if o.armed {
				live = append(live, o)
			}
		}
		w.e.waiters = append(live, x)
	}
	return x
}

// waited reports whether some bench code waits for the event now.
func (e *Event) waited() bool {
	for _, w := range e.waiters {
		if w.armed && !w.done {
			return true
		}
	}
	return false
}

// Lock is a mutual-exclusion lock between tasks (a bus two drivers
// share). Acquire happens when the waiter holds the lock; requests are
// served in order.
type Lock struct {
	tb     *Bench
	name   string
	holder *Task
	queue  []*lockReq
}

type lockReq struct {
	w *waiter
	t *Task
}

// NewLock returns an unlocked lock; name appears in messages.
func (tb *Bench) NewLock(name string) *Lock { return &Lock{tb: tb, name: name} }

// Acquire is the trigger that happens when the waiting task got the lock.
// A wait that ends for another trigger (First, AwaitWithin) gives up its
// place; check Fired.Has to know whether it holds the lock.
func (l *Lock) Acquire() Trigger { return lockAcquire{l} }

// Lock waits until the calling bench code holds l.
func (l *Lock) Lock() { l.tb.Await(l.Acquire()) }

// Unlock releases l and hands it to the next waiter. Releasing a lock the
// caller does not hold fails.
func (l *Lock) Unlock() {
	if l.holder != l.tb.cur {
		who := "nobody"
		if l.holder != nil {
			who = l.holder.String()
		}
		l.tb.failf("Lock(%s).Unlock by %s: it is held by %s", l.name, l.tb.cur, who)
		return
	}
	l.release()
}

// take makes t the holder.
func (l *Lock) take(t *Task) {
	l.holder = t
	t.locks = append(t.locks, l)
}

// release hands the lock to the next live requester, or frees it. A
// task that ends holding locks releases them.
func (l *Lock) release() {
	if h := l.holder; h != nil {
		for i, x := range h.locks {
			if x == l {
				h.locks = append(h.locks[:i], h.locks[i+1:]...)
				break
			}
		}
	}
	l.holder = nil
	for len(l.queue) > 0 {
		r := l.queue[0]
		l.queue = l.queue[1:]
		if r.w.armed && !r.w.done && !r.t.done {
			l.take(r.t)
			l.tb.fire(r.w)
			return
		}
	}
}

// Locked reports whether some bench code holds l.
func (l *Lock) Locked() bool { return l.holder != nil }

type lockAcquire struct{ l *Lock }

func (a lockAcquire) String() string { return fmt.Sprintf("Lock(%s).Acquire()", a.l.name) }

func (a lockAcquire) arm(tb *Bench) *waiter {
	l := a.l
	w := &waiter{trig: a}
	switch {
	case l.holder == tb.cur:
		tb.failf("Lock(%s).Acquire: %s already holds it", l.name, tb.cur)
		return nil
	case l.holder == nil || l.holder.done:
		l.take(tb.cur)
		w.done = true
	default:
		l.queue = append(l.queue, &lockReq{w, tb.cur})
	}
	return w
}

// Queue is a FIFO of values between tasks (a driver's transactions, a
// monitor's observations), bounded or not. Put waits while a bounded
// queue is full, Get while it is empty; waiting getters and putters are
// served in order.
type Queue[T any] struct {
	tb      *Bench
	name    string
	max     int // 0: unbounded
	items   []T
	getters []*Event // each waiting Get
	putters []*Event // each waiting Put
}

// NewQueue returns an empty queue of at most max items (0: unbounded).
func NewQueue[T any](tb *Bench, name string, max int) *Queue[T] {
	return &Queue[T]{tb: tb, name: name, max: max}
}

// Len is the number of items in the queue.
func (q *Queue[T]) Len() int { return len(q.items) }

// Full reports whether a Put would wait.
func (q *Queue[T]) Full() bool { return q.max > 0 && len(q.items) >= q.max }

// TryPut appends v unless the queue is full; it reports whether it did.
func (q *Queue[T]) TryPut(v T) bool {
	if q.Full() {
		return false
	}
	q.items = append(q.items, v)
	q.signal(&q.getters)
	return true
}

// Put appends v, waiting while the queue is full.
func (q *Queue[T]) Put(v T) {
	for !q.TryPut(v) {
		if !q.block(&q.putters, "Put") {
			return
		}
	}
}

// TryGet takes the oldest item, if any.
func (q *Queue[T]) TryGet() (v T, ok bool) {
	if len(q.items) == 0 {
		return v, false
	}
	v = q.items[0]
	var zero T
	q.items[0] = zero
	q.items = q.items[1:]
	q.signal(&q.putters)
	return v, true
}

// Get takes the oldest item, waiting while the queue is empty (the zero
// value when the bench stopped).
func (q *Queue[T]) Get() T {
	for {
		if v, ok := q.TryGet(); ok {
			return v
		}
		if !q.block(&q.getters, "Get") {
			var zero T
			return zero
		}
	}
}

// GetWithin is Get that waits at most d: ok is false when no item came
// in time (or the bench stopped). A monitor's RecvWithin is this.
func (q *Queue[T]) GetWithin(d Time) (v T, ok bool) {
	end := q.tb.now + d
	for {
		if v, ok := q.TryGet(); ok {
			return v, true
		}
		left := end - q.tb.now
		if left <= 0 || !q.blockWithin(&q.getters, "GetWithin", left) {
			return v, false
		}
	}
}

// block waits on a fresh event in list until signal sets it.
func (q *Queue[T]) block(list *[]*Event, call string) bool {
	return q.blockWithin(list, call, 0)
}

// blockWithin is block bounded by d (0: no bound of its own).
func (q *Queue[T]) blockWithin(list *[]*Event, call string, d Time) bool {
	e := q.tb.NewEvent(fmt.Sprintf("Queue(%s).%s", q.name, call))
	*list = append(*list, e)
	if d > 0 {
		q.tb.AwaitWithin(e.Wait(), d)
	} else {
		q.tb.Await(e.Wait())
	}
	for i, x := range *list { // a wait that ended otherwise leaves its place
		if x == e {
			*list = append((*list)[:i], (*list)[i+1:]...)
			break
		}
	}
	return q.tb.err == nil
}

// signal wakes the oldest waiter of list that still waits (a killed
// task's place is skipped, so its wakeup is not lost).
func (q *Queue[T]) signal(list *[]*Event) {
	for len(*list) > 0 {
		e := (*list)[0]
		*list = (*list)[1:]
		if e.waited() {
			e.Set()
			return
		}
	}
}
