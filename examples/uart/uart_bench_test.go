package uart_test

import (
	"io"
	"path/filepath"
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

// BenchmarkUARTTasks is the UART looped back (txd wired to rxd) and
// driven the cocotb way: a forked stream source kept fed by a forked
// feeder, a forked stream sink, and the spec waiting ClockCycles; the
// cycles run through the scheduler with three tasks switching. "vcd"
// also writes a waveform of the whole design.
func BenchmarkUARTTasks(b *testing.B) {
	b.Run("plain", func(b *testing.B) { benchUARTTasks(b, "") })
	b.Run("vcd", func(b *testing.B) { benchUARTTasks(b, filepath.Join(b.TempDir(), "uart.vcd")) })
}

func benchUARTTasks(b *testing.B, vcd string) {
	p, err := compile.NewBuilder().Files(uart.Files...).Top(uart.Top).Output(io.Discard).Build()
	if err != nil {
		b.Fatal(err)
	}
	defer p.Close()
	tb := bench.New(p, bench.Options{Fail: func(m string, _ ...int) { b.Fatal(m) }, Output: io.Discard, VCD: vcd})
	defer tb.Close()
	u := &uartTB{Bench: tb, div: 4}
	u.clk, u.rstN, u.txData, u.txValid, u.txReady = tb.Signal("clk"), tb.Signal("rst_n"), tb.Signal("tx_data"), tb.Signal("tx_valid"), tb.Signal("tx_ready")
	u.txd, u.rxd, u.rxData, u.rxFrameErr = tb.Signal("txd"), tb.Signal("rxd"), tb.Signal("rx_data"), tb.Signal("rx_frame_err")
	u.rxValid, u.rxReady = tb.Signal("rx_valid"), tb.Signal("rx_ready")
	tb.Clock(u.clk, period)
	tb.Set(tb.Signal("divisor"), 4)
	tb.Set(u.rxd, 1)
	tb.Reset(u.rstN, bench.Inferred, 4)
	tb.Wire(u.txd, u.rxd)
	toSend, popped := bench.NewQueue[byte](tb, "tx", 4), bench.NewQueue[char](tb, "rx", 0)
	tb.Fork("feeder", func() {
		for i := 0; ; i++ {
			toSend.Put(byte(i))
		}
	})
	tb.Fork("stream source", func() { u.streamSource(toSend) })
	tb.Fork("stream sink", func() { u.streamSink(popped) })
	got := 0
	tb.Fork("drain", func() {
		for {
			popped.Get()
			got++
		}
	})
	b.ResetTimer()
	tb.ClockCycles(u.clk, b.N)
	b.StopTimer()
	// A frame is 10 bits of 4 cycles plus an idle cycle.
	if b.N > 10000 && got < b.N/45 {
		b.Fatalf("%d characters in %d cycles: the line was not kept busy", got, b.N)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "cycles/s")
}
