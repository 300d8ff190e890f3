package selector

import (
	"slices"
	"strings"
	"testing"
	"time"
)

// abandonPolicy is smallPolicy with abandoning on: 4 rounds of blocks of 10
// calls (2 warm-up), counted in calls.
func abandonPolicy() Policy {
	p := smallPolicy()
	p.AbandonRatio = 1.3
	return p
}

// timedPolicy is smallPolicy with time-sized blocks of 50 µs and at least 3
// recorded calls.
func timedPolicy() Policy {
	p := smallPolicy()
	p.BlockTime, p.MinCalls = 50*time.Microsecond, 3
	return p
}

// blocks returns the schedule of n candidates' blocks of size calls each
// over rounds, skipping candidates in skip from round 1 on.
func blocks(size, n, rounds int, skip ...int) []int {
	var want []int
	for r := range rounds {
		for c := range n {
			if r > 0 && slices.Contains(skip, c) {
				continue
			}
			for range size {
				want = append(want, c)
			}
		}
	}
	return want
}

// TestAbandonSlowPartition: a partitioned kernel twice as slow as the
// reference costs one block per measurement, the first and every re-check.
func TestAbandonSlowPartition(t *testing.T) {
	p := abandonPolicy()
	h := newHarness(t, p, 2, constCost(100, 200))
	h.step(2*int64(p.BlockCalls) - 1)
	if !h.s.Stats().Measuring {
		t.Fatalf("decided before the partitioned block ended: %v", h.s)
	}
	h.step(1)
	st := h.s.Stats()
	if st.Measuring || st.Choice != 0 || st.Checks != 1 || st.Abandoned != 1 {
		t.Fatalf("after one block each: want the reference decided by abandoning, got %v", st)
	}
	if !slices.Equal(st.Medians, []time.Duration{100, 200}) {
		t.Errorf("medians = %v, want [100ns 200ns]", st.Medians)
	}
	want := "candidate 0 of 2, decided (medians 100ns 200ns), 1 check, 0 flips, 1 abandoned, re-check in 1000 of 1000 calls"
	if got := h.s.String(); got != want {
		t.Errorf("String() = %q\nwant       %q", got, want)
	}

	// The re-check is just as short, and the interval doubles as usual.
	h.step(p.FirstRecheck + 2*int64(p.BlockCalls))
	st = h.s.Stats()
	if st.Measuring || st.Choice != 0 || st.Checks != 2 || st.Flips != 0 || st.Abandoned != 2 || st.Interval != 2*p.FirstRecheck {
		t.Fatalf("after the re-check: got %v", st)
	}
	if !slices.Equal(h.decidedAt, []int64{20, 20 + 1000 + 20}) {
		t.Errorf("decisions after calls %v, want [20 1040]", h.decidedAt)
	}
	if recheck := h.ran[20+1000:]; !slices.Equal(recheck, blocks(p.BlockCalls, 2, 1)) {
		t.Errorf("re-check ran %v, want one block each", recheck)
	}
}

