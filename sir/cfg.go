package sir

// Preds returns the predecessors of every block (a branch with equal
// targets contributes its block once).
func (u *Unit) Preds() [][]BlockID {
	preds := make([][]BlockID, len(u.Blocks))
	var buf []BlockID
	for i, b := range u.Blocks {
		buf = b.Term.Succs(buf[:0])
		for j, s := range buf {
			if j == 1 && s == buf[0] {
				continue
			}
			if s >= 0 && int(s) < len(u.Blocks) {
				preds[s] = append(preds[s], BlockID(i))
			}
		}
	}
	return preds
}

// RPO returns the blocks reachable from the entry in reverse postorder
// (entry first). Invalid successor IDs are ignored.
func (u *Unit) RPO() []BlockID {
	n := len(u.Blocks)
	if n == 0 {
		return nil
	}
	seen := make([]bool, n)
	post := make([]BlockID, 0, n)
	type frame struct {
		b    BlockID
		next int
	}
	stack := []frame{{0, 0}}
	seen[0] = true
	var buf []BlockID
	for len(stack) > 0 {
		f := &stack[len(stack)-1]
		buf = u.Blocks[f.b].Term.Succs(buf[:0])
		if f.next < len(buf) {
			s := buf[f.next]
			f.next++
			if s >= 0 && int(s) < n && !seen[s] {
				seen[s] = true
				stack = append(stack, frame{s, 0})
			}
			continue
		}
		post = append(post, f.b)
		stack = stack[:len(stack)-1]
	}
	for i, j := 0, len(post)-1; i < j; i, j = i+1, j-1 {
		post[i], post[j] = post[j], post[i]
	}
	return post
}

// Reachable reports for every block whether the entry reaches it.
func (u *Unit) Reachable() []bool {
	r := make([]bool, len(u.Blocks))
	for _, b := range u.RPO() {
		r[b] = true
	}
	return r
}

// DomTree is the dominator tree of a unit's reachable blocks.
type DomTree struct {
	// Idom is each block's immediate dominator: the entry's is itself,
	// an unreachable block's is -1.
	Idom      []BlockID
	pre, post []int32 // tree DFS numbers, for constant-time queries
}

// Dominators computes the dominator tree by the iterative algorithm of
// Cooper, Harvey and Kennedy over the reverse postorder (near-linear on
// the acyclic and shallow-loop graphs processes lower to).
func (u *Unit) Dominators() *DomTree {
	n := len(u.Blocks)
	t := &DomTree{Idom: make([]BlockID, n), pre: make([]int32, n), post: make([]int32, n)}
	for i := range t.Idom {
		t.Idom[i] = -1
	}
	rpo := u.RPO()
	if len(rpo) == 0 {
		return t
	}
	order := make([]int32, n) // RPO index of each reachable block
	for i, b := range rpo {
		order[b] = int32(i)
	}
	preds := u.Preds()
	idom := t.Idom
	idom[0] = 0
	intersect := func(a, b BlockID) BlockID {
		for a != b {
			for order[a] > order[b] {
				a = idom[a]
			}
			for order[b] > order[a] {
				b = idom[b]
			}
		}
		return a
	}
	for changed := true; changed; {
		changed = false
		for _, b := range rpo[1:] {
			nd := BlockID(-1)
			for _, p := range preds[b] {
				if idom[p] < 0 {
					continue // unreachable, or not processed yet
				}
				if nd < 0 {
					nd = p
				} else {
					nd = intersect(p, nd)
				}
			}
			if nd != idom[b] {
				idom[b] = nd
				changed = true
			}
		}
	}
	// Number the tree depth first (children listed by scanning idom).
	first := make([]BlockID, n) // first child, then next sibling: -1 ends
	next := make([]BlockID, n)
	for i := range first {
		first[i], next[i] = -1, -1
	}
	for i := n - 1; i >= 1; i-- {
		if p := idom[i]; p >= 0 {
			next[i] = first[p]
			first[p] = BlockID(i)
		}
	}
	var clock int32
	stack := []BlockID{0}
	t.pre[0] = clock
	clock++
	for len(stack) > 0 {
		top := stack[len(stack)-1]
		c := first[top]
		if c < 0 {
			t.post[top] = clock
			clock++
			stack = stack[:len(stack)-1]
			continue
		}
		first[top] = next[c]
		t.pre[c] = clock
		clock++
		stack = append(stack, c)
	}
	return t
}

// Dominates reports whether every path from the entry to b passes
// through a (a block dominates itself); false when either is unreachable.
func (t *DomTree) Dominates(a, b BlockID) bool {
	if t.Idom[a] < 0 || t.Idom[b] < 0 {
		return false
	}
	return t.pre[a] <= t.pre[b] && t.post[b] <= t.post[a]
}
