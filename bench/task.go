package bench

import (
	"errors"
	"fmt"
	"iter"
	"path/filepath"
	"runtime"
	"runtime/debug"

	"github.com/onsi/ginkgo/v2/types"
)

// Task is bench code that runs beside the spec: a driver, a monitor, a
// scoreboard. Fork starts one; it runs until it waits, and then only when
// its trigger happened. Exactly one piece of bench code runs at a time
// (the spec or one task): tasks are coroutines that the scheduler resumes
// one after the other, in a fixed order, so a spec interleaves the same
// way on every run.
type Task struct {
	tb    *Bench
	id    int    // fork order; the spec is 0
	name  string // for messages
	where string // file:line of the Fork call

	next func() (struct{}, bool)
	stop func()
	// yield suspends the task; false means it is being killed.
	yield func(struct{}) bool

	ws       []*waiter // the triggers of the wait in progress
	oneTrig  []Trigger // Await's argument list, reused
	waiting  bool
	queued   bool // in tb.ready
	deadline Time // when the wait in progress times out (-1: never)
	done     bool
	killed   bool
	failure  *taskFailure
	joins    []*waiter // Join triggers armed on it
	locks    []*Lock   // the locks it holds
}

// taskFailure is a panic recovered on a task's coroutine, re-raised on
// the spec's goroutine.
type taskFailure struct {
	value any
	stack []byte
	at    Time
}

// errKilled unwinds a killed task's coroutine.
var errKilled = errors.New("bench: task killed")

// Fork starts fn as a task named name and returns it. The task first runs
// when the bench code that forked it waits (at the current time, before
// any evaluation), and from then on whenever the trigger it waits for
// happened. A failure in it (a failed expectation, a bench failure, a
// panic) fails the spec and names the task; tasks still alive when the
// bench is closed (at the end of a Ginkgo spec) are killed.
func (tb *Bench) Fork(name string, fn func()) *Task {
	t := &Task{tb: tb, name: name, where: callerLine(), deadline: -1}
	if fn == nil {
		tb.failf("Fork(%q): nil function", name)
		t.done = true
		return t
	}
	tb.nextID++
	t.id = tb.nextID
	t.next, t.stop = iter.Pull(func(yield func(struct{}) bool) {
		t.yield = yield
		defer func() {
			if r := recover(); r != nil && r != errKilled {
				t.failure = &taskFailure{value: r, stack: debug.Stack(), at: tb.now}
			}
		}()
		if !t.killed {
			fn()
		}
	})
	tb.tasks = append(tb.tasks, t)
	if tb.err != nil {
		tb.finishTask(t, true)
		return t
	}
	t.waiting = true
	tb.wake(t)
	return t
}

// Name is the task's name.
func (t *Task) Name() string { return t.name }

// Done reports whether the task ended: its function returned, it failed,
// or it was killed.
func (t *Task) Done() bool { return t.done }

func (t *Task) String() string {
	if t.id == 0 {
		return "the spec"
	}
	return fmt.Sprintf("task %q (forked at %s)", t.name, t.where)
}

// Join is the trigger that happens when t ends (at once if it has).
func (t *Task) Join() Trigger { return join{t} }

type join struct{ t *Task }

func (j join) String() string { return fmt.Sprintf("Join(%s)", j.t.name) }

func (j join) arm(tb *Bench) *waiter {
	w := &waiter{trig: j, done: j.t.done}
	if !w.done {
		j.t.joins = append(j.t.joins, w)
	}
	return w
}

// Kill ends t: its wait never returns, its deferred functions run, and
// Join(t) happens. Killing the calling task ends it at once; killing a
// task that ended does nothing.
func (t *Task) Kill() {
	tb := t.tb
	switch {
	case t.done:
		return
	case t == tb.cur:
		t.killed = true
		panic(errKilled)
	}
	t.killed = true
	tb.finishTask(t, true)
}

// callerLine is file:line of the frame userFrame picks: where a task was
// forked, as the spec wrote it.
func callerLine() string {
	var pcs [32]uintptr
	n := runtime.Callers(2, pcs[:])
	_, f := userFrame(runtime.CallersFrames(pcs[:n]))
	if f.File == "" {
		return "?"
	}
	return fmt.Sprintf("%s:%d", filepath.Base(f.File), f.Line)
}

