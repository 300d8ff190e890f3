package uart_test

import (
	"fmt"
	"testing"

	"github.com/weft-hdl/weft/bench"
	"github.com/weft-hdl/weft/bench/scoreboard"
	"github.com/weft-hdl/weft/bench/uart"
	"github.com/weft-hdl/weft/dut"
)

// The tests in this file use testdata/uart_echo.sv, a UART of our own
// whose frame format is set at run time, for the formats examples/uart
// lacks: what its receiver takes from a uart.Source it reports on
// rx_valid/rx_data and sends back on txd to a uart.Sink. Its tx_en input
// holds the transmitter between frames: backpressure, so that characters
// queue in its FIFO and then leave back to back. The mutation checks
// build testdata/uart_echo_broken.sv, whose transmitter is wrong, and
// assert that the sink fails the spec.

const (
	echoPeriod = 10 * bench.NS
	echoDiv    = 5 // a bit is 50ns: 20 Mbaud
	echoChars  = 16
)

// echo is uart_echo on a bench, clocked, configured for cfg and out of
// reset, with a source on rxd and a sink on txd.
type echo struct {
	*env
	cfg  uart.Config
	clk  *dut.Signal
	txEn *dut.Signal
	src  *uart.Source
	snk  *uart.Sink
	sb   *scoreboard.Scoreboard[uint16]
}

func newEcho(t *testing.T, file string, cfg uart.Config, params ...string) *echo {
	t.Helper()
	bit := echoDiv * echoPeriod
	e := &echo{env: build(t, "uart_echo", []string{file}, 8*echoChars*12*bit, params...)}
	e.clk, e.txEn = e.Signal("clk"), e.Signal("tx_en")
	rst := e.Signal("rst_n")
	cfg.Baud = int(bench.S / bit)
	cfg.Reset = rst
	e.cfg = cfg
	e.Clock(e.clk, echoPeriod)
	e.Set(e.Signal("divisor"), echoDiv)
	e.Set(e.Signal("data_bits"), cfg.DataBits)
	e.Set(e.Signal("parity"), int(cfg.Parity))
	e.Set(e.Signal("two_stop"), cfg.StopBits/2)
	e.Set(e.txEn, 1)
	e.src = uart.NewSource(e.Bench, e.Signal("rxd"), cfg)
	e.snk = uart.NewSink(e.Bench, e.Signal("txd"), cfg)
	e.Reset(rst, bench.Inferred, 3)
	e.sb = scoreboard.New[uint16](e.Bench, "uart_echo")
	return e
}

// bit is the line's bit time.
func (e *echo) bit() bench.Time { return echoDiv * echoPeriod }

// traffic sends msg with random idle time, watches the receiver's
// rx_valid/rx_data (the edge's pre-edge view: the cycle the pulse was
// up) as stream "rx" and the sink as stream "tx", both expecting msg.
func (e *echo) traffic(msg []uint16) {
	e.sb.Expect("rx", msg...)
	e.sb.Expect("tx", msg...)
	e.sb.Watch("tx", func() uint16 { return e.snk.ReadWords(1)[0] })
	rxValid, rxData := e.Signal("rx_valid"), e.Signal("rx_data")
	pre := e.PreEdge(rxValid, rxData)
	e.Fork("rx monitor", func() {
		for {
			e.RisingEdge(e.clk)
			if pre.Get(rxValid) == 1 {
				e.sb.Got("rx", uint16(pre.Get(rxData)))
			}
		}
	})
	rng := e.Rand()
	e.Fork("line writer", func() {
		for _, c := range msg {
			e.src.WriteWords([]uint16{c})
			if rng.IntN(2) == 0 {
				e.Timer(bench.Time(rng.IntN(24)) * e.bit())
			}
		}
	})
}

// stallRandomly holds the transmitter for up to two frames at a time,
// then lets it run for three to six.
func (e *echo) stallRandomly() {
	rng := e.Rand()
	frame := 12 * e.bit()
	e.Fork("tx stall", func() {
		for {
			e.Set(e.txEn, 0)
			e.Timer(bench.Time(rng.IntN(3)) * frame)
			e.Set(e.txEn, 1)
			e.Timer(bench.Time(3+rng.IntN(4)) * frame)
		}
	})
}

