package uart_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/weft-hdl/weft/bench"
)

// The cocotb way: each side of the UART gets its own task, running
// side by side with the others, and the spec only wires them together
// and waits for the scoreboard. Drivers take work from a bench.Queue,
// monitors put what they see into one.

// streamSource drives bytes from q into the TX FIFO, one per clock at
// most: tx_valid only while tx_ready is high, changed right after rising
// edges as registered logic does.
func (u *uartTB) streamSource(q *bench.Queue[byte]) {
	for {
		b := q.Get()
		u.WaitUntil("tx_ready is high", isHigh(u.txReady))
		u.Set(u.txData, uint64(b))
		u.Set(u.txValid, 1)
		u.RisingEdge(u.clk) // the FIFO takes it
		u.Set(u.txValid, 0)
	}
}

// streamSink pops every character the receiver stores and puts it on q.
// With rx_ready held high the FIFO pops at every edge where rx_valid was
// high: the values the edge sampled (PreEdge) say what it popped, while
// the post-edge state already shows the next character.
func (u *uartTB) streamSink(q *bench.Queue[char]) {
	u.Set(u.rxReady, 1)
	pre := u.PreEdge(u.rxValid, u.rxData, u.rxFrameErr)
	for {
		u.RisingEdge(u.clk)
		if pre.Get(u.rxValid) == 1 {
			q.Put(char{Data: byte(pre.Get(u.rxData)), FrameErr: pre.Get(u.rxFrameErr) == 1})
		}
	}
}

// lineSink decodes the frames on txd (what a receiving peer sees): at a
// start bit it samples the middle of each bit.
func (u *uartTB) lineSink(q *bench.Queue[char]) {
	for {
		u.FallingEdge(u.txd)
		u.Timer(u.bit() / 2)
		Expect(u.txd).To(bench.BeLow(), "the start bit lasts a whole bit")
		var b byte
		for i := range 8 {
			u.Timer(u.bit())
			b |= byte(u.txd.Get()) << i
		}
		u.Timer(u.bit())
		q.Put(char{Data: b, FrameErr: u.txd.Get() == 0})
	}
}

// lineSource drives the frames of the bytes on q onto rxd (a sending
// peer), with one idle bit between frames.
func (u *uartTB) lineSource(q *bench.Queue[byte]) {
	for {
		b := q.Get()
		u.Set(u.rxd, 0)
		u.Timer(u.bit())
		for i := range 8 {
			u.Set(u.rxd, uint64(b>>i&1))
			u.Timer(u.bit())
		}
		u.Set(u.rxd, 1)
		u.Timer(2 * u.bit())
	}
}

// expectChars expects the characters of want, in order, on got, and
// returns when all arrived.
func expectChars(got *bench.Queue[char], want []byte) {
	for i, b := range want {
		Expect(got.Get()).To(Equal(char{Data: b}), "character %d", i)
	}
}

var _ = Describe("uart_top with a forked source, sink and scoreboard", func() {
	var u *uartTB
	BeforeEach(func() { u = newUART(4) })

	random := func(n int) []byte {
		rng := u.Rand()
		msg := make([]byte, n)
		for i := range msg {
			msg[i] = byte(rng.Uint32())
		}
		return msg
	}

	It("transmits what the stream source pushes, as the line sink decodes it", func() {
		msg := random(24) // within the 30 frames newUART allows a wait
		toSend, onLine := bench.NewQueue[byte](u.Bench, "tx", 0), bench.NewQueue[char](u.Bench, "line", 0)
		u.Fork("stream source", func() { u.streamSource(toSend) })
		u.Fork("line sink", func() { u.lineSink(onLine) })
		check := u.Fork("scoreboard", func() { expectChars(onLine, msg) })
		for _, b := range msg {
			toSend.Put(b)
		}
		u.Await(check.Join())
	})

	It("receives what the line source sends, as the stream sink pops it", func() {
		msg := random(24) // within the 30 frames newUART allows a wait
		toLine, popped := bench.NewQueue[byte](u.Bench, "line", 0), bench.NewQueue[char](u.Bench, "rx", 0)
		u.Fork("line source", func() { u.lineSource(toLine) })
		u.Fork("stream sink", func() { u.streamSink(popped) })
		check := u.Fork("scoreboard", func() { expectChars(popped, msg) })
		for _, b := range msg {
			toLine.Put(b)
		}
		u.Await(check.Join())
	})

	It("runs both directions at once, each with its own scoreboard", func() {
		out, in := random(24), random(24)
		toSend, onLine := bench.NewQueue[byte](u.Bench, "tx", 2), bench.NewQueue[char](u.Bench, "line", 0)
		toLine, popped := bench.NewQueue[byte](u.Bench, "to line", 2), bench.NewQueue[char](u.Bench, "rx", 0)
		u.Fork("stream source", func() { u.streamSource(toSend) })
		u.Fork("line sink", func() { u.lineSink(onLine) })
		u.Fork("line source", func() { u.lineSource(toLine) })
		u.Fork("stream sink", func() { u.streamSink(popped) })
		tx := u.Fork("tx scoreboard", func() { expectChars(onLine, out) })
		rx := u.Fork("rx scoreboard", func() { expectChars(popped, in) })
		u.Fork("feeder", func() {
			for i := range out {
				toSend.Put(out[i]) // bounded queues: the feeder waits for room
				toLine.Put(in[i])
			}
		})
		u.Await(bench.Combine(tx.Join(), rx.Join()))
		Expect(u.rxOverflow).To(bench.BeLow())
	})
})
