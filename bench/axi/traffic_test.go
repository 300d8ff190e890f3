package axi_test

import (
	"fmt"
	"io"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/weft-hdl/weft/bench"
	"github.com/weft-hdl/weft/bench/axi"
	"github.com/weft-hdl/weft/compile"
)

// trafficOp is one row of axi_traffic's burst table (testdata/
// axi_traffic.sv, function op): the spec computes the memory image the
// master should leave from it.
type trafficOp struct {
	off, beats, size int // size in bytes per beat
	kind             string
	smask            byte
}

var trafficOps = []trafficOp{
	{0x000, 1, 4, "INCR", 0xf},
	{0x010, 4, 4, "INCR", 0xf},
	{0x040, 16, 4, "INCR", 0xf},
	{0x100, 8, 2, "INCR", 0xf},
	{0x203, 5, 1, "INCR", 0xf},
	{0x308, 4, 4, "WRAP", 0xf},
	{0x414, 8, 4, "WRAP", 0xf},
	{0x500, 4, 4, "FIXED", 0xf},
	{0x603, 4, 4, "INCR", 0xf},
	{0x700, 32, 4, "INCR", 0x5},
	{0x842, 2, 2, "WRAP", 0xf},
	{0xff0, 4, 4, "INCR", 0xf},
	{0x906, 16, 2, "WRAP", 0xf},
	{0xa01, 3, 1, "FIXED", 0xf},
}

// trafficBeats is the beats of the table, each way.
func trafficBeats() int {
	n := 0
	for _, o := range trafficOps {
		n += o.beats
	}
	return n
}

// trafficImage is the memory axi_traffic leaves in a zeroed RAM of size
// bytes, worked out per burst as a byte range rather than beat by beat:
// INCR covers its start address to the end of its last beat, WRAP its
// whole wrap window, FIXED the bytes of one beat (holding the last
// beat's data). Lanes the strobe mask leaves off stay zero.
func trafficImage(size int, page, seed byte) []byte {
	mem := make([]byte, size)
	base := int(page) << 12
	for _, o := range trafficOps {
		first, last, xor := o.off, 0, byte(0)
		switch o.kind {
		case "INCR":
			last = o.off&^(o.size-1) + o.beats*o.size - 1
		case "WRAP":
			span := o.beats * o.size
			first = o.off &^ (span - 1)
			last = first + span - 1
		case "FIXED":
			last = o.off&^(o.size-1) + o.size - 1
			xor = byte(o.beats - 1)
		}
		for a := first; a <= last; a++ {
			if o.smask>>(a%4)&1 == 1 {
				mem[base+a] = byte(a) ^ byte(a>>8&7)<<5 ^ seed ^ xor
			}
		}
	}
	return mem
}

// diffMem describes where got differs from want (the first few bytes).
func diffMem(got, want []byte) []string {
	var out []string
	n := 0
	for a := range want {
		if got[a] != want[a] {
			if n < 4 {
				out = append(out, fmt.Sprintf("Mem()[%#x] = %#02x, want %#02x", a, got[a], want[a]))
			}
			n++
		}
	}
	if n > 4 {
		out = append(out, fmt.Sprintf("... %d bytes differ in all", n))
	}
	return out
}

// trafficCfg is how a traffic run stresses the RAM.
type trafficCfg struct {
	pause          int // 1 in pause cycles holds a ready low (0: never)
	maxDelay       int // RespDelay draws 0..maxDelay
	maxOutstanding int
	throttle       bool // the master throttles bready/rready
}

const ramSize = 64 << 10

