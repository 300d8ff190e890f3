package selector

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestPartitionedFasterIsChosenAfterMeasurement(t *testing.T) {
	p := smallPolicy()
	h := newHarness(t, p, 2, constCost(100, 60))
	m := measureCalls(p, 2) // 80

	h.step(m - 1)
	if st := h.s.Stats(); !st.Measuring || st.Checks != 0 || st.Medians != nil {
		t.Fatalf("after %d calls: want still measuring with no decision, got %v", m-1, st)
	}
	h.step(1)
	st := h.s.Stats()
	if st.Measuring || st.Checks != 1 || st.Choice != 1 {
		t.Fatalf("after %d calls: want decided for candidate 1, got %v", m, st)
	}
	if !slices.Equal(st.Medians, []time.Duration{100, 60}) {
		t.Errorf("medians = %v, want [100ns 60ns]", st.Medians)
	}
	// The schedule is strictly alternating blocks of BlockCalls calls.
	for i, c := range h.ran {
		if want := (i / p.BlockCalls) % 2; c != want {
			t.Fatalf("call %d ran candidate %d, want %d", i, c, want)
		}
	}
	h.step(p.FirstRecheck)
	for i, c := range h.ran[m:] {
		if c != 1 {
			t.Fatalf("decided call %d ran candidate %d, want 1", m+int64(i), c)
		}
	}
	if h.s.Stats().Measuring {
		t.Fatal("re-check started before FirstRecheck decided calls")
	}
	h.step(1)
	if !h.s.Stats().Measuring || h.ran[len(h.ran)-1] != 0 {
		t.Fatalf("call %d: want re-check starting with candidate 0, got %v", h.calls-1, h.s)
	}
}

func TestSequentialKept(t *testing.T) {
	for _, tc := range []struct {
		name string
		part time.Duration
	}{
		{"slower", 140},
		{"equal", 100},
		{"marginal 97%", 97},
		{"exactly 95% is not below", 95},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := smallPolicy()
			h := newHarness(t, p, 2, constCost(100, tc.part))
			h.step(measureCalls(p, 2))
			if st := h.s.Stats(); st.Choice != 0 || st.Checks != 1 {
				t.Fatalf("want sequential kept after one check, got %v", st)
			}
		})
	}
	// Just under the margin wins, showing the boundary is where the policy says.
	p := smallPolicy()
	h := newHarness(t, p, 2, constCost(100, 94))
	h.step(measureCalls(p, 2))
	if h.s.Stats().Choice != 1 {
		t.Fatalf("94 vs 100: want partitioned, got %v", h.s)
	}
}

func TestRecheckFlipsDecision(t *testing.T) {
	p := smallPolicy()
	m := measureCalls(p, 2)
	// The cost changes right after the first decision, as if another process
	// started (or stopped) competing for the cores.
	changed := func(before, after time.Duration) costFunc {
		return func(call int64, cand, _ int) time.Duration {
			if cand == 0 {
				return 100
			}
			if call < m {
				return before
			}
			return after
		}
	}
	for _, tc := range []struct {
		name          string
		before, after time.Duration
		first, second int
	}{
		{"fast then slow", 60, 150, 1, 0},
		{"slow then fast", 150, 60, 0, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, p, 2, changed(tc.before, tc.after))
			h.step(m)
			if got := h.s.Stats().Choice; got != tc.first {
				t.Fatalf("first decision = %d, want %d", got, tc.first)
			}
			h.step(p.FirstRecheck + m)
			st := h.s.Stats()
			if st.Choice != tc.second || st.Checks != 2 || st.Flips != 1 {
				t.Fatalf("after re-check: want choice %d, 2 checks, 1 flip; got %v", tc.second, st)
			}
			if !slices.Equal(h.decidedAt, []int64{m, m + p.FirstRecheck + m}) {
				t.Errorf("decisions after calls %v", h.decidedAt)
			}
		})
	}
}

