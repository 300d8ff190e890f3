package lanes

import (
	"cmp"
	"slices"
	"strings"

	"github.com/weft-hdl/weft/design"
	"github.com/weft-hdl/weft/internal/scc"
	"github.com/weft-hdl/weft/sir"
)

// Reasons for joining nodes (bits of a mask, in Item.Why order).
const (
	whyObserver = 1 << iota
	whyShared
	whyAbsorbed
)

// unionFind is a disjoint-set forest with path halving and union by size.
type unionFind struct{ parent, size []int32 }

func newUnionFind(n int) *unionFind {
	u := &unionFind{parent: make([]int32, n), size: make([]int32, n)}
	for i := range u.parent {
		u.parent[i] = int32(i)
		u.size[i] = 1
	}
	return u
}

func (u *unionFind) find(x int32) int32 {
	for u.parent[x] != x {
		u.parent[x] = u.parent[u.parent[x]]
		x = u.parent[x]
	}
	return x
}

// union joins the sets of a and b and returns the new root.
func (u *unionFind) union(a, b int32) int32 {
	a, b = u.find(a), u.find(b)
	if a == b {
		return a
	}
	if u.size[a] < u.size[b] {
		a, b = b, a
	}
	u.parent[b] = a
	u.size[a] += u.size[b]
	return a
}

// buildItems joins the nodes into atomic items (Plan.Items, ordered by
// their smallest node) and the items into lane-affinity clusters.
//
//   - An Observer with exactly one producer joins it, so the observer runs
//     with the write materializing its arguments.
//   - Nodes sharing a value of cost >= CheapValue join; cheaper shared
//     values are recomputed by each user.
//   - Joined nodes that depend on each other through other work absorb it:
//     the strongly connected components of the graph of joined groups are
//     merged, after which the item graph is acyclic (a condensation).
func (p *part) buildItems() {
	n := p.n
	work := p.in.Work
	uf := newUnionFind(n)
	why := make([]uint8, n) // per node; ORed into the roots below
	for k := range work {
		w := &work[k]
		if !w.Observer || len(w.Preds) == 0 {
			continue
		}
		only := w.Preds[0]
		single := true
		for _, q := range w.Preds[1:] {
			if q != only {
				single = false
				break
			}
		}
		if single {
			uf.union(int32(k), only)
			why[k] |= whyObserver
			why[only] |= whyObserver
		}
	}
	keyCost := map[int]int{}
	for k := range work {
		for _, s := range work[k].Shared {
			keyCost[s.Key] = max(keyCost[s.Key], s.Cost)
		}
	}
	keyFirst := map[int]int32{}
	for k := range work {
		for _, s := range work[k].Shared {
			if keyCost[s.Key] < p.o.CheapValue {
				continue
			}
			if f, ok := keyFirst[s.Key]; ok {
				if uf.find(f) != uf.find(int32(k)) {
					uf.union(f, int32(k))
					why[f] |= whyShared
					why[k] |= whyShared
				}
			} else {
				keyFirst[s.Key] = int32(k)
			}
		}
	}

	// Groups, numbered by smallest node.
	group := make([]int32, n)
	rootGroup := map[int32]int32{}
	ng := int32(0)
	for k := 0; k < n; k++ {
		r := uf.find(int32(k))
		g, ok := rootGroup[r]
		if !ok {
			g = ng
			ng++
			rootGroup[r] = g
		}
		group[k] = g
	}
	// Group graph, then its strongly connected components.
	gOff, gAdj := csr(int(ng), func(emit func(from, to int32)) {
		for k := 0; k < n; k++ {
			for _, q := range p.nodePreds(k) {
				if group[q] != group[k] {
					emit(group[q], group[k])
				}
			}
		}
	})
	comp, ncomp := scc.Tarjan(int(ng), func(v int) []int32 { return gAdj[gOff[v]:gOff[v+1]] })
	compSize := make([]int32, ncomp)
	for _, c := range comp {
		compSize[c]++
	}
	// Items by smallest node.
	itemOfComp := make([]int32, ncomp)
	for i := range itemOfComp {
		itemOfComp[i] = -1
	}
	p.itemOf = make([]int32, n)
	whyItem := []uint8{}
	for k := 0; k < n; k++ {
		c := comp[group[k]]
		it := itemOfComp[c]
		if it < 0 {
			it = int32(len(p.items))
			itemOfComp[c] = it
			p.items = append(p.items, Item{})
			whyItem = append(whyItem, 0)
			if compSize[c] > 1 {
				whyItem[it] |= whyAbsorbed
			}
		}
		p.itemOf[k] = it
		p.items[it].Nodes = append(p.items[it].Nodes, k)
		whyItem[it] |= why[k]
		if work[k].Lane0 {
			p.items[it].Lane0 = true
		}
	}
	for i := range p.items {
		it := &p.items[i]
		it.Cost = p.costOf(it.Nodes)
		it.Inst = p.itemInst(it.Nodes)
		if len(it.Nodes) > 1 {
			var ws []string
			for b, s := range []string{"observer", "shared value", "absorbed"} {
				if whyItem[i]&(1<<b) != 0 {
					ws = append(ws, s)
				}
			}
			if len(ws) == 0 {
				ws = append(ws, "joined")
			}
			it.Why = strings.Join(ws, ", ")
		}
	}
	p.clusters()
}

