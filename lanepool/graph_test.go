package lanepool

import (
	"fmt"
	"math/rand/v2"
	"sync/atomic"
	"unsafe"
)

// graph is a random task table built from a sequential order, so it is valid
// by construction, plus what every task must find done when it starts.
type graph struct {
	lanes  int
	lane   []int    // lane of each task, by sequential index
	pos    []int    // position of each task within its lane
	waits  [][]Wait // waits of each task
	byLane [][]int  // sequential indices of each lane's tasks, in order
	// need[i][l] is how many tasks of lane l are done, directly or
	// transitively through the waits, before task i starts.
	need [][]int
	// fail[i] is the status task i returns (OK for most tasks).
	fail []Status
}

// randomGraph assigns tasks of a sequential order to lanes and gives each a
// few waits on earlier tasks, sometimes redundant ones.
func randomGraph(r *rand.Rand, lanes, tasks int) *graph {
	g := &graph{lanes: lanes, byLane: make([][]int, lanes)}
	g.fail = make([]Status, tasks)
	prev := 0
	for i := range tasks {
		l := r.IntN(lanes)
		if i > 0 && r.IntN(3) == 0 {
			l = prev // runs of one lane, as the partitioner makes them
		}
		prev = l
		g.lane = append(g.lane, l)
		g.pos = append(g.pos, len(g.byLane[l]))
		g.byLane[l] = append(g.byLane[l], i)

		var ws []Wait
		for range r.IntN(4) {
			if i == 0 {
				break
			}
			var j int
			if r.IntN(2) == 0 {
				j = i - 1 - r.IntN(min(i, 4)) // recent work
			} else {
				j = r.IntN(i)
			}
			if g.lane[j] != l {
				ws = append(ws, Wait{Lane: g.lane[j], Count: g.pos[j] + 1})
			}
		}
		g.waits = append(g.waits, ws)
		need := make([]int, lanes)
		if p := g.pos[i]; p > 0 {
			copy(need, g.need[g.byLane[l][p-1]])
			need[l] = p
		}
		for _, w := range ws {
			merge(need, g.need[g.byLane[w.Lane][w.Count-1]])
			need[w.Lane] = max(need[w.Lane], w.Count)
		}
		// Redundant waits: already implied by the ones above or by the
		// lane's earlier tasks. ordering/ removes these, but the pool must
		// not depend on that.
		if r.IntN(4) == 0 {
			for o := range lanes {
				if o != l && need[o] > 0 {
					g.waits[i] = append(g.waits[i], Wait{Lane: o, Count: 1 + r.IntN(need[o])})
					break
				}
			}
		}
		g.need = append(g.need, need)
	}
	return g
}

func merge(dst, src []int) {
	for i, v := range src {
		dst[i] = max(dst[i], v)
	}
}

// withFailures makes each task fail with probability 1/n.
func (g *graph) withFailures(r *rand.Rand, n int) {
	for i := range g.fail {
		if r.IntN(n) == 0 {
			g.fail[i] = Status(1 + r.IntN(100))
		}
	}
}

// probe is the per-run memory the tasks of a graph check and write.
type probe struct {
	stamp uint64 // this run's id, written before Run
	// done is written with atomics: the order check.
	done []atomic.Uint64
	// data is written and read without synchronization, so the race
	// detector verifies that the pool orders dependent tasks.
	data []uint64
	// bad[i] != 0 when task i found a required task incomplete; ran[i] is the
	// stamp of the last run task i started in.
	bad []int
	ran []uint64
}

func newProbe(g *graph) *probe {
	n := len(g.lane)
	return &probe{done: make([]atomic.Uint64, n), data: make([]uint64, n), bad: make([]int, n), ran: make([]uint64, n)}
}

// table builds the task table of g; every task checks and records into pr.
// With atomicCheck every required task is checked through done, otherwise the
// last required task of each lane and the direct producers through data.
func (g *graph) table(pr *probe, atomicCheck bool) [][]Task {
	lanes := make([][]Task, g.lanes)
	for i := range g.lane {
		i := i
		fn := func(unsafe.Pointer) Status {
			s := pr.stamp
			pr.ran[i] = s
			for l, c := range g.need[i] {
				if atomicCheck {
					for _, j := range g.byLane[l][:c] {
						if pr.done[j].Load() != s {
							pr.bad[i] = j + 1
						}
					}
				} else if c > 0 {
					if j := g.byLane[l][c-1]; pr.data[j] != s {
						pr.bad[i] = j + 1
					}
				}
			}
			if !atomicCheck {
				for _, w := range g.waits[i] {
					if j := g.byLane[w.Lane][w.Count-1]; pr.data[j] != s {
						pr.bad[i] = j + 1
					}
				}
			}
			if g.fail[i] != OK {
				return g.fail[i]
			}
			pr.data[i] = s
			pr.done[i].Store(s)
			return OK
		}
		lanes[g.lane[i]] = append(lanes[g.lane[i]], Task{Fn: fn, Index: i, Waits: g.waits[i]})
	}
	return lanes
}

// check verifies one run: every task that started found its requirements
// done; every task before the sequentially first failing task ran (all tasks,
// without failures); and res names that first failing task, exactly what the
// sequential kernel would report, whatever the timing.
func (g *graph) check(pr *probe, res Result) error {
	first := -1
	for i, st := range g.fail {
		if st != OK {
			first = i
			break
		}
	}
	for i := range g.lane {
		if pr.ran[i] != pr.stamp {
			if first < 0 || i <= first {
				return fmt.Errorf("task %d (lane %d) did not run (first failing task: %d)", i, g.lane[i], first)
			}
			continue
		}
		if pr.bad[i] != 0 {
			j := pr.bad[i] - 1
			return fmt.Errorf("task %d (lane %d) started before task %d (lane %d) was done", i, g.lane[i], j, g.lane[j])
		}
	}
	switch {
	case first < 0 && !res.OK():
		return fmt.Errorf("run reported %+v but no task failed", res)
	case first >= 0 && (res.Task != first || res.Status != g.fail[first] || res.Lane != g.lane[first]):
		return fmt.Errorf("run reported %+v, want task %d on lane %d status %d", res, first, g.lane[first], g.fail[first])
	}
	return nil
}

func (g *graph) hasFailures() bool {
	for _, s := range g.fail {
		if s != OK {
			return true
		}
	}
	return false
}