// TestSlightlySlowerNotAbandoned: only a clear loss abandons; a candidate
// at or below AbandonRatio × the reference runs the full measurement.
func TestSlightlySlowerNotAbandoned(t *testing.T) {
	p := abandonPolicy()
	for _, tc := range []struct {
		name      string
		part      time.Duration
		abandoned bool
	}{
		{"1.1×", 110, false},
		{"exactly 1.3× is not above", 130, false},
		{"1.31×", 131, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, p, 2, constCost(100, tc.part))
			h.step(measureCalls(p, 2))
			st := h.s.Stats()
			if st.Choice != 0 || st.Checks != 1 {
				t.Fatalf("want the reference after one check, got %v", st)
			}
			wantAt := measureCalls(p, 2)
			if tc.abandoned {
				wantAt = 2 * int64(p.BlockCalls)
			}
			if st.Abandoned != b2i(tc.abandoned) || !slices.Equal(h.decidedAt, []int64{wantAt}) {
				t.Fatalf("decided after %v calls, %d abandoned; want after %d, %d", h.decidedAt, st.Abandoned, wantAt, b2i(tc.abandoned))
			}
			if strings.Contains(h.s.String(), "abandoned") != tc.abandoned {
				t.Errorf("String() = %q", h.s)
			}
		})
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TestBusyHostAbandonsThenRecovers: the partitioned kernel wins, then the
// host turns busy and it costs 3× — the next re-check drops it after one
// block — and when the host is idle again a later re-check takes it back.
// Each flip is confirmed after FirstRecheck calls.
func TestBusyHostAbandonsThenRecovers(t *testing.T) {
	p := abandonPolicy()
	m := measureCalls(p, 2)      // 80: a full measurement
	a := 2 * int64(p.BlockCalls) // 20: an abandoned one
	f := p.FirstRecheck
	// Decisions after 80 calls, then 80+1000+20 (the flip to the
	// reference restarts the interval at FirstRecheck), 1100+1000+20
	// (still busy, no flip), 2120+2000+80 (idle again: flip) and, to
	// confirm it, 4200+1000+80.
	d := []int64{m, m + f + a, m + 2*(f+a), m + 2*(f+a) + 2*f + m}
	d = append(d, d[3]+f+m)
	busyFrom, busyTo := m, d[2]
	cost := func(call int64, cand, _ int) time.Duration {
		switch {
		case cand == 0:
			return 100
		case call >= busyFrom && call < busyTo:
			return 180
		}
		return 60
	}
	h := newHarness(t, p, 2, cost)
	for i, step := range []struct {
		at        int64 // calls after which the measurement decides
		choice    int
		abandoned int
		flips     int
	}{
		{d[0], 1, 0, 0},
		{d[1], 0, 1, 1},
		{d[2], 0, 2, 1}, // still busy
		{d[3], 1, 2, 2}, // idle again
		{d[4], 1, 2, 2}, // confirmed
	} {
		h.step(step.at - h.calls)
		st := h.s.Stats()
		if st.Measuring || st.Checks != i+1 || st.Choice != step.choice || st.Abandoned != step.abandoned || st.Flips != step.flips {
			t.Fatalf("after %d calls: want choice %d, %d checks, %d abandoned, %d flips; got %v",
				h.calls, step.choice, i+1, step.abandoned, step.flips, st)
		}
	}
	if !slices.Equal(h.decidedAt, d) || !slices.Equal(d, []int64{80, 1100, 2120, 4200, 5280}) {
		t.Errorf("decisions after calls %v, want %v", h.decidedAt, d)
	}
	if got := h.ran[1080:1100]; !slices.Equal(got, blocks(p.BlockCalls, 2, 1)) {
		t.Errorf("busy re-check ran %v, want one block each", got)
	}
	if st := h.s.Stats(); st.Interval != 2*f {
		t.Errorf("after the confirmation the interval is %d, want %d (doubling again)", st.Interval, 2*f)
	}
}

// TestTimeSizedBlocks: with BlockTime a block ends once its recorded calls
// take BlockTime and number MinCalls, or at BlockCalls; the warm-up ends
// after WarmupCalls or once it took BlockTime.
func TestTimeSizedBlocks(t *testing.T) {
	for _, tc := range []struct {
		name     string
		warmup   int
		cost     costFunc
		block    int // calls per block
		recorded int // of them recorded
		median   time.Duration
	}{
		{"1 ms calls: one warm-up call, MinCalls recorded", 2, constCost(time.Millisecond, time.Millisecond), 4, 3, time.Millisecond},
		{"10 ns calls: BlockCalls per block", 2, constCost(10, 10), 10, 8, 10},
		{"8 µs calls: block ends by time before BlockCalls", 2, constCost(8000, 8000), 9, 7, 8000},
		{"20 µs calls: warm-up ends by time after 3 of 4", 4, constCost(20000, 20000), 6, 3, 20000},
		{"20 µs calls: warm-up ends by count", 2, constCost(20000, 20000), 5, 3, 20000},
		{
			// More recorded calls than BlockCalls−WarmupCalls: the sample
			// buffer from New has room for them.
			"slow first call: warm-up cut to one, 9 recorded", 4,
			func(_ int64, _, inBlock int) time.Duration {
				if inBlock == 0 {
					return time.Millisecond
				}
				return 100
			},
			10, 9, 100,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := timedPolicy()
			p.WarmupCalls = tc.warmup
			h := newHarness(t, p, 2, tc.cost)
			total := int64(p.Rounds * 2 * tc.block)
			h.step(total)
			st := h.s.Stats()
			if st.Measuring || st.Checks != 1 || !slices.Equal(h.decidedAt, []int64{total}) {
				t.Fatalf("want one decision after %d calls, got %v after %v", total, st, h.decidedAt)
			}
			if want := blocks(tc.block, 2, p.Rounds); !slices.Equal(h.ran, want) {
				t.Fatalf("ran %v\nwant %v", h.ran, want)
			}
			if want := p.Rounds * tc.recorded; h.s.counts[0] != want || h.s.counts[1] != want {
				t.Errorf("recorded %v calls, want %d each", h.s.counts, want)
			}
			if !slices.Equal(st.Medians, []time.Duration{tc.median, tc.median}) {
				t.Errorf("medians %v, want %v each", st.Medians, tc.median)
			}
		})
	}
}

