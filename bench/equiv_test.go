package bench_test

import (
	"bytes"
	"errors"
	"os"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/weft-hdl/weft/bench"
	"github.com/weft-hdl/weft/compile"
	"github.com/weft-hdl/weft/sim"
)

// coresBuilder builds testdata/cores.sv: four independent cores, which a
// partitioner spreads over lanes.
func coresBuilder() *compile.Builder {
	return compile.NewBuilder().Files("testdata/cores.sv").Top("cores").Output(&bytes.Buffer{})
}

// setEnv sets an environment variable for one spec.
func setEnv(name, value string) {
	old, had := os.LookupEnv(name)
	Expect(os.Setenv(name, value)).To(Succeed())
	DeferCleanup(func() {
		if had {
			os.Setenv(name, old)
		} else {
			os.Unsetenv(name)
		}
	})
}

// drive runs the cores for a while with changing input and a reset in the
// middle, and reports what the bench failed with.
func drive(p *compile.Program) (*failures, *bench.Bench) {
	fails := &failures{}
	tb := bench.New(p, bench.Options{Fail: fails.fail, Output: &bytes.Buffer{}})
	clk, rstN, in := tb.Signal("clk"), tb.Signal("rst_n"), tb.Signal("in")
	tb.Clock(clk, 10*bench.NS)
	for i := range 40 {
		tb.Set(in, uint64(i*37)&0xff)
		tb.Set(rstN, uint64(min(1, i%17)))
		tb.Tick(5)
	}
	return fails, tb
}