// clusters unions the items writing overlapping bytes into lane-affinity
// clusters; a cluster with a Lane0 item is pinned to lane 0.
func (p *part) clusters() {
	type wr struct {
		home   sir.HomeID
		lo, hi int
		item   int32
	}
	var ws []wr
	for k := range p.in.Work {
		for _, r := range p.in.Work[k].Writes {
			if r.Hi > r.Lo {
				ws = append(ws, wr{r.Home, r.Lo, r.Hi, p.itemOf[k]})
			}
		}
	}
	slices.SortFunc(ws, func(a, b wr) int {
		if c := cmp.Compare(a.home, b.home); c != 0 {
			return c
		}
		if c := cmp.Compare(a.lo, b.lo); c != 0 {
			return c
		}
		if c := cmp.Compare(a.hi, b.hi); c != 0 {
			return c
		}
		return cmp.Compare(a.item, b.item)
	})
	ni := len(p.items)
	uf := newUnionFind(ni)
	for i := 0; i < len(ws); {
		j, end := i+1, ws[i].hi
		for j < len(ws) && ws[j].home == ws[i].home && ws[j].lo < end {
			uf.union(ws[i].item, ws[j].item)
			end = max(end, ws[j].hi)
			j++
		}
		i = j
	}
	p.cluster = make([]int32, ni)
	first := map[int32]int32{}
	lane0 := map[int32]bool{}
	for i := range p.items {
		r := uf.find(int32(i))
		f, ok := first[r]
		if !ok {
			f = int32(i)
			first[r] = f
		}
		p.cluster[i] = f
		p.items[i].Cluster = int(f)
		if p.items[i].Lane0 {
			lane0[f] = true
		}
	}
	p.pinned = make([]bool, ni)
	for i := range p.items {
		if lane0[p.cluster[i]] {
			p.pinned[i] = true
			p.items[i].Lane0 = true
		}
	}
}

// itemGraph builds the item adjacency, a topological order (smallest item
// first among the ready ones) and the bottom levels (cost-weighted longest
// path to a sink, the item included).
func (p *part) itemGraph() {
	ni := len(p.items)
	p.ipredOff, p.ipred = csr(ni, func(emit func(from, to int32)) {
		for k := 0; k < p.n; k++ {
			for _, q := range p.nodePreds(k) {
				if p.itemOf[q] != p.itemOf[k] {
					emit(p.itemOf[k], p.itemOf[q])
				}
			}
		}
	})
	p.isuccOff, p.isucc = csr(ni, func(emit func(from, to int32)) {
		for i := 0; i < ni; i++ {
			for _, q := range p.itemPreds(i) {
				emit(q, int32(i))
			}
		}
	})
	for i := range p.items {
		ps := p.itemPreds(i)
		p.items[i].Preds = make([]int, len(ps))
		for j, q := range ps {
			p.items[i].Preds[j] = int(q)
		}
	}
	indeg := make([]int32, ni)
	h := newHeap(func(a, b int32) bool { return a < b })
	for i := 0; i < ni; i++ {
		indeg[i] = int32(len(p.itemPreds(i)))
		if indeg[i] == 0 {
			h.push(int32(i))
		}
	}
	p.topo = make([]int32, 0, ni)
	for h.len() > 0 {
		i := h.pop()
		p.topo = append(p.topo, i)
		for _, s := range p.itemSuccs(int(i)) {
			if indeg[s]--; indeg[s] == 0 {
				h.push(s)
			}
		}
	}
	p.blevel = make([]int, ni)
	for j := len(p.topo) - 1; j >= 0; j-- {
		i := p.topo[j]
		b := 0
		for _, s := range p.itemSuccs(int(i)) {
			b = max(b, p.blevel[s])
		}
		p.blevel[i] = b + p.items[i].Cost
	}
}

