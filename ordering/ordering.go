package ordering

import (
	"fmt"
	"sort"
)

// Wait is one wait of a task: it may start once Count tasks of lane Lane
// have completed. Wait has the same fields, so a table converts
// element by element (Wait(w)); ordering does not import the
// pool because computing the waits is compile-time work and running them
// is the runtime's.
type Wait struct {
	Lane  int
	Count int
}

// Task is one entry of a lane's task list.
type Task struct {
	Index   int // position in the kernel's sequential order (unique; ascending along a lane)
	Effects Effects
}

// Waits returns, for every task of every lane (same shape as lanes), its
// non-redundant waits as Wait{Lane, Count} (Count = number of tasks of
// that lane that must have completed), sorted by lane. A task T waits for
// every task U on another lane with U.Index < T.Index that conflicts with it:
// U.Writes ∩ T.Reads, U.Reads ∩ T.Writes, or U.Footprint ∩ T.Footprint
// non-empty (Writes count as part of the Footprint).
//
// Only non-redundant waits are kept: a wait is redundant when it is implied by
// lane order (earlier tasks of T's lane and what they waited for) or by
// another wait of T transitively (a wait on (L, c) implies everything task
// c-1 of lane L and its lane predecessors waited for). Every returned wait is
// needed: without it some conflicting pair would be unordered.
//
// Errors: a lane whose indexes do not ascend, duplicated indexes.
func Waits(lanes [][]Task) ([][][]Wait, error) {
	if err := validate(lanes); err != nil {
		return nil, err
	}
	nl := len(lanes)
	nt := make([][]ntask, nl)
	total := 0
	for l, list := range lanes {
		nt[l] = make([]ntask, len(list))
		for i, t := range list {
			nt[l][i] = newNTask(t.Effects)
		}
		total += len(list)
	}

	// Tasks in sequential order: every task a task may wait for, and its lane
	// predecessor, come first.
	type ref struct{ lane, pos, index int }
	order := make([]ref, 0, total)
	for l, list := range lanes {
		for i, t := range list {
			order = append(order, ref{l, i, t.Index})
		}
	}
	sort.Slice(order, func(i, j int) bool { return order[i].index < order[j].index })

	// clocks[l][p][L] is the number of tasks of lane L known to have completed
	// when task p of lane l completes (itself included on lane l).
	flat := make([]int, total*nl)
	clocks := make([][][]int, nl)
	for l, list := range lanes {
		clocks[l] = make([][]int, len(list))
		for i := range list {
			clocks[l][i], flat = flat[:nl:nl], flat[nl:]
		}
	}

	out := make([][][]Wait, nl)
	for l, list := range lanes {
		out[l] = make([][]Wait, len(list))
	}
	processed := make([]int, nl) // tasks of each lane with a lower Index than the current one
	var cands []Wait
	for _, r := range order {
		l, p := r.lane, r.pos
		clk := clocks[l][p]
		if p > 0 {
			copy(clk, clocks[l][p-1])
		}
		t := &nt[l][p]
		cands = cands[:0]
		for L := range nl {
			if L == l {
				continue
			}
			// The latest earlier conflicting task of lane L not already
			// implied by lane order.
			for q := processed[L] - 1; q >= clk[L]; q-- {
				if conflict(&nt[L][q], t) {
					cands = append(cands, Wait{Lane: L, Count: q + 1})
					break
				}
			}
		}
		var ws []Wait
		for i, w := range cands {
			implied := false
			for j, v := range cands {
				if i != j && clocks[v.Lane][v.Count-1][w.Lane] >= w.Count {
					implied = true
					break
				}
			}
			if !implied {
				ws = append(ws, w)
			}
		}
		for _, w := range ws {
			for L, c := range clocks[w.Lane][w.Count-1] {
				clk[L] = max(clk[L], c)
			}
		}
		clk[l] = p + 1
		out[l][p] = ws
		processed[l]++
	}
	return out, nil
}

