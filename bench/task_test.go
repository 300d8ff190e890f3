package bench_test

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/weft-hdl/weft/bench"
	"github.com/weft-hdl/weft/bench/scoreboard"
	"github.com/weft-hdl/weft/compile"
	"github.com/weft-hdl/weft/dut"
)

// streamBench is the stream stage under a bench with a 10ns clock, reset.
type streamBench struct {
	*bench.Bench
	p                                          *compile.Program
	clock                                      *bench.Clock
	clk, inValid, inReady, inData              *dut.Signal
	outValid, outReady, outData, taken, sumSig *dut.Signal
}

func newStream(opts bench.Options) *streamBench {
	p, err := compile.NewBuilder().Files("testdata/stream.sv").Top("stream").Build()
	Expect(err).NotTo(HaveOccurred())
	DeferCleanup(p.Close)
	tb := bench.New(p, opts)
	s := &streamBench{Bench: tb, p: p}
	sig := tb.Signal
	s.clk, s.inValid, s.inReady, s.inData = sig("clk"), sig("in_valid"), sig("in_ready"), sig("in_data")
	s.outValid, s.outReady, s.outData, s.taken, s.sumSig = sig("out_valid"), sig("out_ready"), sig("out_data"), sig("taken"), sig("sum")
	s.clock = tb.Clock(s.clk, 10*bench.NS)
	tb.Reset(sig("rst_n"), bench.Inferred, 3)
	return s
}

// source drives values through the valid/ready handshake, one per cycle
// at most, changing inputs after rising edges as a registered driver does.
func (s *streamBench) source(vals []uint64) {
	for _, v := range vals {
		s.Set(s.inData, v)
		s.Set(s.inValid, 1)
		for {
			s.RisingEdge(s.clk)
			if s.inReady.Get() == 1 || s.outReady.Get() == 1 {
				break
			}
		}
	}
	s.Set(s.inValid, 0)
}

