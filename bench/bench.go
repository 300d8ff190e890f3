package bench

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/onsi/ginkgo/v2"

	"github.com/weft-hdl/weft/compile"
	"github.com/weft-hdl/weft/dut"
	"github.com/weft-hdl/weft/sim"
)

// Target is what a bench drives: a *compile.Program, or a bare simulator
// wrapped with FromSim.
type Target interface {
	DUT() *dut.DUT
}

type simTarget struct{ d *dut.DUT }

func (t simTarget) DUT() *dut.DUT { return t.d }

// FromSim makes a Target of a simulator built without package compile.
func FromSim(s *sim.Simulator) Target { return simTarget{dut.New(s)} }

// Options configure New. The zero value suits a Ginkgo spec.
type Options struct {
	// Fail reports a failed bench call: a simulator error, a $fatal or
	// $error from the design, a wait that can never end, a misused call.
	// nil: ginkgo.Fail, which ends the spec. Plain tests pass
	// func(m string, _ ...int) { t.Fatal(m) }. A Fail that returns leaves
	// the bench stopped: every later call returns at once and Err says why.
	Fail func(message string, callerSkip ...int)
	// Output receives the design's $display/$write/$error output
	// (nil: ginkgo.GinkgoWriter, shown when a spec fails or with -v). The
	// bench keeps the last lines to quote them when the design fails.
	Output io.Writer
	// AllowFinish lets $finish and $stop end the simulation without a
	// failure: every later wait returns at once and Finished reports it.
	// ($fatal always fails.)
	AllowFinish bool
	// AllowErrors keeps $error messages from failing the spec (they are
	// output and counted by the simulator either way).
	AllowErrors bool
	// NoEquivEnv ignores EquivEnv for this bench: for a spec that checks
	// equivalence itself (Equivalent) or runs so many cycles that
	// shadowing every step would cost minutes.
	NoEquivEnv bool
	// Timeout bounds every wait of the spec in simulated time: a wait
	// still pending after it fails, naming what the spec and every task
	// wait for, and the time. 0: the spec's waits whose end is not known
	// in advance (edges, conditions, events; not Timer or ClockCycles of a
	// running clock) are bounded by DefaultTimeout; negative: no bound.
	// Tasks may wait without end (an idle monitor is normal): the spec's
	// bounded wait (often on Join) is what keeps a suite from hanging, and
	// AwaitWithin bounds a task's own wait.
	Timeout Time
	// Context interrupts waits when it is done: pass the SpecContext of
	// a spec with SpecTimeout or NodeTimeout (It("...", func(ctx
	// SpecContext) {...}, SpecTimeout(time.Second))), and a wait that
	// outlasts it fails with the sim time and what was awaited.
	Context context.Context
	// Seed seeds Rand (0: derived from Ginkgo's random seed and the
	// spec's name, so `ginkgo --seed N` replays a run).
	Seed uint64
	// Timestamps prefixes every line of the design's output with the
	// simulated time.
	Timestamps bool
	// VCD writes a waveform of the whole design to this file (see Trace).
	VCD string
}

// Bench is a test bench around one simulator: a time base, an event
// queue of clock toggles and timers, tasks, and the waits that advance
// them. Bench code (the spec and its tasks) runs one piece at a time on
// the scheduler's terms; a Bench is not safe for use from other
// goroutines (nor is the simulator).
type Bench struct {
	s    *sim.Simulator
	d    *dut.DUT
	opts Options
	out  *tailWriter

	now    Time
	seq    uint64
	q      queue
	clocks []*Clock
	wires  []*Wire
	force  forceSet

	armed      []*waiter // waiters whose check runs after every evaluation
	armedStale bool      // armed holds disarmed or done waiters
	free       []*waiter // reusable waiters (newWaiter)
	toggled    []*Clock  // scratch: the clocks one time toggles
	fastCycles uint64    // cycles run on the fast path (FastCycles)
	rw, ro     []*waiter // ReadWrite and ReadOnly triggers armed now
	nts        []*waiter // NextTimeStep triggers
	readOnly   bool      // in the ReadOnly phase: writes fail

	root      *Task   // the spec
	cur       *Task   // the bench code running now
	tasks     []*Task // live forked tasks, in fork order
	nextID    int
	ready     []*Task
	readyHead int
	evals     int // evaluations at the current time
	resumes   int // task resumptions at the current time
	ctxDone   <-chan struct{}

	samplers []*Sampled
	// rose is set when a clock rose since the last step, sampled when
	// the simulator called the pre-edge hook during it.
	rose, sampled bool
	traces        []*trace
	rng           *rand.Rand
	seed          uint64

	err    error            // sticky: the first failure (or the finish)
	finish *sim.FinishError // the run ended
	errs   int              // s.Errors() seen so far
	closed bool
	atEnd  []func() // end checks (AtEnd)
}