var _ = Describe("equivalence checking", func() {
	It("runs partitioned rebuilds in lock-step with the sequential program", func() {
		for _, be := range []compile.BackendKind{compile.BackendInterp, compile.BackendNative} {
			p, err := bench.Equivalent(coresBuilder().Backend(be), 2, 3)
			Expect(err).NotTo(HaveOccurred())
			DeferCleanup(p.Close)
			Expect(p.Lanes).To(Equal(1))
			refs := p.Sim.Shadows()
			Expect(refs).To(HaveLen(2))
			Expect(refs[0].Lanes()).To(Equal(2))
			Expect(refs[1].Lanes()).To(Equal(3))

			fails, _ := drive(p)
			Expect(fails.msgs).To(BeEmpty())
			Expect(p.DUT().MustSignal("sum").Get()).NotTo(BeZero())
			for _, r := range refs {
				Expect(r).To(bench.MatchState(p))
				ran := uint64(0)
				for _, st := range r.ParallelStats() {
					ran += st.Parallel
				}
				Expect(ran).To(BeNumerically(">", 100), "the partitioned kernels ran on %d lanes", r.Lanes())
			}
		}
	})

	It("checks 2 and 4 lanes by default, and refuses bad lane counts", func() {
		p, err := bench.Equivalent(coresBuilder())
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(p.Close)
		lanes := []int{}
		for _, r := range p.Sim.Shadows() {
			lanes = append(lanes, r.Lanes())
		}
		Expect(lanes).To(Equal([]int{2, 4}))

		_, err = bench.Equivalent(coresBuilder(), 0)
		Expect(err).To(MatchError(ContainSubstring("0 lanes")))
		_, err = bench.Equivalent(nil)
		Expect(err).To(MatchError(ContainSubstring("nil builder")))
		_, err = bench.Equivalent(compile.NewBuilder().Source("bad.sv", "module m(; endmodule"))
		Expect(err).To(MatchError(ContainSubstring("bad.sv:1:")))
	})

	It("fails the spec at the first step where a reference differs, naming the home", func() {
		p, err := coresBuilder().Build()
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(p.Close)
		// The same ports and state, but every core computes next
		// differently: the reference must catch it at the first home.
		src, err := os.ReadFile("testdata/cores.sv")
		Expect(err).NotTo(HaveOccurred())
		mutated := strings.Replace(string(src), "mixed * 16'd5", "mixed * 16'd3", 1)
		Expect(mutated).NotTo(Equal(string(src)))
		q, err := compile.NewBuilder().Source("cores.sv", mutated).Top("cores").Lanes(2).Partition(compile.PartitionAlways).Build()
		Expect(err).NotTo(HaveOccurred())
		Expect(p.Sim.Shadow(q.Sim)).To(Succeed())

		fails, tb := drive(p)
		Expect(fails.msgs).To(HaveLen(1))
		Expect(fails.msgs[0]).To(ContainSubstring("not equivalent after step 2: cores.c0.next is 5 (0x5), the reference has 3 (0x3)"))
		Expect(tb.Err()).To(HaveOccurred())
		err = p.Sim.Step()
		var ee *sim.EquivalenceError
		Expect(errors.As(err, &ee)).To(BeTrue(), "a stopped simulator keeps the difference: %v", err)
		Expect(ee.What).To(Equal("state"))
		Expect(ee.Home).To(Equal("cores.c0.next"))
	})

	Context("with "+bench.EquivEnv+" set", func() {
		It("attaches partitioned rebuilds to every bench on a compiled program", func() {
			setEnv(bench.EquivEnv, "3")
			p, err := coresBuilder().Build()
			Expect(err).NotTo(HaveOccurred())
			DeferCleanup(p.Close)
			fails, _ := drive(p)
			Expect(fails.msgs).To(BeEmpty())
			refs := p.Sim.Shadows()
			Expect(refs).To(HaveLen(1))
			Expect(refs[0].Lanes()).To(Equal(3))
		})

		It("takes 1 as 2 and 4 lanes, 0 as off, and refuses anything else", func() {
			for v, want := range map[string][]int{"1": {2, 4}, "0": nil, "2, 8": {2, 8}} {
				setEnv(bench.EquivEnv, v)
				p, err := coresBuilder().Build()
				Expect(err).NotTo(HaveOccurred())
				DeferCleanup(p.Close)
				fails := &failures{}
				bench.New(p, bench.Options{Fail: fails.fail})
				Expect(fails.msgs).To(BeEmpty())
				var lanes []int
				for _, r := range p.Sim.Shadows() {
					lanes = append(lanes, r.Lanes())
				}
				Expect(lanes).To(Equal(want), "%s=%q", bench.EquivEnv, v)
			}
			setEnv(bench.EquivEnv, "two")
			p, err := coresBuilder().Build()
			Expect(err).NotTo(HaveOccurred())
			DeferCleanup(p.Close)
			fails := &failures{}
			bench.New(p, bench.Options{Fail: fails.fail})
			Expect(fails.msgs).To(ConsistOf(ContainSubstring(`WEFT_EQUIV="two": want 1 or a comma list`)))
		})
	})

	Describe("MatchState", func() {
		It("compares every home and names the first difference", func() {
			a, err := coresBuilder().Build()
			Expect(err).NotTo(HaveOccurred())
			DeferCleanup(a.Close)
			b, err := coresBuilder().Lanes(2).Partition(compile.PartitionAlways).Build()
			Expect(err).NotTo(HaveOccurred())
			DeferCleanup(b.Close)
			Expect(b).To(bench.MatchState(a))
			Expect(b.Sim).To(bench.MatchState(a.Sim))

			_, err = b.Sim.Tick(b.DUT().MustSignal("clk").Home(), 3)
			Expect(err).NotTo(HaveOccurred())
			m := bench.MatchState(a)
			Expect(m.Match(b)).To(BeFalse())
			Expect(m.FailureMessage(b)).To(And(HavePrefix("Expected the same state in both simulators, but "), ContainSubstring("cores.")))
			Expect(m.NegatedFailureMessage(b)).To(ContainSubstring("every home holds the same value"))

			_, err = bench.MatchState(a).Match(42)
			Expect(err).To(MatchError("MatchState expects a *sim.Simulator or a bench.Target, got int"))
		})
	})
})