var _ = Describe("tasks", func() {
	var (
		fails *failures
		out   *bytes.Buffer
		opts  bench.Options
	)
	BeforeEach(func() {
		fails = &failures{}
		out = &bytes.Buffer{}
		opts = bench.Options{Fail: fails.fail, Output: out}
	})

	It("run when the forker waits, interleave in a fixed order and join", func() {
		s := newStream(opts)
		var log []string
		note := func(what string) { log = append(log, fmt.Sprintf("%s %s", s.Now(), what)) }
		a := s.Fork("a", func() {
			note("a starts")
			s.Timer(5 * bench.NS)
			note("a after 5ns")
			s.Timer(10 * bench.NS)
			note("a ends")
		})
		b := s.Fork("b", func() {
			note("b starts")
			s.Timer(15 * bench.NS)
			note("b after 15ns")
		})
		note("spec forked")
		Expect(a.Done()).To(BeFalse())
		s.Await(bench.Combine(a.Join(), b.Join()))
		note("spec joined")
		Expect(a.Done() && b.Done()).To(BeTrue())
		Expect(fails.msgs).To(BeEmpty())
		// Reset ended at 25ns; a and b both finish at 40ns, a first (fork order).
		Expect(log).To(Equal([]string{
			"25ns spec forked", "25ns a starts", "25ns b starts", "30ns a after 5ns",
			"40ns a ends", "40ns b after 15ns", "40ns spec joined",
		}))
	})

	It("interleave identically on every run (100 runs, one seed)", func() {
		run := func() string {
			o := opts
			o.Seed = 7
			s := newStream(o)
			var b strings.Builder
			rng := s.Rand()
			for i := range 4 {
				s.Fork(fmt.Sprintf("t%d", i), func() {
					for range 20 {
						s.ClockCycles(s.clk, 1+rng.IntN(3))
						fmt.Fprintf(&b, "%s t%d %d;", s.Now(), i, s.taken.Get())
						s.Set(s.inValid, uint64(rng.IntN(2)))
						s.Set(s.inData, uint64(rng.IntN(256)))
					}
				})
			}
			s.Set(s.outReady, 1)
			s.Timer(1 * bench.US)
			s.Close()
			return b.String()
		}
		first := run()
		Expect(first).To(ContainSubstring("t3"))
		for range 99 {
			Expect(run()).To(Equal(first))
		}
		Expect(fails.msgs).To(BeEmpty())
	})

	It("can be killed: deferred functions run, Join happens, a wait never returns", func() {
		s := newStream(opts)
		var deferred, after bool
		t := s.Fork("monitor", func() {
			defer func() { deferred = true }()
			s.WaitUntil("never", func() bool { return false })
			after = true
		})
		s.ClockCycles(s.clk, 3)
		Expect(t.Done()).To(BeFalse())
		t.Kill()
		Expect(t.Done()).To(BeTrue())
		Expect(deferred).To(BeTrue())
		Expect(after).To(BeFalse())
		s.Await(t.Join()) // at once
		var self *bench.Task
		self = s.Fork("self", func() {
			s.Timer(1 * bench.NS)
			self.Kill()
			after = true
		})
		s.Await(self.Join())
		Expect(after).To(BeFalse())
		t.Kill() // again: nothing
		Expect(fails.msgs).To(BeEmpty())
	})

	It("fail the spec when they panic, naming the task and the line", func() {
		s := newStream(opts)
		s.Fork("crasher", func() {
			s.Timer(3 * bench.NS)
			var m map[string]int
			m["x"] = 1
		})
		s.Timer(10 * bench.NS)
		Expect(fails.msgs).To(HaveLen(1))
		Expect(fails.msgs[0]).To(MatchRegexp(`^bench: at 28ns: task "crasher" \(forked at task_test.go:\d+\) panicked: assignment to entry in nil map`))
		Expect(fails.msgs[0]).To(ContainSubstring("task_test.go"))
		Expect(s.Err()).To(HaveOccurred())
	})

	It("report bench failures inside them with the task's name", func() {
		s := newStream(opts)
		s.Fork("driver", func() {
			s.Timer(1 * bench.NS)
			s.Set(s.outData, 1) // an output
			s.Timer(1 * bench.NS)
			panic("not reached: a task ends when the bench stopped")
		})
		s.Timer(10 * bench.NS)
		Expect(fails.msgs).To(HaveLen(1))
		Expect(fails.msgs[0]).To(MatchRegexp(`^bench: at 26ns in task "driver" \(forked at task_test.go:\d+\): .*out_data`))
	})

	It("keep the fast path when they wait on bench code only", func() {
		s := newStream(opts)
		ev := s.NewEvent("go")
		var seen uint64
		s.Fork("waiter", func() {
			s.Await(ev.Wait())
			seen = s.taken.Get()
		})
		s.Timer(0) // let it start and wait
		before := s.p.Sim.TickCalls()
		s.Set(s.inValid, 1)
		s.Set(s.outReady, 1)
		s.ClockCycles(s.clk, 1000)
		Expect(s.p.Sim.TickCalls()).To(BeNumerically(">", before), "the cycles ran on the fast path")
		ev.Set()
		s.Timer(0)
		Expect(seen).To(BeEquivalentTo(1000))
	})
})