// runTraffic builds the traffic master from file, serves it with a RAM
// configured by cfg, runs it once and returns what went wrong: the
// master's own mismatch and error counts, the memory image, the RAM's
// Stats. fail receives the bench's failures (nil: the spec fails).
func runTraffic(file string, cfg trafficCfg, fail func(string, ...int)) []string {
	p, err := compile.NewBuilder().Files(file).Top("axi_traffic").Output(io.Discard).Build()
	Expect(err).NotTo(HaveOccurred())
	DeferCleanup(p.Close)
	tb := bench.New(p, bench.Options{Fail: fail, Output: GinkgoWriter})
	clk := tb.Clock(tb.Signal("clk"), 10*bench.NS)
	rstN, done := tb.Signal("rst_n"), tb.Signal("done")
	rng := tb.Rand()
	opts := axi.Options{Reset: rstN, ResetActiveLow: true, MaxOutstanding: cfg.maxOutstanding}
	if cfg.pause > 0 {
		opts.Pause = func() bool { return rng.IntN(cfg.pause) == 0 }
	}
	if cfg.maxDelay > 0 {
		opts.RespDelay = func() int { return rng.IntN(cfg.maxDelay + 1) }
	}
	ram := axi.NewRAM(tb, "m_axi", clk.Signal(), ramSize, opts)
	page, seed := byte(rng.IntN(16)), byte(rng.IntN(256))
	tb.Set(tb.Signal("page"), page)
	tb.Set(tb.Signal("seed"), seed)
	tb.Set(tb.Signal("id"), rng.IntN(16))
	tb.Set(tb.Signal("throttle"), cfg.throttle)
	tb.Set(tb.Signal("start"), 0)
	tb.Reset(rstN, bench.ActiveLow, 3)
	tb.Set(tb.Signal("start"), 1)
	tb.RisingEdge(clk.Signal())
	tb.Set(tb.Signal("start"), 0)
	finished := tb.AwaitWithin(bench.Until("done is high", func() bool { return done.Get() == 1 }), 50*bench.US)
	tb.ReadOnly() // the RAM's task has taken this edge's handshakes too

	var problems []string
	if tb.Err() != nil {
		return append(problems, tb.Err().Error())
	}
	if !finished {
		return append(problems, fmt.Sprintf("done did not rise within 50us (page %d, seed %#x)", page, seed))
	}
	if n := tb.Signal("mismatches").Get(); n != 0 {
		problems = append(problems, fmt.Sprintf("the master counted %d mismatching read beats", n))
	}
	if n := tb.Signal("resp_errors").Get(); n != 0 {
		problems = append(problems, fmt.Sprintf("the master counted %d error responses", n))
	}
	problems = append(problems, diffMem(ram.Mem(), trafficImage(ramSize, page, seed))...)
	want := axi.Stats{Reads: len(trafficOps), Writes: len(trafficOps), Beats: 2 * trafficBeats()}
	if got := ram.Stats(); got != want {
		problems = append(problems, fmt.Sprintf("Stats() = %+v, want %+v", got, want))
	}
	return problems
}

// failures records the failures the bench reports, instead of failing.
type failures []string

func (f *failures) fail(m string, _ ...int) { *f = append(*f, m) }

var _ = Describe("RAM serving the axi_traffic master", func() {
	DescribeTable("writes and reads back every kind of burst",
		func(cfg trafficCfg) {
			Expect(runTraffic("testdata/axi_traffic.sv", cfg, nil)).To(BeEmpty())
		},
		Entry("back to back", trafficCfg{}),
		Entry("with random pauses and response delays", trafficCfg{pause: 3, maxDelay: 4, throttle: true}),
		Entry("one transaction outstanding at a time", trafficCfg{pause: 4, maxDelay: 2, maxOutstanding: 1, throttle: true}),
		Entry("long response delays", trafficCfg{maxDelay: 12, maxOutstanding: 4, throttle: true}),
	)

	// The mutation checks: broken copies of the master must fail the
	// same spec. The copies differ from axi_traffic.sv in one line (see
	// TestBrokenCopies).
	It("fails on a master whose WRAP beat addresses do not wrap", func() {
		var f failures
		problems := runTraffic("testdata/axi_traffic_wrap_broken.sv", trafficCfg{pause: 3, maxDelay: 2, throttle: true}, f.fail)
		Expect(f).To(BeEmpty(), "the master breaks no protocol rule: its data is wrong")
		// It reads back what it wrote the same wrong way, so only the
		// memory image shows it.
		Expect(problems).To(ContainElement(HavePrefix("Mem()[")))
	})

	It("fails on a master that raises wlast one beat early, naming the rule", func() {
		var f failures
		problems := runTraffic("testdata/axi_traffic_wlast_broken.sv", trafficCfg{pause: 3, maxDelay: 2, throttle: true}, f.fail)
		Expect(f).To(HaveLen(1))
		Expect(f[0]).To(ContainSubstring(`axi ram "m_axi": W beat`))
		Expect(f[0]).To(ContainSubstring("wlast must be high on beat"))
		Expect(problems).NotTo(BeEmpty())
	})
})
