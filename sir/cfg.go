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
