package lanes

import (
	"errors"
	"slices"

	"github.com/weft-hdl/weft/design"
)

// placement is a candidate before cutting: the lane of every item and the
// order the items were placed in, a topological order of the item graph in
// which every lane's items appear in their run order.
type placement struct {
	name  string
	lane  []int32
	order []int32
}

var errCycle = errors.New("lanes: internal error: the item graph has a cycle")

// readyLess orders ready items: longest remaining path first, then the
// earlier item.
func (p *part) readyLess(a, b int32) bool {
	if p.blevel[a] != p.blevel[b] {
		return p.blevel[a] > p.blevel[b]
	}
	return a < b
}

// listItems is the "items" candidate: a list scheduler placing the ready
// item with the longest remaining path on the lane where it can start
// earliest (a dependency on another lane costs SyncCost), unless its latest
// producer's lane (or the previous item's) is at most Slack behind. Lane0
// items go to lane 0, and an item of an affinity cluster to the lane of the
// cluster's first placed item.
func (p *part) listItems() (*placement, error) {
	ni, L := len(p.items), p.lanes
	if len(p.topo) != ni {
		return nil, errCycle
	}
	pl := &placement{name: "items", lane: make([]int32, ni), order: make([]int32, 0, ni)}
	for i := range pl.lane {
		pl.lane[i] = -1
	}
	clusterLane := make([]int32, ni)
	for i := range clusterLane {
		clusterLane[i] = -1
	}
	for i := range p.items {
		if p.pinned[i] {
			clusterLane[p.cluster[i]] = 0
		}
	}
	free := make([]int, L)
	finish := make([]int, ni)
	est := make([]int, L)
	indeg := make([]int32, ni)
	ready := newHeap(p.readyLess)
	for i := 0; i < ni; i++ {
		indeg[i] = int32(len(p.itemPreds(i)))
		if indeg[i] == 0 {
			ready.push(int32(i))
		}
	}
	for ready.len() > 0 {
		i := ready.pop()
		preds := p.itemPreds(int(i))
		start := func(l int) int {
			t := free[l]
			for _, q := range preds {
				f := finish[q]
				if int(pl.lane[q]) != l {
					f += p.o.SyncCost
				}
				t = max(t, f)
			}
			return t
		}
		l := int(clusterLane[p.cluster[i]])
		if l < 0 {
			e := 0
			for k := 0; k < L; k++ {
				est[k] = start(k)
				if est[k] < est[e] {
					e = k
				}
			}
			pref := -1
			if len(preds) > 0 {
				late := preds[0]
				for _, q := range preds[1:] {
					if finish[q] > finish[late] {
						late = q
					}
				}
				pref = int(pl.lane[late])
			} else if i > 0 && pl.lane[i-1] >= 0 {
				pref = int(pl.lane[i-1])
			}
			l = e
			if pref >= 0 && est[pref]-est[e] <= p.o.Slack {
				l = pref
			}
			clusterLane[p.cluster[i]] = int32(l)
		}
		s := start(l)
		finish[i] = s + p.items[i].Cost
		free[l] = finish[i]
		pl.lane[i] = int32(l)
		pl.order = append(pl.order, i)
		for _, s := range p.itemSuccs(int(i)) {
			if indeg[s]--; indeg[s] == 0 {
				ready.push(s)
			}
		}
	}
	if len(pl.order) != ni {
		return nil, errCycle
	}
	return pl, nil
}

// inode is a node of the instance tree as the items see it.
type inode struct {
	parent   int32
	children []int32
	items    []int32
	sub      int // cost of the subtree's items
}