// maxDeltas bounds the evaluations at one time that wires may cause.
const maxDeltas = 1000

// New returns a bench at time 0 on the design of t.
func New(t Target, opts Options) *Bench {
	if opts.Fail == nil {
		opts.Fail = ginkgo.Fail
	}
	if opts.Output == nil {
		opts.Output = ginkgo.GinkgoWriter
	}
	d := t.DUT()
	tb := &Bench{s: d.Sim(), d: d, opts: opts, out: &tailWriter{w: opts.Output}}
	tb.root = &Task{tb: tb, name: "spec", deadline: -1}
	tb.cur = tb.root
	if opts.Context != nil {
		tb.ctxDone = opts.Context.Done()
	}
	if inGinkgoNode() {
		ginkgo.DeferCleanup(tb.Close)
	}
	tb.out.stamp = opts.Timestamps
	tb.out.now = &tb.now
	if lanes, err := equivLanes(); err != nil {
		tb.failf("%v", err)
	} else if p, ok := t.(*compile.Program); ok && lanes != nil && !opts.NoEquivEnv {
		if err := shadowPartitioned(p, lanes); err != nil {
			tb.failf("%v", err)
		}
	}
	tb.s.SetOutput(tb.out)
	tb.errs = tb.s.Errors()
	if fe := tb.s.Finish(); fe != nil {
		tb.simErr(fe) // an initial block ended the run
	}
	tb.startTraces()
	return tb
}

// inGinkgoNode reports whether the caller runs inside a Ginkgo spec (a
// setup or subject node), where DeferCleanup may be called.
func inGinkgoNode() bool {
	return ginkgo.CurrentSpecReport().LeafNodeLocation.FileName != ""
}

// DUT is the design's handles.
func (tb *Bench) DUT() *dut.DUT { return tb.d }

// Sim is the simulator the bench drives.
func (tb *Bench) Sim() *sim.Simulator { return tb.s }

// Now is the current simulated time.
func (tb *Bench) Now() Time { return tb.now }

// Err is the failure that stopped the bench (a *sim.FinishError when the
// design ended the run and AllowFinish is set), or nil.
func (tb *Bench) Err() error { return tb.err }

// Finished reports how the design ended the run ($finish, $stop, $fatal),
// or nil while it goes on.
func (tb *Bench) Finished() *sim.FinishError { return tb.finish }

// Signal finds a signal by hierarchical name; an unknown name fails the
// spec (the message suggests close names) and returns nil.
func (tb *Bench) Signal(name string) *dut.Signal {
	sig, err := tb.d.Signal(name)
	if err != nil {
		tb.failf("%v", err)
		return nil
	}
	return sig
}

// FastCycles counts the clock cycles the bench ran on the simulator's
// Tick fast path (see ClockCycles).
func (tb *Bench) FastCycles() uint64 { return tb.fastCycles }

// writable fails a write in the ReadOnly phase, and one to a signal that a
// running clock drives.
func (tb *Bench) writable(call string, sig *dut.Signal) bool {
	if c := tb.clockOf(sig); c != nil {
		tb.failf("%s(%s): a running Clock drives it; Stop the clock first", call, sigName(sig))
		return false
	}
	if tb.readOnly {
		tb.failf("%s(%s) in the ReadOnly phase: the values at %s are final; wait for a later time (Timer, an edge, NextTimeStep) before writing", call, sigName(sig), tb.now)
		return false
	}
	return true
}

func (tb *Bench) checkSig(call string, sig *dut.Signal) bool {
	if sig == nil {
		tb.failf("%s: nil signal", call)
		return false
	}
	return true
}

// step evaluates the design at the current time: the inputs written
// since the last step, then as many delta evaluations as wires need. The
// armed waiters look at every evaluation.
func (tb *Bench) step() {
	if tb.err != nil {
		return
	}
	tb.s.SetTime(uint64(tb.now))
	for delta := 0; ; delta++ {
		tb.sampled = false
		if err := tb.s.Step(); err != nil {
			tb.simErr(err)
			return
		}
		if delta == 0 && tb.rose && !tb.sampled {
			// A clock rose but fired nothing in the design (no flop on
			// it, e.g. a bus that only wires through): no kernel of the
			// edge ran, so the state now is what a flop would have
			// sampled, and monitors sampling at that clock see it.
			tb.preEdge()
		}
		tb.rose = false
		if !tb.checkErrors(tb.now) {
			return
		}
		if delta >= maxDeltas {
			tb.failf("wires and forces did not settle after %d evaluations at %s (a loop through the test bench?)", maxDeltas, tb.now)
			return
		}
		// Forced values go back before any trigger looks at the state.
		if tb.applyForces() {
			continue
		}
		if tb.err != nil {
			return
		}
		tb.observe()
		if !tb.propagate() || tb.err != nil {
			return
		}
	}
}

