package stream_test

import (
	"io"
	"testing"
	"time"

	"github.com/weft-hdl/weft/bench"
	"github.com/weft-hdl/weft/bench/stream"
	"github.com/weft-hdl/weft/compile"
)

// BenchmarkStreamLoopback measures bench clock cycles per second of
// source → fifo.sv → sink, under random pauses on both sides, with a
// monitor and a checker on each bus: b.N beats go through.
func BenchmarkStreamLoopback(b *testing.B) {
	p, err := compile.NewBuilder().Files("testdata/fifo.sv").Top("fifo").Build()
	if err != nil {
		b.Fatal(err)
	}
	defer p.Close()
	tb := bench.New(p, bench.Options{Seed: 1, Output: io.Discard, Timeout: -1, Fail: func(m string, _ ...int) { b.Fatal(m) }})
	defer tb.Close()
	clock := tb.Clock(tb.Signal("clk"), 10*bench.NS)
	clk := clock.Signal()
	tb.Reset(tb.Signal("rst_n"), bench.ActiveLow, 2)

	cfg := stream.Config{Data: []string{"data", "user"}}
	in, out := cfg, cfg
	in.Pause = stream.RandomPause(tb, 0.2)
	out.Pause = stream.RandomPause(tb, 0.2)
	src := stream.NewSource(tb, "in", clk, in)
	sink := stream.NewSink(tb, "out", clk, out)
	var mons []*stream.Monitor
	for _, prefix := range []string{"in", "out"} {
		mons = append(mons, stream.NewMonitor(tb, prefix, clk, cfg))
		stream.NewChecker(tb, prefix, clk, cfg)
	}
	beats := make([]stream.Beat, 256)
	for i := range beats {
		beats[i] = stream.NewBeat(uint64(i), uint64(i)&0xf)
	}

	start, c0 := time.Now(), clock.Cycles()
	b.ResetTimer()
	received := 0
	for i := 0; i < b.N; i++ {
		src.SendNowait(beats[i%len(beats)])
		if i%64 == 63 || i == b.N-1 { // keep the queues short
			for ; received <= i; received++ {
				if got := sink.Recv(); !got.Equal(beats[received%len(beats)]) {
					b.Fatalf("beat %d: sent %v, received %v", received, beats[received%len(beats)], got)
				}
				for _, m := range mons { // what a scoreboard would do
					m.Recv()
				}
			}
		}
	}
	b.StopTimer()
	cycles := clock.Cycles() - c0
	b.ReportMetric(float64(cycles)/time.Since(start).Seconds(), "cycles/s")
	b.ReportMetric(float64(cycles)/float64(b.N), "cycles/beat")
}
