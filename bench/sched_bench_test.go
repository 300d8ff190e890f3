package bench_test

import (
	"io"
	"testing"

	"github.com/weft-hdl/weft/bench"
	"github.com/weft-hdl/weft/compile"
)

// benchStream is the stream stage on a bench for benchmarks: clocked,
// reset, taking a word every cycle.
func benchStream(b *testing.B) (*bench.Bench, *compile.Program) {
	p, err := compile.NewBuilder().Files("testdata/stream.sv").Top("stream").Output(io.Discard).Build()
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { p.Close() })
	tb := bench.New(p, bench.Options{Fail: func(m string, _ ...int) { b.Fatal(m) }, Output: io.Discard})
	b.Cleanup(tb.Close)
	tb.Clock(tb.Signal("clk"), 10*bench.NS)
	tb.Reset(tb.Signal("rst_n"), bench.Inferred, 2)
	tb.Set(tb.Signal("in_valid"), 1)
	tb.Set(tb.Signal("out_ready"), 1)
	return tb, p
}

// BenchmarkRisingEdgeLoop is `for { tb.RisingEdge(clk) }` in the spec:
// every cycle through the scheduler (two clock toggles, two evaluations,
// the trigger armed and checked).
func BenchmarkRisingEdgeLoop(b *testing.B) {
	tb, _ := benchStream(b)
	clk := tb.Signal("clk")
	for b.Loop() {
		tb.RisingEdge(clk)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "cycles/s")
}

// BenchmarkForkedMonitor runs Tick in the spec while a forked monitor
// wakes on every rising edge and reads two signals: one task switch
// there and back per cycle on top of the scheduler path.
func BenchmarkForkedMonitor(b *testing.B) {
	tb, _ := benchStream(b)
	clk, taken := tb.Signal("clk"), tb.Signal("taken")
	var sum uint64
	tb.Fork("monitor", func() {
		for {
			tb.RisingEdge(clk)
			sum += taken.Get()
		}
	})
	b.ResetTimer()
	tb.Tick(b.N)
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "cycles/s")
}

// BenchmarkTaskSwitch is the cost of one switch between bench code: the
// spec and a task hand control back and forth through two events, two
// switches per iteration, no simulation in between.
func BenchmarkTaskSwitch(b *testing.B) {
	tb, _ := benchStream(b)
	ping, pong := tb.NewEvent("ping"), tb.NewEvent("pong")
	tb.Fork("echo", func() {
		for {
			tb.Await(ping.Wait())
			ping.Clear()
			pong.Set()
		}
	})
	b.ResetTimer()
	for i := range b.N {
		if i%1000 == 999 {
			tb.Timer(1) // bench code may not run forever at one time
		}
		ping.Set()
		tb.Await(pong.Wait())
		pong.Clear()
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(2*b.N), "ns/switch")
}
