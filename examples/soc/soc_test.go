package soc_test

import (
	"bytes"
	"fmt"
	"github.com/weft-hdl/weft/internal/tier"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/weft-hdl/weft/bench"
	"github.com/weft-hdl/weft/compile"
	"github.com/weft-hdl/weft/examples/soc"
	"github.com/weft-hdl/weft/internal/plancheck"
	"github.com/weft-hdl/weft/plan"
)

// builder is soc_smp with n harts running firmware fw.
func builder(n int, fw string, arg int) *compile.Builder {
	return compile.NewBuilder().Files(soc.Files...).IncludeDir(soc.IncludeDir).Top(soc.Top).
		Param("NCORES", fmt.Sprint(n)).Param("FIRMWARE", `"`+fw+`"`).Param("FW_ARG", fmt.Sprint(arg))
}

// outcome is what a run of the SoC shows: its console text and its final
// outputs.
type outcome struct {
	out            string
	finished, pass bool
	result         uint64
}

// boot resets p's SoC and clocks it until its $finish (at most maxCycles).
// These runs are 10^4 to 10^6 cycles: shadowing each step on 2 and 4
// lanes (WEFT_EQUIV) would take minutes, so the lanes are checked by the
// equivalence spec below instead.
func boot(p *compile.Program, maxCycles int) outcome {
	GinkgoHelper()
	var out bytes.Buffer
	tb := bench.New(p, bench.Options{AllowFinish: true, Output: &out, NoEquivEnv: true})
	clk, rstN := tb.Signal("clk"), tb.Signal("rst_n")
	tb.Clock(clk, 10*bench.NS)
	tb.Reset(rstN, bench.ActiveLow, 4)
	for c := 0; tb.Finished() == nil && c < maxCycles; c += 10_000 {
		tb.ClockCycles(clk, 10_000)
	}
	Expect(tb.Finished()).NotTo(BeNil(), "no $finish within %d cycles; output:\n%s", maxCycles, out.String())
	return outcome{out: out.String(), finished: tb.Signal("finished").Get() == 1,
		pass: tb.Signal("pass").Get() == 1, result: tb.Signal("result").Get()}
}

var resultLine = regexp.MustCompile(`^\[soc\] hart (\d+) result=0x([0-9a-f]{8}) cycles=\d+$`)

// expectPass checks that every one of n harts reported 0 and the SoC
// finished with PASS.
func expectPass(o outcome, n int) {
	GinkgoHelper()
	harts := map[string]string{}
	for _, l := range strings.Split(o.out, "\n") {
		if m := resultLine.FindStringSubmatch(l); m != nil {
			harts[m[1]] = m[2]
		}
	}
	Expect(harts).To(HaveLen(n), "result lines in:\n%s", o.out)
	for h, r := range harts {
		Expect(r).To(Equal("00000000"), "hart %s failed; output:\n%s", h, o.out)
	}
	Expect(o.out).To(HaveSuffix(fmt.Sprintf("[soc] all %d harts done: PASS\n", n)))
	Expect(o.finished && o.pass && o.result == 0).To(BeTrue(), "finished %v pass %v result %#x", o.finished, o.pass, o.result)
}