func TestRecheckIntervalDoubles(t *testing.T) {
	p := smallPolicy()
	p.MaxRecheck = 4000
	m := measureCalls(p, 2)
	h := newHarness(t, p, 2, constCost(100, 60))
	h.step(20000)

	var want []int64
	at, wait := int64(0), p.FirstRecheck
	for at < h.calls {
		want = append(want, at)
		at += m + wait
		wait = min(2*wait, p.MaxRecheck)
	}
	// Spelled out: 0, 1080, 3160 (+2000), 7240 (+4000), 11320 (capped at 4000)...
	if !slices.Equal(want[:5], []int64{0, 1080, 3160, 7240, 11320}) {
		t.Fatalf("test arithmetic: %v", want[:5])
	}
	if !slices.Equal(h.measStart, want) {
		t.Fatalf("measurements started at calls %v, want %v", h.measStart, want)
	}
	if st := h.s.Stats(); st.Interval != 4000 {
		t.Errorf("Interval = %d, want capped 4000", st.Interval)
	}
}

func TestWarmupCallsAreDiscarded(t *testing.T) {
	const cold = 6 // most of each block, so counting them would decide
	p := smallPolicy()
	p.WarmupCalls = cold
	// The partitioned kernel is terribly slow right after a switch (workers
	// parked, caches cold) and fast once warm.
	cost := func(_ int64, cand, inBlock int) time.Duration {
		if cand == 0 {
			return 100
		}
		if inBlock < cold {
			return time.Second
		}
		return 60
	}
	h := newHarness(t, p, 2, cost)
	h.step(measureCalls(p, 2))
	if st := h.s.Stats(); st.Choice != 1 || st.Medians[1] != 60 {
		t.Fatalf("want partitioned with median 60ns despite slow warm-up, got %v", st)
	}

	// Control: the same costs with nothing discarded keep the sequential kernel.
	p.WarmupCalls = 0
	h = newHarness(t, p, 2, cost)
	h.step(measureCalls(p, 2))
	if st := h.s.Stats(); st.Choice != 0 {
		t.Fatalf("control without warm-up discard: want sequential, got %v", st)
	}
}

func TestThreeCandidates(t *testing.T) {
	for _, tc := range []struct {
		name  string
		costs []time.Duration
		want  int
	}{
		{"fused fastest", []time.Duration{100, 80, 50}, 2},
		{"partitioned fastest", []time.Duration{100, 60, 90}, 1},
		{"fused slightly below partitioned wins on plain median", []time.Duration{100, 60, 59}, 2},
		{"tie between alternatives goes to lower index", []time.Duration{100, 60, 60}, 1},
		{"both marginal", []time.Duration{100, 97, 96}, 0},
		{"fused marginal, partitioned slower", []time.Duration{100, 120, 96}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := smallPolicy()
			h := newHarness(t, p, 3, constCost(tc.costs...))
			h.step(measureCalls(p, 3))
			if st := h.s.Stats(); st.Choice != tc.want || st.Checks != 1 {
				t.Fatalf("costs %v: want candidate %d, got %v", tc.costs, tc.want, st)
			}
			for i, c := range h.ran {
				if want := (i / p.BlockCalls) % 3; c != want {
					t.Fatalf("call %d ran candidate %d, want %d", i, c, want)
				}
			}
		})
	}
}

// outlierCase is a scenario of TestOutliersDoNotFlip: n candidates costing
// cost, of which want should be chosen. lower: candidate 1 loses with the
// lower median.
type outlierCase struct {
	name  string
	n     int
	cost  costFunc
	want  int
	lower bool
}

