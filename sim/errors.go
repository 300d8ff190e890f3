package sim

import (
	"errors"
	"fmt"
	"strings"

	"github.com/weft-hdl/weft/program"
	"github.com/weft-hdl/weft/sir"
)

var (
	// ErrClosed is returned by every method of a closed Simulator.
	ErrClosed = errors.New("sim: simulator is closed")
	// ErrFinished matches (errors.Is) the *FinishError of a run that ended
	// with $finish, $stop or $fatal.
	ErrFinished = errors.New("sim: simulation finished")
)

// Error is a run-time failure: which kernel, at which step, and why.
type Error struct {
	// Step is the evaluation count when it happened (0: at time zero).
	Step uint64
	// Kernel names the unit ("settle", "event", "fused posedge top.clk",
	// "initial"), or the simulator phase ("edge detection", "$readmemh").
	Kernel string
	Err    error
}

func (e *Error) Error() string {
	return fmt.Sprintf("sim: step %d: %s: %v", e.Step, e.Kernel, e.Err)
}

func (e *Error) Unwrap() error { return e.Err }

// FinishError reports the end of the run by a system task. It matches
// ErrFinished with errors.Is.
type FinishError struct {
	// Task is sir.EvFinish, sir.EvStop or sir.EvFatal.
	Task sir.EventKind
	// Code is the task's argument: the $finish/$stop level, the $fatal
	// finish number.
	Code int
	// Pos is where the task is in the source (zero when unknown).
	Pos    program.Pos
	Step   uint64
	Kernel string
}

func (e *FinishError) Error() string {
	where := ""
	if e.Pos.Line > 0 {
		where = fmt.Sprintf(" at %s:%d", e.Pos.File, e.Pos.Line)
	}
	return fmt.Sprintf("sim: step %d: %s: $%s(%d)%s", e.Step, e.Kernel, e.Task, e.Code, where)
}

// Is makes errors.Is(err, ErrFinished) true.
func (e *FinishError) Is(target error) bool { return target == ErrFinished }

// Fatal reports whether the run ended by $fatal.
func (e *FinishError) Fatal() bool { return e.Task == sir.EvFatal }

// RingOverflowError says that a kernel produced more runtime events in one
// call than the event ring holds: the first Kept were output, Dropped were
// lost. The simulation state is intact and the run may continue.
type RingOverflowError struct {
	Kept, Dropped int
	// Cap is the ring's record space in bytes (compile.Builder.RingCap).
	Cap int
}

func (e *RingOverflowError) Error() string {
	return fmt.Sprintf("runtime-event ring overflowed: %d events output, %d dropped in one kernel call (the ring holds %d bytes of records; raise it with --ring (weft run) or compile.Builder.RingCap (Go))", e.Kept, e.Dropped, e.Cap)
}

// OscillationError says that derived clocks kept firing edges for more
// rounds than the bound within one step.
type OscillationError struct {
	Rounds int
	// Signals are the trigger bits still changing in the last round.
	Signals []string
}

func (e *OscillationError) Error() string {
	return fmt.Sprintf("derived clocks did not quiet after %d detection rounds (a clock loop?); still toggling: %s",
		e.Rounds, strings.Join(e.Signals, ", "))
}