// Recompute returns the waits of the fixed task table lanes after replacing
// the Effects of the tasks for which final returns ok (a backend reports the
// footprint of the code it really generated). lanes is not modified.
func Recompute(lanes [][]Task, final func(lane, pos int) (Effects, bool)) ([][][]Wait, error) {
	fixed := make([][]Task, len(lanes))
	for l, list := range lanes {
		fixed[l] = append([]Task(nil), list...)
		if final == nil {
			continue
		}
		for i := range fixed[l] {
			if e, ok := final(l, i); ok {
				fixed[l][i].Effects = e
			}
		}
	}
	return Waits(fixed)
}

// Conflicts reports whether a task with effects later must wait for a task
// with effects earlier that precedes it in sequential order on another lane.
func Conflicts(earlier, later Effects) bool {
	_, ok := ConflictAt(earlier, later)
	return ok
}

// ConflictAt is Conflicts with the first byte the conflict is over.
func ConflictAt(earlier, later Effects) (int, bool) {
	u, t := newNTask(earlier), newNTask(later)
	return conflictAt(&u, &t)
}

// Stats summarizes a task table and its waits.
type Stats struct {
	Lanes, Tasks int
	Waits        int // waits recorded (Count > 0)
	// Conflicts counts the pairs of tasks on different lanes that conflict
	// and so must be ordered.
	Conflicts int
}

func (s Stats) String() string {
	return fmt.Sprintf("%d lanes, %d tasks, %d waits, %d conflicting pairs", s.Lanes, s.Tasks, s.Waits, s.Conflicts)
}

// Summarize counts the tasks, the waits (as returned by Waits) and the
// conflicting cross-lane pairs of a table. It compares every pair of tasks,
// so it is meant for reports and tests, not for the compile path.
func Summarize(lanes [][]Task, waits [][][]Wait) Stats {
	s := Stats{Lanes: len(lanes)}
	type item struct {
		lane  int
		index int
		t     ntask
	}
	var all []item
	for l, list := range lanes {
		for _, t := range list {
			all = append(all, item{l, t.Index, newNTask(t.Effects)})
		}
	}
	s.Tasks = len(all)
	for _, lw := range waits {
		for _, ws := range lw {
			for _, w := range ws {
				if w.Count > 0 {
					s.Waits++
				}
			}
		}
	}
	for i := range all {
		for j := range all {
			a, b := &all[i], &all[j]
			if a.lane != b.lane && a.index < b.index && conflict(&a.t, &b.t) {
				s.Conflicts++
			}
		}
	}
	return s
}

func validate(lanes [][]Task) error {
	seen := make(map[int][2]int)
	for l, list := range lanes {
		for i, t := range list {
			if prev, dup := seen[t.Index]; dup {
				return fmt.Errorf("ordering: task index %d used twice (lane %d position %d and lane %d position %d)", t.Index, prev[0], prev[1], l, i)
			}
			seen[t.Index] = [2]int{l, i}
			if i > 0 && list[i-1].Index >= t.Index {
				return fmt.Errorf("ordering: lane %d runs task %d before task %d, against the sequential order", l, list[i-1].Index, t.Index)
			}
		}
	}
	return nil
}

// ntask is a task's normalized effects with the span of each list, for a
// quick rejection of distant tasks.
type ntask struct {
	e                 Effects
	reads, writes, fp Range
}

func newNTask(e Effects) ntask {
	n := ntask{e: e.Normalize()}
	n.reads, n.writes, n.fp = span(n.e.Reads), span(n.e.Writes), span(n.e.Footprint)
	return n
}

func span(rs []Range) Range {
	if len(rs) == 0 {
		return Range{}
	}
	return Range{rs[0].Lo, rs[len(rs)-1].Hi}
}

// conflict reports whether t must be ordered after an earlier task u.
func conflict(u, t *ntask) bool {
	_, ok := conflictAt(u, t)
	return ok
}

// conflictAt is conflict with the first shared byte found.
func conflictAt(u, t *ntask) (int, bool) {
	if u.writes.Overlaps(t.reads) {
		if at, ok := intersect(u.e.Writes, t.e.Reads); ok {
			return at, true
		}
	}
	if u.reads.Overlaps(t.writes) {
		if at, ok := intersect(u.e.Reads, t.e.Writes); ok {
			return at, true
		}
	}
	if u.fp.Overlaps(t.fp) {
		if at, ok := intersect(u.e.Footprint, t.e.Footprint); ok {
			return at, true
		}
	}
	return 0, false
}
