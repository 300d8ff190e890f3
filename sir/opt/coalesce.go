package opt

import "github.com/weft-hdl/weft/sir"

// coalesceWindow bounds how far back (in instructions) a store looks for a
// partner, so the pass stays linear on huge blocks.
const coalesceWindow = 256

// coalesce works on static stores within a block:
//
//   - an earlier store (or storebits) whose bytes a later store overwrites
//     entirely, with no access to those bytes in between, is removed;
//   - two stores of the same size s (1, 2 or 4 bytes) to adjacent bytes
//     of one home, the lower at an offset aligned to 2s, become one store
//     of 2s bytes at the later store's position — when no access in between
//     touches the moved store's bytes, its value register is not assigned
//     in between, and the merged value costs nothing: both values are known
//     constants (the merged constant is materialized), or they are adjacent
//     extracts (the low one full-width) of one single-assignment register.
//     Merging repeats, so four byte stores of constants become one 4-byte
//     store.
//
// Merging stores of arbitrary registers would need shift-and-or code, more
// instructions than the store it saves, so it is not done.
func coalesce(u *sir.Unit) {
	c := newConsts(u)
	defs := singleDefsOf(u, c.ndefs, sir.OpExtract, sir.OpTrunc)
	redef := make(map[sir.Reg]bool, coalesceWindow)
	for _, bi := range u.RPO() {
		b := u.Blocks[bi]
		c.startBlock()
		co := &coalescer{u: u, c: c, defs: defs, insts: b.Insts, dead: make([]bool, len(b.Insts)), pre: map[int][]sir.Inst{}, redef: redef}
		for j := range co.insts {
			if in := &co.insts[j]; in.Op == sir.OpStore && !in.Addr.Dynamic() {
				for co.tryStore(j) {
				}
			}
			c.def(&co.insts[j])
		}
		n := 0
		for j := range co.insts {
			n += len(co.pre[j])
			if !co.dead[j] {
				n++
			}
		}
		out := make([]sir.Inst, 0, n)
		for j, in := range co.insts {
			out = append(out, co.pre[j]...)
			if !co.dead[j] {
				out = append(out, in)
			}
		}
		b.Insts = out
	}
}

type coalescer struct {
	u     *sir.Unit
	c     *consts
	defs  map[sir.Reg]sir.Inst // single-assignment extracts and truncations
	insts []sir.Inst
	dead  []bool
	pre   map[int][]sir.Inst // instructions to insert before index j
	// redef holds the registers defined between a store and the candidate
	// it looks at; kept across stores (cleared each time) so that a large
	// block does not allocate a map per store.
	redef map[sir.Reg]bool
}

type byteRange struct{ lo, hi int }

func (r byteRange) overlaps(s byteRange) bool { return r.lo < s.hi && s.lo < r.hi }

// memRange is the bytes of its home a static access touches.
func memRange(u *sir.Unit, in *sir.Inst) byteRange {
	switch in.Op {
	case sir.OpLoadBits, sir.OpStoreBits:
		w := u.Width(in.Dst)
		if in.Op == sir.OpStoreBits {
			w = u.Width(in.A)
		}
		lo := in.Addr.Offset + in.Lo/8
		return byteRange{lo, lo + (in.Lo%8+w+7)/8}
	}
	return byteRange{in.Addr.Offset, in.Addr.Offset + in.Size}
}

// tryStore looks back from the static store at j for a store to remove or
// merge; it reports whether it changed something.
func (co *coalescer) tryStore(j int) bool {
	u := co.u
	t := &co.insts[j]
	tr := memRange(u, t)
	var between []byteRange // same-home accesses between the candidate and t
	var hull byteRange      // their hull: most candidates miss it, sparing the scan
	redef := co.redef
	clear(redef)
	for i, n := j-1, 0; i >= 0 && n < coalesceWindow; i, n = i-1, n+1 {
		if co.dead[i] {
			continue
		}
		s := &co.insts[i]
		if s.Op.IsMem() && s.Addr.Home == t.Addr.Home {
			if s.Addr.Dynamic() {
				return false
			}
			sr := memRange(u, s)
			clear := true
			if hull.overlaps(sr) {
				for _, r := range between {
					clear = clear && !r.overlaps(sr)
				}
			}
			if s.Op.IsStore() && clear {
				if tr.lo <= sr.lo && sr.hi <= tr.hi {
					co.dead[i] = true // overwritten before anything reads it
					return true
				}
				if s.Op == sir.OpStore && co.merge(i, j, redef) {
					return true
				}
			}
			if len(between) == 0 {
				hull = sr
			} else {
				hull = byteRange{min(hull.lo, sr.lo), max(hull.hi, sr.hi)}
			}
			between = append(between, sr)
		}
		if s.Dst != sir.NoReg {
			redef[s.Dst] = true
		}
	}
	return false
}

// merge merges the store at i into the store at j when the rules allow.
func (co *coalescer) merge(i, j int, redef map[sir.Reg]bool) bool {
	u := co.u
	s, t := &co.insts[i], &co.insts[j]
	sz := s.Size
	if t.Size != sz || sz > 4 || redef[s.A] {
		return false
	}
	lo, hi := s, t
	if t.Addr.Offset < s.Addr.Offset {
		lo, hi = t, s
	}
	if hi.Addr.Offset != lo.Addr.Offset+sz || lo.Addr.Offset%(2*sz) != 0 {
		return false
	}
	var val sir.Reg
	var def sir.Inst
	vl, okl := co.c.get(lo.A)
	vh, okh := co.c.get(hi.A)
	switch {
	case okl && okh:
		w := 16 * sz
		val = co.c.newReg(w)
		imm := vl | vh<<uint(8*sz)
		def = sir.Inst{Op: sir.OpConst, Dst: val, Imm: imm}
		co.c.global[val] = imm
	default:
		x, k, ok := co.extractOf(lo.A)
		if !ok || u.Width(lo.A) != 8*sz {
			return false
		}
		x2, k2, ok := co.extractOf(hi.A)
		if !ok || x2 != x || k2 != k+8*sz {
			return false
		}
		w := 8*sz + u.Width(hi.A)
		if k == 0 && w == u.Width(x) {
			val = x
			break
		}
		val = co.c.newReg(w)
		def = sir.Inst{Op: sir.OpExtract, Dst: val, A: x, Lo: k}
		co.defs[val] = def
	}
	if def.Op != sir.OpInvalid {
		co.pre[j] = append(co.pre[j], def)
	}
	*t = sir.Inst{Op: sir.OpStore, Size: 2 * sz, Addr: sir.Addr{Home: t.Addr.Home, Offset: lo.Addr.Offset}, A: val}
	co.dead[i] = true
	return true
}

// extractOf reports r = bits [k, k+width(r)) of a single-assignment x,
// where r itself is single-assignment.
func (co *coalescer) extractOf(r sir.Reg) (x sir.Reg, k int, ok bool) {
	d, ok := co.defs[r]
	if !ok {
		return 0, 0, false
	}
	switch d.Op {
	case sir.OpExtract:
		x, k = d.A, d.Lo
	case sir.OpTrunc:
		x = d.A
	default:
		return 0, 0, false
	}
	return x, k, co.c.ndefs[x] == 1
}
