package slt

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/weft-hdl/weft/design"
)

// Graph is the dependency graph of a schedule's items (vertex i is
// Schedule.Items[i]). There is an edge W → R when
//   - W writes a bit that R reads (bit-exact: element ranges and bit
//     ranges must both intersect), or
//   - W and R write a common bit and W comes first in design order (the
//     later writer wins, as in the process it came from). elab rejects
//     multiple drivers and splitting never separates overlapping writers,
//     so elaborated designs have no such edges; hand-built designs may.
//
// Self-edges are not stored: SelfLoop(i) says whether item i reads a bit it
// writes. Adjacency slices are shared: callers must not modify them.
type Graph struct {
	n               int
	succOff, succ   []int32
	predOff, pred   []int32
	self            []bool
	writeWriteEdges [][2]int32
	writerIdx       *writerIndex
}

// Len is the number of vertices (items).
func (g *Graph) Len() int { return g.n }

// Succ returns the items that depend on item i, ascending. Read-only.
func (g *Graph) Succ(i int) []int32 { return g.succ[g.succOff[i]:g.succOff[i+1]] }

// Pred returns the items item i depends on, ascending. Read-only.
func (g *Graph) Pred(i int) []int32 { return g.pred[g.predOff[i]:g.predOff[i+1]] }

// SelfLoop reports whether item i reads a bit it writes.
func (g *Graph) SelfLoop(i int) bool { return g.self[i] }

// NumEdges is the number of edges (self-loops not counted).
func (g *Graph) NumEdges() int { return len(g.succ) }

// HasEdge reports whether there is an edge from → to (from != to).
func (g *Graph) HasEdge(from, to int) bool {
	_, ok := slices.BinarySearch(g.Succ(from), int32(to))
	return ok
}

// WriteWriteEdges lists the edges that exist only because two items write
// a common bit (none for elaborated designs).
func (g *Graph) WriteWriteEdges() [][2]int32 { return g.writeWriteEdges }

// writerIndex finds the items writing bits that overlap a query, per home:
// writers sorted by the start of their flat envelope (elem*width+bit),
// with the running maximum of envelope ends, so a query is a binary search
// plus a scan over the candidates (O(log n + k) when the writers of a home
// are disjoint, which elab guarantees for distinct processes).
type writerIndex struct {
	byHome [][]wentry
	prefHi [][]int64
}

type wentry struct {
	lo, hi int64
	item   int32
	acc    *design.Access // in the item's Writes
}

func flatRange(a design.Access) (int64, int64) {
	w := int64(a.Home.Width)
	return int64(a.ElemLo)*w + int64(a.Lo), int64(a.ElemHi)*w + int64(a.Hi)
}

func homeIndex(d *design.Design, h *design.Home) (int, error) {
	if h.ID < 0 || h.ID >= len(d.Homes) || d.Homes[h.ID] != h {
		return 0, fmt.Errorf("slt: home %s (ID %d) is not Design.Homes[%d]", h.Path, h.ID, h.ID)
	}
	return h.ID, nil
}

func newWriterIndex(d *design.Design, items []*Item) (*writerIndex, error) {
	idx := &writerIndex{byHome: make([][]wentry, len(d.Homes)), prefHi: make([][]int64, len(d.Homes))}
	counts := make([]int32, len(d.Homes))
	for _, it := range items {
		for _, a := range it.Writes {
			id, err := homeIndex(d, a.Home)
			if err != nil {
				return nil, err
			}
			counts[id]++
		}
		for _, a := range it.Reads {
			if _, err := homeIndex(d, a.Home); err != nil {
				return nil, err
			}
		}
	}
	for id, c := range counts {
		if c > 0 {
			idx.byHome[id] = make([]wentry, 0, c)
		}
	}
	for _, it := range items {
		for k := range it.Writes {
			a := &it.Writes[k]
			lo, hi := flatRange(*a)
			idx.byHome[a.Home.ID] = append(idx.byHome[a.Home.ID], wentry{lo, hi, int32(it.ID), a})
		}
	}
	for id, list := range idx.byHome {
		if len(list) == 0 {
			continue
		}
		slices.SortFunc(list, func(x, y wentry) int {
			return cmp.Or(cmp.Compare(x.lo, y.lo), cmp.Compare(x.item, y.item))
		})
		ph := make([]int64, len(list))
		m := int64(-1)
		for i, e := range list {
			m = max(m, e.hi)
			ph[i] = m
		}
		idx.prefHi[id] = ph
	}
	return idx, nil
}

// each calls fn for every (writer item, written access) overlapping a.
func (idx *writerIndex) each(a design.Access, fn func(item int32, w design.Access)) {
	list := idx.byHome[a.Home.ID]
	if len(list) == 0 {
		return
	}
	ph := idx.prefHi[a.Home.ID]
	qlo, qhi := flatRange(a)
	i, _ := slices.BinarySearch(ph, qlo) // first with running max >= qlo
	for ; i < len(list) && list[i].lo <= qhi; i++ {
		if overlap(*list[i].acc, a) {
			fn(list[i].item, *list[i].acc)
		}
	}
}