var _ = Describe("the SMP SoC", func() {
	for _, n := range []int{1, 2, 4} {
		It(fmt.Sprintf("boots %d hart(s): every hart says hello in turn, locks, barriers and shared RAM work", n), func() {
			p, err := builder(n, soc.SMPFirmware, 0).Build()
			Expect(err).NotTo(HaveOccurred())
			DeferCleanup(p.Close)
			o := boot(p, 2_000_000)
			expectPass(o, n)
			var hello []string
			for h := range n {
				hello = append(hello, fmt.Sprintf("hart %d of %d: hello", h, n))
			}
			Expect(strings.Split(o.out, "\n")[:n]).To(Equal(hello))
			Expect(o.out).To(MatchRegexp(`(?m)^smp: sum=\d+ crc=[0-9a-f]{8} ok$`))
		})
	}

	It("passes every RV32IM self-test on every hart", func() {
		for _, n := range []int{1, 4} {
			p, err := builder(n, soc.ISAFirmware, 0).Build()
			Expect(err).NotTo(HaveOccurred())
			o := boot(p, 1_000_000)
			p.Close()
			Expect(o.out).To(HavePrefix("isa: rv32im\n"))
			expectPass(o, n)
		}
	})

	It("runs the compute benchmark's short form and checks its checksums", func() {
		p, err := builder(2, soc.BenchFirmware, 1).Build()
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(p.Close)
		o := boot(p, 2_000_000)
		expectPass(o, 2)
		Expect(o.out).To(MatchRegexp(`(?m)^bench: hart 1 iters 1 sum [0-9a-f]{8} ok$`))
	})

	It("runs the firmware its sources build, bit for bit", func() {
		if _, err := exec.LookPath("riscv64-unknown-elf-gcc"); err != nil {
			Skip("riscv64-unknown-elf-gcc is not installed (apt-get install gcc-riscv64-unknown-elf)")
		}
		cmd := exec.Command("fw/build.sh")
		cmd.Env = append(os.Environ(), "CHECK=1") // compare, write nothing
		out, err := cmd.CombinedOutput()
		Expect(err).NotTo(HaveOccurred(), "%s", out)
	})

	It("prints what Icarus Verilog and Verilator print", func() {
		if !tier.Long() {
			Skip(fmt.Sprintf("long tier (%s=1): Icarus and Verilator take about two minutes on these firmwares", tier.Env))
		}
		if raceEnabled {
			// The peers' runs take the same 40 s in every pass: CI's race
			// pass leaves them to its WEFT_EQUIV pass.
			Skip("compared with Icarus and Verilator in runs without the race detector")
		}
		peers := installedPeers()
		if len(peers) == 0 {
			Skip("neither iverilog nor verilator is installed")
		}
		for _, c := range []struct {
			fw     string
			n, arg int
		}{{soc.SMPFirmware, 2, 0}, {soc.ISAFirmware, 2, 0}, {soc.BenchFirmware, 3, 1}} {
			p, err := builder(c.n, c.fw, c.arg).Build()
			Expect(err).NotTo(HaveOccurred())
			o := boot(p, 2_000_000)
			p.Close()
			for _, peer := range peers {
				// Each Verilator build takes about 13 s and bench 37 s under
				// Icarus: smp runs on both, isa on Icarus, bench on Verilator.
				if peer.name == "icarus" && c.fw == soc.BenchFirmware || peer.name == "verilator" && c.fw == soc.ISAFirmware {
					continue
				}
				got, err := peer.run(GinkgoT().TempDir(), c.n, c.fw, c.arg)
				Expect(err).NotTo(HaveOccurred(), "%s", peer.name)
				// Lines printed by different harts in one clock cycle may come
				// in any order (IEEE 1800 leaves it open), so compare sorted.
				Expect(sortedLines(got)).To(Equal(sortedLines(o.out)), "%s, %d harts, %s:\n%s\nweft:\n%s", peer.name, c.n, c.fw, got, o.out)
			}
		}
	})

	It("computes the same on 2 and 4 lanes as sequentially, every home and line after every step", func() {
		// smp's first 10,000 cycles print the hellos through the arbiter,
		// one hart at a time; in the long tier, isa ends with the four
		// harts reporting in one cycle, from tiles on different lanes.
		cases := []struct {
			fw     string
			cycles int
		}{{soc.SMPFirmware, 10_000}}
		if tier.Long() {
			cases = append(cases, struct {
				fw     string
				cycles int
			}{soc.ISAFirmware, 1_000_000})
		}
		for _, c := range cases {
			lanes := []int{2, 4}
			if raceEnabled && !tier.Long() {
				lanes = lanes[:1] // each shadow is 15 s under the race detector
			}
			p, err := bench.Equivalent(builder(4, c.fw, 0), lanes...)
			Expect(err).NotTo(HaveOccurred())
			var out bytes.Buffer
			tb := bench.New(p, bench.Options{AllowFinish: true, Output: &out, NoEquivEnv: true})
			clk := tb.Signal("clk")
			tb.Clock(clk, 10*bench.NS)
			tb.Reset(tb.Signal("rst_n"), bench.ActiveLow, 4)
			for n := 0; tb.Finished() == nil && n < c.cycles; n += 1000 {
				tb.ClockCycles(clk, 1000)
			}
			for _, ref := range p.Sim.Shadows() {
				var ran uint64
				for _, st := range ref.ParallelStats() {
					ran += st.Parallel
				}
				Expect(ran).To(BeNumerically(">", 1000), "%s, %d lanes", c.fw, ref.Lanes())
			}
			p.Close()
			if c.fw == soc.ISAFirmware {
				expectPass(outcome{out: out.String(), finished: true, pass: true}, 4)
			} else {
				Expect(out.String()).To(HavePrefix("hart 0 of 4: hello\nhart 1 of 4: hello\nhart 2 of 4: hello\nhart 3 of 4: hello\n"))
			}
		}
	})

	It("puts two whole tiles, RAM included, in each lane at 4 harts and 2 lanes", func() {
		p, err := builder(4, soc.SMPFirmware, 0).Lanes(2).Partition(compile.PartitionAlways).Build()
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(p.Close)
		Expect(plancheck.CheckSimulator(p.Sim)).To(Succeed())
		// Each tile's objects lie in one lane's segment, except the tile's
		// input ports that the shared block drives (the arbiter's answer
		// nets, computed where the arbiter runs).
		fromShared := regexp.MustCompile(`\.u_tile\.(sh_gnt|sh_rvalid|sh_err|sh_rdata|clk|rst_n)$`)
		owner := map[int]map[int][]string{} // tile -> lane -> objects
		tile := regexp.MustCompile(`^soc_smp\.g_tile\[(\d)\]\.`)
		for _, s := range p.Plan.Segments {
			if s.Lane == plan.SharedLane { // read-only or never written
				continue
			}
			for _, o := range s.Objects {
				if m := tile.FindStringSubmatch(o); m != nil && !fromShared.MatchString(o) {
					t := int(m[1][0] - '0')
					if owner[t] == nil {
						owner[t] = map[int][]string{}
					}
					owner[t][s.Lane] = append(owner[t][s.Lane], o)
				}
			}
		}
		Expect(owner).To(HaveLen(4), "segments: %+v", p.Plan.Segments)
		perLane := map[int]int{}
		for t, ls := range owner {
			Expect(ls).To(HaveLen(1), "tile %d lies in lanes %v", t, ls)
			for l := range ls {
				perLane[l]++
			}
		}
		Expect(perLane).To(Equal(map[int]int{0: 2, 1: 2}), "%s", p.Plan)
		for _, k := range p.Plan.Kernels {
			waits := 0
			for _, ts := range k.Lanes {
				for _, t := range ts {
					waits += len(t.Waits)
				}
			}
			Expect(waits).To(BeNumerically("<=", 8), "%s\n%s", k.Name, p.Plan)
		}
	})
})

// sortedLines are text's lines, sorted.
func sortedLines(text string) []string {
	ls := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	slices.Sort(ls)
	return ls
}
