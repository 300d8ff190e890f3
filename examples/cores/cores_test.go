package cores_test

import (
	"math/rand/v2"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/weft-hdl/weft/bench"
	"github.com/weft-hdl/weft/compile"
	"github.com/weft-hdl/weft/examples/cores"
	"github.com/weft-hdl/weft/internal/plancheck"
	"github.com/weft-hdl/weft/lanes"
	"github.com/weft-hdl/weft/plan"
)

// runModel drives prog for cycles rising edges with random input, after a
// reset, and checks sum against the Go model of every core after each.
func runModel(p *compile.Program, n, cycles int) {
	GinkgoHelper()
	tb := bench.New(p, bench.Options{})
	clk, rstN, in, sum := tb.Signal("clk"), tb.Signal("rst_n"), tb.Signal("in"), tb.Signal("sum")
	tb.Clock(clk, 10*bench.NS)
	tb.Reset(rstN, bench.ActiveLow, 2)
	cpus := make([]cores.CPU, n)
	for i := range cpus {
		cpus[i].Seed = cores.Seed(i)
		cpus[i].Reset()
	}
	Expect(sum).To(bench.HaveValue(cores.Sum(cpus)), "after reset")
	r := rand.New(rand.NewPCG(7, 11))
	for cyc := range cycles {
		v := r.Uint32()
		tb.Set(in, uint64(v))
		tb.Tick(1)
		for i := range cpus {
			cpus[i].Step(v)
		}
		Expect(sum).To(bench.HaveValue(cores.Sum(cpus)), "cycle %d", cyc)
	}
}

var _ = Describe("sixteen cores", func() {
	builder := func() *compile.Builder {
		return compile.NewBuilder().Files(cores.Files...).Top(cores.Top)
	}

	It("computes what the Go model computes, sequentially", func() {
		p, err := builder().Build()
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(p.Close)
		runModel(p, 16, 500)
	})

	It("computes the same on 2 and 4 lanes, every home after every step", func() {
		for _, be := range []compile.BackendKind{compile.BackendInterp, compile.BackendNative} {
			p, err := bench.Equivalent(builder().Backend(be), 2, 4)
			Expect(err).NotTo(HaveOccurred())
			DeferCleanup(p.Close)
			runModel(p, 16, 300)
			for _, ref := range p.Sim.Shadows() {
				var ran uint64
				for _, st := range ref.ParallelStats() {
					ran += st.Parallel
				}
				Expect(ran).To(BeNumerically(">=", 300), "%v, %d lanes", be, ref.Lanes())
			}
		}
	})

	It("is worth partitioning, and each lane gets whole cores", func() {
		// The default charge per cross-lane wait, not this machine's: the
		// plan is what is checked here.
		p, err := builder().Lanes(2).SyncCost(lanes.SyncCostNative).Build()
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(p.Close)
		Expect(p.Lanes).To(Equal(2))
		Expect(p.Notes).To(BeEmpty())
		Expect(plancheck.CheckSimulator(p.Sim)).To(Succeed())
		for _, k := range p.Plan.Kernels {
			if k.Name == "fused posedge cores.clk" || k.Name == "settle" {
				Expect(k.Partitioned()).To(BeTrue(), "%s: %s", k.Name, k.Reason)
				Expect(float64(k.SingleCost)/float64(k.Makespan())).To(BeNumerically(">", 1.5), "estimated speedup of %s", k.Name)
			}
		}
		// Every core's registers sit in exactly one lane's segment, and both
		// lanes hold cores.
		owner := map[string]int{}
		for _, s := range p.Plan.Segments {
			for _, o := range s.Objects {
				if strings.HasSuffix(o, ".cpu.r") {
					Expect(owner).NotTo(HaveKey(o))
					owner[o] = s.Lane
				}
			}
		}
		Expect(owner).To(HaveLen(16))
		perLane := map[int]int{}
		for _, l := range owner {
			perLane[l]++
		}
		Expect(perLane).To(Equal(map[int]int{0: 8, 1: 8}))
		Expect(p.Plan.Layout).To(Equal(plan.LayoutSegmented))
	})
})