// buildGraph computes the dependency graph of items.
func buildGraph(d *design.Design, items []*Item) (*Graph, error) {
	idx, err := newWriterIndex(d, items)
	if err != nil {
		return nil, err
	}
	n := len(items)
	g := &Graph{n: n, self: make([]bool, n), predOff: make([]int32, n+1), writerIdx: idx}
	stamp := make([]int32, n)
	for i := range stamp {
		stamp[i] = -1
	}
	pred := make([]int32, 0, 2*n)
	for r := 0; r < n; r++ {
		it := items[r]
		start := len(pred)
		r32 := int32(r)
		for _, a := range it.Reads {
			idx.each(a, func(w int32, _ design.Access) {
				if w == r32 {
					g.self[r] = true
				} else if stamp[w] != r32 {
					stamp[w] = r32
					pred = append(pred, w)
				}
			})
		}
		for _, a := range it.Writes {
			idx.each(a, func(w int32, _ design.Access) {
				if w < r32 && stamp[w] != r32 {
					stamp[w] = r32
					pred = append(pred, w)
					g.writeWriteEdges = append(g.writeWriteEdges, [2]int32{w, r32})
				}
			})
		}
		if len(pred)-start > 1 {
			slices.Sort(pred[start:])
		}
		g.predOff[r+1] = int32(len(pred))
	}
	g.pred = pred
	// Successors by counting.
	g.succOff = make([]int32, n+1)
	for _, w := range pred {
		g.succOff[w+1]++
	}
	for i := 0; i < n; i++ {
		g.succOff[i+1] += g.succOff[i]
	}
	g.succ = make([]int32, len(pred))
	fill := append([]int32(nil), g.succOff[:n]...)
	for r := 0; r < n; r++ {
		for _, w := range g.Pred(r) {
			g.succ[fill[w]] = int32(r)
			fill[w]++
		}
	}
	return g, nil
}

// minHeap is a binary heap of int32 keys (smallest first).
type minHeap []int32

func (h *minHeap) push(x int32) {
	*h = append(*h, x)
	a := *h
	i := len(a) - 1
	for i > 0 {
		p := (i - 1) / 2
		if a[p] <= a[i] {
			break
		}
		a[p], a[i] = a[i], a[p]
		i = p
	}
}

func (h *minHeap) pop() int32 {
	a := *h
	top := a[0]
	last := len(a) - 1
	a[0] = a[last]
	a = a[:last]
	i := 0
	for {
		l, r, m := 2*i+1, 2*i+2, i
		if l < len(a) && a[l] < a[m] {
			m = l
		}
		if r < len(a) && a[r] < a[m] {
			m = r
		}
		if m == i {
			break
		}
		a[i], a[m] = a[m], a[i]
		i = m
	}
	*h = a
	return top
}

// condense orders the components of g topologically, ties broken by the
// smallest item ID of each component (design order). It returns the items
// of every component in that order, each component's items in ascending ID.
func condense(g *Graph, comp []int32, count int) [][]int32 {
	members := make([][]int32, count)
	for v := 0; v < g.n; v++ { // ascending: members sorted, members[c][0] is the min ID
		members[comp[v]] = append(members[comp[v]], int32(v))
	}
	indeg := make([]int32, count)
	for v := 0; v < g.n; v++ {
		for _, w := range g.Succ(v) {
			if comp[w] != comp[v] {
				indeg[comp[w]]++
			}
		}
	}
	// The heap holds the min item ID of each ready component.
	var h minHeap
	for c := 0; c < count; c++ {
		if indeg[c] == 0 {
			h.push(members[c][0])
		}
	}
	order := make([][]int32, 0, count)
	for len(h) > 0 {
		c := comp[h.pop()]
		order = append(order, members[c])
		for _, v := range members[c] {
			for _, w := range g.Succ(int(v)) {
				cw := comp[w]
				if cw == c {
					continue
				}
				indeg[cw]--
				if indeg[cw] == 0 {
					h.push(members[cw][0])
				}
			}
		}
	}
	return order
}

// loopOrder orders the items of one strongly connected component for
// fixpoint iteration: topologically over the edges inside the component,
// ties by ID; when every remaining item waits on another, the smallest
// remaining ID goes next (that breaks the cycle at its first item in
// design order).
func loopOrder(g *Graph, members []int32, comp []int32) []int32 {
	c := comp[members[0]]
	indeg := make(map[int32]int32, len(members))
	for _, v := range members {
		for _, w := range g.Succ(int(v)) {
			if comp[w] == c {
				indeg[w]++
			}
		}
	}
	done := make(map[int32]bool, len(members))
	var h minHeap
	for _, v := range members {
		if indeg[v] == 0 {
			h.push(v)
		}
	}
	out := make([]int32, 0, len(members))
	cursor := 0 // members is ascending
	for len(out) < len(members) {
		var v int32
		if len(h) > 0 {
			v = h.pop()
			if done[v] {
				continue
			}
		} else {
			for done[members[cursor]] {
				cursor++
			}
			v = members[cursor]
		}
		done[v] = true
		out = append(out, v)
		for _, w := range g.Succ(int(v)) {
			if comp[w] != c || done[w] {
				continue
			}
			indeg[w]--
			if indeg[w] == 0 {
				h.push(w)
			}
		}
	}
	return out
}
