package lanes

import (
	"fmt"
	"slices"
)

// btask is a task while cutting: tasks are numbered in creation order,
// which is a topological order of the task graph.
type btask struct {
	lane, ord int // lane and position on it
	items     []int32
	// cov[l] is the last task ordinal of lane l known complete before this
	// task starts (its waits, what they waited for, and the earlier tasks of
	// its own lane), -1 when none.
	cov   []int32
	waits []int32 // creation ids of the tasks it waits for (non-redundant)
	start int
	end   int
	cost  int
	min   int // smallest node
}

// cut turns a placement into a charged candidate: it cuts the lanes twice,
// once as described at cutLanes and once also closing a task after every
// item another lane depends on (an extra boundary on the producer's lane,
// so that the consumer waits for that item rather than for everything its
// lane ran after it), and keeps the cheaper.
func (p *part) cut(pl *placement) (*Candidate, error) {
	a, err := p.cutLanes(pl, false)
	if err != nil {
		return nil, err
	}
	b, err := p.cutLanes(pl, true)
	if err != nil {
		return nil, err
	}
	if b.Charged < a.Charged {
		return b, nil
	}
	return a, nil
}

// cutLanes turns a placement into a charged candidate. Items are taken in
// placement order; each lane's items are cut into tasks, maximal runs that
// need no new wait: an item depending on an item of another lane that the
// current task does not already wait for (directly, or through what its
// waits waited for) starts a new task, which waits for the producers'
// tasks. A task some other task waits for is closed, so a wait never covers
// items placed after the waiting item (the producer's lane starts a new
// task, without a wait). The tasks are then timed (SyncCost per wait,
// TaskCost between tasks of a lane), numbered in a topological order
// (estimated start, then smallest node) and charged. With closeProduced,
// a task also ends after each item that an item on another lane depends
// on.
func (p *part) cutLanes(pl *placement, closeProduced bool) (*Candidate, error) {
	L := p.lanes
	var produced []bool // items another lane depends on
	if closeProduced {
		produced = make([]bool, len(p.items))
		for it := range p.items {
			for _, q := range p.itemPreds(it) {
				if pl.lane[q] != pl.lane[it] {
					produced[q] = true
				}
			}
		}
	}
	var tasks []*btask
	laneTasks := make([][]int32, L)
	open := make([]int32, L)
	for l := range open {
		open[l] = -1
	}
	taskOf := make([]int32, len(p.items))
	need := make([]int32, L)
	for _, it := range pl.order {
		a := int(pl.lane[it])
		if a < 0 || a >= L {
			return nil, fmt.Errorf("lanes: internal error: item %d on lane %d", it, a)
		}
		for l := range need {
			need[l] = -1
		}
		for _, q := range p.itemPreds(int(it)) {
			if l := int(pl.lane[q]); l != a {
				need[l] = max(need[l], int32(tasks[taskOf[q]].ord))
			}
		}
		t := open[a]
		fresh := t < 0
		if !fresh {
			for l, o := range need {
				if o > tasks[t].cov[l] {
					fresh = true
					break
				}
			}
		}
		if fresh {
			nt := &btask{lane: a, ord: len(laneTasks[a]), cov: make([]int32, L)}
			if prev := laneTasks[a]; len(prev) > 0 {
				copy(nt.cov, tasks[prev[len(prev)-1]].cov)
				nt.cov[a] = int32(len(prev) - 1)
			} else {
				for l := range nt.cov {
					nt.cov[l] = -1
				}
			}
			// New waits: the producers' tasks not yet covered.
			var ws []int32
			for l, o := range need {
				if o > nt.cov[l] {
					ws = append(ws, laneTasks[l][o])
				}
			}
			inherited := slices.Clone(nt.cov)
			for _, u := range ws {
				ut := tasks[u]
				nt.cov[ut.lane] = max(nt.cov[ut.lane], int32(ut.ord))
				for l, c := range ut.cov {
					nt.cov[l] = max(nt.cov[l], c)
				}
				if open[ut.lane] == u {
					open[ut.lane] = -1
				}
			}
			// Keep only the waits not implied by another one (or by the
			// lane's earlier tasks).
			for _, u := range ws {
				ut := tasks[u]
				implied := int32(ut.ord) <= inherited[ut.lane]
				for _, v := range ws {
					if v != u && tasks[v].cov[ut.lane] >= int32(ut.ord) {
						implied = true
						break
					}
				}
				if !implied {
					nt.waits = append(nt.waits, u)
				}
			}
			t = int32(len(tasks))
			tasks = append(tasks, nt)
			laneTasks[a] = append(laneTasks[a], t)
			open[a] = t
		}
		tasks[t].items = append(tasks[t].items, it)
		taskOf[it] = t
		if produced != nil && produced[it] {
			open[a] = -1
		}
	}

	// Costs and times, in creation order (topological).
	for _, t := range tasks {
		var nodes []int
		for _, it := range t.items {
			nodes = append(nodes, p.items[it].Nodes...)
		}
		slices.Sort(nodes)
		t.min = nodes[0]
		t.cost = p.costOf(nodes)
	}
	for id, t := range tasks {
		if t.ord > 0 {
			t.start = tasks[laneTasks[t.lane][t.ord-1]].end + p.o.TaskCost
		}
		for _, u := range t.waits {
			if int(u) >= id {
				return nil, fmt.Errorf("lanes: internal error: task %d waits for later task %d", id, u)
			}
			t.start = max(t.start, tasks[u].end+p.o.SyncCost)
		}
		t.end = t.start + t.cost
	}

	// Index: a topological order of lane order and every item dependency,
	// earliest estimated start first, ties by smallest node.
	nt := len(tasks)
	succOff, succ := csr(nt, func(emit func(from, to int32)) {
		for id, t := range tasks {
			if t.ord > 0 {
				emit(laneTasks[t.lane][t.ord-1], int32(id))
			}
			for _, it := range t.items {
				for _, q := range p.itemPreds(int(it)) {
					if taskOf[q] != int32(id) {
						emit(taskOf[q], int32(id))
					}
				}
			}
		}
	})
	indeg := make([]int32, nt)
	for _, s := range succ {
		indeg[s]++
	}
	h := newHeap(func(a, b int32) bool {
		ta, tb := tasks[a], tasks[b]
		if ta.start != tb.start {
			return ta.start < tb.start
		}
		return ta.min < tb.min
	})
	for id := range tasks {
		if indeg[id] == 0 {
			h.push(int32(id))
		}
	}
	index := make([]int, nt)
	next := 0
	for h.len() > 0 {
		id := h.pop()
		index[id] = next
		next++
		for _, s := range succ[succOff[id]:succOff[id+1]] {
			if indeg[s]--; indeg[s] == 0 {
				h.push(s)
			}
		}
	}
	if next != nt {
		return nil, fmt.Errorf("lanes: internal error: candidate %q: the task graph has a cycle", pl.name)
	}

	c := &Candidate{Name: pl.name, Tasks: make([]*Task, nt), Lanes: make([][]int, L), NodeTask: make([]int, p.n)}
	used := 0
	for id, bt := range tasks {
		t := &Task{Index: index[id], Lane: bt.lane, Cost: bt.cost, Start: bt.start, End: bt.end}
		for _, it := range bt.items {
			t.Items = append(t.Items, int(it))
			t.Nodes = append(t.Nodes, p.items[it].Nodes...)
		}
		for _, n := range t.Nodes {
			c.NodeTask[n] = t.Index
		}
		for _, u := range bt.waits {
			t.After = append(t.After, index[u])
		}
		slices.Sort(t.After)
		c.Tasks[t.Index] = t
		c.Waits += len(t.After)
		c.Makespan = max(c.Makespan, t.End)
	}
	for l := range laneTasks {
		if len(laneTasks[l]) > 0 {
			used++
		}
		for _, id := range laneTasks[l] {
			c.Lanes[l] = append(c.Lanes[l], index[id])
		}
	}
	c.Boundaries = nt - used
	c.Charged = c.Makespan + p.o.TaskCost*c.Boundaries + p.o.SyncCost*c.Waits
	return c, nil
}

