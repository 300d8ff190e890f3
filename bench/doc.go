// Package bench is weft's cocotb-style test bench for Ginkgo specs: a
// time base, free-running clocks, resets, triggers to wait for, tasks
// that run side by side (drivers, monitors, scoreboards), events, locks
// and queues between them, wires between signals, writes and forces,
// waveforms, a logger, a seeded random source, and Gomega matchers on
// design signals. A spec reads top to bottom as stimulus, wait, expect:
//
//	p, err := compile.NewBuilder().Files(files...).Top("uart_top").Build()
//	Expect(err).NotTo(HaveOccurred())
//	DeferCleanup(p.Close)
//	tb := bench.New(p, bench.Options{})
//	clk := tb.Clock(tb.Signal("clk"), 10*bench.NS)
//	tb.Reset(tb.Signal("rst_n"), bench.Inferred, 4)
//
//	tb.Set(tb.Signal("tx_data"), 0x5a)              // stimulus
//	tb.RisingEdge(clk.Signal())                     // wait
//	Expect(tb.Signal("txd")).To(bench.BeLow())      // expect
//
// and with tasks, the way a cocotb test starts coroutines:
//
//	toSend := bench.NewQueue[byte](tb, "tx", 0)
//	received := bench.NewQueue[byte](tb, "rx", 0)
//	tb.Fork("source", func() { source(tb, toSend) })   // drives the inputs
//	tb.Fork("sink", func() { sink(tb, received) })     // watches the outputs
//	check := tb.Fork("scoreboard", func() {
//		for _, b := range msg {
//			Expect(received.Get()).To(Equal(b))
//		}
//	})
//	for _, b := range msg {
//		toSend.Put(b)
//	}
//	tb.Await(check.Join())
//
// examples/uart/tasks_test.go is a complete suite in that style.
//
// # Time and the scheduler
//
// Time is simulated time in picoseconds (bench.NS, bench.US, ...); Now
// says where the bench is. Nothing moves while bench code runs Go code;
// time moves only inside a wait (Await, First, Timer, RisingEdge,
// FallingEdge, Edge, ClockCycles, Tick, WaitUntil, ReadOnly, ReadWrite,
// NextTimeStep, a Queue's Get or Put, a Lock). The scheduler keeps an
// event queue ordered by time (and, at equal times, by insertion): clock
// toggles and timer expiries. While the spec waits it repeats:
//
//  1. every task ready to run runs, one after the other, each until it
//     waits again or ends (tasks woken by one evaluation or one time run
//     in fork order);
//  2. when none is ready and bench code wrote something, the design is
//     evaluated at the current time (a delta step), together with the
//     delta steps that wires and forces cause, and the armed triggers look
//     at the result; back to 1;
//  3. ReadWrite triggers happen, then ReadOnly triggers; back to 1;
//  4. time moves to the next event: every event due then runs, the design
//     is evaluated once for all the clocks they toggled (two clocks with a
//     common edge are one simulator step), timers expire and NextTimeStep
//     triggers happen; back to 1.
//
// It returns to the spec when the spec's trigger happened. So the design
// state bench code reads after a wait is the state right after the
// evaluation in which its trigger happened, and inputs it writes then are
// seen by the next evaluation (like writes after `await RisingEdge` in
// cocotb: flops that just fired do not see them). Writes at one time are
// evaluated together once every task at that time has run, so tasks woken
// by the same edge all see the same state, whatever their order.
//
// # Tasks
//
// Fork(name, fn) starts a task and returns a *Task: Join is the trigger
// of its end, Kill cancels it (its deferred functions run, its wait never
// returns), Done reports it. Exactly one piece of bench code runs at a
// time: tasks are coroutines (iter.Pull) that the scheduler resumes on
// the spec's goroutine, so the simulator needs no locks, a task switch
// costs a few hundred nanoseconds, and a spec interleaves identically on
// every run. A failure inside a task (a failed expectation, a bench
// failure, a panic) fails the spec: Gomega's message keeps its line, and
// the output names the task (`bench: at 2.9us: task "scoreboard" (forked
// at uart_test.go:108) failed`); a panic becomes a failure with the
// task's stack. Tasks still alive when the spec ends are killed by Close,
// which New registers with DeferCleanup in a Ginkgo spec (plain tests
// call it).
//
// # Triggers
//
// A Trigger is a value that a wait arms: Timer, RisingEdge, FallingEdge,
// Edge, ClockCycles, Until, Task.Join, Event.Wait, Lock.Acquire,
// ReadOnly, ReadWrite, NextTimeStep, and the combinations Combine (all of
// them) and FirstOf (any). First waits for the first of several and
// reports every one that happened in the same evaluation (Fired);
// AwaitWithin is a wait with its own timeout that returns false instead
// of failing. Event, Lock and Queue[T] pass control and data between
// tasks.
//
// ReadWrite happens once the writes made so far at the current time were
// evaluated; ReadOnly once every delta step of the current time is done,
// when the values are final for that time (a write then fails); and
// NextTimeStep at the first evaluation of the next time anything is
// scheduled.
//
// # Sampling at an edge
//
// After `tb.RisingEdge(clk)` weft shows the post-edge state: the flops
// clocked by the edge hold their new values and comb logic has settled.
// cocotb shows the values from before the edge's nonblocking assignments.
// A monitor that must know what the design registered at the edge (a
// valid/ready handshake and the data beside it) reads the pre-edge view
// of PreEdge(sigs...): the values those signals had just before the
// kernels of the edge ran, including the inputs bench code wrote at that
// time.
//
// # Clocks
//
// Clock(sig, period, opts...) drives sig and toggles it: low first and
// high for period/2 by default, or as DutyCycle, Phase (a start offset)
// and StartHigh say; Stop stops it, Cycles counts its rising edges.
// Clocks of unrelated periods share the time base; the first clock
// started is the main clock that Tick and Reset count. A signal a running
// clock drives cannot be written.
//
// The fast path: while the only thing scheduled is one clock's toggling
// and everything bench code waits for is a known number of its rising
// edges away (ClockCycles and Tick in the spec or in a task, with other
// tasks waiting on bench code only: an Event, a Queue, a Join), the
// cycles run on the simulator's Tick (sim.Tick: no scheduler work per
// edge, whole batches in one native call), with identical results except
// that $time inside the design advances by one per edge meanwhile (it is
// set right again afterwards). A wait that must look at every evaluation
// (an edge of another signal, a condition, a wire, a force, PreEdge,
// time-stamped output, a waveform) runs the cycles edge by edge.
//
// # Writes
//
// Set drives a top-level input; Deposit writes any signal once; Force
// holds a signal at a value until Release. Writes are evaluated with the
// next delta step. A write that cannot take effect (an output port, a
// value that does not fit, a signal a clock drives, a write in the
// ReadOnly phase) fails.
//
// # Waits that cannot hang
//
// A wait ends, or fails naming what every piece of bench code waits for
// and the time: when nothing is scheduled that could end it (no clock, no
// timer: a deadlock); when the spec's wait outlasts Options.Timeout (by
// default DefaultTimeout for waits whose end is not known in advance;
// tasks may wait without end, an idle monitor is normal); when the spec's
// context (Options.Context, a Ginkgo SpecContext with SpecTimeout) is
// done; and when bench code keeps the design or other tasks busy at one
// time without letting time pass.
//
// # Failures
//
// Bench calls do not return errors: a spec reads as a waveform, so every
// failure is reported through Options.Fail (ginkgo.Fail by default, which
// ends the spec at the calling line): simulator errors (a comb loop that
// does not settle, a derived-clock oscillation), $fatal, $finish and
// $stop unless Options.AllowFinish, $error unless Options.AllowErrors,
// unknown signal names, values that do not fit, and misused calls (a
// clock on an output, an edge on a bus). Messages start with "bench: at
// <time>:" (and "in task ..." inside a task) and quote the design's last
// output lines. The first failure is kept (Err) and stops the bench:
// later waits of the spec return at once, and tasks end. Plain Go tests
// pass Options{Fail: func(m string, _ ...int) { t.Fatal(m) }} and call
// Close.
//
// # Logging, randomness, waveforms
//
// Logger is a log/slog logger whose lines start with the simulated time
// and the task; Options.Timestamps starts every line of the design's
// $display output with the time. Rand is seeded from Options.Seed or from
// Ginkgo's seed and the spec's name, and prints its seed, so a failure
// replays with -ginkgo.seed. Trace (and Options.VCD, WEFT_VCD, and
// $dumpfile/$dumpvars in the design) writes a VCD waveform.
package bench
