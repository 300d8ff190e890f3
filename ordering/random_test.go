package ordering_test

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/weft-hdl/weft/internal/plancheck"
	"github.com/weft-hdl/weft/ordering"
)

// toPlan converts a task table and its waits to plancheck's form.
func toPlan(lanes [][]ordering.Task, waits [][][]ordering.Wait) [][]plancheck.Task {
	conv := func(rs []ordering.Range) [][2]int {
		var out [][2]int
		for _, r := range rs {
			out = append(out, [2]int{r.Lo, r.Hi})
		}
		return out
	}
	plan := make([][]plancheck.Task, len(lanes))
	for l, list := range lanes {
		for i, t := range list {
			pt := plancheck.Task{
				Lane: l, Index: t.Index,
				Reads: conv(t.Effects.Reads), Writes: conv(t.Effects.Writes), Footprint: conv(t.Effects.Footprint),
			}
			for _, w := range waits[l][i] {
				pt.Waits = append(pt.Waits, [2]int{w.Lane, w.Count})
			}
			plan[l] = append(plan[l], pt)
		}
	}
	return plan
}

func checkPlan(lanes [][]ordering.Task, waits [][][]ordering.Wait) error {
	return plancheck.Check(toPlan(lanes, waits))
}

// The test's own model: byte-wise overlap and a Floyd–Warshall closure.

func meets(a, b []ordering.Range) bool {
	for _, x := range a {
		for _, y := range b {
			if max(x.Lo, y.Lo) < min(x.Hi, y.Hi) {
				return true
			}
		}
	}
	return false
}

func mustOrder(u, t ordering.Effects) bool {
	return meets(u.Writes, t.Reads) || meets(u.Reads, t.Writes) || meets(u.Footprint, t.Footprint)
}

type node struct{ lane, pos int }

func flatten(lanes [][]ordering.Task) ([]node, map[node]int) {
	var ns []node
	id := map[node]int{}
	for l, list := range lanes {
		for i := range list {
			id[node{l, i}] = len(ns)
			ns = append(ns, node{l, i})
		}
	}
	return ns, id
}

// closure returns reach[a][b]: a happens before b, given edges.
func closure(n int, edges [][2]int) [][]bool {
	reach := make([][]bool, n)
	for i := range reach {
		reach[i] = make([]bool, n)
	}
	for _, e := range edges {
		reach[e[0]][e[1]] = true
	}
	for k := range n {
		for i := range n {
			if !reach[i][k] {
				continue
			}
			for j := range n {
				if reach[k][j] {
					reach[i][j] = true
				}
			}
		}
	}
	return reach
}

func laneEdges(lanes [][]ordering.Task, id map[node]int) [][2]int {
	var es [][2]int
	for l, list := range lanes {
		for i := 1; i < len(list); i++ {
			es = append(es, [2]int{id[node{l, i - 1}], id[node{l, i}]})
		}
	}
	return es
}

func waitEdges(lanes [][]ordering.Task, waits [][][]ordering.Wait, id map[node]int, skip node, skipWait int) [][2]int {
	var es [][2]int
	for l, lw := range waits {
		for i, ws := range lw {
			for k, w := range ws {
				if (node{l, i}) == skip && k == skipWait {
					continue
				}
				if w.Count > 0 {
					es = append(es, [2]int{id[node{w.Lane, w.Count - 1}], id[node{l, i}]})
				}
			}
		}
	}
	return es
}

// conflictPairs lists every cross-lane pair (earlier, later) that must be
// ordered.
func conflictPairs(lanes [][]ordering.Task, ns []node) [][2]int {
	var ps [][2]int
	for a, na := range ns {
		for b, nb := range ns {
			ta, tb := lanes[na.lane][na.pos], lanes[nb.lane][nb.pos]
			if na.lane != nb.lane && ta.Index < tb.Index && mustOrder(ta.Effects, tb.Effects) {
				ps = append(ps, [2]int{a, b})
			}
		}
	}
	return ps
}

func randRanges(rng *rand.Rand, k, size, maxLen int) []ordering.Range {
	var rs []ordering.Range
	for range rng.IntN(k + 1) {
		lo := rng.IntN(size)
		rs = append(rs, ordering.Range{Lo: lo, Hi: lo + 1 + rng.IntN(maxLen)})
	}
	return rs
}

