package axis_test

import (
	"io"
	"math/rand/v2"
	"strconv"

	"github.com/google/go-cmp/cmp"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/weft-hdl/weft/bench"
	"github.com/weft-hdl/weft/bench/axis"
	"github.com/weft-hdl/weft/bench/stream"
	"github.com/weft-hdl/weft/compile"
	"github.com/weft-hdl/weft/dut"
)

// The FIFO's sideband widths (axis_fifo.sv's defaults).
const (
	idW   = 4
	destW = 3
	userW = 5
)

// design says which FIFO a spec runs and how.
type design struct {
	file     string // default testdata/axis_fifo.sv
	top      string // default axis_fifo
	width    int    // DATA_W
	params   []string
	pauseIn  float64 // source pause probability
	pauseOut float64 // sink pause probability (backpressure)
	// fail captures failures (the mutation specs); nil: Ginkgo's Fail.
	fail func(string, ...int)
	// raw leaves the input bus to the spec (no axis.Source).
	raw bool
	// seed fixes bench.Options.Seed (0: from Ginkgo's seed).
	seed uint64
	// timeout bounds the spec's waits (0: 2ms, 200k cycles).
	timeout bench.Time
}

// loop is a FIFO with an axis source on s_axis, a sink and a monitor on
// m_axis, and a stream checker on each bus.
type loop struct {
	tb      *bench.Bench
	clk     *dut.Signal
	rst     *dut.Signal
	bytes   int
	src     *axis.Source
	sink    *axis.Sink
	mon     *axis.Monitor
	in, out *stream.Checker
}

// newLoop builds d's design and starts the components, then resets the
// FIFO for 4 cycles.
func newLoop(d design) *loop {
	if d.file == "" {
		d.file = "testdata/axis_fifo.sv"
	}
	if d.top == "" {
		d.top = "axis_fifo"
	}
	b := compile.NewBuilder().Files(d.file).Top(d.top).Output(io.Discard).Param("DATA_W", strconv.Itoa(d.width))
	for i := 0; i+1 < len(d.params); i += 2 {
		b.Param(d.params[i], d.params[i+1])
	}
	p, err := b.Build()
	Expect(err).NotTo(HaveOccurred())
	DeferCleanup(p.Close)
	if d.timeout == 0 {
		d.timeout = 2 * bench.MS
	}
	tb := bench.New(p, bench.Options{Fail: d.fail, Seed: d.seed, Timeout: d.timeout})
	lp := &loop{tb: tb, bytes: d.width / 8, rst: tb.Signal("rst_n")}
	lp.clk = tb.Clock(tb.Signal("clk"), 10*bench.NS).Signal()
	in := axis.Options{Reset: lp.rst, ResetActiveLow: true}
	out := in
	if d.pauseIn > 0 {
		in.Pause = stream.RandomPause(tb, d.pauseIn)
	}
	if d.pauseOut > 0 {
		out.Pause = stream.RandomPause(tb, d.pauseOut)
	}
	if !d.raw {
		lp.src = axis.NewSource(tb, "s_axis", lp.clk, in)
	}
	lp.sink = axis.NewSink(tb, "m_axis", lp.clk, out)
	lp.mon = axis.NewMonitor(tb, "m_axis", lp.clk, axis.Options{Reset: lp.rst, ResetActiveLow: true})
	lp.in = axis.NewChecker(tb, "s_axis", lp.clk, axis.Options{Reset: lp.rst, ResetActiveLow: true})
	lp.out = axis.NewChecker(tb, "m_axis", lp.clk, axis.Options{Reset: lp.rst, ResetActiveLow: true})
	tb.Reset(lp.rst, bench.Inferred, 4)
	return lp
}

// sideband says which sideband signals random frames carry.
type sideband struct{ id, dest, user bool }

var allSideband = sideband{true, true, true}

// randomFrames are n frames of 1..64 random bytes, with random sideband
// (one tuser value per beat of a bytes-wide bus), drawn from the bench's
// seeded source. whole rounds lengths up to whole beats.
func randomFrames(r *rand.Rand, n, bytes int, sb sideband, whole bool) []axis.Frame {
	frames := make([]axis.Frame, n)
	for i := range frames {
		size := 1 + r.IntN(64)
		if whole {
			size = (size + bytes - 1) / bytes * bytes
		}
		f := axis.Frame{Data: make([]byte, size)}
		for j := range f.Data {
			f.Data[j] = byte(r.Uint32())
		}
		if sb.id {
			f.ID = r.Uint64N(1 << idW)
		}
		if sb.dest {
			f.Dest = r.Uint64N(1 << destW)
		}
		if sb.user {
			f.User = make([]uint64, (size+bytes-1)/bytes)
			for j := range f.User {
				f.User[j] = r.Uint64N(1 << userW)
			}
		}
		frames[i] = f
	}
	return frames
}

// beatsOf is the number of beats frames take on a bytes-wide bus.
func beatsOf(frames []axis.Frame, bytes int) uint64 {
	var n uint64
	for _, f := range frames {
		n += uint64(max(1, (len(f.Data)+bytes-1)/bytes))
	}
	return n
}

// transfer sends frames from a task and checks, as a scoreboard, that
// the sink and the monitor receive each of them intact and in order;
// every mismatch goes through tb.Failf, so that a captured failure (the
// mutation specs) stops it as it would stop a spec. It returns whether
// every frame arrived.
func (lp *loop) transfer(frames []axis.Frame) bool {
	tb := lp.tb
	tb.Fork("feeder", func() {
		for i, f := range frames {
			if i%2 == 0 {
				lp.src.Send(f) // waits for the frame's last beat
			} else {
				lp.src.SendNowait(f)
			}
		}
	})
	// A frame of 64 one-byte beats with both sides pausing half the time
	// takes a few hundred cycles; 20us is 2000.
	const within = 20 * bench.US
	for i, want := range frames {
		for _, rx := range []struct {
			name string
			recv func(bench.Time) (axis.Frame, bool)
		}{{"sink", lp.sink.RecvWithin}, {"monitor", lp.mon.RecvWithin}} {
			got, ok := rx.recv(within)
			if tb.Err() != nil {
				return false
			}
			if !ok {
				tb.Failf("scoreboard: the %s on m_axis received no frame %d of %d within %s; sent %v", rx.name, i, len(frames), within, want)
				return false
			}
			if diff := cmp.Diff(want, got); diff != "" {
				tb.Failf("scoreboard: frame %d of %d at the %s on m_axis differs from the one sent (-sent +received):\n%s", i, len(frames), rx.name, diff)
				return false
			}
		}
	}
	lp.src.WaitIdle()
	return tb.Err() == nil
}

// captured collects failures instead of failing the spec.
type captured struct{ msgs []string }

func (c *captured) fail(m string, _ ...int) { c.msgs = append(c.msgs, m) }