var _ = Describe("triggers and sync", func() {
	var (
		fails *failures
		out   *bytes.Buffer
		opts  bench.Options
	)
	BeforeEach(func() {
		fails = &failures{}
		out = &bytes.Buffer{}
		opts = bench.Options{Fail: fails.fail, Output: out}
	})
	AfterEach(func() { Expect(fails.msgs).To(BeEmpty()) })

	It("First reports every trigger of the same evaluation; AwaitWithin returns on its timeout", func() {
		s := newStream(opts)
		f := s.First(bench.RisingEdge(s.clk), bench.Timer(10*bench.NS), bench.FallingEdge(s.clk))
		// Reset ended at a rise (25ns): the next fall is at 30ns, with the timer... at 35ns.
		Expect(f.Index()).To(Equal(2))
		Expect(s.Now()).To(Equal(30 * bench.NS))
		f = s.First(bench.RisingEdge(s.clk), bench.Timer(5*bench.NS), bench.Edge(s.clk))
		Expect(s.Now()).To(Equal(35 * bench.NS))
		Expect(f.Has(0) && f.Has(1) && f.Has(2)).To(BeTrue())
		Expect(f.Count()).To(Equal(3))
		Expect(s.AwaitWithin(bench.RisingEdge(s.outValid), 50*bench.NS)).To(BeFalse())
		Expect(s.Now()).To(Equal(85 * bench.NS))
		s.Set(s.inValid, 1)
		Expect(s.AwaitWithin(bench.RisingEdge(s.outValid), 50*bench.NS)).To(BeTrue())
		Expect(s.Now()).To(Equal(95 * bench.NS))
	})

	It("Combine waits for all of its triggers, FirstOf for any inside it", func() {
		s := newStream(opts)
		s.Await(bench.Combine(bench.Timer(12*bench.NS), bench.ClockCycles(s.clk, 2)))
		Expect(s.Now()).To(Equal(45 * bench.NS))
		s.Await(bench.Combine(bench.FirstOf(bench.Timer(1*bench.NS), bench.Timer(100*bench.NS)), bench.Timer(2*bench.NS)))
		Expect(s.Now()).To(Equal(47 * bench.NS))
		s.Await(bench.Combine())
		Expect(s.Now()).To(Equal(47 * bench.NS))
	})

	It("Event wakes every waiter; Clear blocks later waits", func() {
		s := newStream(opts)
		ev := s.NewEvent("ev")
		woken := 0
		for i := range 3 {
			s.Fork(fmt.Sprint("w", i), func() { s.Await(ev.Wait()); woken++ })
		}
		s.Timer(5 * bench.NS)
		Expect(woken).To(Equal(0))
		ev.Set()
		Expect(ev.IsSet()).To(BeTrue())
		s.Timer(0)
		Expect(woken).To(Equal(3))
		ev.Clear()
		Expect(s.AwaitWithin(ev.Wait(), 10*bench.NS)).To(BeFalse())
	})

	It("Lock serialises tasks in request order", func() {
		s := newStream(opts)
		l := s.NewLock("bus")
		var order []string
		for _, n := range []string{"x", "y", "z"} {
			s.Fork(n, func() {
				l.Lock()
				order = append(order, n+"+"+s.Now().String())
				s.Timer(10 * bench.NS)
				order = append(order, n+"-")
				l.Unlock()
			})
		}
		s.Timer(100 * bench.NS)
		Expect(order).To(Equal([]string{"x+25ns", "x-", "y+35ns", "y-", "z+45ns", "z-"}))
		Expect(l.Locked()).To(BeFalse())
	})

	It("a killed task releases its locks and leaves its place in a queue", func() {
		s := newStream(opts)
		l := s.NewLock("bus")
		holder := s.Fork("holder", func() {
			l.Lock()
			s.WaitUntil("never", func() bool { return false })
		})
		var got []string
		s.Fork("next", func() {
			l.Lock()
			got = append(got, "next has the lock at "+s.Now().String())
		})
		q := bench.NewQueue[int](s.Bench, "q", 0)
		first := s.Fork("first getter", func() { q.Get(); got = append(got, "first got one") })
		s.Fork("second getter", func() { got = append(got, fmt.Sprint("second got ", q.Get())) })
		s.Timer(10 * bench.NS)
		holder.Kill()
		first.Kill()
		q.Put(7)
		s.Timer(1 * bench.NS)
		Expect(got).To(Equal([]string{"next has the lock at 35ns", "second got 7"}))
	})

	It("Queue passes values between tasks, blocking when full or empty", func() {
		s := newStream(opts)
		q := bench.NewQueue[int](s.Bench, "q", 2)
		var got []string
		s.Fork("producer", func() {
			for i := range 5 {
				q.Put(i)
				got = append(got, fmt.Sprintf("put%d@%s", i, s.Now()))
			}
		})
		s.Fork("consumer", func() {
			for range 5 {
				s.Timer(10 * bench.NS)
				v := q.Get()
				got = append(got, fmt.Sprintf("get%d@%s", v, s.Now()))
			}
		})
		s.Timer(100 * bench.NS)
		Expect(got).To(Equal([]string{
			"put0@25ns", "put1@25ns", "get0@35ns", "put2@35ns", "get1@45ns", "put3@45ns",
			"get2@55ns", "put4@55ns", "get3@65ns", "get4@75ns",
		}))
		v, ok := q.TryGet()
		Expect(ok).To(BeFalse())
		Expect(v).To(Equal(0))
		Expect(q.TryPut(9)).To(BeTrue())
		Expect(q.Len()).To(Equal(1))
	})

	It("ReadWrite evaluates the writes so far; ReadOnly shows final values and forbids writes", func() {
		s := newStream(opts)
		s.Set(s.inData, 7)
		Expect(s.sumSig.Get()).To(BeEquivalentTo(0), "not evaluated yet")
		s.ReadWrite()
		Expect(s.sumSig.Get()).To(BeEquivalentTo(7))
		Expect(s.Now()).To(Equal(25 * bench.NS))
		s.Fork("late writer", func() {
			s.ReadWrite()
			s.Set(s.inData, 9) // another delta at the same time
		})
		s.ReadOnly()
		Expect(s.sumSig.Get()).To(BeEquivalentTo(9))
		Expect(s.Now()).To(Equal(25 * bench.NS))
		s.Set(s.inData, 1)
		Expect(fails.msgs).To(ConsistOf(ContainSubstring("Set(stream.in_data) in the ReadOnly phase")))
		fails.msgs = nil
	})

	It("NextTimeStep happens at the next scheduled time", func() {
		s := newStream(opts)
		s.NextTimeStep()
		Expect(s.Now()).To(Equal(30 * bench.NS))
		s.Timer(1 * bench.NS)
		s.NextTimeStep()
		Expect(s.Now()).To(Equal(35 * bench.NS))
	})

	It("PreEdge shows what the flops sampled at the edge, the post-edge state beside it", func() {
		s := newStream(opts)
		pre := s.PreEdge(s.inValid, s.inData, s.outValid, s.taken)
		s.Set(s.inData, 0x41)
		s.Set(s.inValid, 1)
		s.RisingEdge(s.clk)
		// The edge took the word: the flops now show it, PreEdge what they saw.
		Expect(s.outValid).To(bench.BeHigh())
		Expect(pre.Get(s.outValid)).To(BeEquivalentTo(0))
		Expect(pre.Get(s.inValid)).To(BeEquivalentTo(1))
		Expect(pre.Get(s.inData)).To(BeEquivalentTo(0x41))
		Expect(s.taken.Get()).To(BeEquivalentTo(1))
		Expect(pre.Get(s.taken)).To(BeEquivalentTo(0))
		Expect(pre.GetBig(s.taken).Int64()).To(BeEquivalentTo(0))
		s.RisingEdge(s.clk)
		Expect(pre.Get(s.taken)).To(BeEquivalentTo(1))
		pre.Stop()
	})

	It("shape clocks: duty cycle, phase, start level, a cycle counter", func() {
		p, err := compile.NewBuilder().Files("testdata/twoclk.sv").Top("twoclk").Build()
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(p.Close)
		tb := bench.New(p, opts)
		a, b := tb.Signal("clka"), tb.Signal("clkb")
		var edges []string
		ca := tb.Clock(a, 10*bench.NS, bench.DutyCycle(0.2), bench.Phase(3*bench.NS))
		tb.Clock(b, 7*bench.NS, bench.StartHigh())
		Expect(b).To(bench.BeHigh())
		for range 6 {
			f := tb.First(bench.Edge(a), bench.Edge(b))
			edges = append(edges, fmt.Sprintf("%s:%d%d", tb.Now(), a.Get(), b.Get()))
			_ = f
		}
		// a: low 3+8ns, high 2ns, low 8ns...; b: high 3.5ns, low 3.5ns, ...
		Expect(edges).To(Equal([]string{"3.5ns:00", "7ns:01", "10.5ns:00", "11ns:10", "13ns:00", "14ns:01"}))
		Expect(ca.Cycles()).To(BeEquivalentTo(1))
		tb.Tick(5)
		Expect(ca.Cycles()).To(BeEquivalentTo(6))
		tb.Clock(a, 10*bench.NS, bench.DutyCycle(1.5))
		Expect(fails.msgs).To(ConsistOf(ContainSubstring("DutyCycle(1.5)")))
		fails.msgs = nil
	})

	It("counts cycles on the fast path too", func() {
		p, err := compile.NewBuilder().Files("testdata/stream.sv").Top("stream").Build()
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(p.Close)
		tb := bench.New(p, opts)
		c := tb.Clock(tb.Signal("clk"), 10*bench.NS)
		tb.Reset(tb.Signal("rst_n"), bench.Inferred, 3)
		tb.Tick(1000)
		Expect(p.Sim.TickCalls()).To(BeNumerically(">", 0))
		Expect(c.Cycles()).To(BeEquivalentTo(1003))
	})

	It("logs with the sim time and the task, and time-stamps the design's output", func() {
		s := newStream(opts)
		s.Fork("sink", func() {
			s.Timer(2 * bench.NS)
			s.Logger().Info("byte received", "value", "0x5a")
		})
		s.Logger().Warn("spec here")
		s.Timer(5 * bench.NS)
		Expect(out.String()).To(ContainSubstring("25ns  [spec]  WARN  spec here"))
		Expect(out.String()).To(ContainSubstring("27ns  [sink]  INFO  byte received  value=0x5a"))

		p, err := compile.NewBuilder().Files("testdata/twoclk.sv").Top("twoclk").Build()
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(p.Close)
		out.Reset()
		o := opts
		o.Timestamps, o.AllowErrors = true, true
		tb := bench.New(p, o)
		tb.Set(tb.Signal("rst_n"), 1)
		tb.Set(tb.Signal("mode"), 3)
		tb.Clock(tb.Signal("clka"), 10*bench.NS)
		tb.Tick(6)
		Expect(out.String()).To(MatchRegexp(`(?m)^      35ns  ERROR: testdata/twoclk.sv:\d+: bad na=3$`))
	})
})

