package uart_test

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/weft-hdl/weft/bench"
	"github.com/weft-hdl/weft/bench/scoreboard"
	"github.com/weft-hdl/weft/bench/uart"
	exuart "github.com/weft-hdl/weft/examples/uart"
)

// The tests in this file drive examples/uart's uart_top (8N1, a divisor
// of clock cycles per bit, a 4-deep FIFO on each side), read-only from
// its directory: a uart.Source on rxd, whose characters the design's
// receive FIFO gives back on rx_valid/rx_data/rx_ready, and a uart.Sink
// on txd, for the characters pushed into its transmit FIFO. A scoreboard
// checks both streams.

const topChars = 24

func TestExampleUARTBothWays(t *testing.T) {
	for _, c := range []struct {
		period bench.Time
		div    int
	}{
		{10 * bench.NS, 8}, // 12.5 Mbaud
		{7 * bench.NS, 9},  // 15873016 baud: a bit is 63ns, rounded from 62999.9986ps
	} {
		t.Run(fmt.Sprintf("%v-div%d", c.period, c.div), func(t *testing.T) {
			bit := bench.Time(c.div) * c.period
			files := make([]string, len(exuart.Files))
			for i, f := range exuart.Files {
				files[i] = filepath.Join("../../examples/uart", f)
			}
			e := build(t, exuart.Top, files, 4*topChars*10*bit)
			clk, rst := e.Signal("clk"), e.Signal("rst_n")
			txData, txValid, txReady := e.Signal("tx_data"), e.Signal("tx_valid"), e.Signal("tx_ready")
			rxValid, rxReady, rxData, rxErr := e.Signal("rx_valid"), e.Signal("rx_ready"), e.Signal("rx_data"), e.Signal("rx_frame_err")
			e.Clock(clk, c.period)
			e.Set(e.Signal("divisor"), c.div)
			e.Set(txValid, 0)
			e.Set(rxReady, 0)
			cfg := uart.Config{Baud: int((bench.S + bit/2) / bit), Reset: rst}
			src := uart.NewSource(e.Bench, e.Signal("rxd"), cfg)
			snk := uart.NewSink(e.Bench, e.Signal("txd"), cfg)
			e.Reset(rst, bench.Inferred, 4)

			sb := scoreboard.New[byte](e.Bench, "uart_top")
			toLine := toBytes(randomChars(e, topChars, 8))
			toFIFO := toBytes(randomChars(e, topChars, 8))
			sb.Expect("rx", toLine...)
			sb.Expect("tx", toFIFO...)
			sb.Watch("tx", func() byte { return snk.Read(1)[0] })
			rng := e.Rand()

			// The line side: characters with random idle time between
			// some of them.
			e.Fork("line writer", func() {
				for _, b := range toLine {
					src.Write([]byte{b})
					if rng.IntN(3) == 0 {
						e.Timer(bench.Time(rng.IntN(20)) * bit / 4)
					}
				}
			})
			// The receive FIFO, popped with random backpressure: rx_ready
			// is random every cycle, and a character is taken at an edge
			// where the edge saw rx_valid and rx_ready both high.
			pre := e.PreEdge(rxValid, rxReady, rxData, rxErr)
			e.Fork("rx reader", func() {
				for {
					e.Set(rxReady, rng.IntN(2))
					e.RisingEdge(clk)
					if pre.Get(rxValid) == 1 && pre.Get(rxReady) == 1 {
						if pre.Get(rxErr) != 0 {
							e.Failf("uart_top: rx_frame_err with %#x", pre.Get(rxData))
						}
						sb.Got("rx", byte(pre.Get(rxData)))
					}
				}
			})
			// The transmit FIFO, pushed at random times: tx_valid only
			// while tx_ready is high, for one edge (this FIFO takes a push
			// while full when it pops in the same cycle).
			e.Fork("tx writer", func() {
				for _, b := range toFIFO {
					for rng.IntN(4) == 0 || txReady.Get() == 0 {
						e.RisingEdge(clk)
					}
					e.Set(txData, b)
					e.Set(txValid, 1)
					e.RisingEdge(clk)
					e.Set(txValid, 0)
				}
			})

			e.WaitUntil("both streams matched", func() bool { return sb.Pending("rx")+sb.Pending("tx") == 0 })
			if e.Signal("rx_overflow").Get() != 0 {
				t.Error("rx_overflow is set")
			}
			if sb.Matched("rx") != topChars || sb.Matched("tx") != topChars {
				t.Errorf("matched rx %d, tx %d; want %d each", sb.Matched("rx"), sb.Matched("tx"), topChars)
			}
			e.closeClean(t)
		})
	}
}
