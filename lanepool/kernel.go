package lanepool

import (
	"fmt"
	"strings"
	"unsafe"
)

// TaskFunc is one task's code. It has the shape of the native ABI,
// fn(state) -> status, so interpreted and native tasks are interchangeable.
type TaskFunc func(state unsafe.Pointer) Status

// Wait says that a task may start only after lane Lane has completed at least
// Count of its tasks.
type Wait struct {
	Lane  int
	Count int
}

// Task is one entry of a lane's ordered task list.
type Task struct {
	Fn TaskFunc
	// Index is the task's position in the kernel's sequential unit order. It
	// orders failures (the lowest-indexed failing task is reported) and is
	// checked against the waits when the kernel is built.
	Index int
	Waits []Wait
}

// Kernel is a validated task table, ready to Run on the pool that built it (or
// on any pool with at least as many lanes). It is immutable and may be shared.
type Kernel struct {
	lanes [][]task
	waits []wait
	// active lists the lanes other than 0 that have tasks: only they are woken.
	active []int32
}

type task struct {
	fn     TaskFunc
	index  int
	w0, w1 int32 // this task's waits are Kernel.waits[w0:w1]
	// publish is set when some other lane waits for the count this task
	// completes; counts nobody waits for are not stored, which saves a store
	// and a check for sleepers per task.
	publish bool
}

type wait struct {
	lane  int32
	count uint32
}

// Lanes returns the number of lanes of the task table.
func (k *Kernel) Lanes() int { return len(k.lanes) }

// NewKernel validates a task table, one ordered task list per lane, and copies
// it into the form Run executes. It rejects every table Run could hang on:
// waits on the task's own lane, on lanes out of range or beyond a lane's task
// count, cycles of waits, and more lanes than the pool has. It also rejects
// tables that contradict their sequential order (indices repeated, not rising
// along a lane, or a wait for a task that comes later), since a partitioned
// kernel must equal its sequential kernel run unit by unit.
func (p *Pool) NewKernel(lanes [][]Task) (*Kernel, error) {
	n := len(lanes)
	if n == 0 {
		return nil, fmt.Errorf("lanepool: kernel has no lanes")
	}
	if n > len(p.lanes) {
		return nil, fmt.Errorf("lanepool: kernel has %d lanes, the pool only %d", n, len(p.lanes))
	}
	k := &Kernel{lanes: make([][]task, n)}
	seen := make(map[int][2]int) // index -> lane, position
	for l, list := range lanes {
		if len(list) > MaxTasksPerLane {
			return nil, fmt.Errorf("lanepool: lane %d has %d tasks, at most %d fit its progress word", l, len(list), MaxTasksPerLane)
		}
		k.lanes[l] = make([]task, len(list))
		for i, t := range list {
			if t.Fn == nil {
				return nil, fmt.Errorf("lanepool: task %d on lane %d (position %d) has no function", t.Index, l, i)
			}
			if t.Index < 0 {
				return nil, fmt.Errorf("lanepool: task on lane %d (position %d) has negative index %d", l, i, t.Index)
			}
			if prev, dup := seen[t.Index]; dup {
				return nil, fmt.Errorf("lanepool: task index %d used twice (lane %d position %d and lane %d position %d)", t.Index, prev[0], prev[1], l, i)
			}
			seen[t.Index] = [2]int{l, i}
			if i > 0 && list[i-1].Index > t.Index {
				return nil, fmt.Errorf("lanepool: lane %d runs task %d before task %d, against the sequential order", l, list[i-1].Index, t.Index)
			}
			kt := task{fn: t.Fn, index: t.Index, w0: int32(len(k.waits))}
			for _, w := range t.Waits {
				if w.Lane < 0 || w.Lane >= n {
					return nil, fmt.Errorf("lanepool: task %d on lane %d waits on lane %d, out of range [0,%d)", t.Index, l, w.Lane, n)
				}
				if w.Lane == l {
					return nil, fmt.Errorf("lanepool: task %d on lane %d waits on its own lane", t.Index, l)
				}
				if w.Count < 0 || w.Count > len(lanes[w.Lane]) {
					return nil, fmt.Errorf("lanepool: task %d on lane %d waits for %d tasks of lane %d, which has %d", t.Index, l, w.Count, w.Lane, len(lanes[w.Lane]))
				}
				if w.Count == 0 {
					continue // always satisfied
				}
				k.waits = append(k.waits, wait{lane: int32(w.Lane), count: uint32(w.Count)})
			}
			kt.w1 = int32(len(k.waits))
			k.lanes[l][i] = kt
		}
	}
	if err := checkDeadlock(k); err != nil {
		return nil, err
	}
	for l, list := range k.lanes {
		for _, t := range list {
			for _, w := range k.waits[t.w0:t.w1] {
				producer := &k.lanes[w.lane][w.count-1]
				producer.publish = true
				if producer.index >= t.index {
					return nil, fmt.Errorf("lanepool: task %d on lane %d waits for task %d on lane %d, which comes later in the sequential order", t.index, l, producer.index, w.lane)
				}
			}
		}
	}
	for l, list := range k.lanes {
		if l > 0 && len(list) > 0 {
			k.active = append(k.active, int32(l))
		}
	}
	return k, nil
}

// checkDeadlock runs the table symbolically, advancing any lane whose next task
// has all its waits met. Lanes left unfinished form at least one cycle, which
// the error names.
func checkDeadlock(k *Kernel) error {
	pos := make([]int, len(k.lanes))
	blocker := func(l int) (wait, bool) {
		t := &k.lanes[l][pos[l]]
		for _, w := range k.waits[t.w0:t.w1] {
			if pos[w.lane] < int(w.count) {
				return w, true
			}
		}
		return wait{}, false
	}
	for progressed := true; progressed; {
		progressed = false
		for l := range k.lanes {
			for pos[l] < len(k.lanes[l]) {
				if _, blocked := blocker(l); blocked {
					break
				}
				pos[l]++
				progressed = true
			}
		}
	}
	for start := range k.lanes {
		if pos[start] == len(k.lanes[start]) {
			continue
		}
		// Every stuck lane is blocked by another stuck lane; following the
		// blockers from any of them must revisit a lane.
		var path []string
		visited := make(map[int]int)
		for l := start; ; {
			if at, ok := visited[l]; ok {
				return fmt.Errorf("lanepool: waits form a cycle: %s", strings.Join(path[at:], ", "))
			}
			visited[l] = len(path)
			w, _ := blocker(l)
			path = append(path, fmt.Sprintf("task %d on lane %d waits for %d tasks of lane %d", k.lanes[l][pos[l]].index, l, w.count, w.lane))
			l = int(w.lane)
		}
	}
	return nil
}
