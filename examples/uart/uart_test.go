package uart_test

import (
	"fmt"
	"math/rand/v2"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/weft-hdl/weft/bench"
	"github.com/weft-hdl/weft/compile"
	"github.com/weft-hdl/weft/dut"
	"github.com/weft-hdl/weft/examples/uart"
)

// period is the clock period of every spec.
const period = 10 * bench.NS

// char is one received character.
type char struct {
	Data     byte
	FrameErr bool
}

// GomegaString shows a char in failure messages.
func (c char) GomegaString() string {
	return fmt.Sprintf("{Data: %#02x, FrameErr: %v}", c.Data, c.FrameErr)
}

// uartTB is one uart_top on a bench, with handles on its ports.
type uartTB struct {
	*bench.Bench
	div int

	clk, rstN                     *dut.Signal
	txData, txValid, txReady, txd *dut.Signal
	rxd, rxData, rxFrameErr       *dut.Signal
	rxValid, rxReady, rxOverflow  *dut.Signal
}

// newUART builds uart_top, starts its clock, sets the divisor, idles rxd
// high and resets it. Waits are bounded by 30 frames.
func newUART(div int) *uartTB {
	GinkgoHelper()
	p, err := compile.NewBuilder().Files(uart.Files...).Top(uart.Top).Build()
	Expect(err).NotTo(HaveOccurred())
	DeferCleanup(p.Close)
	u := &uartTB{div: div}
	u.Bench = bench.New(p, bench.Options{Timeout: 30 * 10 * bench.Time(div) * period})
	for _, h := range []struct {
		s    **dut.Signal
		name string
	}{
		{&u.clk, "clk"}, {&u.rstN, "rst_n"},
		{&u.txData, "tx_data"}, {&u.txValid, "tx_valid"}, {&u.txReady, "tx_ready"}, {&u.txd, "txd"},
		{&u.rxd, "rxd"}, {&u.rxData, "rx_data"}, {&u.rxFrameErr, "rx_frame_err"},
		{&u.rxValid, "rx_valid"}, {&u.rxReady, "rx_ready"}, {&u.rxOverflow, "rx_overflow"},
	} {
		*h.s = u.Signal(h.name)
	}
	u.Clock(u.clk, period)
	u.Set(u.Signal("divisor"), uint64(div))
	u.Set(u.rxd, 1)
	u.Reset(u.rstN, bench.Inferred, 4)
	return u
}

// bit is the time one bit lasts on the line; frame is ten of them.
func (u *uartTB) bit() bench.Time   { return bench.Time(u.div) * period }
func (u *uartTB) frame() bench.Time { return 10 * u.bit() }

// cycles waits n rising clock edges.
func (u *uartTB) cycles(n int) {
	GinkgoHelper()
	u.ClockCycles(u.clk, n)
}

func isHigh(s *dut.Signal) func() bool { return func() bool { return s.Get() == 1 } }

// send pushes b into the transmit FIFO, waiting for room first.
func (u *uartTB) send(b byte) {
	GinkgoHelper()
	u.WaitUntil("tx_ready is high", isHigh(u.txReady))
	u.Set(u.txData, uint64(b))
	u.Set(u.txValid, 1)
	u.cycles(1)
	u.Set(u.txValid, 0)
}

// receive waits for a character in the receive FIFO and pops it.
func (u *uartTB) receive() char {
	GinkgoHelper()
	u.WaitUntil("rx_valid is high", isHigh(u.rxValid))
	c := char{Data: byte(u.rxData.Get()), FrameErr: u.rxFrameErr.Get() == 1}
	u.Set(u.rxReady, 1)
	u.cycles(1)
	u.Set(u.rxReady, 0)
	return c
}

// drive puts one frame on rxd by hand: a start bit, 8 data bits LSB
// first and a stop bit of the given level, then idles the line high.
func (u *uartTB) drive(b byte, stop uint64) {
	GinkgoHelper()
	u.Set(u.rxd, 0)
	u.cycles(u.div)
	for i := range 8 {
		u.Set(u.rxd, uint64(b>>i&1))
		u.cycles(u.div)
	}
	u.Set(u.rxd, stop)
	u.cycles(u.div)
	u.Set(u.rxd, 1)
}

