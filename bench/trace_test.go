package bench_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/weft-hdl/weft/bench"
	"github.com/weft-hdl/weft/compile"
)

// vcdChanges reads a VCD file (a minimal reader, apart from package
// vcd's writer) into the value changes of the variable named name:
// "time=value" for each, times in the file's unit.
func vcdChanges(path, name string) []string {
	data, err := os.ReadFile(path)
	Expect(err).NotTo(HaveOccurred())
	text := string(data)
	m := regexp.MustCompile(`\$var \w+ \d+ (\S+) ` + regexp.QuoteMeta(name) + `( \[[^\]]*\])? \$end`).FindStringSubmatch(text)
	Expect(m).NotTo(BeNil(), "no $var %s in %s", name, path)
	id := m[1]
	var out []string
	now := "?"
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(line, "#"):
			now = line[1:]
		case strings.HasPrefix(line, "b") && strings.HasSuffix(line, " "+id):
			out = append(out, now+"="+strings.TrimPrefix(strings.Fields(line)[0], "b"))
		case len(line) == 1+len(id) && (line[0] == '0' || line[0] == '1') && line[1:] == id:
			out = append(out, now+"="+line[:1])
		}
	}
	return out
}

var _ = Describe("waveforms", func() {
	var fails *failures
	BeforeEach(func() { fails = &failures{} })
	AfterEach(func() { Expect(fails.msgs).To(BeEmpty()) })

	It("Options.VCD records every value change, also of cycles the fast path would run", func() {
		path := filepath.Join(GinkgoT().TempDir(), "stream.vcd")
		s := newStream(bench.Options{Fail: fails.fail, Output: GinkgoWriter, VCD: path})
		s.Set(s.inValid, 1)
		s.Set(s.inData, 3)
		s.Set(s.outReady, 1)
		s.Tick(4)
		s.Close()
		Expect(vcdChanges(path, "clk")).To(HaveLen(1 + 13)) // the value at 0, a toggle every 5ns to 65ns
		// taken counts from the rise at 35ns on (reset ended at 25ns).
		Expect(vcdChanges(path, "taken")).To(Equal([]string{"0=0", "35000=1", "45000=10", "55000=11", "65000=100"}))
		Expect(vcdChanges(path, "out_data")).To(Equal([]string{"0=0", "35000=100"}))
	})

	It("Trace dumps chosen scopes; WEFT_VCD gives every spec its own file", func() {
		dir := GinkgoT().TempDir()
		GinkgoT().Setenv(bench.VCDEnv, dir)
		s := newStream(bench.Options{Fail: fails.fail, Output: GinkgoWriter})
		s.Trace(filepath.Join(dir, "top.vcd"), "stream")
		s.Tick(2)
		s.Close()
		files, err := filepath.Glob(filepath.Join(dir, "*.vcd"))
		Expect(err).NotTo(HaveOccurred())
		Expect(files).To(ConsistOf(filepath.Join(dir, "top.vcd"),
			filepath.Join(dir, "waveforms_Trace_dumps_chosen_scopes_WEFT_VCD_gives_every_spec_its_own_file.vcd")))
		// The spec's file starts with the bench, the Trace where it is called.
		Expect(vcdChanges(filepath.Join(dir, "top.vcd"), "clk")).To(Equal([]string{"25000=1", "30000=0", "35000=1", "40000=0", "45000=1"}))
		Expect(vcdChanges(filepath.Join(dir, "waveforms_Trace_dumps_chosen_scopes_WEFT_VCD_gives_every_spec_its_own_file.vcd"), "clk")).To(
			HaveExactElements("0=0", "5000=1", "10000=0", "15000=1", "20000=0", "25000=1", "30000=0", "35000=1", "40000=0", "45000=1"))
	})

	It("writes the same waveform from partitioned kernels as from sequential ones", func() {
		dir := GinkgoT().TempDir()
		run := func(name string, b *compile.Builder) []byte {
			p, err := b.Build()
			Expect(err).NotTo(HaveOccurred())
			DeferCleanup(p.Close)
			path := filepath.Join(dir, name)
			tb := bench.New(p, bench.Options{Fail: fails.fail, Output: GinkgoWriter, VCD: path, Seed: 11})
			tb.Clock(tb.Signal("clk"), 10*bench.NS)
			tb.Reset(tb.Signal("rst_n"), bench.Inferred, 2)
			rng := tb.Rand()
			for range 50 {
				tb.Set(tb.Signal("in"), uint64(rng.IntN(256)))
				tb.ClockCycles(tb.Signal("clk"), 1+rng.IntN(3))
			}
			tb.Close()
			data, err := os.ReadFile(path)
			Expect(err).NotTo(HaveOccurred())
			return data
		}
		seq := run("seq.vcd", compile.NewBuilder().Files("testdata/cores.sv").Top("cores"))
		par := run("par.vcd", compile.NewBuilder().Files("testdata/cores.sv").Top("cores").Lanes(2).Partition(compile.PartitionAlways))
		Expect(len(seq)).To(BeNumerically(">", 10000))
		Expect(string(par)).To(Equal(string(seq)))
	})

	It("honours $dumpfile and $dumpvars in the design, in its timescale", func() {
		dir := GinkgoT().TempDir()
		src, err := os.ReadFile("testdata/dumped.sv")
		Expect(err).NotTo(HaveOccurred())
		path := filepath.Join(dir, "dumped.vcd")
		rtl := filepath.Join(dir, "dumped.sv")
		Expect(os.WriteFile(rtl, []byte(strings.Replace(string(src), "DUMPFILE", path, 1)), 0o644)).To(Succeed())
		p, err := compile.NewBuilder().Files(rtl).Top("dumped").Build()
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(p.Close)
		tb := bench.New(p, bench.Options{Fail: fails.fail, Output: GinkgoWriter})
		tb.Clock(tb.Signal("clk"), 10*bench.NS)
		tb.Reset(tb.Signal("rst_n"), bench.Inferred, 1)
		tb.Tick(3)
		tb.Close()
		data, err := os.ReadFile(path)
		Expect(err).NotTo(HaveOccurred())
		Expect(string(data)).To(MatchRegexp(`\$timescale\s+100ps\s+\$end`))
		Expect(vcdChanges(path, "count")).To(Equal([]string{"0=0", "150=1", "250=10", "350=11"}))
	})
})
