package stream_test

import (
	"math/big"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/weft-hdl/weft/bench"
	"github.com/weft-hdl/weft/bench/stream"
	"github.com/weft-hdl/weft/dut"
)

var fifoFiles = []string{"testdata/fifo.sv"}

// fifoLoop is source → fifo → sink with monitors and checkers, out of
// reset; params override the FIFO's WIDTH, UW, DEPTH.
func fifoLoop(opts bench.Options, files []string, params ...string) *loop {
	p := build("fifo", files, params...)
	tb := bench.New(p, opts)
	clock := tb.Clock(tb.Signal("clk"), 10*bench.NS)
	rst := tb.Signal("rst_n")
	tb.Reset(rst, bench.ActiveLow, 2)
	cfg := stream.Config{Data: []string{"data", "user"}, Reset: rst, ResetActiveLow: true}
	return &loop{tb: tb, clock: clock, clk: clock.Signal(), checkers: true, inCfg: cfg, outCfg: cfg, inPre: "in", outPre: "out"}
}

// countStalls counts, in a task, the cycles where in_valid was high and
// in_ready low ([0]) and where out_valid was high and out_ready low ([1]).
func countStalls(l *loop) *[2]int {
	var n [2]int
	sigs := []string{"in_valid", "in_ready", "out_valid", "out_ready"}
	var s [4]*dut.Signal
	for i, name := range sigs {
		s[i] = l.tb.Signal(name)
	}
	pre := l.tb.PreEdge(s[:]...)
	l.tb.Fork("stalls", func() {
		for {
			l.tb.RisingEdge(l.clk)
			for side := range 2 {
				if pre.Get(s[2*side]) == 1 && pre.Get(s[2*side+1]) == 0 {
					n[side]++
				}
			}
		}
	})
	return &n
}