// TestMeasuringBlockTimed: MeasuringBlock gives upper bounds and DoneBatch
// counts only the calls the running block takes.
func TestMeasuringBlockTimed(t *testing.T) {
	p := timedPolicy() // blocks of ≤ 10, ≤ 2 warm-up, 50 µs, ≥ 3 recorded
	s, err := New(p, &fakeClock{}, 2)
	if err != nil {
		t.Fatal(err)
	}
	expect := func(wantCand, wantCalls int) {
		t.Helper()
		if c, n, ok := s.MeasuringBlock(); !ok || c != wantCand || n != wantCalls {
			t.Fatalf("MeasuringBlock = %d, %d, %v; want %d, %d, true", c, n, ok, wantCand, wantCalls)
		}
	}
	batch := func(cand, n int, each time.Duration, want int) {
		t.Helper()
		if got := s.DoneBatch(cand, n, time.Duration(n)*each); got != want {
			t.Fatalf("DoneBatch(%d, %d, %d × %v) counted %d, want %d", cand, n, n, each, got, want)
		}
	}
	expect(0, 2)
	batch(0, 2, time.Microsecond, 2) // warm-up by count
	expect(0, 8)
	batch(0, 8, 20*time.Microsecond, 3) // 60 µs after 3 calls: the block ends
	expect(1, 2)
	batch(0, 5, 1, 0) // not the running block
	// A warm-up batch of two calls taking 200 µs (a worker waking up in
	// the first): both are warm-up, none of that time is recorded.
	batch(1, 2, 100*time.Microsecond, 2)
	expect(1, 8)
	batch(1, 1, 20*time.Microsecond, 1) // 1 recorded, 20 µs
	expect(1, 7)
	batch(1, 7, 20*time.Microsecond, 2) // 3 recorded, 60 µs: the block ends
	expect(0, 2)                        // round 1
	if got := s.counts; got[0] != 3 || got[1] != 3 {
		t.Fatalf("recorded %v, want 3 each", got)
	}
	if s.Stats().Checks != 0 {
		t.Fatalf("decided early: %v", s)
	}
}

// TestMeasuringBlockAbandon: a batch that ends the measurement by
// abandoning is counted up to the end of its block; later batches count
// nothing and do not touch the decided interval.
func TestMeasuringBlockAbandon(t *testing.T) {
	p := abandonPolicy()
	s, err := New(p, &fakeClock{}, 2)
	if err != nil {
		t.Fatal(err)
	}
	if n := s.DoneBatch(0, 10, 1000); n != 10 {
		t.Fatalf("reference block: counted %d", n)
	}
	if c, n, _ := s.MeasuringBlock(); c != 1 || n != 2 {
		t.Fatalf("MeasuringBlock = %d, %d; want 1, 2", c, n)
	}
	// More calls than the block has left: the block, and with it the
	// measurement, ends at its 10th.
	if n := s.DoneBatch(1, 15, 15*300); n != 10 {
		t.Fatalf("partitioned block: counted %d, want 10", n)
	}
	st := s.Stats()
	if st.Measuring || st.Choice != 0 || st.Abandoned != 1 || !slices.Equal(st.Medians, []time.Duration{100, 300}) {
		t.Fatalf("want the reference decided by abandoning, got %v", st)
	}
	if n := s.DoneBatch(0, 5, 500); n != 0 {
		t.Errorf("DoneBatch while decided counted %d", n)
	}
	if _, _, ok := s.MeasuringBlock(); ok {
		t.Error("MeasuringBlock while decided")
	}
	if c, left := s.Decided(); c != 0 || left != p.FirstRecheck {
		t.Errorf("Decided() = %d, %d; want 0, %d", c, left, p.FirstRecheck)
	}
}