var _ = Describe("waits that could hang", func() {
	var fails *failures
	BeforeEach(func() { fails = &failures{} })

	It("fail after the default timeout, naming every pending trigger", func() {
		s := newStream(bench.Options{Fail: fails.fail, Output: GinkgoWriter})
		s.clock.Stop()
		s.Clock(s.clk, 10*bench.US) // fewer cycles to the default bound
		s.Fork("sink", func() { s.Edge(s.taken) })
		s.WaitUntil("taken reaches 3", func() bool { return s.taken.Get() == 3 })
		Expect(fails.msgs).To(HaveLen(1))
		Expect(fails.msgs[0]).To(MatchRegexp(`^bench: at 100.000025ms: still waiting for Until\(taken reaches 3\) after 100ms \(Options.Timeout\); also pending: task "sink" \(forked at task_test.go:\d+\) waits for Edge\(stream.taken\)$`))
		s.Close()
		s.Edge(s.taken)
		Expect(fails.msgs).To(HaveLen(1), "a closed bench returns at once")
	})

	It("fail a deadlock between tasks at once", func() {
		s := newStream(bench.Options{Fail: fails.fail, Output: GinkgoWriter})
		s.clock.Stop()
		e := s.NewEvent("never")
		s.Fork("sink", func() { s.Await(e.Wait()) })
		s.Await(e.Wait())
		Expect(fails.msgs).To(HaveLen(1))
		Expect(fails.msgs[0]).To(MatchRegexp(`nothing is scheduled .*the spec waits for Event\(never\).Wait\(\); task "sink" .* waits for Event\(never\).Wait\(\)`))
	})

	It("fail bench code that loops at one time", func() {
		s := newStream(bench.Options{Fail: fails.fail, Output: GinkgoWriter})
		s.Fork("spinner", func() {
			for i := 0; ; i++ {
				s.Set(s.inData, uint64(i&0xff))
				s.ReadWrite()
			}
		})
		s.Timer(1 * bench.NS)
		Expect(fails.msgs).To(HaveLen(1))
		Expect(fails.msgs[0]).To(ContainSubstring("without time passing"))
	})

	It("are interrupted by the spec's context", func(ctx SpecContext) {
		c, cancel := context.WithTimeout(ctx, 200*time.Millisecond)
		defer cancel()
		s := newStream(bench.Options{Fail: fails.fail, Output: GinkgoWriter, Context: c, Timeout: -1})
		s.WaitUntil("never", func() bool { return false })
		Expect(fails.msgs).To(HaveLen(1))
		Expect(fails.msgs[0]).To(MatchRegexp(`^bench: at .*: interrupted \(context deadline exceeded\) while waiting; pending: the spec waits for Until\(never\)`))
	}, SpecTimeout(20*time.Second))
})

