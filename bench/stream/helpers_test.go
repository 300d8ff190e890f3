package stream_test

import (
	"math/big"
	"math/rand/v2"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/weft-hdl/weft/bench"
	"github.com/weft-hdl/weft/bench/stream"
	"github.com/weft-hdl/weft/compile"
	"github.com/weft-hdl/weft/dut"
)

// build compiles top from testdata files, with parameter overrides given
// as name, value pairs, and closes it when the spec ends.
func build(top string, files []string, params ...string) *compile.Program {
	b := compile.NewBuilder().Files(files...).Top(top)
	for i := 0; i+1 < len(params); i += 2 {
		b.Param(params[i], params[i+1])
	}
	p, err := b.Build()
	Expect(err).NotTo(HaveOccurred())
	DeferCleanup(p.Close)
	return p
}

// capture is an Options.Fail that keeps the failures instead of ending
// the spec, for specs that expect the bench to fail.
type capture struct{ msgs []string }

func (c *capture) fail(m string, _ ...int) { c.msgs = append(c.msgs, m) }

// randomBeats are n beats of random values of the given widths.
func randomBeats(r *rand.Rand, n int, widths ...int) []stream.Beat {
	out := make([]stream.Beat, n)
	for i := range out {
		b := make(stream.Beat, len(widths))
		for j, w := range widths {
			x := new(big.Int)
			for k := 0; k < w; k += 64 {
				x.Lsh(x, 64).Or(x, new(big.Int).SetUint64(r.Uint64()))
			}
			mask := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), uint(w)), big.NewInt(1))
			b[j] = x.And(x, mask)
		}
		out[i] = b
	}
	return out
}

// loop is a source → design → sink bench with a monitor and a checker
// on each side: the setup every loopback spec shares.
type loop struct {
	tb             *bench.Bench
	clock          *bench.Clock
	clk            *dut.Signal
	src            *stream.Source
	sink           *stream.Sink
	monIn, monOut  *stream.Monitor
	chkIn, chkOut  *stream.Checker
	checkers       bool
	inCfg, outCfg  stream.Config
	inPre, outPre  string
	sent, received []stream.Beat
}

// start binds the components; pIn and pOut are the pause probabilities
// of the source and of the sink.
func (l *loop) start(pIn, pOut float64) {
	in, out := l.inCfg, l.outCfg
	in.Pause = stream.RandomPause(l.tb, pIn)
	out.Pause = stream.RandomPause(l.tb, pOut)
	l.src = stream.NewSource(l.tb, l.inPre, l.clk, in)
	l.sink = stream.NewSink(l.tb, l.outPre, l.clk, out)
	l.monIn = stream.NewMonitor(l.tb, l.inPre, l.clk, l.inCfg)
	l.monOut = stream.NewMonitor(l.tb, l.outPre, l.clk, l.outCfg)
	if l.checkers {
		l.chkIn = stream.NewChecker(l.tb, l.inPre, l.clk, l.inCfg)
		l.chkOut = stream.NewChecker(l.tb, l.outPre, l.clk, l.outCfg)
	}
}

// run sends beats and has a scoreboard task expect them, in order, at
// the sink (want maps a sent beat to the one expected out); a mismatch
// fails through tb.Failf, so that a spec that captures failures sees it.
func (l *loop) run(beats []stream.Beat, want func(stream.Beat) stream.Beat) {
	tb := l.tb
	l.sent = beats
	board := tb.Fork("scoreboard", func() {
		for i, b := range beats {
			got := l.sink.Recv()
			if got == nil {
				return // the bench stopped
			}
			l.received = append(l.received, got)
			if w := want(b); !got.Equal(w) {
				tb.Failf("scoreboard: beat %d of %d: sent %v, expected %v at the sink, received %v", i, len(beats), b, w, got)
				return
			}
		}
	})
	for _, b := range beats {
		l.src.SendNowait(b)
	}
	tb.Await(board.Join())
}

func same(b stream.Beat) stream.Beat { return b }

// expectAgree expects every component to have counted n beats and the
// monitors to have seen the beats sent and received, in order.
func (l *loop) expectAgree(n int, want func(stream.Beat) stream.Beat) {
	Expect(l.tb.Err()).NotTo(HaveOccurred())
	Expect(l.src.Idle()).To(BeTrue())
	Expect(l.src.Count()).To(BeEquivalentTo(n))
	Expect(l.sink.Count()).To(BeEquivalentTo(n))
	Expect(l.monIn.Count()).To(BeEquivalentTo(n))
	Expect(l.monOut.Count()).To(BeEquivalentTo(n))
	if l.checkers {
		Expect(l.chkIn.Handshakes()).To(BeEquivalentTo(n))
		Expect(l.chkOut.Handshakes()).To(BeEquivalentTo(n))
	}
	for i, b := range l.sent {
		Expect(l.monIn.Recv()).To(stream.EqualBeat(b), "input beat %d", i)
		Expect(l.monOut.Recv()).To(stream.EqualBeat(want(b)), "output beat %d", i)
	}
	Expect(l.sink.Empty()).To(BeTrue())
}
