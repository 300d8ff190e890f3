package selector

import (
	"testing"
	"time"
)

// decided returns a selector that has decided and will not re-check for a
// very long time, to isolate the decided hot path.
func decided(tb testing.TB) *Selector {
	tb.Helper()
	p := smallPolicy()
	p.FirstRecheck, p.MaxRecheck = 1<<62, 1<<62
	clk := &fakeClock{}
	s, err := New(p, clk, 2)
	if err != nil {
		tb.Fatal(err)
	}
	for s.Stats().Measuring {
		s.Run(func(c int) { clk.now += time.Duration(100 - 40*c) })
	}
	return s
}

func TestHotPathDoesNotAllocate(t *testing.T) {
	s := decided(t)
	sink := 0
	if a := testing.AllocsPerRun(1000, func() { c, _ := s.Pick(); sink += c }); a != 0 {
		t.Errorf("decided Pick: %v allocs per call", a)
	}
	if a := testing.AllocsPerRun(1000, func() { s.Run(func(c int) { sink += c }) }); a != 0 {
		t.Errorf("decided Run: %v allocs per call", a)
	}
	// Measuring, including the decision at the end of a measurement, does not
	// allocate either: all buffers come from New.
	p := smallPolicy()
	clk := &fakeClock{}
	m, err := New(p, clk, 3)
	if err != nil {
		t.Fatal(err)
	}
	if a := testing.AllocsPerRun(10*int(measureCalls(p, 3)), func() {
		m.Run(func(c int) { clk.now += time.Duration(c + 1) })
	}); a != 0 {
		t.Errorf("measuring Run: %v allocs per call", a)
	}
	if m.Stats().Checks == 0 {
		t.Error("measuring alloc test never reached a decision")
	}
	_ = sink
}

// TestTimedAbandonDoesNotAllocate: time-sized blocks, abandoning, the
// block medians it takes and MeasuringBlock/DoneBatch all work in the
// buffers from New.
func TestTimedAbandonDoesNotAllocate(t *testing.T) {
	p := DefaultPolicy()
	p.FirstRecheck, p.MaxRecheck = 8, 8 // many measurements
	clk := &fakeClock{}
	s, err := New(p, clk, 2)
	if err != nil {
		t.Fatal(err)
	}
	// Every other measurement the partitioned kernel is 3× slower and is
	// abandoned; in between it is faster and wins. Calls of 20 µs make
	// blocks end by time.
	cost := func(c int) time.Duration {
		if c == 1 && s.checks%2 == 0 {
			return 60 * time.Microsecond
		}
		if c == 1 {
			return 10 * time.Microsecond
		}
		return 20 * time.Microsecond
	}
	if a := testing.AllocsPerRun(5000, func() {
		s.Run(func(c int) { clk.now += cost(c) })
	}); a != 0 {
		t.Errorf("Run: %v allocs per call", a)
	}
	if a := testing.AllocsPerRun(5000, func() {
		if c, n, ok := s.MeasuringBlock(); ok {
			s.DoneBatch(c, n, time.Duration(n)*cost(c))
		} else {
			s.Skip(1)
		}
	}); a != 0 {
		t.Errorf("MeasuringBlock/DoneBatch: %v allocs per batch", a)
	}
	if s.abandons < 2 || s.flips < 2 || s.checks < 20 {
		t.Errorf("the loop should abandon and flip repeatedly: %v", s)
	}
}

var benchSink int

func BenchmarkDecidedPick(b *testing.B) {
	s := decided(b)
	b.ReportAllocs()
	for b.Loop() {
		c, _ := s.Pick()
		benchSink += c
	}
}

func BenchmarkDecidedRun(b *testing.B) {
	s := decided(b)
	b.ReportAllocs()
	for b.Loop() {
		s.Run(func(c int) { benchSink += c })
	}
}

// BenchmarkMeasuringRun shows the cost while measuring with the real clock:
// two clock reads per call on top of the kernel.
func BenchmarkMeasuringRun(b *testing.B) {
	p := DefaultPolicy()
	p.FirstRecheck, p.MaxRecheck = 1, 1 // measure almost all the time
	s, err := New(p, nil, 2)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		s.Run(func(c int) { benchSink += c })
	}
}
