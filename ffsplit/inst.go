package ffsplit

import "math"

// insts is the instance tree of an Input with the lane preference of every
// instance derived from Input.LaneInst.
type insts struct {
	parent, depth []int
	// lane is the lane holding a strict majority of the comb cost of the
	// instance's subtree, or else its nearest ancestor's such lane; -1 when
	// neither it nor an ancestor has one. A strict majority is unique, so
	// the preference never depends on an order of lanes.
	lane []int
}

// newInsts builds the tree of a validated Input; nil without one.
func newInsts(in Input) *insts {
	n := len(in.InstParent)
	if n == 0 {
		return nil
	}
	t := &insts{parent: in.InstParent, depth: make([]int, n), lane: make([]int, n)}
	for i, p := range t.parent {
		if p >= 0 {
			t.depth[i] = t.depth[p] + 1
		}
	}
	// Per instance, comb cost per lane of its subtree: sparse, because an
	// instance usually sits on one or two lanes of many.
	sums := make([]map[int]int, n)
	for l, ics := range in.LaneInst {
		for _, ic := range ics {
			if ic.Cost == 0 {
				continue
			}
			if sums[ic.Inst] == nil {
				sums[ic.Inst] = map[int]int{}
			}
			sums[ic.Inst][l] = satAdd(sums[ic.Inst][l], ic.Cost)
		}
	}
	// Children have higher indexes than their parents: by the time an
	// instance is reached from the end, its subtree is summed.
	own := make([]int, n)
	for i := n - 1; i >= 0; i-- {
		own[i] = majority(sums[i])
		p := t.parent[i]
		if p < 0 || len(sums[i]) == 0 {
			continue
		}
		if sums[p] == nil {
			sums[p] = sums[i] // the child's map is not used again
			continue
		}
		for l, c := range sums[i] {
			sums[p][l] = satAdd(sums[p][l], c)
		}
	}
	for i := range n {
		t.lane[i] = own[i]
		if own[i] < 0 && t.parent[i] >= 0 {
			t.lane[i] = t.lane[t.parent[i]]
		}
	}
	return t
}

// majority is the lane holding more than half of the cost in m, or -1.
// Saturating sums are order-independent, and the candidate is the largest
// (the lowest lane on ties, which only saturated sums can produce), so the
// result does not depend on the map's order.
func majority(m map[int]int) int {
	total, best, bestC := 0, -1, 0
	for l, c := range m {
		total = satAdd(total, c)
		if c > bestC || c == bestC && c > 0 && l < best {
			best, bestC = l, c
		}
	}
	if best >= 0 && bestC > total-bestC {
		return best
	}
	return -1
}

func satAdd(a, b int) int {
	if a > math.MaxInt-b {
		return math.MaxInt
	}
	return a + b
}

// of is the instance of pr, -1 when unknown (or without a tree).
func (t *insts) of(pr Proc) int {
	if t == nil || pr.Inst < 0 || pr.Inst >= len(t.parent) {
		return -1
	}
	return pr.Inst
}

// disjoint is the common ancestor of instances in different trees.
const disjoint = -2

// lca is the deepest common ancestor of a and b (either may be the other),
// disjoint when they lie in different trees. An unknown instance (-1) is
// no constraint: lca(-1, b) = b, so folding lca over processes starting
// from -1 ignores the unknown ones.
func (t *insts) lca(a, b int) int {
	switch {
	case a == disjoint || b == disjoint:
		return disjoint
	case a < 0:
		return b
	case b < 0:
		return a
	}
	for a != b {
		if t.depth[a] < t.depth[b] {
			a, b = b, a
		}
		if a = t.parent[a]; a < 0 {
			return disjoint
		}
	}
	return a
}

// depthOf is the depth of a common ancestor: -1 for disjoint trees (their
// roots are then the subtrees below it).
func (t *insts) depthOf(a int) int {
	if a < 0 {
		return -1
	}
	return t.depth[a]
}

// childOf is the ancestor-or-self of a at depth d+1 (a itself when it is
// not deeper): the subtree one level below a common ancestor at depth d
// that a lies in. -1 for an unknown instance.
func (t *insts) childOf(a, d int) int {
	if a < 0 {
		return -1
	}
	for t.depth[a] > d+1 && t.parent[a] >= 0 {
		a = t.parent[a]
	}
	return a
}

// prefLane is the lane preferred for the processes of instance a, -1 for
// none.
func (t *insts) prefLane(a int) int {
	if t == nil || a < 0 {
		return -1
	}
	return t.lane[a]
}
