package vcd_test

import (
	"fmt"
	"slices"
	"strings"
)

// sameName pairs a variable of one dump with one of another.
type sameName struct{ a, b string }

// compareDumps compares the histories of paired variables of dumps a and
// b from time from on: at every time either writes one of them, the
// values at the end of that time must agree (so the order of changes
// within a time, and changes that revert within it, do not matter). x and
// z digits of a match anything (a four-state simulator's unknowns against
// weft's two states). It returns one line per differing variable, the
// first difference of each.
func compareDumps(a, b *vcdFile, pairs []sameName, from uint64) []string {
	var diffs []string
	for _, p := range pairs {
		va, vb := a.vars[p.a], b.vars[p.b]
		if va.width != vb.width {
			diffs = append(diffs, fmt.Sprintf("%s: %d bits, %s: %d bits", p.a, va.width, p.b, vb.width))
			continue
		}
		times := []uint64{from}
		for _, c := range a.hist[va.id] {
			times = append(times, c.t)
		}
		for _, c := range b.hist[vb.id] {
			times = append(times, c.t)
		}
		slices.Sort(times)
		times = slices.Compact(times)
		for _, t := range times {
			if t < from {
				continue
			}
			x, y := a.valueAt(va.id, t), b.valueAt(vb.id, t)
			if !matchUnknown(x, y) {
				diffs = append(diffs, fmt.Sprintf("%s at %d: %s, %s: %s", p.a, t, show(x), p.b, show(y)))
				break
			}
		}
	}
	return diffs
}

func show(v string) string {
	if v == "" {
		return "(no value)"
	}
	return v
}

// matchUnknown reports whether y has the value x has, an x or z digit of
// x matching anything.
func matchUnknown(x, y string) bool {
	if len(x) != len(y) {
		return false
	}
	for i := 0; i < len(x); i++ {
		if x[i] != y[i] && x[i] != 'x' && x[i] != 'z' {
			return false
		}
	}
	return true
}

// report formats at most n difference lines.
func report(diffs []string, n int) string {
	if len(diffs) > n {
		return strings.Join(diffs[:n], "\n") + fmt.Sprintf("\n... and %d more", len(diffs)-n)
	}
	return strings.Join(diffs, "\n")
}