// toggleSrc is a one-flop design for the plain tests below.
const toggleSrc = "module t(input logic clk, output logic q);\n  always_ff @(posedge clk) q <= ~q;\nendmodule\n"

// plainBench builds module top of src and a bench on it for a plain Go
// test: failures are collected in *fails instead of failing the test.
func plainBench(t *testing.T, src, top string) (*bench.Bench, *[]string) {
	t.Helper()
	p, err := compile.NewBuilder().Source(top+".sv", src).Top(top).Output(&bytes.Buffer{}).Build()
	if err != nil {
		t.Fatal(err)
	}
	fails := &[]string{}
	tb := bench.New(p, bench.Options{Fail: func(m string, _ ...int) { *fails = append(*fails, m) }})
	t.Cleanup(func() { tb.Close(); p.Close() })
	return tb, fails
}

// TestAtEnd: end checks run at Close, last first, and not after a failure.
func TestAtEnd(t *testing.T) {
	for _, failFirst := range []bool{false, true} {
		tb, failed := plainBench(t, toggleSrc, "t")
		var ran []string
		tb.AtEnd(func() { ran = append(ran, "first") })
		tb.AtEnd(func() { ran = append(ran, "second"); tb.Failf("still expected: 3 items") })
		if failFirst {
			tb.Failf("boom")
		}
		tb.Close()
		fails := *failed
		switch {
		case failFirst && (len(ran) != 0 || len(fails) != 1):
			t.Errorf("after a failure: checks ran %v, failures %q", ran, fails)
		case !failFirst && (strings.Join(ran, ",") != "second" || len(fails) != 1 || !strings.Contains(fails[0], "still expected")):
			t.Errorf("checks ran %v (want second only: the first stops after its failure), failures %q", ran, fails)
		}
	}
}

