// Package bench is weft's cocotb-style test bench for Ginkgo specs: a
// time base, free-running clocks, resets, triggers to wait for, wires
// between signals, and Gomega matchers on design signals. A spec reads
// top to bottom as stimulus, wait, expect:
//
//	p, err := compile.NewBuilder().Files(files...).Top("uart_top").Build()
//	Expect(err).NotTo(HaveOccurred())
//	DeferCleanup(p.Close)
//	tb := bench.New(p, bench.Options{})
//	d := p.DUT()
//	clk := tb.Clock(tb.Signal("clk"), 10*bench.NS)
//	tb.Reset(tb.Signal("rst_n"), bench.Inferred, 4)
//
//	tb.Set(tb.Signal("tx_data"), 0x5a)        // stimulus
//	tb.RisingEdge(clk.Signal())               // wait
//	Expect(d.Signal("txd")).To(bench.BeLow()) // expect
//
// # Time and the scheduler
//
// Time is simulated time in picoseconds (bench.NS, bench.US, ...);
// Now says where the bench is. The scheduler is an event queue ordered by
// time (and, at equal times, by insertion): clock toggles and timer
// expiries. Nothing moves while the spec runs Go code; a wait (Timer,
// RisingEdge, FallingEdge, Edge, ClockCycles, Tick, WaitUntil, Await,
// First) first evaluates the writes the spec made at the current time,
// then repeatedly takes every event due at the next time, drives the
// clocks it toggles, evaluates the design once for all of them (two
// clocks with a common edge are one simulator step) plus the delta steps
// that wires cause, and lets the armed triggers look at the result. It
// returns after the evaluation in which its trigger happened, so the
// design state the spec then reads is the state right after that edge,
// and inputs the spec writes then are seen by the next evaluation (like
// writes after `await RisingEdge` in cocotb: flops that just fired do not
// see them). A wait on something that cannot happen (nothing scheduled)
// or that outlasts Options.Timeout fails instead of hanging.
//
// Clock(sig, period) drives sig low now and toggles it every half
// period; the first clock started is the main clock that Tick(n) and
// Reset count. ClockCycles and Tick take the simulator's fast path
// (sim.Tick: no scheduler work per edge) when the clock is the only
// thing that can happen meanwhile, with identical results.
//
// # Failures
//
// Bench calls do not return errors: a spec reads as a waveform, so every
// failure is reported through Options.Fail (ginkgo.Fail by default, which
// ends the spec at the calling line): simulator errors (a comb loop that
// does not settle, a derived-clock oscillation), $fatal, $finish and $stop
// unless Options.AllowFinish, $error unless Options.AllowErrors, unknown
// signal names, values that do not fit, and misused calls (a clock on an
// output, an edge on a bus). Messages start with "bench: at <time>:" and
// quote the design's last output lines. The first failure is kept (Err)
// and stops the bench: later calls return at once. Plain Go tests pass
// Options{Fail: func(m string, _ ...int) { t.Fatal(m) }}.
//
// # Adding coroutines (Fork/Join)
//
// Every wait already goes through one function, wait(triggers), and
// triggers are values that arm a waiter: a timer event in the queue, a
// check run after every evaluation, or both. Coroutines fit without
// changing any call above:
//
//   - Fork(func()) *Task starts fn on a new goroutine that first blocks on
//     its own resume channel; a task is a waiter owner. Exactly one
//     goroutine (the spec's or a task's) runs at a time: a baton passed
//     over channels, so the simulator and the queue stay single-threaded.
//   - wait(triggers) in a task arms its waiters (tagged with the task),
//     then passes the baton to the scheduler loop and parks. The loop runs
//     in whichever goroutine holds the baton; after each evaluation, every
//     task whose waiter fired is resumed in fork order, each running until
//     it waits again or ends, before time moves on. The spec's own waits
//     are the same loop with the spec as the task.
//   - Join(task) is a Trigger that happens when the task's function
//     returns; Kill cancels its waiters. A failure inside a task (a
//     panic from ginkgo.Fail) is recovered on its goroutine and re-raised
//     on the spec's when the baton comes back, so it fails the spec.
//   - The Tick fast path already refuses to run while any waiter other
//     than its own is armed, which is exactly the condition "no task is
//     waiting on something", so forked monitors fall back to the
//     scheduler automatically.
//
// ReadOnly/ReadWrite phases, a VCD writer and partitioned-vs-sequential
// equivalence helpers are later additions on the same loop.
package bench