var _ = Describe("Source, Sink, Monitor and Checker on a valid/ready FIFO", func() {
	// Enough simulated time for every spec here; a lost beat fails fast.
	opts := bench.Options{Timeout: 200 * bench.US}

	It("carries random beats in order under random pauses on both sides, and every component agrees", func() {
		l := fifoLoop(opts, fifoFiles)
		l.start(0.3, 0.4)
		stalls := countStalls(l)
		beats := randomBeats(l.tb.Rand(), 200, 8, 4)
		l.run(beats, same)
		l.expectAgree(len(beats), same)
		// The pauses did what they are for: the FIFO ran full (the source
		// waited for in_ready) and the sink held the output back.
		Expect(stalls[0]).To(BeNumerically(">", 10), "cycles the source waited for in_ready")
		Expect(stalls[1]).To(BeNumerically(">", 10), "cycles the sink held out_ready low under out_valid")
		GinkgoWriter.Printf("%d beats in %d cycles, %d input and %d output stall cycles\n",
			len(beats), l.clock.Cycles(), stalls[0], stalls[1])
	})

	It("carries payloads wider than 64 bits", func() {
		l := fifoLoop(opts, fifoFiles, "WIDTH", "100", "UW", "65", "DEPTH", "2")
		l.start(0.25, 0.5)
		beats := randomBeats(l.tb.Rand(), 80, 100, 65)
		beats[0] = stream.Beat{new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 100), big.NewInt(1)), new(big.Int).Lsh(big.NewInt(1), 64)}
		l.run(beats, same)
		l.expectAgree(len(beats), same)
	})

	It("drives and reads active-low valid and ready, with an active-high reset", func() {
		p := build("fifo_lo", []string{"testdata/fifo_lo.sv", "testdata/fifo.sv"})
		tb := bench.New(p, opts)
		clk := tb.Clock(tb.Signal("clk"), 10*bench.NS).Signal()
		rst := tb.Signal("rst")
		tb.Reset(rst, bench.ActiveHigh, 2)
		cfg := stream.Config{Data: []string{"data", "user"}, Valid: "valid_n", Ready: "ready_n",
			ValidActiveLow: true, ReadyActiveLow: true, Reset: rst}
		l := &loop{tb: tb, clk: clk, checkers: true, inCfg: cfg, outCfg: cfg, inPre: "in", outPre: "out"}
		l.start(0.3, 0.3)
		Expect(tb.Signal("in_valid_n")).To(bench.BeHigh(), "an idle source drives valid_n high")
		beats := randomBeats(tb.Rand(), 100, 8, 4)
		l.run(beats, same)
		l.expectAgree(len(beats), same)
	})

	It("carries a bus without ready: one beat per valid cycle, the sink always accepting", func() {
		p := build("pipe", []string{"testdata/pipe.sv"})
		tb := bench.New(p, opts)
		clk := tb.Clock(tb.Signal("clk"), 10*bench.NS).Signal()
		tb.Reset(tb.Signal("rst_n"), bench.ActiveLow, 2)
		cfg := stream.Config{Ready: stream.NoReady}
		l := &loop{tb: tb, clk: clk, checkers: true, inCfg: cfg, outCfg: cfg, inPre: "in", outPre: "out"}
		l.start(0.4, 0.9) // the sink's pauses must not matter: it has no ready to hold
		beats := randomBeats(tb.Rand(), 100, 12)
		invert := func(b stream.Beat) stream.Beat {
			return stream.Beat{new(big.Int).Xor(b[0], big.NewInt(0xfff))}
		}
		l.run(beats, invert)
		l.expectAgree(len(beats), invert)
	})

	It("Send waits for the handshake; WaitIdle for the last one", func() {
		l := fifoLoop(opts, fifoFiles)
		l.start(0, 0)
		before := l.tb.Now()
		l.src.Send(stream.NewBeat(0x12, 0x3))
		Expect(l.src.Count()).To(BeEquivalentTo(1))
		Expect(l.src.Idle()).To(BeTrue())
		Expect(l.tb.Now()).To(BeNumerically(">", before), "the beat goes out after an edge")
		Expect(l.sink.Recv()).To(stream.EqualBeat(stream.NewBeat(0x12, 0x3)))

		// Send copies the beat: changing it afterwards changes nothing.
		b := stream.NewBeat(0x34, 0x5)
		l.src.SendNowait(b)
		b[0].SetUint64(0x99)
		for i := range 6 { // more than the FIFO holds: the source must wait for room
			l.src.SendNowait(stream.NewBeat(uint64(i), 1))
		}
		Expect(l.src.Idle()).To(BeFalse())
		l.src.WaitIdle()
		Expect(l.src.Count()).To(BeEquivalentTo(8))
		Expect(l.sink.Recv()).To(stream.EqualBeat(stream.NewBeat(0x34, 0x5)))
		for i := range 6 {
			Expect(l.sink.Recv()).To(stream.EqualBeat(stream.NewBeat(uint64(i), 1)))
		}
	})

	It("RecvWithin gives up after its time on a quiet bus", func() {
		l := fifoLoop(opts, fifoFiles)
		l.start(0, 0)
		start := l.tb.Now()
		b, ok := l.sink.RecvWithin(200 * bench.NS)
		Expect(ok).To(BeFalse())
		Expect(b).To(BeNil())
		Expect(l.tb.Now() - start).To(Equal(200 * bench.NS))
		_, ok = l.monOut.RecvWithin(50 * bench.NS)
		Expect(ok).To(BeFalse())

		l.src.SendNowait(stream.NewBeat(7, 7))
		b, ok = l.sink.RecvWithin(200 * bench.NS)
		Expect(ok).To(BeTrue())
		Expect(b).To(stream.EqualBeat(stream.NewBeat(7, 7)))
		b, ok = l.monOut.RecvWithin(0)
		Expect(ok).To(BeTrue(), "the monitor saw the same handshake")
		Expect(b).To(stream.EqualBeat(stream.NewBeat(7, 7)))
	})

	It("drives valid and ready inactive and counts nothing while the reset is active; queued beats go out after it", func() {
		l := fifoLoop(opts, fifoFiles)
		l.start(0.2, 0.2)
		first := randomBeats(l.tb.Rand(), 10, 8, 4)
		l.run(first, same)
		l.src.WaitIdle()

		rst := l.tb.Signal("rst_n")
		l.tb.Set(rst, 0)
		l.tb.ClockCycles(l.clk, 1)
		second := randomBeats(l.tb.Rand(), 10, 8, 4)
		for _, b := range second {
			l.src.SendNowait(b)
		}
		for range 8 {
			l.tb.ClockCycles(l.clk, 1)
			Expect(l.tb.Signal("in_valid")).To(bench.BeLow())
			Expect(l.tb.Signal("out_ready")).To(bench.BeLow())
		}
		Expect(l.src.Count()).To(BeEquivalentTo(10))
		Expect(l.monIn.Count()).To(BeEquivalentTo(10))
		l.tb.Set(rst, 1)

		for i, b := range second {
			Expect(l.sink.Recv()).To(stream.EqualBeat(b), "beat %d after the reset", i)
		}
		Expect(l.src.Count()).To(BeEquivalentTo(20))
		Expect(l.chkIn.Handshakes()).To(BeEquivalentTo(20))
		Expect(l.chkOut.Handshakes()).To(BeEquivalentTo(20))
	})

	It("replays the same backpressure from the same seed", func() {
		trace := func() []bench.Time {
			l := fifoLoop(bench.Options{Timeout: opts.Timeout, Seed: 42}, fifoFiles)
			l.start(0.5, 0.5)
			var at []bench.Time
			l.tb.Fork("times", func() {
				for range 20 {
					l.monOut.Recv()
					at = append(at, l.tb.Now())
				}
			})
			l.run(randomBeats(l.tb.Rand(), 20, 8, 4), same)
			return at
		}
		Expect(trace()).To(Equal(trace()))
	})
})

