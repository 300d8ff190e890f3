package uart_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/weft-hdl/weft/bench"
	"github.com/weft-hdl/weft/bench/scoreboard"
	"github.com/weft-hdl/weft/bench/stream"
	serial "github.com/weft-hdl/weft/bench/uart"
	"github.com/weft-hdl/weft/compile"
	"github.com/weft-hdl/weft/examples/uart"
)

// The same checks as tasks_test.go, written with weft's verification
// components the way a cocotbext user writes them: a stream source on the
// transmit FIFO (tx_data/tx_valid/tx_ready), a UART sink on txd, a UART
// source on rxd, a stream sink on the receive FIFO, and a scoreboard.
var _ = Describe("uart_top with verification components", func() {
	var (
		tb       *bench.Bench
		txSource *stream.Source
		rxSink   *stream.Sink
		line     *serial.Source
		lineSink *serial.Sink
	)

	BeforeEach(func() {
		p, err := compile.NewBuilder().Files(uart.Files...).Top(uart.Top).Build()
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(p.Close)
		tb = bench.New(p, bench.Options{})
		clk := tb.Clock(tb.Signal("clk"), 10*bench.NS).Signal()
		tb.Set(tb.Signal("divisor"), 8) // 8 cycles of 10 ns a bit: 12.5 Mbaud
		baud := serial.Config{Baud: 12_500_000}
		txSource = stream.NewSource(tb, "tx", clk, stream.Config{})
		rxSink = stream.NewSink(tb, "rx", clk, stream.Config{Data: []string{"data", "frame_err"}, Pause: stream.RandomPause(tb, 0.3)})
		line = serial.NewSource(tb, tb.Signal("rxd"), baud)
		lineSink = serial.NewSink(tb, tb.Signal("txd"), baud)
		tb.Reset(tb.Signal("rst_n"), bench.Inferred, 4)
	})

	random := func(n int) []byte {
		msg := make([]byte, n)
		for i := range msg {
			msg[i] = byte(tb.Rand().Uint32())
		}
		return msg
	}
	send := func(msg []byte) {
		for _, b := range msg {
			txSource.SendNowait(stream.NewBeat(uint64(b)))
		}
	}
	recv := func() char {
		beat := rxSink.Recv()
		return char{Data: byte(beat[0].Uint64()), FrameErr: beat[1].Sign() != 0}
	}

	It("transmits what the stream source sends", func() {
		msg := random(24)
		send(msg)
		Expect(lineSink.Read(len(msg))).To(Equal(msg))
	})

	It("receives what the line source sends", func() {
		msg := random(24)
		line.WriteNowait(msg)
		for _, b := range msg {
			Expect(recv()).To(Equal(char{Data: b}))
		}
	})

	It("runs both directions at once, checked by a scoreboard", func() {
		out, in := random(24), random(24)
		sb := scoreboard.New[char](tb, "uart")
		sb.Watch("txd", func() char { return char{Data: lineSink.Read(1)[0]} })
		sb.Watch("rx", recv)
		for i := range out {
			sb.Expect("txd", char{Data: out[i]})
			sb.Expect("rx", char{Data: in[i]})
		}
		send(out)
		line.WriteNowait(in)
		tb.WaitUntil("every character matched", func() bool { return sb.Pending("txd")+sb.Pending("rx") == 0 })
		Expect(tb.Signal("rx_overflow")).To(bench.BeLow())
	})
})
