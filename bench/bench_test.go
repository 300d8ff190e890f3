package bench_test

import (
	"bytes"
	"fmt"
	"path/filepath"
	"runtime"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/weft-hdl/weft/bench"
	"github.com/weft-hdl/weft/compile"
	"github.com/weft-hdl/weft/dut"
	"github.com/weft-hdl/weft/sim"
)

// failures records what the bench reports, and where it points.
type failures struct {
	msgs  []string
	where []string // file:line of the reported caller
}

func (f *failures) fail(msg string, skip ...int) {
	s := 0
	if len(skip) > 0 {
		s = skip[0]
	}
	_, file, line, _ := runtime.Caller(s + 1)
	f.msgs = append(f.msgs, msg)
	f.where = append(f.where, fmt.Sprintf("%s:%d", filepath.Base(file), line))
}

// nextLine is the file:line after its caller's.
func nextLine() string {
	_, file, line, _ := runtime.Caller(1)
	return fmt.Sprintf("%s:%d", filepath.Base(file), line+1)
}

var _ = Describe("a bench on two clocks", func() {
	var (
		p     *compile.Program
		d     *dut.DUT
		tb    *bench.Bench
		fails *failures
		out   *bytes.Buffer
		opts  bench.Options

		clka, clkb, rstN, rst, mode, na, nb *dut.Signal
	)

	build := func() {
		var err error
		p, err = compile.NewBuilder().Files("testdata/twoclk.sv").Top("twoclk").Build()
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(p.Close)
		d = p.DUT()
		tb = bench.New(p, opts)
		sig := func(n string) *dut.Signal { return tb.Signal(n) }
		clka, clkb, rstN, rst, mode, na, nb = sig("clka"), sig("clkb"), sig("rst_n"), sig("rst"), sig("mode"), sig("na"), sig("nb")
		tb.Set(rstN, 1)
	}

	BeforeEach(func() {
		fails = &failures{}
		out = &bytes.Buffer{}
		opts = bench.Options{Fail: fails.fail, Output: out}
	})

	Context("with default options", func() {
		BeforeEach(build)
		AfterEach(func() {
			Expect(fails.msgs).To(BeEmpty())
		})

		It("toggles two clocks of different periods in one time base", func() {
			tb.Clock(clka, 10*bench.NS) // rises at 5, 15, 25, ...
			tb.Clock(clkb, 6*bench.NS)  // rises at 3, 9, 15, ...
			tb.Timer(60 * bench.NS)
			Expect(tb.Now()).To(Equal(60 * bench.NS))
			Expect(na).To(bench.HaveValue(6))
			Expect(nb).To(bench.HaveValue(10))
		})

		It("waits for rising and falling edges and counts clock cycles", func() {
			tb.Clock(clka, 10*bench.NS)
			tb.Clock(clkb, 6*bench.NS)
			tb.RisingEdge(clka)
			Expect(tb.Now()).To(Equal(5 * bench.NS))
			Expect(clka).To(bench.BeHigh())
			tb.FallingEdge(clka)
			Expect(tb.Now()).To(Equal(10 * bench.NS))
			Expect(clka).To(bench.BeLow())
			tb.ClockCycles(clkb, 3) // 15, 21, 27
			Expect(tb.Now()).To(Equal(27 * bench.NS))
			tb.Edge(na) // na counts at 35
			Expect(tb.Now()).To(Equal(35 * bench.NS))
			Expect(na).To(bench.HaveValue(4))
		})

		It("runs a timer, a zero timer and the first of several triggers", func() {
			tb.Timer(7 * bench.NS)
			Expect(tb.Now()).To(Equal(7 * bench.NS))
			tb.Timer(0)
			Expect(tb.Now()).To(Equal(7 * bench.NS))
			tb.Clock(clka, 10*bench.NS)
			Expect(tb.First(bench.Timer(100*bench.NS), bench.RisingEdge(clka)).Index()).To(Equal(1))
			Expect(tb.Now()).To(Equal(12 * bench.NS))
			Expect(tb.First(bench.Timer(3*bench.NS), bench.RisingEdge(clka)).Index()).To(Equal(0))
			Expect(tb.Now()).To(Equal(15 * bench.NS))
			tb.WaitUntil("na reaches 3", func() bool { return na.Get() == 3 })
			Expect(tb.Now()).To(Equal(32 * bench.NS))
		})

		It("ticks the main clock on the fast path like the scheduler does", func() {
			tb.Clock(clka, 10*bench.NS)
			tb.Tick(100)
			Expect(tb.Now()).To(Equal(995 * bench.NS))
			Expect(na).To(bench.HaveValue(100))
			tb.FallingEdge(clka)
			Expect(tb.Now()).To(Equal(1000 * bench.NS))
			tb.Tick(1)
			Expect(tb.Now()).To(Equal(1005 * bench.NS))
			Expect(na).To(bench.HaveValue(101))
			Expect(p.Sim.Time()).To(BeEquivalentTo(1005 * bench.NS))

			// The same with a second clock: the scheduler's slow path.
			p2, err := compile.NewBuilder().Files("testdata/twoclk.sv").Top("twoclk").Build()
			Expect(err).NotTo(HaveOccurred())
			DeferCleanup(p2.Close)
			tb2 := bench.New(p2, opts)
			tb2.Set(tb2.Signal("rst_n"), 1)
			tb2.Clock(tb2.Signal("clka"), 10*bench.NS)
			tb2.Clock(tb2.Signal("clkb"), 4*bench.NS)
			tb2.Tick(100)
			Expect(tb2.Now()).To(Equal(995 * bench.NS))
			Expect(tb2.Signal("na")).To(bench.HaveValue(100))
			Expect(p2.Sim.Time()).To(BeEquivalentTo(995 * bench.NS))
		})

		It("holds an active-low reset, inferred from the name", func() {
			tb.Clock(clka, 10*bench.NS)
			tb.Tick(5)
			Expect(na).To(bench.HaveValue(5))
			tb.Reset(rstN, bench.Inferred, 3)
			Expect(rstN).To(bench.BeHigh())
			Expect(tb.Now()).To(Equal(75 * bench.NS))
			Expect(na).To(bench.HaveValue(0))
			tb.Tick(2)
			Expect(na).To(bench.HaveValue(2))
		})

		It("holds an active-high reset, inferred or stated", func() {
			tb.Clock(clkb, 10*bench.NS)
			tb.Clock(clka, 10*bench.NS)
			tb.Tick(4)
			Expect(nb).To(bench.HaveValue(4))
			tb.Reset(rst, bench.Inferred, 2)
			Expect(rst).To(bench.BeLow())
			Expect(nb).To(bench.HaveValue(0))
			tb.Tick(3)
			Expect(nb).To(bench.HaveValue(3))
			tb.Reset(rst, bench.ActiveLow, 2) // drives 0 then leaves it at 1: held in reset
			Expect(rst).To(bench.BeHigh())
			tb.Tick(3)
			Expect(nb).To(bench.HaveValue(0))
		})

		It("wires an output to an input with delta steps", func() {
			tb.Clock(clka, 10*bench.NS)
			w := tb.Wire(tb.Signal("q"), tb.Signal("d"))
			for range 6 {
				tb.Tick(1)
				Expect(tb.Signal("e")).To(bench.HaveValue(na.Get() >> 1 & 1))
			}
			w.Cut()
			tb.Tick(2) // na 6 → 8: q falls, d keeps 1
			Expect(tb.Signal("q")).To(bench.BeLow())
			Expect(tb.Signal("e")).To(bench.BeHigh())
		})
	})

	Context("when something goes wrong", func() {
		BeforeEach(build)

		It("fails a wait that can never end, at the caller's line", func() {
			line := nextLine() // fails:
			tb.RisingEdge(tb.Signal("never"))
			Expect(fails.msgs).To(ConsistOf(
				"bench: at 0s: waiting for RisingEdge(twoclk.never): nothing is scheduled (no clock, no timer), so it can never happen"))
			Expect(fails.where).To(ConsistOf(line))
			Expect(tb.Err()).To(HaveOccurred())
			tb.Tick(3) // a stopped bench returns at once
			Expect(fails.msgs).To(HaveLen(1))
		})

		It("fails a wait that outlasts the timeout", func() {
			opts.Timeout = 50 * bench.NS
			build()
			tb.Clock(clka, 10*bench.NS)
			tb.RisingEdge(tb.Signal("never"))
			Expect(fails.msgs).To(ConsistOf(
				"bench: at 50ns: still waiting for RisingEdge(twoclk.never) after 50ns (Options.Timeout)"))
		})

		It("reports $fatal with the design's message", func() {
			tb.Set(mode, 1)
			tb.Clock(clka, 10*bench.NS)
			tb.Tick(10)
			Expect(fails.msgs).To(HaveLen(1))
			Expect(fails.msgs[0]).To(HavePrefix("bench: at 35ns: the design ended the run: sim: step"))
			Expect(fails.msgs[0]).To(ContainSubstring("$fatal(1) at testdata/twoclk.sv:"))
			Expect(fails.msgs[0]).To(ContainSubstring("boom at na=3"))
			Expect(tb.Finished().Fatal()).To(BeTrue())
		})

		It("reports $finish, or allows it", func() {
			tb.Set(mode, 2)
			tb.Clock(clka, 10*bench.NS)
			tb.Tick(10)
			Expect(fails.msgs).To(HaveLen(1))
			Expect(fails.msgs[0]).To(ContainSubstring("$finish"))

			fails.msgs = nil
			opts.AllowFinish = true
			build()
			tb.Set(mode, 2)
			tb.Clock(clka, 10*bench.NS)
			tb.Tick(10)
			Expect(fails.msgs).To(BeEmpty())
			Expect(tb.Finished()).NotTo(BeNil())
			Expect(tb.Err()).To(MatchError(sim.ErrFinished))
			Expect(na).To(bench.HaveValue(4))
		})

		It("reports $error unless errors are allowed", func() {
			tb.Set(mode, 3)
			tb.Clock(clka, 10*bench.NS)
			tb.Tick(10)
			Expect(fails.msgs).To(ConsistOf(And(HavePrefix("bench: at "), ContainSubstring("the design reported an error"), ContainSubstring("bad na=3"))))

			fails.msgs = nil
			opts.AllowErrors = true
			build()
			tb.Set(mode, 3)
			tb.Clock(clka, 10*bench.NS)
			tb.Tick(10)
			Expect(fails.msgs).To(BeEmpty())
			Expect(na).To(bench.HaveValue(10))
			Expect(out.String()).To(ContainSubstring("bad na=3"))
		})

		It("refuses misused calls with the signal's name", func() {
			tb.Clock(na, 10*bench.NS)
			tb2 := bench.New(p, opts)
			tb2.Clock(clka, 1)
			tb3 := bench.New(p, opts)
			tb3.Clock(clka, 10*bench.NS)
			tb3.RisingEdge(na)
			tb4 := bench.New(p, opts)
			tb4.Signal("clk_a")
			tb5 := bench.New(p, opts)
			tb5.Set(mode, 7)
			tb6 := bench.New(p, opts)
			tb6.Tick(1)
			Expect(fails.msgs).To(Equal([]string{
				"bench: at 0s: Clock(na): a clock must be a 1-bit top-level input; na is 32 bits, not a top-level input",
				"bench: at 0s: Clock(clka, 1ps): the period must be at least 2ps",
				"bench: at 0s: RisingEdge(twoclk.na): na is 32 bits wide; edges are defined on 1-bit signals (use Edge for any change)",
				`bench: at 0s: dut: no signal "clk_a" in the design; did you mean "clka" or "clkb"?`,
				"bench: at 0s: Set(mode, 7 (0x7)): does not fit in 2 bits (the range is -2..3, negative values as two's complement)",
				"bench: at 0s: Tick needs a running clock: start one with Clock(sig, period)",
			}))
		})
	})

	Describe("the matchers", func() {
		BeforeEach(build)

		It("describe the signal, its width and both values in hex", func() {
			tb.Clock(clka, 10*bench.NS)
			tb.Tick(5)
			Expect(na).To(bench.HaveValue(5))
			Expect(na).To(bench.HaveValue(uint8(5)))
			Expect(na).NotTo(bench.HaveValue(6))
			Expect(tb.Signal("s8")).To(bench.HaveValue(-5))
			Expect(tb.Signal("s8")).To(bench.HaveValue(0xfb))
			Expect(d.Signal("na")).To(bench.HaveValue(5)) // (signal, error)

			m := bench.HaveValue(0x5a)
			Expect(m.Match(na)).To(BeFalse())
			Expect(m.FailureMessage(na)).To(Equal("Expected twoclk.na (32 bits) to have value 0x5a (90), but it is 0x5 (5)"))
			m = bench.HaveValue(5)
			Expect(m.Match(na)).To(BeTrue())
			Expect(m.NegatedFailureMessage(na)).To(Equal("Expected twoclk.na (32 bits) not to have value 0x5 (5), but it does"))

			h := bench.BeHigh()
			Expect(h.Match(clka)).To(BeTrue())
			l := bench.BeLow()
			Expect(l.Match(clka)).To(BeFalse())
			Expect(l.FailureMessage(clka)).To(Equal("Expected twoclk.clka (1 bit) to be low (0), but it is high (1)"))
		})

		It("refuse what they cannot compare", func() {
			_, err := bench.HaveValue(1).Match(42)
			Expect(err).To(MatchError("HaveValue expects a *dut.Signal, got int"))
			_, err = bench.HaveValue("x").Match(na)
			Expect(err).To(MatchError("HaveValue wants an integer or *big.Int, got string"))
			_, err = bench.HaveValue(-1).Match(na)
			Expect(err).To(MatchError(ContainSubstring("twoclk.na is unsigned")))
			_, err = bench.BeHigh().Match(na)
			Expect(err).To(MatchError("BeHigh: twoclk.na is 32 bits wide; use HaveValue"))
		})
	})
})

var _ = Describe("Time", func() {
	It("prints in the largest whole unit", func() {
		for t, s := range map[bench.Time]string{
			0: "0s", 7: "7ps", 1500: "1.5ns", 10 * bench.NS: "10ns", 20 * bench.US: "20us",
			3 * bench.MS: "3ms", 2 * bench.S: "2s", -1500: "-1.5ns",
		} {
			Expect(t.String()).To(Equal(s))
		}
		Expect(strings.Count((1 * bench.NS).String(), "n")).To(Equal(1))
	})
})
