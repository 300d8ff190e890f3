package selector

import (
	"testing"
	"time"
)

// fakeClock advances only when a simulated kernel "runs".
type fakeClock struct{ now time.Duration }

func (c *fakeClock) Now() time.Duration { return c.now }

// costFunc gives the simulated duration of one call: call is the global call
// index, cand the candidate and inBlock how many calls of cand immediately
// preceded this one (0 for the first call after a switch), which is what
// warm-up effects depend on.
type costFunc func(call int64, cand, inBlock int) time.Duration

// harness drives a selector through Run with a fake clock and records what
// happened, so tests can assert exact call counts.
type harness struct {
	t     *testing.T
	s     *Selector
	clock *fakeClock
	cost  costFunc

	calls     int64
	last      int
	run       int
	ran       []int   // candidate of every call
	measStart []int64 // call indices at which a measurement began
	decidedAt []int64 // call counts after which a decision was made
}

func newHarness(t *testing.T, p Policy, n int, cost costFunc) *harness {
	t.Helper()
	clk := &fakeClock{}
	s, err := New(p, clk, n)
	if err != nil {
		t.Fatalf("New(%+v, %d): %v", p, n, err)
	}
	return &harness{t: t, s: s, clock: clk, cost: cost, last: -1}
}

// step runs calls calls.
func (h *harness) step(calls int64) {
	for range calls {
		wasMeasuring := h.s.measuring
		checks := h.s.checks
		h.s.Run(func(cand int) {
			if cand == h.last {
				h.run++
			} else {
				h.last, h.run = cand, 0
			}
			h.clock.now += h.cost(h.calls, cand, h.run)
			h.ran = append(h.ran, cand)
		})
		if h.s.measuring && !wasMeasuring || h.calls == 0 {
			h.measStart = append(h.measStart, h.calls)
		}
		h.calls++
		if h.s.checks != checks {
			h.decidedAt = append(h.decidedAt, h.calls)
		}
	}
}

// constCost gives every candidate a fixed duration.
func constCost(d ...time.Duration) costFunc {
	return func(_ int64, cand, _ int) time.Duration { return d[cand] }
}

// smallPolicy keeps measurements short enough to reason about by hand:
// 4 rounds × 10 calls, 2 of them warm-up, so 32 samples per candidate.
func smallPolicy() Policy {
	return Policy{
		BlockCalls:   10,
		WarmupCalls:  2,
		Rounds:       4,
		KeepRatio:    0.95,
		FirstRecheck: 1000,
		MaxRecheck:   1 << 20,
	}
}

func measureCalls(p Policy, n int) int64 { return int64(p.Rounds * p.BlockCalls * n) }
