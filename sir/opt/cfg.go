package opt

import "github.com/weft-hdl/weft/sir"

// cleanupCFG simplifies control flow until nothing changes:
//   - a branch whose targets are equal becomes a jump;
//   - an edge to an empty block that only jumps on is threaded to that
//     jump's target, and a jump to an empty block that returns becomes the
//     return;
//   - a block whose only predecessor jumps to it is merged into that
//     predecessor;
//   - unreachable blocks are removed.
func cleanupCFG(u *sir.Unit) {
	for changed := true; changed; {
		changed = removeUnreachable(u)
		for _, b := range u.Blocks {
			t := &b.Term
			if t.Kind == sir.TermBranch && t.Then == t.Else {
				*t = sir.Term{Kind: sir.TermJump, Then: t.Then}
				changed = true
			}
			switch t.Kind {
			case sir.TermJump:
				if to := thread(u, t.Then); to != t.Then {
					t.Then, changed = to, true
				}
				if s := u.Blocks[t.Then]; len(s.Insts) == 0 && s.Term.Kind == sir.TermReturn {
					*t = s.Term
					changed = true
				}
			case sir.TermBranch:
				if to := thread(u, t.Then); to != t.Then {
					t.Then, changed = to, true
				}
				if to := thread(u, t.Else); to != t.Else {
					t.Else, changed = to, true
				}
			}
		}
		preds := u.Preds()
		var chain []sir.BlockID
		for bi, b := range u.Blocks {
			// The blocks b absorbs: each reached only by a jump from the
			// one before. They are collected first so that b's instructions
			// grow once, not once per block (chains of thousands of
			// converted ifs are common).
			chain = chain[:0]
			n := len(b.Insts)
			for t := b.Term; t.Kind == sir.TermJump; {
				s := t.Then
				if s == 0 || int(s) == bi || len(preds[s]) != 1 {
					break
				}
				chain = append(chain, s)
				n += len(u.Blocks[s].Insts)
				t = u.Blocks[s].Term
			}
			if len(chain) == 0 {
				continue
			}
			insts := make([]sir.Inst, 0, n)
			insts = append(insts, b.Insts...)
			for _, s := range chain {
				next := u.Blocks[s]
				insts = append(insts, next.Insts...)
				b.Term = next.Term
				// next is now unreachable; keep preds consistent for its successors.
				next.Insts, next.Term = nil, sir.Term{Kind: sir.TermReturn}
				preds[s] = nil
			}
			b.Insts = insts
			var succ []sir.BlockID
			last := chain[len(chain)-1]
			for _, x := range b.Term.Succs(succ) {
				for k, p := range preds[x] {
					if p == last {
						preds[x][k] = sir.BlockID(bi)
					}
				}
			}
			changed = true
		}
	}
}

// thread follows empty blocks that only jump on, starting at b; it stops at
// a cycle of empty blocks.
func thread(u *sir.Unit, b sir.BlockID) sir.BlockID {
	for steps := 0; steps < len(u.Blocks); steps++ {
		s := u.Blocks[b]
		if len(s.Insts) != 0 || s.Term.Kind != sir.TermJump || s.Term.Then == b {
			return b
		}
		b = s.Term.Then
	}
	return b
}
