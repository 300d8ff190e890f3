// Package ginkgosuite is a Ginkgo suite of specs that are meant to fail
// or time out: bench/ginkgo_test.go runs it in a child `go test` and
// checks how each one ended, which no in-process spec can (a real
// Ginkgo failure inside a task, SpecTimeout interrupting a wait, leaked
// task goroutines at the end of the suite).
package ginkgosuite_test

import (
	"runtime"
	"strings"
	"testing"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/weft-hdl/weft/bench"
	"github.com/weft-hdl/weft/compile"
)

func TestSuite(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "ginkgosuite")
}

func newBench(opts bench.Options) (*bench.Bench, *compile.Program) {
	p, err := compile.NewBuilder().Files("../stream.sv").Top("stream").Build()
	Expect(err).NotTo(HaveOccurred())
	DeferCleanup(p.Close)
	tb := bench.New(p, opts)
	tb.Clock(tb.Signal("clk"), 10*bench.NS)
	tb.Reset(tb.Signal("rst_n"), bench.Inferred, 3)
	return tb, p
}

var _ = Describe("specs that must fail", func() {
	It("fails an expectation inside a task", func() {
		tb, _ := newBench(bench.Options{})
		tb.Fork("checker", func() {
			tb.ClockCycles(tb.Signal("clk"), 2)
			Expect(tb.Signal("taken").Get()).To(BeEquivalentTo(99), "EXPECTATION-IN-TASK")
		})
		tb.ClockCycles(tb.Signal("clk"), 10)
	})

	It("is interrupted by its SpecTimeout", func(ctx SpecContext) {
		tb, _ := newBench(bench.Options{Context: ctx, Timeout: -1})
		tb.WaitUntil("taken reaches 5", func() bool { return tb.Signal("taken").Get() == 5 })
	}, SpecTimeout(300*time.Millisecond))

	It("hits the default timeout", func() {
		tb, _ := newBench(bench.Options{})
		tb.Fork("sink", func() { tb.RisingEdge(tb.Signal("out_valid")) })
		tb.RisingEdge(tb.Signal("out_valid"))
	})

	It("panics inside a task", func() {
		tb, _ := newBench(bench.Options{})
		tb.Fork("crasher", func() {
			tb.Timer(1 * bench.NS)
			var p *int
			_ = *p
		})
		tb.Timer(5 * bench.NS)
	})
})

var _ = Describe("specs that must pass", func() {
	It("leaves live tasks to the bench's cleanup", func() {
		tb, _ := newBench(bench.Options{})
		for range 5 {
			tb.Fork("monitor", func() {
				for {
					tb.RisingEdge(tb.Signal("clk"))
				}
			})
		}
		tb.ClockCycles(tb.Signal("clk"), 20)
	})
})

var _ = AfterSuite(func() {
	// Every task coroutine of the suite has ended.
	Eventually(func() int {
		buf := make([]byte, 1<<20)
		buf = buf[:runtime.Stack(buf, true)]
		return strings.Count(string(buf), "weft/bench.(*Bench).Fork")
	}).Should(BeZero(), "task goroutines leaked")
})