var _ = Describe("uart_top", func() {
	var u *uartTB
	BeforeEach(func() { u = newUART(4) })

	It("idles after reset: line high, room to send, nothing received", func() {
		Expect(u.txd).To(bench.BeHigh())
		Expect(u.txReady).To(bench.BeHigh())
		Expect(u.rxValid).To(bench.BeLow())
		Expect(u.rxOverflow).To(bench.BeLow())
		Expect(u.First(bench.FallingEdge(u.txd), bench.Timer(3*u.frame())).Index()).To(Equal(1), "txd left idle")
	})

	It("loops random bytes from txd back to rxd", func() {
		u.Wire(u.txd, u.rxd)
		rng := rand.New(rand.NewPCG(uint64(GinkgoRandomSeed()), 3))
		for range 200 {
			b := byte(rng.Uint32())
			u.send(b)
			Expect(u.receive()).To(Equal(char{Data: b}), "byte %#02x", b)
		}
	})

	It("flags a framing error when the stop bit is low, then receives the next frame", func() {
		u.drive(0xc3, 0)
		u.WaitUntil("rx_valid is high", isHigh(u.rxValid))
		Expect(u.rxData).To(bench.HaveValue(0xc3))
		Expect(u.rxFrameErr).To(bench.BeHigh())
		Expect(u.receive()).To(Equal(char{Data: 0xc3, FrameErr: true}))
		u.cycles(2 * u.div) // let the line idle
		u.drive(0x3c, 1)
		Expect(u.receive()).To(Equal(char{Data: 0x3c}))
		Expect(u.rxValid).To(bench.BeLow())
	})

	It("sends back-to-back frames from a full TX FIFO, all arriving in order", func() {
		u.Wire(u.txd, u.rxd)
		msg := []byte("weft!") // one for the shifter, four for the FIFO
		for _, b := range msg {
			u.send(b)
		}
		Expect(u.txReady).To(bench.BeLow(), "the TX FIFO is full")

		var got []byte
		var at []bench.Time
		for range msg {
			got = append(got, u.receive().Data)
			at = append(at, u.Now())
		}
		Expect(string(got)).To(Equal("weft!"))
		// No gap on the line: a character every frame plus the one idle
		// cycle the transmitter spends between stop and start bits.
		for i := 1; i < len(at); i++ {
			Expect(at[i]-at[i-1]).To(Equal(u.frame()+period), "between characters %d and %d", i-1, i)
		}
	})

	It("returns to idle when reset mid-frame, then receives the next frame", func() {
		u.Wire(u.txd, u.rxd)
		for _, b := range []byte{0x11, 0x22, 0x33, 0x44, 0x55} {
			u.send(b)
		}
		Expect(u.txReady).To(bench.BeLow(), "the TX FIFO is full")
		u.WaitUntil("rx_valid is high", isHigh(u.rxValid)) // 0x11 arrived
		u.FallingEdge(u.txd)                               // start bit of 0x22
		u.Timer(4 * u.bit())                               // in the middle of it

		u.Reset(u.rstN, bench.Inferred, 3)
		Expect(u.txd).To(bench.BeHigh())
		Expect(u.txReady).To(bench.BeHigh(), "the TX FIFO is empty")
		Expect(u.rxValid).To(bench.BeLow(), "the RX FIFO is empty")
		Expect(u.First(bench.FallingEdge(u.txd), bench.Timer(2*u.frame())).Index()).To(Equal(1), "nothing left to send")

		u.send(0xa5)
		Expect(u.receive()).To(Equal(char{Data: 0xa5}))
	})

	It("flags an overflow when a character arrives at a full RX FIFO", func() {
		u.Wire(u.txd, u.rxd)
		for b := range byte(5) {
			u.send(b + 1)
		}
		u.WaitUntil("rx_overflow is high", isHigh(u.rxOverflow))
		for b := range byte(4) {
			Expect(u.receive()).To(Equal(char{Data: b + 1}))
		}
		Expect(u.rxValid).To(bench.BeLow(), "the fifth character was dropped")
		Expect(u.rxOverflow).To(bench.BeHigh(), "the flag sticks until reset")
		u.Reset(u.rstN, bench.Inferred, 2)
		Expect(u.rxOverflow).To(bench.BeLow())
	})
})

var _ = DescribeTable("uart_top at divisor",
	func(div int) {
		u := newUART(div)
		u.Wire(u.txd, u.rxd)

		u.send(0x55) // 0, then 1 0 1 0 1 0 1 0, then 1
		u.FallingEdge(u.txd)
		start := u.Now()
		u.RisingEdge(u.txd)
		Expect(u.Now()-start).To(Equal(u.bit()), "the start bit lasts %d cycles", div)
		Expect(u.receive()).To(Equal(char{Data: 0x55}))

		rng := rand.New(rand.NewPCG(uint64(GinkgoRandomSeed()), uint64(div)))
		for range 32 {
			b := byte(rng.Uint32())
			u.send(b)
			Expect(u.receive()).To(Equal(char{Data: b}), "byte %#02x", b)
		}
	},
	Entry("4", 4),
	Entry("7", 7),
	Entry("16", 16),
)
