// Package plancheck is an independent, brute-force checker of partitioned
// kernel plans (lane task tables with waits). It shares no code with the
// package that computes the waits (ordering): it builds the happens-before
// relation of a plan by a plain transitive closure and compares every pair
// of tasks byte range by byte range. It is meant for tests.
package plancheck

import "fmt"

// Task mirrors a task: its lane, index, byte ranges and waits.
type Task struct {
	Lane, Index              int
	Reads, Writes, Footprint [][2]int // [lo, hi)
	Waits                    [][2]int // (lane, count)
}

func (t *Task) String() string { return fmt.Sprintf("task %d (lane %d)", t.Index, t.Lane) }

// Check verifies a plan: lanes[l] is lane l's ordered task list.
//
// For every pair of tasks on different lanes that may run at once (neither
// happens-before the other through lane order and waits, computed by a simple
// transitive closure), it reports an error naming both tasks and the byte if
// they have a read/write overlap (Writes vs Reads either way) or a write/write
// overlap (Footprint vs Footprint). It also checks that for every pair that IS
// ordered, the order agrees with Index (the earlier Index happens first), and
// rejects malformed plans: a Task.Lane that is not its lane, waits on the
// task's own lane or out of range, and cycles of waits.
func Check(lanes [][]Task) error {
	// Number the tasks.
	var all []*Task
	id := make([][]int, len(lanes))
	for l := range lanes {
		id[l] = make([]int, len(lanes[l]))
		for i := range lanes[l] {
			t := &lanes[l][i]
			if t.Lane != l {
				return fmt.Errorf("plancheck: %v is listed on lane %d", t, l)
			}
			id[l][i] = len(all)
			all = append(all, t)
		}
	}
	n := len(all)

	// Direct happens-before edges: lane order and waits.
	preds := make([][]int, n)
	for l := range lanes {
		for i := range lanes[l] {
			t, v := &lanes[l][i], id[l][i]
			if i > 0 {
				preds[v] = append(preds[v], id[l][i-1])
			}
			for _, w := range t.Waits {
				wl, wc := w[0], w[1]
				if wl < 0 || wl >= len(lanes) {
					return fmt.Errorf("plancheck: %v waits on lane %d, out of range", t, wl)
				}
				if wl == l {
					return fmt.Errorf("plancheck: %v waits on its own lane", t)
				}
				if wc < 0 || wc > len(lanes[wl]) {
					return fmt.Errorf("plancheck: %v waits for %d tasks of lane %d, which has %d", t, wc, wl, len(lanes[wl]))
				}
				if wc > 0 {
					preds[v] = append(preds[v], id[wl][wc-1])
				}
			}
		}
	}

	// before[v] is the set of tasks that complete before v starts: the
	// transitive closure of preds, filled in topological order.
	words := (n + 63) / 64
	before := make([][]uint64, n)
	succs := make([][]int, n)
	indeg := make([]int, n)
	for v, ps := range preds {
		for _, p := range ps {
			succs[p] = append(succs[p], v)
			indeg[v]++
		}
	}
	var queue []int
	for v := range n {
		if indeg[v] == 0 {
			queue = append(queue, v)
		}
	}
	done := 0
	for len(queue) > 0 {
		v := queue[0]
		queue = queue[1:]
		done++
		before[v] = make([]uint64, words)
		for _, p := range preds[v] {
			before[v][p/64] |= 1 << (p % 64)
			for k, x := range before[p] {
				before[v][k] |= x
			}
		}
		for _, s := range succs[v] {
			if indeg[s]--; indeg[s] == 0 {
				queue = append(queue, s)
			}
		}
	}
	if done != n {
		return fmt.Errorf("plancheck: the waits form a cycle (%d of %d tasks can never start)", n-done, n)
	}
	hb := func(a, b int) bool { return before[b][a/64]>>(a%64)&1 != 0 } // a happens before b

	for a := range n {
		for b := a + 1; b < n; b++ {
			ta, tb := all[a], all[b]
			switch {
			case hb(a, b):
				if ta.Index >= tb.Index {
					return fmt.Errorf("plancheck: %v happens before %v, against the sequential order", ta, tb)
				}
			case hb(b, a):
				if tb.Index >= ta.Index {
					return fmt.Errorf("plancheck: %v happens before %v, against the sequential order", tb, ta)
				}
			default:
				if ta.Lane == tb.Lane {
					return fmt.Errorf("plancheck: %v and %v share a lane but are unordered", ta, tb)
				}
				if err := race(ta, tb); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// race reports a conflict between two tasks that may run at once.
func race(a, b *Task) error {
	if x, ok := overlap(a.Writes, b.Reads); ok {
		return fmt.Errorf("plancheck: %v writes and %v reads byte %d, and they may run at once", a, b, x)
	}
	if x, ok := overlap(a.Reads, b.Writes); ok {
		return fmt.Errorf("plancheck: %v reads and %v writes byte %d, and they may run at once", a, b, x)
	}
	if x, ok := overlap(a.Footprint, b.Footprint); ok {
		return fmt.Errorf("plancheck: %v and %v may both store byte %d, and they may run at once", a, b, x)
	}
	return nil
}

// overlap returns the lowest byte in both range lists, comparing every pair.
func overlap(xs, ys [][2]int) (int, bool) {
	low, found := 0, false
	for _, x := range xs {
		for _, y := range ys {
			lo, hi := max(x[0], y[0]), min(x[1], y[1])
			if lo < hi && (!found || lo < low) {
				low, found = lo, true
			}
		}
	}
	return low, found
}
