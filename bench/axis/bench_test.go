package axis_test

import (
	"bytes"
	"io"
	"testing"

	"github.com/weft-hdl/weft/bench"
	"github.com/weft-hdl/weft/bench/axis"
	"github.com/weft-hdl/weft/bench/scoreboard"
	"github.com/weft-hdl/weft/compile"
)

// BenchmarkAxisLoopback measures simulated clock cycles per second of
// the 32-bit AXI4-Stream FIFO with an axis source feeding it 64-byte
// frames, an axis sink and monitor on its output, and nothing pausing:
// every cycle runs the source, sink and monitor tasks (and their stream
// tasks) on the scheduler, with a handshake on both buses. A drain task
// keeps the monitor's and sink's queues empty.
func BenchmarkAxisLoopback(b *testing.B) {
	p, err := compile.NewBuilder().Files("testdata/axis_fifo.sv").Top("axis_fifo").Output(io.Discard).Build()
	if err != nil {
		b.Fatal(err)
	}
	defer p.Close()
	tb := bench.New(p, bench.Options{Fail: func(m string, _ ...int) { b.Fatal(m) }, Output: io.Discard, Seed: 1})
	defer tb.Close()
	clk := tb.Clock(tb.Signal("clk"), 10*bench.NS).Signal()
	rstN := tb.Signal("rst_n")
	opts := axis.Options{Reset: rstN, ResetActiveLow: true}
	src := axis.NewSource(tb, "s_axis", clk, opts)
	sink := axis.NewSink(tb, "m_axis", clk, opts)
	mon := axis.NewMonitor(tb, "m_axis", clk, opts)
	tb.Reset(rstN, bench.Inferred, 4)

	frame := axis.Frame{Data: make([]byte, 64), ID: 1, Dest: 2, User: []uint64{3}}
	for i := range frame.Data {
		frame.Data[i] = byte(i)
	}
	// The scoreboard checks every frame the sink and the monitor see.
	sb := scoreboard.New[axis.Frame](tb, "loopback", scoreboard.Compare(func(a, b axis.Frame) bool { return bytes.Equal(a.Data, b.Data) }))
	sb.Watch("sink", sink.Recv)
	sb.Watch("monitor", mon.Recv)
	feeder := tb.Fork("feeder", func() {
		for {
			sb.Expect("sink", frame)
			sb.Expect("monitor", frame)
			src.Send(frame)
		}
	})
	b.ResetTimer()
	tb.ClockCycles(clk, b.N)
	b.StopTimer()
	feeder.Kill()
	src.WaitIdle()
	tb.WaitUntil("every frame sent arrived", func() bool { return sb.Pending("sink")+sb.Pending("monitor") == 0 })
	if sink.Count() == 0 && b.N > 100 {
		b.Fatalf("no frame arrived in %d cycles", b.N)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "cycles/s")
	b.ReportMetric(float64(sink.Count()*uint64(len(frame.Data)))/b.Elapsed().Seconds(), "bytes/s")
}