// TestPreEdgeWithoutFlops: a rising edge that fires nothing in the design
// (only wires on the clock) still samples, so a monitor of a wire-through
// bus sees its handshakes.
func TestPreEdgeWithoutFlops(t *testing.T) {
	tb, failed := plainBench(t, "module w(input logic clk, input logic [7:0] a, output logic [7:0] y);\n  assign y = a + 8'd1;\nendmodule\n", "w")
	clk := tb.Clock(tb.Signal("clk"), 10*bench.NS)
	a, y := tb.Signal("a"), tb.Signal("y")
	pre := tb.PreEdge(a, y)
	for i := range 5 {
		tb.Set(a, i*3)
		tb.RisingEdge(clk.Signal())
		if got := pre.Get(y); got != uint64(i*3+1) {
			t.Fatalf("edge %d: pre-edge y = %d, want %d", i, got, i*3+1)
		}
	}
	if len(*failed) > 0 {
		t.Fatal(*failed)
	}
}

// TestForkedAtUserLine: a task a component forks (here a scoreboard's
// watcher) names the spec's line that started it, not the component's.
func TestForkedAtUserLine(t *testing.T) {
	tb, failed := plainBench(t, toggleSrc, "t")
	clk := tb.Clock(tb.Signal("clk"), 10*bench.NS).Signal()
	sb := scoreboard.New[int](tb, "sb")
	sb.Expect("s", 1)
	line := nextLine()
	sb.Watch("s", func() int { tb.RisingEdge(clk); return 2 })
	tb.ClockCycles(clk, 3)
	if len(*failed) == 0 || !strings.Contains((*failed)[0], "forked at "+line) {
		t.Fatalf("want the failure to name %s: %q", line, *failed)
	}
}

// TestPreEdgeOtherHandle: a sample is found by any handle on the signal,
// not only the one PreEdge was given.
func TestPreEdgeOtherHandle(t *testing.T) {
	tb, failed := plainBench(t, "module t(input logic clk, input logic [7:0] a, output logic [7:0] q);\n  always_ff @(posedge clk) q <= a;\nendmodule\n", "t")
	clk := tb.Clock(tb.Signal("clk"), 10*bench.NS).Signal()
	pre := tb.PreEdge(tb.Signal("a"))
	tb.Set(tb.Signal("a"), 42)
	tb.RisingEdge(clk)
	if got := pre.Get(tb.Signal("a")); got != 42 || len(*failed) > 0 {
		t.Fatalf("pre-edge a through a second handle = %d, failures %q", got, *failed)
	}
}

// TestQueueGetWithin: GetWithin returns an item that comes in time, and
// false (leaving later items for the next Get) when none does.
func TestQueueGetWithin(t *testing.T) {
	tb, failed := plainBench(t, toggleSrc, "t")
	tb.Clock(tb.Signal("clk"), 10*bench.NS)
	q := bench.NewQueue[int](tb, "q", 0)
	tb.Fork("producer", func() {
		tb.Timer(25 * bench.NS)
		q.Put(1)
		tb.Timer(100 * bench.NS)
		q.Put(2)
	})
	if v, ok := q.GetWithin(50 * bench.NS); !ok || v != 1 || tb.Now() != 25*bench.NS {
		t.Fatalf("GetWithin = %d, %v at %s; want 1 at 25ns", v, ok, tb.Now())
	}
	if _, ok := q.GetWithin(50 * bench.NS); ok || tb.Now() != 75*bench.NS {
		t.Fatalf("GetWithin with nothing in time: ok %v at %s; want false at 75ns", ok, tb.Now())
	}
	if v := q.Get(); v != 2 || len(*failed) > 0 {
		t.Fatalf("the late item: %d, failures %q", v, *failed)
	}
}