// outlierCases builds the scenarios from one random stream. Outliers are
// 50 µs, about the default BlockTime, so under the default policy a block
// that meets one ends there.
func outlierCases(rng *rand.Rand) []outlierCase {
	jitter := func(base time.Duration) time.Duration { return base + time.Duration(rng.IntN(5)) - 2 } // ±2
	noisy := func(base time.Duration, oneIn int) time.Duration {
		d := jitter(base)
		if rng.IntN(oneIn) == 0 {
			d += 50 * time.Microsecond
		}
		return d
	}
	return []outlierCase{{
		// Rare outliers hit only the fused function: its plain mean is
		// several times the others', yet its median and trimmed mean are
		// the lowest.
		name: "fused wins despite rare outliers", n: 3, want: 2,
		cost: func(_ int64, cand, _ int) time.Duration {
			switch cand {
			case 0:
				return jitter(100)
			case 1:
				return jitter(80)
			}
			return noisy(50, 200)
		},
	}, {
		// One call in five of the partitioned kernel waits for a lane that
		// was descheduled: its median is half the reference's, its
		// throughput far worse.
		name: "a recurring tail keeps a faster median out", n: 2, want: 0, lower: true,
		cost: func(_ int64, cand, _ int) time.Duration {
			if cand == 0 {
				return jitter(100)
			}
			return noisy(50, 5)
		},
	}, {
		// The reference mean is inflated ~100×; partitioned is only 3 % faster
		// in median, so the reference stays.
		name: "outliers on the reference do not hand a marginal win", n: 2, want: 0,
		cost: func(_ int64, cand, _ int) time.Duration {
			if cand == 0 {
				return noisy(100, 5)
			}
			return jitter(97)
		},
	}}
}

// Outliers (preemption, page faults) are large and rare: they would swing a
// mean but leave the median and the trimmed mean alone. A tail that recurs
// is a real cost and keeps a candidate out.
//
// This tests the decision rule over full blocks, so blocks are counted in
// calls and nothing is abandoned; TestOutliersDefaultPolicy runs the same
// scenarios under the default schedule.
func TestOutliersDoNotFlip(t *testing.T) {
	p := DefaultPolicy()
	p.BlockTime, p.AbandonRatio = 0, 0
	for _, tc := range outlierCases(rand.New(rand.NewPCG(1, 2))) {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, p, tc.n, tc.cost)
			h.step(measureCalls(p, tc.n))
			st := h.s.Stats()
			if st.Choice != tc.want || st.Checks != 1 {
				t.Fatalf("want candidate %d after one check, got %v", tc.want, st)
			}
			if tc.lower && st.Medians[1] >= st.Medians[0] {
				t.Fatalf("want candidate 1 kept out despite a lower median, got %v", st)
			}
		})
	}
}

// TestOutliersDefaultPolicy: under the default schedule blocks that meet an
// outlier end early and the tail case is abandoned (one block may hold more
// outliers than usual calls), but every decision is the same.
func TestOutliersDefaultPolicy(t *testing.T) {
	p := DefaultPolicy()
	for _, tc := range outlierCases(rand.New(rand.NewPCG(1, 2))) {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, p, tc.n, tc.cost)
			h.step(measureCalls(p, tc.n))
			if st := h.s.Stats(); st.Choice != tc.want || st.Checks != 1 {
				t.Fatalf("want candidate %d after one check, got %v", tc.want, st)
			}
		})
	}
}

func TestPickDoneProtocol(t *testing.T) {
	p := smallPolicy()
	p.Rounds, p.WarmupCalls, p.BlockCalls = 1, 0, 2
	s, err := New(p, &fakeClock{}, 2)
	if err != nil {
		t.Fatal(err)
	}
	// An unreported call does not advance the schedule.
	for range 3 {
		if c, meas := s.Pick(); c != 0 || !meas {
			t.Fatalf("Pick = %d, %v; want 0, true", c, meas)
		}
	}
	s.Done(1, 1)  // wrong candidate: ignored
	s.Done(0, 10) // 1 of 2
	s.Done(0, 10) // block of 0 done
	if c, _ := s.Pick(); c != 1 {
		t.Fatalf("after candidate 0's block, Pick = %d, want 1", c)
	}
	s.Done(1, 5)
	s.Done(1, -3) // clock stepped back: counted as 0, not as a negative time
	st := s.Stats()
	if st.Measuring || st.Choice != 1 || !slices.Equal(st.Medians, []time.Duration{10, 2}) {
		t.Fatalf("got %v, want decided for 1 with medians [10ns 2ns]", st)
	}
	s.Done(1, 1000) // not measuring: ignored
	for i := range p.FirstRecheck {
		if c, meas := s.Pick(); c != 1 || meas {
			t.Fatalf("decided call %d: Pick = %d, %v; want 1, false", i, c, meas)
		}
	}
	if _, meas := s.Pick(); !meas {
		t.Fatal("want re-check after FirstRecheck calls")
	}
}