// TestThreeCandidatesAbandon: abandoning one alternative leaves the
// measurement to the others, for this measurement only.
func TestThreeCandidatesAbandon(t *testing.T) {
	p := abandonPolicy()
	const b = 10 // BlockCalls
	for _, tc := range []struct {
		name      string
		costs     []time.Duration
		want      int
		calls     int64 // of the measurement
		abandoned int
	}{
		{"partitioned abandoned, fused wins", []time.Duration{100, 250, 60}, 2, 3*b + 3*2*b, 0},
		{"partitioned abandoned, fused marginal", []time.Duration{100, 250, 120}, 0, 3*b + 3*2*b, 0},
		{"both abandoned", []time.Duration{100, 250, 200}, 0, 3 * b, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, p, 3, constCost(tc.costs...))
			h.step(tc.calls)
			st := h.s.Stats()
			if st.Measuring || st.Choice != tc.want || st.Abandoned != tc.abandoned || !slices.Equal(h.decidedAt, []int64{tc.calls}) {
				t.Fatalf("want candidate %d after %d calls, %d abandoned; got %v after %v", tc.want, tc.calls, tc.abandoned, st, h.decidedAt)
			}
			if !slices.Equal(st.Medians, tc.costs) {
				t.Errorf("medians %v, want %v", st.Medians, tc.costs)
			}
			want := blocks(b, 3, p.Rounds, 1)
			if tc.abandoned > 0 {
				want = blocks(b, 3, 1)
			}
			if !slices.Equal(h.ran, want) {
				t.Errorf("ran %v\nwant %v", h.ran, want)
			}
		})
	}

	// A candidate abandoned while cold runs in full at the next re-check
	// and can win it.
	t.Run("abandoned only for one measurement", func(t *testing.T) {
		first := int64(3*b + 3*2*b) // 90
		h := newHarness(t, p, 3, func(call int64, cand, _ int) time.Duration {
			switch {
			case cand == 0:
				return 100
			case cand == 2:
				return 60
			case call < first:
				return 250
			}
			return 40
		})
		h.step(first)
		if st := h.s.Stats(); st.Choice != 2 {
			t.Fatalf("first decision: got %v, want candidate 2", st)
		}
		h.step(p.FirstRecheck + measureCalls(p, 3))
		st := h.s.Stats()
		if st.Choice != 1 || st.Flips != 1 || st.Abandoned != 0 {
			t.Fatalf("re-check: got %v, want candidate 1 after a full measurement", st)
		}
		if !slices.Equal(h.decidedAt, []int64{first, first + p.FirstRecheck + measureCalls(p, 3)}) {
			t.Errorf("decisions after calls %v", h.decidedAt)
		}
	})
}

// TestBatchedWarmupCarriesWakeup: the simulator's free-running lanes report
// batches of calls, and the first batch of each of their blocks pays a
// parked worker's wake-up (100 µs here, against 6 µs a call). The whole
// batch is the warm-up, so the lanes, twice as fast as the reference, win;
// spread over the batch's calls the wake-up used to leave 30 µs calls in
// the block, which abandoned them (seen on a VM whose idle CPU took 60-90
// µs to wake).
func TestBatchedWarmupCarriesWakeup(t *testing.T) {
	s, err := New(DefaultPolicy(), &fakeClock{}, 2)
	if err != nil {
		t.Fatal(err)
	}
	const maxBatch = 8 // the lanes' batch, in calls
	each := [2]time.Duration{12 * time.Microsecond, 6 * time.Microsecond}
	last := -1
	for range 1000 {
		c, n, ok := s.MeasuringBlock()
		if !ok {
			break
		}
		n = min(n, maxBatch)
		elapsed := time.Duration(n) * each[c]
		if c == 1 && last != 1 {
			elapsed += 100 * time.Microsecond
		}
		s.DoneBatch(c, n, elapsed)
		last = c
	}
	st := s.Stats()
	if st.Measuring || st.Choice != 1 || st.Abandoned != 0 {
		t.Fatalf("got %v, want the lanes chosen without abandoning", st)
	}
	if st.Medians[1] != each[1] {
		t.Errorf("lanes' median %v, want %v (no wake-up in it)", st.Medians[1], each[1])
	}
}
