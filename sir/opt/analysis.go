package opt

import (
	"github.com/weft-hdl/weft/sir"
	"github.com/weft-hdl/weft/sir/internal/regset"
)

// defCounts counts the instructions assigning each register in the blocks
// the entry reaches (assignments in unreachable blocks never execute; the
// dominance argument for single-assignment registers rests on definite
// assignment, which sir.Check verifies on reachable blocks).
func defCounts(u *sir.Unit) []int32 {
	n := make([]int32, len(u.Regs))
	for _, bi := range u.RPO() {
		b := u.Blocks[bi]
		for i := range b.Insts {
			if d := b.Insts[i].Dst; d != sir.NoReg {
				n[d]++
			}
		}
	}
	return n
}

// singleDefsOf maps the single-assignment registers (per defCounts)
// defined by an instruction of one of ops to a copy of that instruction
// (so later edits do not alias). Passes ask about a few kinds of
// definition only, and a map of every register was most of their cost on
// large units.
func singleDefsOf(u *sir.Unit, ndefs []int32, ops ...sir.Op) map[sir.Reg]sir.Inst {
	want := func(op sir.Op) bool {
		for _, o := range ops {
			if o == op {
				return true
			}
		}
		return false
	}
	m := map[sir.Reg]sir.Inst{}
	for _, bi := range u.RPO() {
		for _, in := range u.Blocks[bi].Insts {
			if in.Dst != sir.NoReg && ndefs[in.Dst] == 1 && want(in.Op) {
				m[in.Dst] = in
			}
		}
	}
	return m
}

// consts tracks known constant register values: globally for
// single-assignment registers defined by a constant, and within the current
// block for every register (reset per block).
type consts struct {
	u      *sir.Unit
	ndefs  []int32
	global map[sir.Reg]uint64
	local  map[sir.Reg]uint64
}

func newConsts(u *sir.Unit) *consts {
	c := &consts{u: u, ndefs: defCounts(u), global: map[sir.Reg]uint64{}, local: map[sir.Reg]uint64{}}
	// Only the constants matter here: picking them straight from the
	// blocks spares building every single definition (singleDefs).
	for _, bi := range u.RPO() {
		b := u.Blocks[bi]
		for i := range b.Insts {
			if in := &b.Insts[i]; in.Op == sir.OpConst && in.Dst != sir.NoReg && c.ndefs[in.Dst] == 1 {
				c.global[in.Dst] = in.Imm
			}
		}
	}
	return c
}

func (c *consts) startBlock() { clear(c.local) }

// get returns r's value if it is known here.
func (c *consts) get(r sir.Reg) (uint64, bool) {
	if v, ok := c.local[r]; ok {
		return v, true
	}
	v, ok := c.global[r]
	return v, ok
}

// def records that in (now executed) assigned its Dst.
func (c *consts) def(in *sir.Inst) {
	if in.Dst == sir.NoReg {
		return
	}
	if in.Op == sir.OpConst {
		c.local[in.Dst] = in.Imm
		if c.ndefs[in.Dst] == 1 {
			c.global[in.Dst] = in.Imm
		}
	} else {
		delete(c.local, in.Dst)
		if c.ndefs[in.Dst] == 1 {
			delete(c.global, in.Dst)
		}
	}
}

// newReg adds a register that the caller assigns exactly once, keeping the
// def counts right.
func (c *consts) newReg(w int) sir.Reg {
	r := c.u.NewReg(w)
	c.ndefs = append(c.ndefs, 1)
	return r
}

// removeUnreachable drops blocks the entry cannot reach and renumbers the
// rest (the entry stays b0, the others keep their order).
func removeUnreachable(u *sir.Unit) bool {
	reach := u.Reachable()
	newID := make([]sir.BlockID, len(u.Blocks))
	var kept []*sir.Block
	for i, b := range u.Blocks {
		if reach[i] {
			newID[i] = sir.BlockID(len(kept))
			kept = append(kept, b)
		}
	}
	if len(kept) == len(u.Blocks) {
		return false
	}
	for _, b := range kept {
		switch b.Term.Kind {
		case sir.TermJump:
			b.Term.Then = newID[b.Term.Then]
		case sir.TermBranch:
			b.Term.Then, b.Term.Else = newID[b.Term.Then], newID[b.Term.Else]
		}
	}
	u.Blocks = kept
	return true
}

// liveOut computes, per block, the registers live at its end, restricted
// to registers upward-exposed somewhere (the only ones live across blocks).
// It returns the sets and the register -> index map.
func liveOut(u *sir.Unit) ([]regset.Set, map[sir.Reg]int) {
	ue := sir.UpwardExposed(u)
	idx := map[sir.Reg]int{}
	for _, rs := range ue {
		for _, r := range rs {
			if _, ok := idx[r]; !ok {
				idx[r] = len(idx)
			}
		}
	}
	n := len(idx)
	nb := len(u.Blocks)
	gen := make([]regset.Set, nb)
	kill := make([]regset.Set, nb)
	in := make([]regset.Set, nb)
	out := make([]regset.Set, nb)
	for bi, b := range u.Blocks {
		gen[bi], kill[bi], in[bi], out[bi] = regset.New(n), regset.New(n), regset.New(n), regset.New(n)
		for _, r := range ue[bi] {
			gen[bi].Add(idx[r])
		}
		for i := range b.Insts {
			if d := b.Insts[i].Dst; d != sir.NoReg {
				if k, ok := idx[d]; ok {
					kill[bi].Add(k)
				}
			}
		}
	}
	rpo := u.RPO()
	var succ []sir.BlockID
	tmp := regset.New(n)
	for changed := true; changed; {
		changed = false
		for i := len(rpo) - 1; i >= 0; i-- {
			b := rpo[i]
			out[b].Clear()
			succ = u.Blocks[b].Term.Succs(succ[:0])
			for _, s := range succ {
				out[b].Or(in[s])
			}
			tmp.Copy(out[b])
			tmp.AndNot(kill[b])
			tmp.Or(gen[b])
			if !tmp.Equal(in[b]) {
				in[b].Copy(tmp)
				changed = true
			}
		}
	}
	return out, idx
}

// keepInsts drops the instructions of b whose keep entry is false.
func keepInsts(b *sir.Block, keep []bool) {
	n := 0
	for i := range b.Insts {
		if keep[i] {
			b.Insts[n] = b.Insts[i]
			n++
		}
	}
	b.Insts = b.Insts[:n]
}