func TestStatsString(t *testing.T) {
	p := smallPolicy()
	h := newHarness(t, p, 2, constCost(100, 60))
	if got := h.s.String(); !strings.Contains(got, "measuring") || !strings.Contains(got, "0 checks") {
		t.Errorf("initial String() = %q", got)
	}
	h.step(measureCalls(p, 2) + 10)
	want := "candidate 1 of 2, decided (medians 100ns 60ns), 1 check, 0 flips, re-check in 990 of 1000 calls"
	if got := h.s.String(); got != want {
		t.Errorf("String() = %q\nwant       %q", got, want)
	}
	st := h.s.Stats()
	st.Medians[0] = 0 // a snapshot must not alias the selector's state
	if h.s.Stats().Medians[0] != 100 {
		t.Error("Stats().Medians aliases internal state")
	}
}

func TestMonotonicClockDefault(t *testing.T) {
	s, err := New(DefaultPolicy(), nil, 2)
	if err != nil {
		t.Fatal(err)
	}
	for range measureCalls(DefaultPolicy(), 2) {
		s.Run(func(int) {})
	}
	if st := s.Stats(); st.Checks != 1 {
		t.Fatalf("want one decision with the real clock, got %v", st)
	}
}

// TestDecidedSkip: calls run in a batch outside Pick bring the re-check
// closer exactly as Picks would.
func TestDecidedSkip(t *testing.T) {
	p := smallPolicy()
	h := newHarness(t, p, 2, func(_ int64, cand, _ int) time.Duration {
		return []time.Duration{100, 60}[cand]
	})
	if _, left := h.s.Decided(); left != 0 {
		t.Fatalf("left %d before any decision", left)
	}
	h.step(measureCalls(p, 2))
	cand, left := h.s.Decided()
	if cand != 1 || left != p.FirstRecheck*2 && left != p.FirstRecheck {
		t.Fatalf("Decided() = %d, %d", cand, left)
	}
	h.s.Skip(left - 1)
	if _, l := h.s.Decided(); l != 1 {
		t.Fatalf("after Skip: left %d", l)
	}
	h.s.Skip(10) // clamped
	if c, meas := h.s.Pick(); !meas {
		t.Fatalf("Pick after the interval = %d, unmeasured; want a measurement", c)
	}
	if _, l := h.s.Decided(); l != 0 {
		t.Errorf("measuring: left %d", l)
	}
}

// TestMeasuringBlock: a batching caller can run whole blocks of the
// reference, warm-up calls apart, and the decision uses its averages.
func TestMeasuringBlock(t *testing.T) {
	p := smallPolicy() // blocks of 10, 2 warm-up, 4 rounds
	s, err := New(p, &fakeClock{}, 2)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, ok := s.MeasuringBlock(); !ok {
		t.Fatal("not measuring at the start")
	}
	for round := 0; round < p.Rounds; round++ {
		// Candidate 0 in two batches: the warm-up, then the rest.
		c, n, _ := s.MeasuringBlock()
		if c != 0 || n != p.WarmupCalls {
			t.Fatalf("round %d: block %d, %d calls; want 0, %d", round, c, n, p.WarmupCalls)
		}
		s.DoneBatch(0, n, time.Duration(n)*time.Millisecond) // slow warm-up, discarded
		c, n, _ = s.MeasuringBlock()
		if c != 0 || n != p.BlockCalls-p.WarmupCalls {
			t.Fatalf("round %d: block %d, %d calls", round, c, n)
		}
		s.DoneBatch(0, n, time.Duration(n)*50)
		// Candidate 1 call by call, slower.
		for range p.BlockCalls {
			c, meas := s.Pick()
			if c != 1 || !meas {
				t.Fatalf("round %d: Pick = %d, %v", round, c, meas)
			}
			s.Done(1, 80)
		}
	}
	st := s.Stats()
	if st.Measuring || st.Choice != 0 || st.Medians[0] != 50 {
		t.Fatalf("got %v, want the reference at 50ns", st)
	}
	if _, _, ok := s.MeasuringBlock(); ok {
		t.Error("MeasuringBlock while decided")
	}
}
