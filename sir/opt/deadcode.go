package opt

import "github.com/weft-hdl/weft/sir"

// deadcode removes unreachable blocks and pure instructions (loads
// included: they never fault) whose result is never read, plus copies of a
// register to itself. It repeats until nothing changes, so chains of dead
// instructions across blocks go too.
func deadcode(u *sir.Unit) {
	removeUnreachable(u)
	live := make([]bool, len(u.Regs))
	var touched []sir.Reg
	var buf []sir.Reg
	for changed := true; changed; {
		changed = false
		out, idx := liveOut(u)
		// The registers by live-set index: walking each block's set bits
		// costs its live registers, not every cross-block register (which
		// was quadratic in the unit's size).
		regOf := make([]sir.Reg, len(idx))
		for r, k := range idx {
			regOf[k] = r
		}
		for bi, b := range u.Blocks {
			out[bi].ForEach(func(k int) {
				live[regOf[k]] = true
				touched = append(touched, regOf[k])
			})
			if b.Term.Kind == sir.TermBranch {
				live[b.Term.Cond] = true
				touched = append(touched, b.Term.Cond)
			}
			keep := make([]bool, len(b.Insts))
			for i := len(b.Insts) - 1; i >= 0; i-- {
				in := &b.Insts[i]
				if in.Op == sir.OpCopy && in.A == in.Dst || in.Op.Pure() && !live[in.Dst] {
					changed = true
					continue
				}
				keep[i] = true
				if in.Dst != sir.NoReg {
					live[in.Dst] = false
				}
				buf = in.Uses(buf[:0])
				for _, r := range buf {
					live[r] = true
					touched = append(touched, r)
				}
			}
			keepInsts(b, keep)
			for _, r := range touched {
				live[r] = false
			}
			touched = touched[:0]
		}
	}
}
