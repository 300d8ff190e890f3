package selector

import (
	"slices"
	"time"
)

// decide closes a measurement: it applies the decision rule to the medians
// and trimmed means and starts the decided interval.
func (s *Selector) decide() {
	means := make([]time.Duration, len(s.samples))
	for c, xs := range s.samples {
		s.medians[c] = median(xs)
		means[c] = trimmedMean(xs)
	}
	prev := s.choice
	s.choice = choose(s.medians, means, s.policy.KeepRatio)
	if s.checks > 0 && s.choice != prev {
		s.flips++
	}
	s.checks++
	s.measuring = false
	s.left = s.wait
}

// choose is the decision rule: among the candidates whose median is below
// ratio × the reference median and whose trimmed mean is not above the
// reference's, the lowest median wins; otherwise the reference. A zero
// reference median (a clock too coarse to see the call) leaves nothing
// eligible, which is the safe outcome.
//
// The mean test is there for partitioned kernels: a run that has to wait
// for a lane the OS has descheduled takes many times the usual, and when
// that happens to one call in ten the median still looks twice as fast
// while the throughput is worse than sequential.
func choose(medians, means []time.Duration, ratio float64) int {
	limit := ratio * float64(medians[0])
	best := 0
	for c := 1; c < len(medians); c++ {
		if float64(medians[c]) < limit && means[c] <= means[0] && (best == 0 || medians[c] < medians[best]) {
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

// median sorts xs in place, which is fine because the samples are consumed.
// An even count averages the two middle values.
func median(xs []time.Duration) time.Duration {
	slices.Sort(xs)
	n := len(xs)
	if n%2 == 1 {
		return xs[n/2]
	}
	lo, hi := xs[n/2-1], xs[n/2]
	return lo + (hi-lo)/2
}
