package opt

import "github.com/weft-hdl/weft/sir"

// fold replaces instructions whose operands are known constants by their
// value (computed with sir.Eval, the interpreter's own arithmetic), applies
// algebraic identities that hold at every width (x+0, x&0, x*1, mux with a
// known or repeated choice, shifts by >= w, x-x, ...), turns constant
// dynamic indexes into static addresses (an out-of-range constant index
// makes a load 0 and removes a store), and turns branches on constants
// into jumps. Unreachable blocks are left alone (deadcode removes them).
func fold(u *sir.Unit) {
	c := newConsts(u)
	sh := &shifts{ver: map[sir.Reg]int{}, shr: map[sir.Reg]shiftDef{}}
	// Reverse postorder: a single-assignment register's definition (which
	// dominates its reads) is folded before any block reading it.
	for _, bi := range u.RPO() {
		b := u.Blocks[bi]
		c.startBlock()
		sh.startBlock()
		out := b.Insts[:0]
		for i := range b.Insts {
			in := b.Insts[i]
			if keep := foldInst(u, c, &in); !keep {
				continue
			}
			sh.bitField(u, &in)
			c.def(&in)
			sh.def(&in)
			sh.note(u, c, &in)
			out = append(out, in)
		}
		b.Insts = out
		if t := &b.Term; t.Kind == sir.TermBranch {
			if v, ok := c.get(t.Cond); ok {
				to := t.Else
				if v != 0 {
					to = t.Then
				}
				*t = sir.Term{Kind: sir.TermJump, Then: to}
			} else if t.Then == t.Else {
				*t = sir.Term{Kind: sir.TermJump, Then: t.Then}
			}
		}
	}
}

// foldInst simplifies in in place; it returns false when in is to be removed.
func foldInst(u *sir.Unit, c *consts, in *sir.Inst) bool {
	op := in.Op
	if op.IsMem() && in.Addr.Dynamic() {
		if idx, ok := c.get(in.Addr.Index); ok {
			if idx >= uint64(in.Addr.Count) {
				if op.IsStore() {
					return false
				}
				*in = sir.Inst{Op: sir.OpConst, Dst: in.Dst}
				return true
			}
			in.Addr = sir.Addr{Home: in.Addr.Home, Offset: in.Addr.Offset + int(idx)*in.Addr.Stride}
		}
	}
	if !op.Evaluable() || op == sir.OpConst {
		return true
	}
	var vals [3]uint64
	var known [3]bool
	regs := [3]sir.Reg{in.A, in.B, in.C}
	all := true
	for i := 0; i < op.NumArgs(); i++ {
		vals[i], known[i] = c.get(regs[i])
		all = all && known[i]
	}
	w := u.Width(in.Dst)
	setConst := func(v uint64) { *in = sir.Inst{Op: sir.OpConst, Dst: in.Dst, Imm: v & sir.Mask(w)} }
	setCopy := func(r sir.Reg) { *in = sir.Inst{Op: sir.OpCopy, Dst: in.Dst, A: r} }
	if all {
		setConst(sir.EvalInst(u, in, vals[0], vals[1], vals[2]))
		return true
	}
	a, b := in.A, in.B
	ka, kb := known[0], known[1]
	va, vb := vals[0], vals[1]
	m := sir.Mask(w)
	switch op {
	case sir.OpAdd, sir.OpOr, sir.OpXor:
		switch {
		case kb && vb == 0:
			setCopy(a)
		case ka && va == 0:
			setCopy(b)
		case op == sir.OpOr && (ka && va == m || kb && vb == m):
			setConst(m)
		case op == sir.OpOr && a == b:
			setCopy(a)
		case op == sir.OpXor && a == b:
			setConst(0)
		}
	case sir.OpSub:
		switch {
		case kb && vb == 0:
			setCopy(a)
		case a == b:
			setConst(0)
		}
	case sir.OpAnd:
		switch {
		case ka && va == 0 || kb && vb == 0:
			setConst(0)
		case kb && vb == m:
			setCopy(a)
		case ka && va == m:
			setCopy(b)
		case a == b:
			setCopy(a)
		}
	case sir.OpMul:
		switch {
		case ka && va == 0 || kb && vb == 0:
			setConst(0)
		case kb && vb == 1:
			setCopy(a)
		case ka && va == 1:
			setCopy(b)
		}
	case sir.OpMulHiU:
		if ka && va == 0 || kb && vb == 0 {
			setConst(0)
		}
	case sir.OpDivU, sir.OpDivS:
		switch {
		case kb && vb == 1 && (op == sir.OpDivU || w > 1):
			setCopy(a) // a 1-bit signed 1 is -1
		case ka && va == 0 || kb && vb == 0:
			setConst(0)
		}
	case sir.OpRemU:
		if kb && (vb == 0 || vb == 1) || ka && va == 0 {
			setConst(0)
		}
	case sir.OpShl, sir.OpLShr, sir.OpAShr:
		switch {
		case kb && vb == 0:
			setCopy(a)
		case kb && vb >= uint64(w) && op != sir.OpAShr:
			setConst(0)
		case ka && va == 0:
			setConst(0)
		}
	case sir.OpEq, sir.OpULe, sir.OpSLe:
		if a == b {
			setConst(1)
		}
	case sir.OpNe, sir.OpULt, sir.OpSLt:
		if a == b {
			setConst(0)
		}
	case sir.OpMux:
		switch {
		case ka && va != 0:
			setCopy(b)
		case ka:
			setCopy(in.C)
		case b == in.C:
			setCopy(b)
		}
	case sir.OpZExt, sir.OpSExt, sir.OpTrunc:
		if u.Width(a) == w {
			setCopy(a)
		}
	case sir.OpExtract:
		if in.Lo == 0 && u.Width(a) == w {
			setCopy(a)
		}
	}
	return true
}