// instanceTree attributes every item to its instance and builds the tree
// of those instances and their ancestors below the root (node 0, Top; a
// virtual root when Top is nil). Children are ordered by their first item.
func (p *part) instanceTree(skip []bool) []inode {
	tree := []inode{{parent: -1}}
	idx := map[*design.Instance]int32{p.in.Top: 0}
	var chain []*design.Instance
	nodeFor := func(x *design.Instance) int32 {
		if i, ok := idx[x]; ok {
			return i
		}
		chain = chain[:0]
		y := x
		for steps := 0; ; steps++ {
			if _, ok := idx[y]; ok {
				break
			}
			if y == nil || steps >= maxDepth {
				// Outside Top's tree (or a Parent cycle): the root's.
				for _, c := range chain {
					idx[c] = 0
				}
				return 0
			}
			chain = append(chain, y)
			y = y.Parent
		}
		parent := idx[y]
		for j := len(chain) - 1; j >= 0; j-- {
			t := int32(len(tree))
			tree = append(tree, inode{parent: parent})
			tree[parent].children = append(tree[parent].children, t)
			idx[chain[j]] = t
			parent = t
		}
		return parent
	}
	for i := range p.items {
		if skip[i] {
			continue
		}
		t := nodeFor(p.items[i].Inst)
		tree[t].items = append(tree[t].items, int32(i))
		tree[t].sub += p.items[i].Cost
	}
	// Parents come before their children: accumulate in reverse.
	for t := len(tree) - 1; t > 0; t-- {
		tree[tree[t].parent].sub += tree[t].sub
	}
	return tree
}

// listInstances is the "instances" candidate: walking the instance tree
// from the top, every subtree whose cost fits one lane's share
// (total/Lanes) is a cluster, otherwise the instance's own logic is one
// and its children are considered. Clusters (merged with the affinity
// clusters they touch) are cut, in sequential order, into runs of about
// equal cost (CutInOrder), unless placing them largest first on the least
// loaded lane balances more than 5% better; items pinned to lane 0 stay
// there. Each lane then runs its items in
// dependency order (fixedSchedule).
func (p *part) listInstances() (*placement, error) {
	ni, L := len(p.items), p.lanes
	if len(p.topo) != ni {
		return nil, errCycle
	}
	tree := p.instanceTree(p.pinned)
	total := tree[0].sub
	uf := newUnionFind(ni)
	joinAll := func(items []int32) {
		for _, i := range items[1:] {
			uf.union(items[0], i)
		}
	}
	var subtree []int32
	stack := []int32{0}
	for len(stack) > 0 {
		t := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if tree[t].sub*L <= total {
			subtree = subtree[:0]
			walk := []int32{t}
			for len(walk) > 0 {
				u := walk[len(walk)-1]
				walk = walk[:len(walk)-1]
				subtree = append(subtree, tree[u].items...)
				walk = append(walk, tree[u].children...)
			}
			if len(subtree) > 0 {
				joinAll(subtree)
			}
			continue
		}
		if len(tree[t].items) > 0 {
			joinAll(tree[t].items)
		}
		for j := len(tree[t].children) - 1; j >= 0; j-- {
			stack = append(stack, tree[t].children[j])
		}
	}
	// Affinity clusters join the groups they touch.
	for i := 0; i < ni; i++ {
		if !p.pinned[i] && p.cluster[i] != int32(i) {
			uf.union(p.cluster[i], int32(i))
		}
	}
	type grp struct {
		root  int32
		cost  int
		first int32
	}
	var groups []grp
	at := map[int32]int{}
	load := make([]int, L)
	for i := 0; i < ni; i++ {
		if p.pinned[i] {
			load[0] += p.items[i].Cost
			continue
		}
		r := uf.find(int32(i))
		g, ok := at[r]
		if !ok {
			g = len(groups)
			at[r] = g
			groups = append(groups, grp{root: r, first: int32(i)})
		}
		groups[g].cost += p.items[i].Cost
	}
	// Groups in sequential order (which follows the instance tree), cut
	// into runs of about equal cost, keep neighbouring instances on one
	// lane: their state lies together, and the native backend loops over
	// instances of one module (a lane given every other core gets no
	// loop). Largest first onto the least loaded lane balances better;
	// the runs are kept unless that is more than 5% better.
	costs, roots := make([]int, len(groups)), make([]int32, len(groups))
	for i, g := range groups {
		costs[i], roots[i] = g.cost, g.root
	}
	runLoad := slices.Clone(load)
	runs := CutInOrder(costs, runLoad)
	slices.SortStableFunc(groups, func(a, b grp) int {
		if a.cost != b.cost {
			return b.cost - a.cost
		}
		return int(a.first - b.first)
	})
	groupLane := map[int32]int32{}
	for _, g := range groups {
		l := 0
		for k := 1; k < L; k++ {
			if load[k] < load[l] {
				l = k
			}
		}
		load[l] += g.cost
		groupLane[g.root] = int32(l)
	}
	if 100*slices.Max(runLoad) <= 105*slices.Max(load) {
		for i, r := range roots {
			groupLane[r] = int32(runs[i])
		}
	}
	lane := make([]int32, ni)
	for i := 0; i < ni; i++ {
		if !p.pinned[i] {
			lane[i] = groupLane[uf.find(int32(i))]
		}
	}
	order, err := p.fixedSchedule(lane)
	if err != nil {
		return nil, err
	}
	return &placement{name: "instances", lane: lane, order: order}, nil
}

