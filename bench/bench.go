package bench

import (
	"bytes"
	"errors"
	"fmt"
	"io"
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
	// Timeout bounds every wait in simulated time: a wait still pending
	// after it fails, naming what it waited for (0: no bound).
	Timeout Time
}

// Bench is a test bench around one simulator: a time base, an event
// queue of clock toggles and timers, and the waits that advance it. It
// is not safe for concurrent use (nor is the simulator).
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
	armed  []*waiter // waiters checked after every step

	err    error            // sticky: the first failure (or the finish)
	finish *sim.FinishError // the run ended
	errs   int              // s.Errors() seen so far
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
	if lanes, err := equivLanes(); err != nil {
		tb.failf("%v", err)
	} else if p, ok := t.(*compile.Program); ok && lanes != nil {
		if err := shadowPartitioned(p, lanes); err != nil {
			tb.failf("%v", err)
		}
	}
	tb.s.SetOutput(tb.out)
	tb.errs = tb.s.Errors()
	if fe := tb.s.Finish(); fe != nil {
		tb.simErr(fe) // an initial block ended the run
	}
	return tb
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

// Set drives a top-level input; the value is seen by the next
// evaluation, at the current time. A value that does not fit, or a
// signal that is not a top-level input, fails the spec.
func (tb *Bench) Set(sig *dut.Signal, v uint64) {
	if tb.checkSig("Set", sig) {
		if err := sig.Set(v); err != nil {
			tb.failf("%v", err)
		}
	}
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
		if err := tb.s.Step(); err != nil {
			tb.simErr(err)
			return
		}
		if !tb.checkErrors(tb.now) {
			return
		}
		tb.observe()
		if !tb.propagate() {
			return
		}
		if delta >= maxDeltas {
			tb.failf("wires did not settle after %d evaluations at %s (a loop through the test bench?)", maxDeltas, tb.now)
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
func (tb *Bench) failf(format string, args ...any) {
	msg := fmt.Sprintf("bench: at %s: ", tb.now) + fmt.Sprintf(format, args...)
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
// of the first frame outside the package's non-test files.
func callerSkip() int {
	var pcs [64]uintptr
	n := runtime.Callers(2, pcs[:]) // pcs[0]: failf
	frames := runtime.CallersFrames(pcs[:n])
	for i := 0; ; i++ {
		f, more := frames.Next()
		if filepath.Dir(f.File) != benchDir || strings.HasSuffix(f.File, "_test.go") {
			return i
		}
		if !more {
			return 0
		}
	}
}

// tailWriter passes output on and keeps its last lines for messages.
type tailWriter struct {
	w    io.Writer
	tail []byte
}

const tailMax = 2048

func (t *tailWriter) Write(p []byte) (int, error) {
	t.tail = append(t.tail, p...)
	if len(t.tail) > tailMax {
		t.tail = append(t.tail[:0], t.tail[len(t.tail)-tailMax/2:]...)
	}
	return t.w.Write(p)
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
