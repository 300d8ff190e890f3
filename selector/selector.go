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
	round     int  // current round of the measurement
	cand      int  // candidate whose block is running
	pos       int  // calls of the current block done so far, warm-up included
	warming   bool // the current block is still in its warm-up
	// spent is the time of the current block's warm-up while warming, of
	// its recorded calls after; kept only with Policy.BlockTime, and only
	// until it reaches BlockTime, so it cannot overflow.
	spent time.Duration
	from  int // index in samples[cand] of the current block's first sample
	// refMedian is the reference's median over its blocks so far in this
	// measurement, the yardstick for abandoning (with Policy.AbandonRatio).
	refMedian time.Duration
	live      int // non-reference candidates not abandoned in this measurement

	wait     int64 // re-check interval after the current (or upcoming) decision
	checks   int   // completed measurements
	flips    int   // decisions that changed the choice
	abandons int   // measurements ended because every alternative was abandoned

	// samples[c][:counts[c]] are candidate c's recorded calls of this
	// measurement; blocks that end early leave the rest of the buffer unused.
	samples   [][]time.Duration
	counts    []int
	abandoned []bool          // per candidate, in this measurement
	medians   []time.Duration // of the last completed measurement
	means     []time.Duration // scratch for decide

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
	kept := p.Rounds * p.maxRecorded()
	flat := make([]time.Duration, n*kept)
	samples := make([][]time.Duration, n)
	for c := range samples {
		samples[c] = flat[c*kept : (c+1)*kept : (c+1)*kept]
	}
	s := &Selector{
		wait:      p.FirstRecheck,
		samples:   samples,
		counts:    make([]int, n),
		abandoned: make([]bool, n),
		medians:   make([]time.Duration, n),
		means:     make([]time.Duration, n),
		policy:    p,
		clock:     clock,
	}
	s.reset()
	return s, nil
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
// returns the candidate of the running block and the most calls a batch
// should make next (the rest of the warm-up calls, or the rest of the
// block's BlockCalls), to be reported with DoneBatch. With Policy.BlockTime
// the block may end sooner; DoneBatch says how many of the calls it took.
// ok is false while decided.
func (s *Selector) MeasuringBlock() (cand, calls int, ok bool) {
	if s.left > 0 {
		return 0, 0, false
	}
	if !s.measuring {
		s.startMeasuring()
	}
	p := &s.policy
	if s.warming {
		return s.cand, p.WarmupCalls - s.pos, true
	}
	return s.cand, p.BlockCalls - s.pos, true
}

// DoneBatch reports n consecutive measured calls of cand that took elapsed
// together, as n calls of elapsed/n each (those of a batch that starts in
// the block's warm-up are warm-up up to its call count, whatever their
// time, since the cost of warming up is in the batch's total), and returns
// how many of them it
// counted: those up to the end of the running block (with Policy.BlockTime
// that can come before the calls MeasuringBlock allowed, and the
// measurement may end with the block, by abandoning or after its last
// round), none when cand's block is not running. The calls past the end
// belong to no block; the caller need not report them elsewhere.
func (s *Selector) DoneBatch(cand, n int, elapsed time.Duration) int {
	if n <= 0 || !s.measuring || cand != s.cand {
		return 0
	}
	elapsed = max(elapsed, 0)
	each := elapsed / time.Duration(n)
	i := 0
	if s.warming {
		// What a warm-up pays for (a parked lane worker's wake-up, caches
		// refilled) lands in the first call, but a batch is timed only as
		// a whole: spread over its calls it would leave most of that cost
		// in the calls the block records (a lane tick's first batch took
		// 4x its steady rate, and the lanes were abandoned for it). So the
		// calls of a batch that starts in the warm-up are all warm-up, up
		// to its call count; BlockTime ends a warm-up at a batch's end.
		p := &s.policy
		i = min(n, p.WarmupCalls-s.pos)
		s.pos += i
		if p.BlockTime > 0 && s.spent < p.BlockTime {
			s.spent += each * time.Duration(i)
		}
		if s.pos >= p.WarmupCalls || p.BlockTime > 0 && s.spent >= p.BlockTime {
			s.warming, s.spent = false, 0
		}
	}
	for i < n {
		i++
		if s.count(each) {
			return i
		}
	}
	return n
}

func (s *Selector) pickMeasured() (int, bool) {
	if !s.measuring {
		s.startMeasuring()
	}
	return s.cand, true
}

func (s *Selector) startMeasuring() {
	s.reset()
	// The interval doubles with every check; guard the doubling against
	// overflow for caps near MaxInt64.
	if s.wait > s.policy.MaxRecheck/2 {
		s.wait = s.policy.MaxRecheck
	} else {
		s.wait *= 2
	}
}

// reset puts the selector at the start of a measurement.
func (s *Selector) reset() {
	s.measuring = true
	s.round, s.cand = 0, 0
	clear(s.counts)
	clear(s.abandoned)
	s.live = len(s.samples) - 1
	s.refMedian = 0
	s.startBlock()
}

func (s *Selector) startBlock() {
	s.pos, s.spent = 0, 0
	s.warming = s.policy.WarmupCalls > 0
	s.from = s.counts[s.cand]
}

// Done reports the elapsed time of a measured call of cand. Reports that do
// not belong to the running block (a call made before the measurement began,
// or of another candidate) are ignored, so a confused caller can only skew
// timing, never the schedule.
func (s *Selector) Done(cand int, elapsed time.Duration) {
	if !s.measuring || cand != s.cand {
		return
	}
	s.count(elapsed)
}

// count books one call of the running block and reports whether the block
// ended with it.
func (s *Selector) count(elapsed time.Duration) bool {
	p := &s.policy
	// A clock that stepped backwards must not look like a fast kernel.
	elapsed = max(elapsed, 0)
	s.pos++
	if p.BlockTime > 0 && s.spent < p.BlockTime {
		s.spent += elapsed
	}
	if s.warming {
		if s.pos >= p.WarmupCalls || p.BlockTime > 0 && s.spent >= p.BlockTime {
			s.warming, s.spent = false, 0
		}
		return false
	}
	c := s.cand
	s.samples[c][s.counts[c]] = elapsed
	s.counts[c]++
	if s.pos < p.BlockCalls && (p.BlockTime == 0 || s.spent < p.BlockTime || s.counts[c]-s.from < p.MinCalls) {
		return false
	}
	s.endBlock()
	return true
}

// endBlock applies the abandon rule to the block that just ended and moves
// on to the next block, or closes the measurement.
func (s *Selector) endBlock() {
	p := &s.policy
	c := s.cand
	if p.AbandonRatio > 0 {
		// Sorting in place is harmless: only the multiset of samples matters.
		if c == 0 {
			s.refMedian = median(s.samples[0][:s.counts[0]])
		} else if float64(median(s.samples[c][s.from:s.counts[c]])) > p.AbandonRatio*float64(s.refMedian) {
			s.abandoned[c] = true
			if s.live--; s.live == 0 {
				s.abandons++
				s.decide()
				return
			}
		}
	}
	// The reference is never abandoned, so the search stops at it at the
	// latest.
	for {
		s.cand++
		if s.cand == len(s.samples) {
			s.cand = 0
			s.round++
			if s.round == p.Rounds {
				s.decide()
				return
			}
		}
		if !s.abandoned[s.cand] {
			break
		}
	}
	s.startBlock()
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