func randTable(rng *rand.Rand, nl, nt, size int) [][]ordering.Task {
	lanes := make([][]ordering.Task, nl)
	index := rng.IntN(3)
	for range nt {
		rd := randRanges(rng, 3, size, 8)
		wr := randRanges(rng, 2, size, 8)
		var fp []ordering.Range
		for _, w := range wr {
			fp = append(fp, ordering.Range{Lo: w.Lo, Hi: w.Hi + rng.IntN(4)})
		}
		if rng.IntN(4) == 0 {
			fp = append(fp, randRanges(rng, 1, size, 8)...)
		}
		l := rng.IntN(nl)
		lanes[l] = append(lanes[l], ordering.Task{Index: index, Effects: ordering.Effects{Reads: rd, Writes: wr, Footprint: fp}})
		index += 1 + rng.IntN(2)
	}
	return lanes
}

func TestWaitsRandom(t *testing.T) {
	iters := 400
	if testing.Short() {
		iters = 100
	}
	totalWaits := 0
	for seed := range iters {
		rng := rand.New(rand.NewPCG(uint64(seed), 7))
		nl := 1 + rng.IntN(8)
		nt := 1 + rng.IntN(40)
		size := 16 + rng.IntN(150)
		lanes := randTable(rng, nl, nt, size)
		waits, err := ordering.Waits(lanes)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		if err := checkPlan(lanes, waits); err != nil {
			t.Fatalf("seed %d: plancheck rejects the waits: %v\nlanes %v\nwaits %v", seed, err, lanes, waits)
		}
		ns, id := flatten(lanes)
		pairs := conflictPairs(lanes, ns)
		lane := laneEdges(lanes, id)

		// The plan's happens-before is exactly the closure of lane order and
		// the conflicts: no more order than needed.
		want := closure(len(ns), append(append([][2]int(nil), lane...), pairs...))
		got := closure(len(ns), append(append([][2]int(nil), lane...), waitEdges(lanes, waits, id, node{-1, -1}, -1)...))
		for a := range ns {
			for b := range ns {
				if want[a][b] != got[a][b] {
					t.Fatalf("seed %d: %v before %v: plan says %v, conflicts say %v", seed, ns[a], ns[b], got[a][b], want[a][b])
				}
			}
		}

		// Every wait is needed: without it a conflicting pair is unordered,
		// which plancheck must report too.
		for l, lw := range waits {
			for i, ws := range lw {
				for k, w := range ws {
					totalWaits++
					if w.Lane == l || w.Count <= 0 || w.Count > len(lanes[w.Lane]) {
						t.Fatalf("seed %d: task %d of lane %d has malformed wait %v", seed, i, l, w)
					}
					if k > 0 && ws[k-1].Lane >= w.Lane {
						t.Fatalf("seed %d: waits %v not sorted by lane", seed, ws)
					}
					edges := append(append([][2]int(nil), lane...), waitEdges(lanes, waits, id, node{l, i}, k)...)
					reach := closure(len(ns), edges)
					unordered := false
					for _, p := range pairs {
						if !reach[p[0]][p[1]] {
							unordered = true
							break
						}
					}
					if !unordered {
						t.Fatalf("seed %d: wait %v of task %d on lane %d is redundant", seed, w, i, l)
					}
					reduced := make([][][]ordering.Wait, len(waits))
					for l2 := range waits {
						reduced[l2] = append([][]ordering.Wait(nil), waits[l2]...)
					}
					reduced[l][i] = append(append([]ordering.Wait(nil), ws[:k]...), ws[k+1:]...)
					if checkPlan(lanes, reduced) == nil {
						t.Fatalf("seed %d: plancheck accepts the plan without wait %v of task %d on lane %d", seed, w, i, l)
					}
				}
			}
		}

		// Summarize agrees with the test's model.
		st := ordering.Summarize(lanes, waits)
		if st.Conflicts != len(pairs) || st.Tasks != len(ns) || st.Lanes != nl {
			t.Fatalf("seed %d: Summarize = %v, want %d tasks, %d conflicts", seed, st, len(ns), len(pairs))
		}
	}
	if totalWaits == 0 {
		t.Fatal("the random tables produced no waits")
	}
}

// TestWaitsLarge runs a kernel-sized table: 2000 tasks over 8 lanes.
func TestWaitsLarge(t *testing.T) {
	for _, size := range []int{4096, 1 << 20} { // dense conflicts, then almost none
		rng := rand.New(rand.NewPCG(uint64(size), 1))
		lanes := randTable(rng, 8, 2000, size)
		start := time.Now()
		waits, err := ordering.Waits(lanes)
		if err != nil {
			t.Fatal(err)
		}
		el := time.Since(start)
		st := ordering.Summarize(lanes, waits)
		t.Logf("state %d bytes: %v in %v", size, st, el)
		if testing.Short() {
			continue
		}
		if err := checkPlan(lanes, waits); err != nil {
			t.Fatal(err)
		}
	}
}