// resume runs t until it waits again or ends.
func (tb *Bench) resume(t *Task) {
	prev := tb.cur
	tb.cur = t
	_, alive := t.next()
	tb.cur = prev
	if alive {
		return
	}
	tb.finishTask(t, false)
	if f := t.failure; f != nil {
		t.failure = nil
		tb.taskFailed(t, f)
	}
}

// suspend parks the calling task until the scheduler resumes it; a kill
// unwinds it from here.
func (tb *Bench) suspend(t *Task) {
	if !t.yield(struct{}{}) || t.killed {
		panic(errKilled)
	}
}

// finishTask marks t ended, stops its coroutine (when stop is set and it
// is parked) and fires its Join triggers.
func (tb *Bench) finishTask(t *Task, stop bool) {
	if t.done {
		return
	}
	t.done = true
	t.waiting = false
	tb.disarm(t.ws)
	t.ws = t.ws[:0]
	if t.queued {
		tb.unqueue(t)
	}
	if stop {
		t.killed = true
		prev := tb.cur
		tb.cur = t
		t.stop() // runs its deferred functions to the end
		tb.cur = prev
	}
	for len(t.locks) > 0 {
		t.locks[0].release()
	}
	for _, w := range t.joins {
		tb.fire(w)
	}
	t.joins = nil
	live := tb.tasks[:0]
	for _, x := range tb.tasks {
		if !x.done {
			live = append(live, x)
		}
	}
	clear(tb.tasks[len(live):])
	tb.tasks = live
}

// taskFailed re-raises a task's failure on the spec's goroutine. A
// failure Ginkgo already recorded (a failed expectation, a bench failure
// through ginkgo.Fail) keeps its message and line; the output says which
// task it was. Any other panic becomes a bench failure with the task's
// stack.
func (tb *Bench) taskFailed(t *Task, f *taskFailure) {
	if tb.err != nil && !errors.Is(tb.err, tb.finishErr()) {
		// The bench failed inside the task (failf has reported it).
		fmt.Fprintf(tb.opts.Output, "bench: at %s: %s failed\n", f.at, t)
		panic(f.value)
	}
	if isGinkgoFailure(f.value) {
		msg := fmt.Sprintf("bench: at %s: %s failed", f.at, t)
		fmt.Fprintln(tb.opts.Output, msg)
		if tb.err == nil {
			tb.err = errors.New(msg)
		}
		panic(f.value)
	}
	tb.failf("%s panicked: %v\n%s", t, f.value, f.stack)
}

// finishErr is the finish outcome as an error (nil when none).
func (tb *Bench) finishErr() error {
	if tb.finish == nil {
		return nil
	}
	return tb.finish
}

// isGinkgoFailure reports whether a recovered value is the panic with
// which ginkgo.Fail (and so Gomega) ends a spec after recording it.
func isGinkgoFailure(v any) bool {
	_, ok := v.(types.GinkgoError)
	return ok
}

// AtEnd registers a check Close runs before it ends the tasks (last
// registered first), unless the spec already failed: a scoreboard
// reports the items it still expects this way, a monitor a transfer cut
// off. A check may fail the spec (Failf) but should not wait.
func (tb *Bench) AtEnd(check func()) { tb.atEnd = append(tb.atEnd, check) }

// Close runs the end checks (AtEnd), kills every live task (their
// deferred functions run) and ends any VCD trace. In a Ginkgo spec New
// registers it with DeferCleanup; a plain test calls it
// (t.Cleanup(tb.Close)). The bench is unusable afterwards.
func (tb *Bench) Close() {
	if tb.closed {
		return
	}
	// End checks run first, while the bench still works, and only when
	// nothing failed before: a scoreboard's "still expected" after a
	// failure would only repeat it.
	ends := tb.atEnd
	tb.atEnd = nil
	for i := len(ends) - 1; i >= 0 && (tb.err == nil || tb.err == tb.finish); i-- {
		ends[i]()
	}
	tb.closed = true
	for len(tb.tasks) > 0 {
		tb.finishTask(tb.tasks[0], true)
	}
	tb.closeTraces()
	if tb.err == nil {
		tb.err = errClosed
	}
}

var errClosed = errors.New("bench: closed")
