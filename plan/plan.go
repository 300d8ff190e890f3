package plan

import (
	"fmt"
	"strings"
)

// Layout kinds (Plan.Layout).
const (
	LayoutPacked    = "packed"
	LayoutSegmented = "segmented"
)

// Segment lanes that are not lanes (Segment.Lane), as in statelayout.
const (
	// SharedLane owns the objects no partitioned task writes.
	SharedLane = -1
	// MultiLane marks the segment of one object several lanes write.
	MultiLane = -2
)

// Plan describes how a design's hot phases were partitioned onto lanes.
type Plan struct {
	Top      string // top module
	Lanes    int    // lanes requested
	SyncCost int    // cost units charged per cross-lane wait
	Kernels  []*Kernel
	Layout   string    // LayoutPacked or LayoutSegmented
	Segments []Segment // empty for a packed layout
	// Ticks has a line per tick loop: "tick top.clk: " and whether its
	// lanes run free over whole batches of edges, or why not.
	Ticks []string
}

// Kernel is one phase's partitioning: the comb settle, or one clock
// event's fused kernel (event + settle).
type Kernel struct {
	Name       string // "settle", "fused posedge top.clk"
	SingleCost int    // estimated cost of the sequential kernel
	Candidates []Candidate
	// Chosen is the name of the chosen candidate; "" means only the
	// sequential kernel is kept.
	Chosen string
	Reason string // one line
	// Lanes is the chosen partition, one task list per lane in run order
	// (empty when Chosen == "").
	Lanes [][]Task
}

// Candidate is one partition the partitioner built and estimated.
type Candidate struct {
	Name              string // "items", "instances", "ffsplit", ...
	Makespan, Charged int
	Tasks, Waits      int
}

// Task is one unit of work of a partitioned kernel.
type Task struct {
	Index int    // position in the kernel's sequential order
	Label string // e.g. "n3..n17 (12 nodes)" or "eval g2[0:3]"
	Cost  int
	Waits []Wait
	// Start and End are estimated times in cost units, filled by
	// (*Kernel).Estimate.
	Start, End int
	// Inst names the part of the design the task works for: the
	// top-level child instance or generate scope ("top.core[2]", or the
	// top itself) holding most of what the task writes, MixedInst when
	// none holds most, "" when unknown. The SVG colours tasks by it.
	Inst string
}

// MixedInst is Task.Inst of a task whose writes no one instance dominates.
const MixedInst = "mixed"

// Wait says that lane Lane must have completed Count tasks: task Count-1
// of that lane has ended. Count 0 is always satisfied.
type Wait struct{ Lane, Count int }

// Segment is one segment of the state layout: bytes [Lo, Hi) owned by a
// lane, SharedLane or MultiLane, holding the named objects.
type Segment struct {
	Lane    int // lane, SharedLane (-1) or MultiLane (-2)
	Lo, Hi  int
	Objects []string
}

// Bytes is the segment's size.
func (s Segment) Bytes() int { return s.Hi - s.Lo }

// Partitioned reports whether the kernel holds a partition with tasks.
func (k *Kernel) Partitioned() bool {
	for _, ts := range k.Lanes {
		if len(ts) > 0 {
			return true
		}
	}
	return false
}

// Makespan is the latest estimated End of the kernel's tasks (0 without
// tasks). It is meaningful after Estimate.
func (k *Kernel) Makespan() int {
	m := 0
	for _, ts := range k.Lanes {
		for _, t := range ts {
			m = max(m, t.End)
		}
	}
	return m
}

// Estimate fills Start and End of every task: a task starts when its
// lane's previous task has ended and every task it waits for on another
// lane has ended plus syncCost (a wait on its own lane is implied by the
// lane order and costs nothing); End = Start + Cost. It returns the
// makespan, the latest End.
//
// A bad table is an error, never an endless loop: a negative syncCost or
// cost, a wait on a lane that does not exist or for more tasks than the
// lane has, or waits that form a cycle (including a wait on a later task
// of the task's own lane). On error every Start and End is zero.
func (k *Kernel) Estimate(syncCost int) (int, error) {
	for l := range k.Lanes {
		for i := range k.Lanes[l] {
			t := &k.Lanes[l][i]
			t.Start, t.End = 0, 0
		}
	}
	if syncCost < 0 {
		return 0, fmt.Errorf("plan: %s: negative sync cost %d", k.Name, syncCost)
	}
	total := 0
	for l, ts := range k.Lanes {
		total += len(ts)
		for i, t := range ts {
			if t.Cost < 0 {
				return 0, fmt.Errorf("plan: %s: %s: negative cost %d", k.Name, taskPos(l, i, t), t.Cost)
			}
			for _, w := range t.Waits {
				switch {
				case w.Lane < 0 || w.Lane >= len(k.Lanes):
					return 0, fmt.Errorf("plan: %s: %s waits L%d:%d: no lane %d (%d lanes)", k.Name, taskPos(l, i, t), w.Lane, w.Count, w.Lane, len(k.Lanes))
				case w.Count < 0 || w.Count > len(k.Lanes[w.Lane]):
					return 0, fmt.Errorf("plan: %s: %s waits L%d:%d: lane %d has %d tasks", k.Name, taskPos(l, i, t), w.Lane, w.Count, w.Lane, len(k.Lanes[w.Lane]))
				case w.Lane == l && w.Count > i:
					return 0, fmt.Errorf("plan: %s: %s waits L%d:%d: a task of its own lane that runs after it (cycle)", k.Name, taskPos(l, i, t), w.Lane, w.Count)
				}
			}
		}
	}
	// done[l] counts the tasks of lane l placed so far. Every round places
	// at least one task or stops: at most total rounds.
	done := make([]int, len(k.Lanes))
	makespan := 0
	for placed := 0; placed < total; {
		progress := false
		for l := range k.Lanes {
		lane:
			for done[l] < len(k.Lanes[l]) {
				i := done[l]
				t := &k.Lanes[l][i]
				start := 0
				if i > 0 {
					start = k.Lanes[l][i-1].End
				}
				for _, w := range t.Waits {
					if w.Count == 0 || w.Lane == l {
						continue
					}
					if done[w.Lane] < w.Count {
						break lane
					}
					start = max(start, k.Lanes[w.Lane][w.Count-1].End+syncCost)
				}
				t.Start, t.End = start, start+t.Cost
				makespan = max(makespan, t.End)
				done[l]++
				placed++
				progress = true
			}
		}
		if !progress {
			var stuck []string
			for l, ts := range k.Lanes {
				if i := done[l]; i < len(ts) {
					stuck = append(stuck, fmt.Sprintf("%s waits %s", taskPos(l, i, ts[i]), formatWaits(ts[i].Waits)))
				}
			}
			for l := range k.Lanes {
				for i := range k.Lanes[l] {
					t := &k.Lanes[l][i]
					t.Start, t.End = 0, 0
				}
			}
			return 0, fmt.Errorf("plan: %s: waits form a cycle: %s", k.Name, strings.Join(stuck, "; "))
		}
	}
	return makespan, nil
}

// taskPos names a task by lane, position in the lane and index.
func taskPos(lane, i int, t Task) string {
	return fmt.Sprintf("lane %d task %d (#%d)", lane, i, t.Index)
}

// formatWaits writes waits as "L1:3 L2:1".
func formatWaits(ws []Wait) string {
	var b strings.Builder
	for i, w := range ws {
		if i > 0 {
			b.WriteByte(' ')
		}
		fmt.Fprintf(&b, "L%d:%d", w.Lane, w.Count)
	}
	return b.String()
}
