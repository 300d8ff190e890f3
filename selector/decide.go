package selector

import (
	"slices"
	"time"
)

// decide closes a measurement: it applies the decision rule to the medians
// and trimmed means of the calls each candidate recorded and starts the
// decided interval.
func (s *Selector) decide() {
	for c, xs := range s.samples {
		xs = xs[:s.counts[c]]
		s.medians[c] = median(xs)
		s.means[c] = trimmedMean(xs)
	}
	prev := s.choice
	s.choice = choose(s.medians, s.means, s.abandoned, s.policy.KeepRatio)
	if s.checks > 0 && s.choice != prev {
		s.flips++
		// A flip means the host changed or the measurement before it was
		// off (with batched calls one stall can fill a block and abandon a
		// candidate that wins two to one), so the new choice is confirmed
		// after the first interval rather than trusted twice as long as
		// the last; the doubling then starts over.
		s.wait = s.policy.FirstRecheck
	}
	s.checks++
	s.measuring = false
	s.left = s.wait
}

// choose is the decision rule: among the candidates not abandoned whose
// median is below ratio × the reference median and whose trimmed mean is not
// above the reference's, the lowest median wins; otherwise the reference.
// An abandoned candidate stays out even if its few samples would pass: it
// lost by a wide margin against the same reference. A zero
// reference median (a clock too coarse to see the call) leaves nothing
// eligible, which is the safe outcome.
//
// The mean test is there for partitioned kernels: a run that has to wait
// for a lane the OS has descheduled takes many times the usual, and when
// that happens to one call in ten the median still looks twice as fast
// while the throughput is worse than sequential.
func choose(medians, means []time.Duration, abandoned []bool, ratio float64) int {
	limit := ratio * float64(medians[0])
	best := 0
	for c := 1; c < len(medians); c++ {
		if !abandoned[c] && float64(medians[c]) < limit && means[c] <= means[0] && (best == 0 || medians[c] < medians[best]) {
			best = c
		}
	}
	return best
}

// trimmedMean is the mean of xs without its largest 2% (at least one value
// when there are 10 or more): a one-off stall — a page fault, a GC pause —
// is dropped, a tail that recurs is counted. xs must be sorted (median
// sorts it).
func trimmedMean(xs []time.Duration) time.Duration {
	n := len(xs) - len(xs)/50
	if len(xs) >= 10 {
		n = min(n, len(xs)-1)
	}
	if n <= 0 {
		return 0
	}
	var sum time.Duration
	for _, x := range xs[:n] {
		sum += x
	}
	return sum / time.Duration(n)
}

// median sorts xs in place, which is fine because only the multiset of
// samples matters. An even count averages the two middle values. Every
// candidate records a call before its median is taken; 0 for none keeps a
// schedule bug from becoming a panic in the simulator's hot loop.
func median(xs []time.Duration) time.Duration {
	slices.Sort(xs)
	n := len(xs)
	if n == 0 {
		return 0
	}
	if n%2 == 1 {
		return xs[n/2]
	}
	lo, hi := xs[n/2-1], xs[n/2]
	return lo + (hi-lo)/2
}