// fixedSchedule orders items whose lanes are fixed: the lane that can
// start something earliest runs, of its items whose dependencies are done
// by then, the one with the longest remaining path (or, when none is, the
// one whose dependencies are done first). A dependency on another lane
// costs SyncCost.
func (p *part) fixedSchedule(lane []int32) ([]int32, error) {
	ni, L := len(p.items), p.lanes
	readyAt := make([]int, ni)
	finish := make([]int, ni)
	free := make([]int, L)
	waiting := make([]*heap[int32], L)
	avail := make([]*heap[int32], L)
	for l := 0; l < L; l++ {
		waiting[l] = newHeap(func(a, b int32) bool {
			if readyAt[a] != readyAt[b] {
				return readyAt[a] < readyAt[b]
			}
			return p.readyLess(a, b)
		})
		avail[l] = newHeap(p.readyLess)
	}
	indeg := make([]int32, ni)
	for i := 0; i < ni; i++ {
		indeg[i] = int32(len(p.itemPreds(i)))
		if indeg[i] == 0 {
			waiting[lane[i]].push(int32(i))
		}
	}
	order := make([]int32, 0, ni)
	for len(order) < ni {
		best, bt := -1, 0
		for l := 0; l < L; l++ {
			var t int
			switch {
			case avail[l].len() > 0:
				t = free[l]
			case waiting[l].len() > 0:
				t = max(free[l], readyAt[waiting[l].top()])
			default:
				continue
			}
			if best < 0 || t < bt {
				best, bt = l, t
			}
		}
		if best < 0 {
			return nil, errCycle
		}
		for waiting[best].len() > 0 && readyAt[waiting[best].top()] <= bt {
			avail[best].push(waiting[best].pop())
		}
		i := avail[best].pop()
		s := max(bt, readyAt[i])
		finish[i] = s + p.items[i].Cost
		free[best] = finish[i]
		order = append(order, i)
		for _, sc := range p.itemSuccs(int(i)) {
			if indeg[sc]--; indeg[sc] > 0 {
				continue
			}
			r := 0
			for _, q := range p.itemPreds(int(sc)) {
				f := finish[q]
				if lane[q] != lane[sc] {
					f += p.o.SyncCost
				}
				r = max(r, f)
			}
			readyAt[sc] = r
			waiting[lane[sc]].push(sc)
		}
	}
	return order, nil
}

// CutInOrder places items of the given costs, in order, on consecutive
// lanes (len(load) of them), each run of about equal cost: an item starts
// the next lane when the running total with half of it passes the
// current lane's share. load holds what is already on each lane (only
// lane 0's is taken as coming first) and gets the items' costs added. It
// returns each item's lane; every lane but the last gets at least one item
// when there are enough.
func CutInOrder(costs []int, load []int) []int {
	total := 0
	for _, c := range costs {
		total += c
	}
	for _, l := range load {
		total += l
	}
	lanes := make([]int, len(costs))
	n, l := len(load), 0
	done := 2 * load[0] // in halves
	for i, c := range costs {
		if l < n-1 && load[l] > 0 && done+c > 2*(l+1)*total/n {
			l++
		}
		lanes[i] = l
		load[l] += c
		done += 2 * c
	}
	return lanes
}