// checkErrors fails on new $error messages unless they are allowed;
// since is when they may have begun (before now after a fast Tick).
func (tb *Bench) checkErrors(since Time) bool {
	n := tb.s.Errors()
	if n == tb.errs {
		return true
	}
	tb.errs = n
	if tb.opts.AllowErrors {
		return true
	}
	when := ""
	if since != tb.now {
		when = fmt.Sprintf(" (in the cycles since %s)", since)
	}
	tb.failf("the design reported an error%s%s", when, tb.out.quote())
	return false
}

// simErr turns a simulator error into the bench's outcome.
func (tb *Bench) simErr(err error) {
	var fe *sim.FinishError
	if errors.As(err, &fe) {
		tb.finish = fe
		if tb.opts.AllowFinish && !fe.Fatal() {
			tb.err = fe
			return
		}
		tb.failf("the design ended the run: %v%s", err, tb.out.quote())
		return
	}
	var oe *sim.Error
	if errors.As(err, &oe) {
		tb.failf("%v%s", err, tb.out.quote())
		return
	}
	tb.failf("%v", err)
}

// failf records the first failure and reports it through Options.Fail,
// pointing at the first caller outside this package.
// Failf fails the spec the way the bench's own checks do: the message
// starts with "bench: at <time>:" (and the task), is kept as Err, and
// stops the bench. Verification components (monitors, scoreboards,
// protocol checkers) report what they find with it.
func (tb *Bench) Failf(format string, args ...any) { tb.failf(format, args...) }

func (tb *Bench) failf(format string, args ...any) {
	in := ""
	if tb.cur != nil && tb.cur != tb.root {
		in = " in " + tb.cur.String()
	}
	msg := fmt.Sprintf("bench: at %s%s: ", tb.now, in) + fmt.Sprintf(format, args...)
	if tb.err == nil || tb.err == tb.finish {
		tb.err = errors.New(msg)
	}
	tb.opts.Fail(msg, callerSkip())
}

var benchDir = func() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Dir(file)
}()

// callerSkip is the skip, relative to the caller of Options.Fail (failf),
// of the frame a failure is reported at (userFrame).
func callerSkip() int {
	var pcs [64]uintptr
	n := runtime.Callers(2, pcs[:]) // pcs[0]: failf
	i, _ := userFrame(runtime.CallersFrames(pcs[:n]))
	return i
}

// userFrame finds, among frames, the one a message should point at: the
// first outside the bench and its component packages (bench/stream, ...)
// and their non-test files, the spec's line that called a component; or,
// where there is none (a component's own task), the first outside package
// bench itself. It returns its index and the frame (index 0 when neither
// exists).
func userFrame(frames *runtime.Frames) (int, runtime.Frame) {
	fallback, fbFrame := -1, runtime.Frame{}
	for i := 0; ; i++ {
		f, more := frames.Next()
		dir, test := filepath.Dir(f.File), strings.HasSuffix(f.File, "_test.go")
		if test || dir != benchDir && !strings.HasPrefix(dir, benchDir+string(filepath.Separator)) {
			return i, f
		}
		if fallback < 0 && dir != benchDir {
			fallback, fbFrame = i, f
		}
		if !more {
			if fallback >= 0 {
				return fallback, fbFrame
			}
			return 0, runtime.Frame{}
		}
	}
}

// tailWriter passes output on and keeps its last lines for messages.
// With stamp set it starts every line with the simulated time.
type tailWriter struct {
	w     io.Writer
	tail  []byte
	stamp bool
	now   *Time
	mid   bool // the last write did not end a line
	buf   []byte
}

const tailMax = 2048

func (t *tailWriter) Write(p []byte) (int, error) {
	t.tail = append(t.tail, p...)
	if len(t.tail) > tailMax {
		t.tail = append(t.tail[:0], t.tail[len(t.tail)-tailMax/2:]...)
	}
	if !t.stamp {
		return t.w.Write(p)
	}
	n := len(p)
	t.buf = t.buf[:0]
	for len(p) > 0 {
		if !t.mid {
			t.buf = fmt.Appendf(t.buf, "%10s  ", *t.now)
		}
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			t.buf, t.mid = append(t.buf, p...), true
			break
		}
		t.buf, t.mid, p = append(t.buf, p[:i+1]...), false, p[i+1:]
	}
	if _, err := t.w.Write(t.buf); err != nil {
		return 0, err
	}
	return n, nil
}

// quote is the last few output lines, indented, for a failure message.
func (t *tailWriter) quote() string {
	lines := strings.Split(strings.TrimRight(string(bytes.TrimSpace(t.tail)), "\n"), "\n")
	if len(lines) == 0 || lines[0] == "" {
		return ""
	}
	if len(lines) > 5 {
		lines = lines[len(lines)-5:]
	}
	return "\nlast output of the design:\n    " + strings.Join(lines, "\n    ")
}
