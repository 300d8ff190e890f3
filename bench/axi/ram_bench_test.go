package axi_test

import (
	"io"
	"testing"

	"github.com/weft-hdl/weft/bench"
	"github.com/weft-hdl/weft/bench/axi"
	"github.com/weft-hdl/weft/compile"
)

// BenchmarkAXIRAM measures the beats per second of wall time the RAM
// serves to the axi_traffic master running flat out (no pauses, no
// delays, no throttling): one iteration is one run of its table, 111
// bursts' worth of beats written and read back.
func BenchmarkAXIRAM(b *testing.B) {
	p, err := compile.NewBuilder().Files("testdata/axi_traffic.sv").Top("axi_traffic").Output(io.Discard).Build()
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { p.Close() })
	tb := bench.New(p, bench.Options{Fail: func(m string, _ ...int) { b.Fatal(m) }, Output: io.Discard, Seed: 1})
	b.Cleanup(tb.Close)
	clk := tb.Clock(tb.Signal("clk"), 10*bench.NS)
	rstN, start, done := tb.Signal("rst_n"), tb.Signal("start"), tb.Signal("done")
	ram := axi.NewRAM(tb, "m_axi", clk.Signal(), ramSize, axi.Options{Reset: rstN, ResetActiveLow: true})
	for _, n := range []string{"page", "seed", "id", "throttle", "start"} {
		tb.Set(tb.Signal(n), 0)
	}
	tb.Reset(rstN, bench.ActiveLow, 2)
	isDone := bench.Until("done is high", func() bool { return done.Get() == 1 })
	b.ResetTimer()
	for b.Loop() {
		tb.Set(start, 1)
		tb.RisingEdge(clk.Signal())
		tb.Set(start, 0)
		tb.Await(isDone)
	}
	tb.ReadOnly()
	st := ram.Stats()
	if tb.Signal("mismatches").Get() != 0 || st.Errors != 0 {
		b.Fatalf("the master saw mismatches or errors: %+v", st)
	}
	b.ReportMetric(float64(st.Beats)/b.Elapsed().Seconds(), "beats/s")
	b.ReportMetric(float64(clk.Cycles())/float64(st.Beats), "cycles/beat")
}