// shifts remembers, within a block, registers holding x >> k for a
// constant k, so a truncation or extract of one reads the field of x
// directly: trunc(lshr(x, k)) is extract(x, k), the form coalesce merges
// into word moves and the back end lowers as one bit test or shift.
type shifts struct {
	ver map[sir.Reg]int // definitions of each register in this block
	shr map[sir.Reg]shiftDef
}

type shiftDef struct {
	src     sir.Reg
	k       int
	ver     int // of the shifted register when recorded
	srcVer  int
	srcWide int
}

func (s *shifts) startBlock() {
	clear(s.ver)
	clear(s.shr)
}

// bitField rewrites in (a trunc or extract of a remembered shift) to
// extract the field from the shift's source, and remembers in when it is
// a shift right by a constant.
func (s *shifts) bitField(u *sir.Unit, in *sir.Inst) {
	switch in.Op {
	case sir.OpTrunc, sir.OpExtract:
		d, ok := s.shr[in.A]
		if !ok || s.ver[in.A] != d.ver || s.ver[d.src] != d.srcVer {
			return
		}
		lo := d.k
		if in.Op == sir.OpExtract {
			lo += in.Lo
		}
		if lo+u.Width(in.Dst) > d.srcWide {
			return
		}
		*in = sir.Inst{Op: sir.OpExtract, Dst: in.Dst, A: d.src, Lo: lo}
	}
}

func (s *shifts) def(in *sir.Inst) {
	if in.Dst == sir.NoReg {
		return
	}
	s.ver[in.Dst]++
	delete(s.shr, in.Dst)
}

// note records in after def when it is x >> k with k known.
func (s *shifts) note(u *sir.Unit, c *consts, in *sir.Inst) {
	if in.Op != sir.OpLShr || in.A == in.Dst {
		return
	}
	k, ok := c.get(in.B)
	if !ok || k >= uint64(u.Width(in.A)) {
		return
	}
	s.shr[in.Dst] = shiftDef{src: in.A, k: int(k), ver: s.ver[in.Dst], srcVer: s.ver[in.A], srcWide: u.Width(in.A)}
}
