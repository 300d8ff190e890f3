package uart_test

import (
	"io"
	"testing"

	"github.com/weft-hdl/weft/bench"
	"github.com/weft-hdl/weft/compile"
	"github.com/weft-hdl/weft/examples/uart"
)

// BenchmarkUARTCycles measures simulated clock cycles per second of
// uart_top on each backend, with the transmitter kept busy (tx_valid
// held high, divisor 4): "tick" runs the cycles on the bench's fast path
// (sim.Tick), "loopback" through the scheduler with txd wired to rxd (a
// delta step on every txd change), so the receiver works too.
func BenchmarkUARTCycles(b *testing.B) {
	for _, k := range []compile.BackendKind{compile.BackendInterp, compile.BackendNative} {
		for _, loop := range []bool{false, true} {
			name := "tick"
			if loop {
				name = "loopback"
			}
			b.Run(k.String()+"/"+name, func(b *testing.B) { benchUART(b, k, loop) })
		}
	}
}

func benchUART(b *testing.B, k compile.BackendKind, loop bool) {
	p, err := compile.NewBuilder().Files(uart.Files...).Top(uart.Top).Backend(k).Output(io.Discard).Build()
	if err != nil {
		b.Fatal(err)
	}
	defer p.Close()
	tb := bench.New(p, bench.Options{Fail: func(m string, _ ...int) { b.Fatal(m) }, Output: io.Discard})
	tb.Clock(tb.Signal("clk"), 10*bench.NS)
	tb.Set(tb.Signal("divisor"), 4)
	tb.Set(tb.Signal("rxd"), 1)
	tb.Reset(tb.Signal("rst_n"), bench.Inferred, 4)
	if loop {
		tb.Wire(tb.Signal("txd"), tb.Signal("rxd"))
	}
	tb.Set(tb.Signal("tx_data"), 0xa5)
	tb.Set(tb.Signal("tx_valid"), 1)
	tb.Set(tb.Signal("rx_ready"), 1)
	b.ResetTimer()
	tb.Tick(b.N)
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "cycles/s")
}
