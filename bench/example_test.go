package bench_test

import (
	"fmt"
	"io"

	"github.com/weft-hdl/weft/bench"
	"github.com/weft-hdl/weft/compile"
)

// A bench outside Ginkgo: failures go to a plain function (in a Go test,
// t.Fatal).
func Example() {
	p, err := compile.NewBuilder().Files("testdata/twoclk.sv").Top("twoclk").Output(io.Discard).Build()
	if err != nil {
		panic(err)
	}
	defer p.Close()
	tb := bench.New(p, bench.Options{
		Fail:   func(m string, _ ...int) { panic(m) },
		Output: io.Discard,
	})
	clka := tb.Signal("clka")
	tb.Clock(clka, 10*bench.NS)
	tb.Clock(tb.Signal("clkb"), 4*bench.NS)
	tb.Reset(tb.Signal("rst_n"), bench.Inferred, 2) // active low: the name ends in n

	tb.ClockCycles(clka, 3)
	fmt.Println(tb.Now(), "na =", tb.Signal("na").Get(), "nb =", tb.Signal("nb").Get())
	tb.Timer(2 * bench.NS)
	tb.FallingEdge(clka)
	fmt.Println(tb.Now())
	// Output:
	// 45ns na = 3 nb = 11
	// 50ns
}
