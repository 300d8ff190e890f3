package bench_test

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	"github.com/onsi/ginkgo/v2/types"
	. "github.com/onsi/gomega"
)

// lineOf is the 1-based line of the first line of file containing s.
func lineOf(file, s string) int {
	src, err := os.ReadFile(file)
	Expect(err).NotTo(HaveOccurred())
	for i, l := range strings.Split(string(src), "\n") {
		if strings.Contains(l, s) {
			return i + 1
		}
	}
	Fail("no " + s + " in " + file)
	return 0
}

var _ = Describe("under Ginkgo itself", Ordered, func() {
	var specs map[string]types.SpecReport
	suite := "testdata/ginkgosuite/suite_test.go"

	BeforeAll(func() {
		report := filepath.Join(GinkgoT().TempDir(), "report.json")
		cmd := exec.Command("go", "test", "-count=1", "./testdata/ginkgosuite", "-ginkgo.json-report="+report)
		out, err := cmd.CombinedOutput()
		Expect(err).To(HaveOccurred(), "the suite has failing specs:\n%s", out)
		data, err := os.ReadFile(report)
		Expect(err).NotTo(HaveOccurred(), "no report:\n%s", out)
		var reports []types.Report
		Expect(json.Unmarshal(data, &reports)).To(Succeed())
		specs = map[string]types.SpecReport{}
		for _, r := range reports {
			for _, s := range r.SpecReports {
				name := s.LeafNodeText
				if name == "" {
					name = s.LeafNodeType.String()
				}
				specs[name] = s
			}
		}
	})

	It("fails a spec at the line of an expectation inside a task and names the task", func() {
		s := specs["fails an expectation inside a task"]
		Expect(s.State).To(Equal(types.SpecStateFailed))
		Expect(s.Failure.Message).To(ContainSubstring("EXPECTATION-IN-TASK"))
		Expect(s.Failure.Location.LineNumber).To(Equal(lineOf(suite, `"EXPECTATION-IN-TASK"`)))
		Expect(s.CapturedGinkgoWriterOutput).To(ContainSubstring(
			fmt.Sprintf(`task "checker" (forked at suite_test.go:%d) failed`, lineOf(suite, `tb.Fork("checker"`))))
	})

	It("interrupts a wait at the spec's SpecTimeout", func() {
		s := specs["is interrupted by its SpecTimeout"]
		Expect(s.State).To(Equal(types.SpecStateTimedout))
		Expect(s.RunTime).To(BeNumerically("<", 10*time.Second))
		Expect(s.CapturedGinkgoWriterOutput).To(MatchRegexp(`interrupted \(context canceled\) while waiting; pending: the spec waits for Until\(taken reaches 5\)`))
	})

	It("fails a wait that never ends at the default timeout, naming the trigger", func() {
		s := specs["hits the default timeout"]
		Expect(s.State).To(Equal(types.SpecStateFailed))
		Expect(s.Failure.Message).To(MatchRegexp(`^bench: at 100\.\d+ms: still waiting for RisingEdge\(stream.out_valid\) after 100ms \(Options.Timeout\)`))
	})

	It("turns a panic in a task into a failure with the task's stack", func() {
		s := specs["panics inside a task"]
		Expect(s.State).To(Equal(types.SpecStateFailed))
		Expect(s.Failure.Message).To(MatchRegexp(`task "crasher" \(forked at suite_test.go:\d+\) panicked: runtime error: invalid memory address`))
		Expect(regexp.MustCompile(`suite_test.go:\d+`).FindAllString(s.Failure.Message, -1)).To(ContainElement(
			fmt.Sprintf("suite_test.go:%d", lineOf(suite, "_ = *p"))))
	})

	It("kills tasks alive at the end of a spec without leaking their goroutines", func() {
		Expect(specs["leaves live tasks to the bench's cleanup"].State).To(Equal(types.SpecStatePassed))
		Expect(specs["AfterSuite"].State).To(Equal(types.SpecStatePassed), specs["AfterSuite"].Failure.Message)
	})
})