// itemInst is the deepest common instance of the nodes (nil Inst and
// instances outside Top's tree count as Top).
func (p *part) itemInst(nodes []int) *design.Instance {
	var acc *design.Instance
	for j, k := range nodes {
		x := p.in.Work[k].Inst
		if x == nil {
			x = p.in.Top
		}
		if j == 0 {
			acc = x
			continue
		}
		acc = commonAncestor(acc, x)
		if acc == nil {
			return p.in.Top
		}
	}
	if acc == nil {
		return p.in.Top
	}
	return acc
}

// maxDepth guards against a Parent cycle in a malformed tree.
const maxDepth = 1 << 16

func depth(x *design.Instance) int {
	d := 0
	for ; x != nil && d < maxDepth; x = x.Parent {
		d++
	}
	return d
}

// commonAncestor is the deepest instance above both (nil when none).
func commonAncestor(a, b *design.Instance) *design.Instance {
	if a == b {
		return a
	}
	da, db := depth(a), depth(b)
	if da >= maxDepth || db >= maxDepth {
		return nil
	}
	for ; da > db; da-- {
		a = a.Parent
	}
	for ; db > da; db-- {
		b = b.Parent
	}
	for a != b {
		a, b = a.Parent, b.Parent
	}
	return a
}

// csr builds a compressed adjacency of n vertices from emitted edges,
// each vertex's list sorted and deduplicated.
func csr(n int, edges func(emit func(from, to int32))) (off, adj []int32) {
	off = make([]int32, n+1)
	edges(func(from, _ int32) { off[from+1]++ })
	for i := 0; i < n; i++ {
		off[i+1] += off[i]
	}
	adj = make([]int32, off[n])
	fill := append([]int32(nil), off[:n]...)
	edges(func(from, to int32) {
		adj[fill[from]] = to
		fill[from]++
	})
	// Sort and deduplicate each list, compacting in place.
	w := int32(0)
	for i := 0; i < n; i++ {
		lo, hi := off[i], off[i+1]
		l := adj[lo:hi]
		sortInt32(l)
		off[i] = w
		for j, v := range l {
			if j > 0 && v == l[j-1] {
				continue
			}
			adj[w] = v
			w++
		}
	}
	off[n] = w
	return off, adj[:w:w]
}

func sortInt32(s []int32) { slices.Sort(s) }

// heap is a binary heap ordered by less.
type heap[T any] struct {
	a    []T
	less func(a, b T) bool
}

func newHeap[T any](less func(a, b T) bool) *heap[T] { return &heap[T]{less: less} }

func (h *heap[T]) len() int { return len(h.a) }
func (h *heap[T]) top() T   { return h.a[0] }

func (h *heap[T]) push(x T) {
	h.a = append(h.a, x)
	i := len(h.a) - 1
	for i > 0 {
		j := (i - 1) / 2
		if !h.less(h.a[i], h.a[j]) {
			break
		}
		h.a[i], h.a[j] = h.a[j], h.a[i]
		i = j
	}
}

func (h *heap[T]) pop() T {
	x := h.a[0]
	last := len(h.a) - 1
	h.a[0] = h.a[last]
	h.a = h.a[:last]
	i := 0
	for {
		l := 2*i + 1
		if l >= last {
			break
		}
		m := l
		if r := l + 1; r < last && h.less(h.a[r], h.a[l]) {
			m = r
		}
		if !h.less(h.a[m], h.a[i]) {
			break
		}
		h.a[i], h.a[m] = h.a[m], h.a[i]
		i = m
	}
	return x
}
