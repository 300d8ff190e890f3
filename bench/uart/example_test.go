package uart_test

import (
	"fmt"
	"io"

	"github.com/weft-hdl/weft/bench"
	"github.com/weft-hdl/weft/bench/uart"
	"github.com/weft-hdl/weft/compile"
)

// A source on a design's rxd and a sink on its txd, here a design that
// wires one to the other, in seven data bits with even parity and two
// stop bits.
func Example() {
	p, err := compile.NewBuilder().Files("testdata/uart_line.sv").Top("uart_line").Output(io.Discard).Build()
	if err != nil {
		panic(err)
	}
	defer p.Close()
	tb := bench.New(p, bench.Options{Fail: func(m string, _ ...int) { panic(m) }, Output: io.Discard})
	defer tb.Close()

	cfg := uart.Config{Baud: 115200, DataBits: 7, Parity: uart.Even, StopBits: 2}
	src := uart.NewSource(tb, tb.Signal("rxd"), cfg)
	snk := uart.NewSink(tb, tb.Signal("txd"), cfg)
	src.Write([]byte("hello"))
	fmt.Printf("%q at %v\n", snk.Read(5), tb.Now())
	// Output:
	// "hello" at 486.111136us
}