// done waits until both streams matched everything and checks the
// design saw no bad frame and lost nothing.
func (e *echo) done(t *testing.T) {
	t.Helper()
	e.WaitUntil("every character echoed", func() bool { return e.sb.Pending("rx")+e.sb.Pending("tx") == 0 })
	t.Logf("at %v: %d received, %d echoed", e.Now(), e.sb.Matched("rx"), e.sb.Matched("tx"))
	if n := e.Signal("rx_errors").Get(); n != 0 {
		t.Errorf("the design's receiver rejected %d frames of the source", n)
	}
	if e.Signal("overflow").Get() != 0 {
		t.Error("the design's FIFO overflowed")
	}
}

func TestEchoFormats(t *testing.T) {
	for _, cfg := range []uart.Config{
		{DataBits: 7, Parity: uart.Even, StopBits: 2},
		{DataBits: 8, Parity: uart.Odd, StopBits: 1},
		{DataBits: 5, Parity: uart.None, StopBits: 1},
		{DataBits: 6, Parity: uart.Mark, StopBits: 2},
		{DataBits: 9, Parity: uart.Space, StopBits: 1},
		{DataBits: 8, Parity: uart.None, StopBits: 2},
	} {
		t.Run(fmt.Sprintf("%d-%v-%d", cfg.DataBits, cfg.Parity, cfg.StopBits), func(t *testing.T) {
			e := newEcho(t, "testdata/uart_echo.sv", cfg)
			msg := randomChars(e.env, echoChars, cfg.DataBits)
			e.traffic(msg)
			e.stallRandomly()
			e.done(t)
			e.closeClean(t)
		})
	}
}

// Mutation check: the broken transmitter sends even parity whatever the
// mode; under odd parity the sink fails the spec at the first character.
func TestEchoBrokenParityFails(t *testing.T) {
	e := newEcho(t, "testdata/uart_echo_broken.sv", uart.Config{DataBits: 8, Parity: uart.Odd}, "BUG", "1")
	e.traffic(randomChars(e.env, echoChars, 8))
	e.done(t)
	wantAll(t, e.closeFailing(t), `in task "uart sink txd"`, "uart sink txd (20000000 8O1): character 0x",
		"the parity bit is", "(odd parity)")
}

// Mutation check: the broken transmitter's stop bit lasts one clock.
// Characters held back by tx_en leave back to back, so the next start
// bit sits where the sink samples the stop bit: a framing error.
func TestEchoBrokenStopBitFails(t *testing.T) {
	e := newEcho(t, "testdata/uart_echo_broken.sv", uart.Config{DataBits: 8}, "BUG", "2")
	e.Set(e.txEn, 0)
	e.traffic(randomChars(e.env, echoChars, 8))
	e.WaitUntil("three characters received", func() bool { return e.sb.Matched("rx") >= 3 })
	e.Set(e.txEn, 1)
	e.done(t)
	wantAll(t, e.closeFailing(t), "uart sink txd (20000000 8N1): character 0x", "stop bit 1 of 1 is low at", "(a framing error)")
}

// The same broken transmitter, with a sink that counts errors instead:
// no failure, and Errors names what was wrong.
func TestEchoBrokenCountsErrors(t *testing.T) {
	e := newEcho(t, "testdata/uart_echo_broken.sv", uart.Config{DataBits: 8, Parity: uart.Odd, CountErrors: true}, "BUG", "1")
	msg := randomChars(e.env, 4, 8)
	e.src.WriteWords(msg)
	e.ClockCycles(e.clk, 12*echoDiv*2)
	if n := len(e.snk.Errors()); n != len(msg) {
		t.Errorf("the sink counted %d errors, want %d: %v", n, len(msg), e.snk.Errors())
	}
	if e.snk.Count() != 0 {
		t.Errorf("the sink kept %d bad characters", e.snk.Count())
	}
	e.closeClean(t)
}
