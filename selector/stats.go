package selector

import (
	"fmt"
	"strings"
	"time"
)

// Stats is a snapshot of a selector's state for plans, statistics and logs.
type Stats struct {
	Candidates int
	// Choice is the candidate of the latest decision (0 before the first).
	Choice int
	// Measuring says a measurement is in progress; Choice then still holds
	// the previous decision.
	Measuring bool
	// Medians holds each candidate's median of the latest completed
	// measurement, over the calls it recorded (few for a candidate that was
	// abandoned); nil before the first decision.
	Medians []time.Duration
	// Checks counts completed measurements, the first decision included.
	Checks int
	// Flips counts re-checks that changed the choice.
	Flips int
	// Abandoned counts measurements that ended because every alternative
	// was abandoned (see Policy.AbandonRatio); they decided the
	// reference and are included in Checks.
	Abandoned int
	// Interval is the length, in calls, of the current decided interval, or
	// while measuring of the one that will follow the measurement.
	Interval int64
	// Remaining is the number of decided calls before the next measurement
	// (0 while measuring).
	Remaining int64
}

// Stats returns a snapshot. It allocates and is meant for reporting, not for
// the hot path.
func (s *Selector) Stats() Stats {
	st := Stats{
		Candidates: len(s.samples),
		Choice:     s.choice,
		Measuring:  s.measuring,
		Checks:     s.checks,
		Flips:      s.flips,
		Abandoned:  s.abandons,
		Interval:   s.wait,
		Remaining:  s.left,
	}
	if s.checks > 0 {
		st.Medians = append([]time.Duration(nil), s.medians...)
	}
	return st
}

// String describes the state in one line, e.g.
//
//	candidate 1 of 2, decided (medians 100ns 60ns), 1 check, 0 flips, re-check in 1000 of 1000 calls
//	candidate 0 of 2, decided (medians 100ns 200ns), 2 checks, 1 flip, 1 abandoned, re-check in 2000 of 2000 calls
//
// Abandoned measurements are mentioned only when there were some, so the
// line stays short where abandoning is off.
func (s *Selector) String() string { return s.Stats().String() }

func (st Stats) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "candidate %d of %d, ", st.Choice, st.Candidates)
	if st.Measuring {
		b.WriteString("measuring")
	} else {
		b.WriteString("decided")
	}
	if st.Medians != nil {
		b.WriteString(" (medians")
		for _, m := range st.Medians {
			fmt.Fprintf(&b, " %v", m)
		}
		b.WriteString(")")
	}
	fmt.Fprintf(&b, ", %d %s, %d %s", st.Checks, plural(st.Checks, "check"), st.Flips, plural(st.Flips, "flip"))
	if st.Abandoned > 0 {
		fmt.Fprintf(&b, ", %d abandoned", st.Abandoned)
	}
	if st.Measuring {
		fmt.Fprintf(&b, ", next interval %d calls", st.Interval)
	} else {
		fmt.Fprintf(&b, ", re-check in %d of %d calls", st.Remaining, st.Interval)
	}
	return b.String()
}

func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}
