package lanepool

import (
	"errors"
	"fmt"
)

// Status is what a task returns: OK, or a non-zero failure code whose meaning
// belongs to whoever produced the task (the interpreter or the native backend).
// It is a plain integer so native code can return it in a register.
type Status uint32

// OK is the status of a task that completed normally.
const OK Status = 0

// Result is the outcome of one Run. It is a value so that the OK path allocates
// nothing; Err turns a failure into an error when the caller wants one.
type Result struct {
	// Status is OK when every task ran and returned OK; otherwise it is the
	// status of the failing task with the lowest sequential index.
	Status Status
	// Task is that task's index in the kernel's sequential unit order and
	// Lane the lane it ran on. Both are meaningful only when Status != OK.
	Task int
	Lane int
}

// OK reports whether every task of the run completed with status OK.
func (r Result) OK() bool { return r.Status == OK }

// Err returns nil for a successful run and a *TaskError otherwise.
func (r Result) Err() error {
	if r.Status == OK {
		return nil
	}
	return &TaskError{Status: r.Status, Task: r.Task, Lane: r.Lane}
}

// TaskError is a failed run as an error.
type TaskError struct {
	Status Status
	Task   int // index in the kernel's sequential unit order
	Lane   int
}

func (e *TaskError) Error() string {
	return fmt.Sprintf("lanepool: task %d on lane %d failed with status %d", e.Task, e.Lane, e.Status)
}

// PanicError is the value Run panics with, on the calling goroutine, when a task
// panicked. Run re-raises it only after every lane has stopped, so the pool stays
// usable if the caller recovers.
type PanicError struct {
	Task  int // index in the kernel's sequential unit order
	Lane  int
	Value any    // what the task panicked with
	Stack []byte // the panicking goroutine's stack
}

func (e *PanicError) Error() string {
	return fmt.Sprintf("lanepool: task %d on lane %d panicked: %v\n%s", e.Task, e.Lane, e.Value, e.Stack)
}

// Errors Run and Close return when the kernel did not run at all.
var (
	ErrClosed = errors.New("lanepool: pool is closed")
	ErrBusy   = errors.New("lanepool: pool is already running a kernel (one Run at a time per pool)")
)