// verify checks a candidate independently of how it was built: every node
// in exactly one task, task indexes a permutation ascending along each lane,
// every dependency (and the order of Ordered nodes) respected by the
// sequential order and by the waits, Lane0 items on lane 0, and every
// affinity cluster on one lane.
func (p *part) verify(c *Candidate) error {
	nt := len(c.Tasks)
	for i, t := range c.Tasks {
		if t == nil || t.Index != i {
			return fmt.Errorf("task %d missing or misnumbered", i)
		}
		if t.Lane < 0 || t.Lane >= p.lanes {
			return fmt.Errorf("task %d on lane %d", i, t.Lane)
		}
		if len(t.Items) == 0 {
			return fmt.Errorf("task %d is empty", i)
		}
	}
	// Lane order.
	pos := make([]int, nt) // position of each task on its lane
	seenTask := make([]bool, nt)
	for l, ids := range c.Lanes {
		for j, id := range ids {
			if id < 0 || id >= nt || seenTask[id] || c.Tasks[id].Lane != l {
				return fmt.Errorf("lane %d lists task %d wrongly", l, id)
			}
			seenTask[id] = true
			pos[id] = j
			if j > 0 && ids[j-1] >= id {
				return fmt.Errorf("lane %d: task %d after task %d", l, id, ids[j-1])
			}
		}
	}
	for id, ok := range seenTask {
		if !ok {
			return fmt.Errorf("task %d on no lane", id)
		}
	}
	// Nodes: exactly once, run order within a task.
	nodeTask := make([]int, p.n)
	nodePos := make([]int, p.n)
	for i := range nodeTask {
		nodeTask[i] = -1
	}
	itemLane := make([]int, len(p.items))
	for i := range itemLane {
		itemLane[i] = -1
	}
	for _, t := range c.Tasks {
		var nodes []int
		for _, it := range t.Items {
			if it < 0 || it >= len(p.items) || itemLane[it] >= 0 {
				return fmt.Errorf("item %d placed twice or out of range", it)
			}
			itemLane[it] = t.Lane
			nodes = append(nodes, p.items[it].Nodes...)
		}
		if !slices.Equal(nodes, t.Nodes) {
			return fmt.Errorf("task %d: nodes do not match its items", t.Index)
		}
		for j, n := range t.Nodes {
			if nodeTask[n] >= 0 {
				return fmt.Errorf("node %d in tasks %d and %d", n, nodeTask[n], t.Index)
			}
			nodeTask[n], nodePos[n] = t.Index, j
			if c.NodeTask[n] != t.Index {
				return fmt.Errorf("NodeTask[%d] = %d, want %d", n, c.NodeTask[n], t.Index)
			}
		}
	}
	for n, t := range nodeTask {
		if t < 0 {
			return fmt.Errorf("node %d in no task", n)
		}
	}
	for i, it := range p.items {
		if it.Lane0 && itemLane[i] != 0 {
			return fmt.Errorf("lane-0 item %d on lane %d", i, itemLane[i])
		}
		if itemLane[it.Cluster] != itemLane[i] {
			return fmt.Errorf("items %d and %d write overlapping bytes but run on lanes %d and %d", it.Cluster, i, itemLane[it.Cluster], itemLane[i])
		}
	}
	// Happens-before through waits: reach[t][l] is the last position on
	// lane l complete before task t starts (-1 none).
	L := p.lanes
	reach := make([][]int, nt)
	for _, t := range c.Tasks { // by Index: waits point to smaller indexes
		r := make([]int, L)
		for l := range r {
			r[l] = -1
		}
		if j := pos[t.Index]; j > 0 {
			prev := c.Lanes[t.Lane][j-1]
			copy(r, reach[prev])
			r[t.Lane] = max(r[t.Lane], j-1)
		}
		for _, u := range t.After {
			if u < 0 || u >= t.Index || c.Tasks[u].Lane == t.Lane {
				return fmt.Errorf("task %d waits for task %d", t.Index, u)
			}
			ul := c.Tasks[u].Lane
			r[ul] = max(r[ul], pos[u])
			for l, v := range reach[u] {
				r[l] = max(r[l], v)
			}
		}
		reach[t.Index] = r
	}
	for k := 0; k < p.n; k++ {
		tk := nodeTask[k]
		for _, q := range p.nodePreds(k) {
			tq := nodeTask[q]
			switch {
			case tq == tk:
				if nodePos[q] >= nodePos[k] {
					return fmt.Errorf("node %d runs before node %d it depends on (task %d)", k, q, tk)
				}
			case tq > tk:
				return fmt.Errorf("node %d (task %d) depends on node %d of a later task %d", k, tk, q, tq)
			default:
				ql := c.Tasks[tq].Lane
				if ql != c.Tasks[tk].Lane && reach[tk][ql] < pos[tq] {
					return fmt.Errorf("node %d (task %d) depends on node %d (task %d, lane %d) without a wait", k, tk, q, tq, ql)
				}
			}
		}
	}
	return nil
}
