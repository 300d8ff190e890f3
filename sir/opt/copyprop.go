package opt

import "github.com/weft-hdl/weft/sir"

// copyprop makes reads of a copy read its source instead, so the copy
// usually dies. Globally when both the copy's destination and its source
// are single-assignment registers (the source's definition dominates the
// copy, which dominates every read of the destination, so no assignment of
// the source can come between); within a block for every copy, until
// either register is assigned again.
func copyprop(u *sir.Unit) {
	ndefs := defCounts(u)
	global := map[sir.Reg]sir.Reg{}
	for r, in := range singleDefsOf(u, ndefs, sir.OpCopy) {
		if in.Op == sir.OpCopy && ndefs[in.A] == 1 && in.A != r {
			global[r] = in.A
		}
	}
	resolve := func(r sir.Reg) sir.Reg {
		for i := 0; i < len(global); i++ { // chains are acyclic; the bound is a guard
			s, ok := global[r]
			if !ok {
				break
			}
			r = s
		}
		return r
	}
	local := map[sir.Reg]sir.Reg{} // dst -> src, valid in this block
	rev := map[sir.Reg][]sir.Reg{} // src -> dsts copying it
	kill := func(r sir.Reg) {
		delete(local, r)
		for _, d := range rev[r] {
			if local[d] == r {
				delete(local, d)
			}
		}
		delete(rev, r)
	}
	for _, b := range u.Blocks {
		clear(local)
		clear(rev)
		sub := func(r sir.Reg) sir.Reg {
			if _, ok := global[r]; ok {
				return resolve(r)
			}
			if s, ok := local[r]; ok {
				return s
			}
			return r
		}
		for i := range b.Insts {
			in := &b.Insts[i]
			in.MapUses(sub)
			if in.Dst == sir.NoReg {
				continue
			}
			kill(in.Dst)
			if in.Op == sir.OpCopy && in.A != in.Dst {
				local[in.Dst] = in.A
				rev[in.A] = append(rev[in.A], in.Dst)
			}
		}
		if b.Term.Kind == sir.TermBranch {
			b.Term.Cond = sub(b.Term.Cond)
		}
	}
}