var _ = Describe("misuse", func() {
	It("fails a beat of the wrong shape at the caller, naming the bus", func() {
		var c capture
		p := build("fifo", fifoFiles)
		tb := bench.New(p, bench.Options{Fail: c.fail})
		clk := tb.Clock(tb.Signal("clk"), 10*bench.NS).Signal()
		src := stream.NewSource(tb, "in", clk, stream.Config{Data: []string{"data", "user"}})
		src.SendNowait(stream.NewBeat(1))
		Expect(c.msgs).To(HaveLen(1))
		Expect(c.msgs[0]).To(ContainSubstring(`stream source "in": beat {0x1} has 1 values; the bus has 2 payload signals (in_data, in_user)`))
		Expect(src.Idle()).To(BeTrue())
	})

	It("fails a value wider than its signal", func() {
		var c capture
		p := build("fifo", fifoFiles)
		tb := bench.New(p, bench.Options{Fail: c.fail})
		clk := tb.Clock(tb.Signal("clk"), 10*bench.NS).Signal()
		src := stream.NewSource(tb, "in", clk, stream.Config{Data: []string{"data", "user"}})
		src.SendNowait(stream.NewBeat(0x100, 0))
		Expect(c.msgs).To(HaveLen(1))
		Expect(c.msgs[0]).To(ContainSubstring("in_data is 8 bits (unsigned); 0x100 does not fit"))
	})

	It("fails a bus that lacks a signal, naming what the design has", func() {
		var c capture
		p := build("fifo", fifoFiles)
		tb := bench.New(p, bench.Options{Fail: c.fail})
		clk := tb.Clock(tb.Signal("clk"), 10*bench.NS).Signal()
		stream.NewSink(tb, "out", clk, stream.Config{Data: []string{"data", "last"}})
		Expect(c.msgs).To(HaveLen(1))
		Expect(c.msgs[0]).To(ContainSubstring(`bus "out": no signal for last`))
		Expect(strings.Contains(c.msgs[0], "out_ready")).To(BeTrue())
	})
})
