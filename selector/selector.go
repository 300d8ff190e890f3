package selector

import (
	"fmt"
	"time"
)

// Selector picks one of n equivalent kernels for one kernel slot; see the
// package documentation for the schedule and the decision rule. Candidate 0
// is the reference (the sequential kernel) and is chosen until a measurement
// shows another candidate clearly faster.
//
// The zero value is not usable; call New. Not safe for concurrent use.
type Selector struct {
	// left counts decided calls before the next measurement. It is the only
	// field the decided hot path touches besides choice; measuring implies
	// left == 0.
	left   int64
	choice int

	measuring bool
	round     int // current round of the measurement
	cand      int // candidate whose block is running
	pos       int // calls of the current block done so far

	wait    int64 // re-check interval after the current (or upcoming) decision
	checks  int   // completed measurements
	flips   int   // decisions that changed the choice
	samples [][]time.Duration
	medians []time.Duration // of the last completed measurement

	policy Policy
	clock  Clock
}

// New returns a selector over n ≥ 2 candidates that starts measuring on its
// first call. A nil clock means MonotonicClock(). All memory the selector
// ever uses is allocated here.
func New(p Policy, clock Clock, n int) (*Selector, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	if n < 2 {
		return nil, fmt.Errorf("%w: %d candidates, need at least 2 (a reference and an alternative)", ErrInvalidPolicy, n)
	}
	if clock == nil {
		clock = MonotonicClock()
	}
	kept := p.Rounds * (p.BlockCalls - p.WarmupCalls)
	flat := make([]time.Duration, n*kept)
	samples := make([][]time.Duration, n)
	for c := range samples {
		samples[c] = flat[c*kept : (c+1)*kept : (c+1)*kept]
	}
	return &Selector{
		measuring: true,
		wait:      p.FirstRecheck,
		samples:   samples,
		medians:   make([]time.Duration, n),
		policy:    p,
		clock:     clock,
	}, nil
}

// Pick returns the candidate to run for the next call and whether the call is
// measured. A measured call must be timed and reported with Done; an
// unmeasured call needs nothing further. A measured call that is not reported
// (say the kernel failed) is simply not counted: the next Pick returns the
// same candidate again.
//
// After a decision Pick costs a decrement and a branch and reads no clock.
func (s *Selector) Pick() (cand int, measured bool) {
	if s.left > 0 {
		s.left--
		return s.choice, false
	}
	return s.pickMeasured()
}

// Decided returns the decided candidate and how many more calls the
// decision covers before the next measurement (0 while measuring or when
// the re-check is due). A caller that runs a batch of calls outside Pick —
// the simulator's fused tick loop runs the sequential kernel — asks it
// first and reports the calls with Skip.
func (s *Selector) Decided() (cand int, left int64) {
	if s.measuring {
		return s.choice, 0
	}
	return s.choice, s.left
}

// Skip counts n calls of the decided candidate made without Pick, at most
// the calls the decision has left: the re-check comes as if each had gone
// through Pick.
func (s *Selector) Skip(n int64) {
	if s.measuring || n <= 0 {
		return
	}
	s.left -= min(n, s.left)
}

// MeasuringBlock is for a caller that runs measured calls in batches: it
// starts the measurement when the re-check is due and, while measuring,
// returns the candidate of the running block and how many of its calls a
// batch should make next (the rest of the warm-up calls, or the rest of the
// block), to be reported with DoneBatch. ok is false while decided.
func (s *Selector) MeasuringBlock() (cand, calls int, ok bool) {
	if s.left > 0 {
		return 0, 0, false
	}
	if !s.measuring {
		s.startMeasuring()
	}
	p := &s.policy
	if s.pos < p.WarmupCalls {
		return s.cand, p.WarmupCalls - s.pos, true
	}
	return s.cand, p.BlockCalls - s.pos, true
}

// DoneBatch reports n consecutive measured calls of cand that took elapsed
// together, as n calls of elapsed/n each (at most the calls MeasuringBlock
// returned).
func (s *Selector) DoneBatch(cand, n int, elapsed time.Duration) {
	for range n {
		s.Done(cand, elapsed/time.Duration(n))
	}
}

func (s *Selector) pickMeasured() (int, bool) {
	if !s.measuring {
		s.startMeasuring()
	}
	return s.cand, true
}

func (s *Selector) startMeasuring() {
	s.measuring = true
	s.round, s.cand, s.pos = 0, 0, 0
	// The interval doubles with every check; guard the doubling against
	// overflow for caps near MaxInt64.
	if s.wait > s.policy.MaxRecheck/2 {
		s.wait = s.policy.MaxRecheck
	} else {
		s.wait *= 2
	}
}

// Done reports the elapsed time of a measured call of cand. Reports that do
// not belong to the running block (a call made before the measurement began,
// or of another candidate) are ignored, so a confused caller can only skew
// timing, never the schedule.
func (s *Selector) Done(cand int, elapsed time.Duration) {
	if !s.measuring || cand != s.cand {
		return
	}
	p := &s.policy
	if s.pos >= p.WarmupCalls {
		// A clock that stepped backwards must not look like a fast kernel.
		elapsed = max(elapsed, 0)
		s.samples[cand][s.round*(p.BlockCalls-p.WarmupCalls)+s.pos-p.WarmupCalls] = elapsed
	}
	s.pos++
	if s.pos < p.BlockCalls {
		return
	}
	s.pos = 0
	s.cand++
	if s.cand < len(s.samples) {
		return
	}
	s.cand = 0
	s.round++
	if s.round == p.Rounds {
		s.decide()
	}
}

// Run runs one call through fn with the candidate Pick chooses and, when the
// call is measured, times it with the injected clock and reports it. It
// returns the candidate that ran.
func (s *Selector) Run(fn func(cand int)) int {
	if s.left > 0 {
		s.left--
		fn(s.choice)
		return s.choice
	}
	return s.runMeasured(fn)
}

func (s *Selector) runMeasured(fn func(cand int)) int {
	cand, _ := s.pickMeasured()
	start := s.clock.Now()
	fn(cand)
	s.Done(cand, s.clock.Now()-start)
	return cand
}
