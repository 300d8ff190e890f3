package axis_test

import (
	"fmt"
	"io"

	"github.com/weft-hdl/weft/bench"
	"github.com/weft-hdl/weft/bench/axis"
	"github.com/weft-hdl/weft/compile"
)

// A frame through an AXI4-Stream FIFO, outside Ginkgo (failures go to a
// plain function; in a Go test, t.Fatal).
func Example() {
	p, err := compile.NewBuilder().Files("testdata/axis_fifo.sv").Top("axis_fifo").Output(io.Discard).Build()
	if err != nil {
		panic(err)
	}
	defer p.Close()
	tb := bench.New(p, bench.Options{Fail: func(m string, _ ...int) { panic(m) }, Output: io.Discard})
	defer tb.Close()
	clk := tb.Clock(tb.Signal("clk"), 10*bench.NS).Signal()
	rstN := tb.Signal("rst_n")
	opts := axis.Options{Reset: rstN, ResetActiveLow: true}

	src := axis.NewSource(tb, "s_axis", clk, opts)
	sink := axis.NewSink(tb, "m_axis", clk, opts)
	mon := axis.NewMonitor(tb, "m_axis", clk, opts)
	axis.NewChecker(tb, "m_axis", clk, opts)
	tb.Reset(rstN, bench.Inferred, 4)

	src.SendNowait(axis.Frame{Data: []byte("hello, axis"), ID: 1, Dest: 2, User: []uint64{3, 4, 5}})
	f := sink.Recv()
	fmt.Printf("%q id=%d dest=%d user=%v\n", f.Data, f.ID, f.Dest, f.User)
	fmt.Println("monitor saw", mon.Recv().Data)
	// Output:
	// "hello, axis" id=1 dest=2 user=[3 4 5]
	// monitor saw [104 101 108 108 111 44 32 97 120 105 115]
}
