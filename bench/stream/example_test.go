package stream_test

import (
	"fmt"
	"io"

	"github.com/weft-hdl/weft/bench"
	"github.com/weft-hdl/weft/bench/stream"
	"github.com/weft-hdl/weft/compile"
)

// A source feeds testdata/fifo.sv, a sink drains it under seeded random
// backpressure, and a checker watches the output bus.
func Example() {
	p, err := compile.NewBuilder().Files("testdata/fifo.sv").Top("fifo").Build()
	if err != nil {
		fmt.Println(err)
		return
	}
	defer p.Close()
	tb := bench.New(p, bench.Options{Seed: 1, Output: io.Discard, Fail: func(m string, _ ...int) { fmt.Println(m) }})
	defer tb.Close()
	clk := tb.Clock(tb.Signal("clk"), 10*bench.NS).Signal()
	tb.Reset(tb.Signal("rst_n"), bench.ActiveLow, 2)

	cfg := stream.Config{Data: []string{"data", "user"}}
	src := stream.NewSource(tb, "in", clk, cfg)
	slow := cfg
	slow.Pause = stream.RandomPause(tb, 0.5)
	sink := stream.NewSink(tb, "out", clk, slow)
	chk := stream.NewChecker(tb, "out", clk, cfg)

	for i := range 3 {
		src.SendNowait(stream.NewBeat(0xa0+uint64(i), uint64(i)))
	}
	for range 3 {
		fmt.Println(sink.Recv())
	}
	fmt.Println(src.Count(), sink.Count(), chk.Handshakes())
	// Output:
	// {0xa0, 0x0}
	// {0xa1, 0x1}
	// {0xa2, 0x2}
	// 3 3 3
}
