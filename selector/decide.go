package selector

import (
	"slices"
	"time"
)

// decide closes a measurement: it applies the decision rule to the medians
// and starts the decided interval.
func (s *Selector) decide() {
	for c, xs := range s.samples {
		s.medians[c] = median(xs)
	}
	prev := s.choice
	s.choice = choose(s.medians, s.policy.KeepRatio)
	if s.checks > 0 && s.choice != prev {
		s.flips++
	}
	s.checks++
	s.measuring = false
	s.left = s.wait
}

// choose is the decision rule: among the candidates whose median is below
// ratio × the reference median, the lowest median wins; otherwise the
// reference. A zero reference median (a clock too coarse to see the call)
// leaves nothing eligible, which is the safe outcome.
func choose(medians []time.Duration, ratio float64) int {
	limit := ratio * float64(medians[0])
	best := 0
	for c := 1; c < len(medians); c++ {
		if float64(medians[c]) < limit && (best == 0 || medians[c] < medians[best]) {
			best = c
		}
	}
	return best
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
