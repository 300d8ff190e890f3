package opt

import (
	"math/bits"
	"slices"

	"github.com/weft-hdl/weft/sir"
)

// parityMaxLeaves bounds the bits a tracked xor tree may have (past it the
// tree is left as it is), so the pass stays near-linear on huge chains.
const parityMaxLeaves = 512

// parity rewrites trees of 1-bit xors whose leaves are single bits of a few
// words — 1-bit loadbits of one home, 1-bit extracts of one register — as
// word operations: x = (w1 & m1) ^ (w2 & m2) ^ ...; result = popcnt(x) & 1.
// Bit-level parity networks (ECC encoders and syndromes, CRC steps written
// bit by bit) then cost a few instructions per word instead of two per bit.
//
// Within a block: every 1-bit register gets a form (the set of leaf bits
// it is the xor of, plus a constant), and the root of a tree — an xor whose
// value is read by something other than a 1-bit xor, or may be read after
// the block — is rewritten when its form needs clearly fewer instructions
// than the tree, and every leaf still holds at the root the value it had:
// its register not assigned again, its home not stored to since the load.
// The inner xors are left for deadcode. It reports whether it rewrote any.
func parity(u *sir.Unit) (changed bool) {
	c := newConsts(u)
	// readers[r] is the one block reading r, or -1 when several do.
	readers := map[sir.Reg]int{}
	var buf []sir.Reg
	for bi, b := range u.Blocks {
		note := func(r sir.Reg) {
			if o, ok := readers[r]; ok && o != bi {
				readers[r] = -1
			} else if !ok {
				readers[r] = bi
			}
		}
		for i := range b.Insts {
			buf = b.Insts[i].Uses(buf[:0])
			for _, r := range buf {
				note(r)
			}
		}
		if b.Term.Kind == sir.TermBranch {
			note(b.Term.Cond)
		}
	}
	for _, bi := range u.RPO() {
		b := u.Blocks[bi]
		p := &parityBlock{u: u, c: c, regVer: map[sir.Reg]int{}, homeVer: map[sir.HomeID]int{}, byteVer: map[byteKey]int{}, forms: map[sir.Reg]pform{}}
		c.startBlock()
		root := parityRoots(u, b, func(r sir.Reg) bool { return readers[r] != int(bi) })
		out := make([]sir.Inst, 0, len(b.Insts))
		for i := range b.Insts {
			in := b.Insts[i]
			if root[i] {
				if f, ok := p.formOf(&in); ok && p.worth(f) && p.valid(f) {
					changed = true
					out = p.emit(out, in.Dst, f)
					p.def(&out[len(out)-1])
					continue
				}
			}
			f, ok := p.formOf(&in)
			p.def(&in)
			if ok {
				p.forms[in.Dst] = f
			}
			out = append(out, in)
		}
		b.Insts = out
	}
	return changed
}

// isXor1 reports whether in is a 1-bit xor.
func isXor1(u *sir.Unit, in *sir.Inst) bool {
	return in.Op == sir.OpXor && u.Width(in.Dst) == 1
}

// parityRoots marks the 1-bit xors of b whose value is read by something
// other than a 1-bit xor before the register is assigned again, or may be
// read after the block: outside marks the registers some other block reads
// (or b itself on its next run, when b reads them before assigning them).
func parityRoots(u *sir.Unit, b *sir.Block, outside func(sir.Reg) bool) []bool {
	root := make([]bool, len(b.Insts))
	var buf []sir.Reg
	// Registers b reads before assigning them may be read on b's next run.
	assigned := map[sir.Reg]bool{}
	exposed := map[sir.Reg]bool{}
	for i := range b.Insts {
		buf = b.Insts[i].Uses(buf[:0])
		for _, r := range buf {
			if !assigned[r] {
				exposed[r] = true
			}
		}
		if d := b.Insts[i].Dst; d != sir.NoReg {
			assigned[d] = true
		}
	}
	// full[r]: the current version of r (walking backwards) is read by
	// something other than a 1-bit xor; a register absent from the map is
	// read only by 1-bit xors, or not at all.
	full := map[sir.Reg]bool{}
	for r := range assigned {
		if outside(r) || exposed[r] {
			full[r] = true
		}
	}
	if b.Term.Kind == sir.TermBranch {
		full[b.Term.Cond] = true
	}
	for i := len(b.Insts) - 1; i >= 0; i-- {
		in := &b.Insts[i]
		if d := in.Dst; d != sir.NoReg {
			root[i] = isXor1(u, in) && full[d]
			delete(full, d) // earlier versions: no reads seen yet
		}
		buf = in.Uses(buf[:0])
		if !isXor1(u, in) {
			for _, r := range buf {
				full[r] = true
			}
		}
	}
	return root
}

// leaf is one source word of a form: a register (a version of it) or a
// home's bits (as of a number of dynamic stores to the home; each bit also
// records the stores to its byte).
type leaf struct {
	reg     sir.Reg
	ver     int
	home    sir.HomeID
	homeVer int
	mem     bool
}

// memBit is a bit of a home (8*offset + lo) as of a number of stores to
// its byte.
type memBit struct{ pos, ver int }

type byteKey struct {
	home sir.HomeID
	off  int
}

// pform is the xor of bits of leaves and of inv.
type pform struct {
	regBits map[leaf]uint64          // register leaf → bit mask
	memBits map[leaf]map[memBit]bool // home leaf → bits
	inv     uint64
	n       int // bits in the maps
}

type parityBlock struct {
	u       *sir.Unit
	c       *consts
	regVer  map[sir.Reg]int
	homeVer map[sir.HomeID]int // dynamic stores to each home
	byteVer map[byteKey]int    // static stores to each byte
	forms   map[sir.Reg]pform
}

func (p *parityBlock) def(in *sir.Inst) {
	p.c.def(in)
	if in.Op == sir.OpStore || in.Op == sir.OpStoreBits {
		a := in.Addr
		switch {
		case a.Dynamic():
			p.homeVer[a.Home]++
		case in.Op == sir.OpStore:
			for o := a.Offset; o < a.Offset+in.Size; o++ {
				p.byteVer[byteKey{a.Home, o}]++
			}
		default:
			lo := 8*a.Offset + in.Lo
			for o := lo / 8; o <= (lo+p.u.Width(in.A)-1)/8; o++ {
				p.byteVer[byteKey{a.Home, o}]++
			}
		}
	}
	if d := in.Dst; d != sir.NoReg {
		p.regVer[d]++
		delete(p.forms, d)
	}
}

// operand is the form of the 1-bit register r as read now.
func (p *parityBlock) operand(r sir.Reg) pform {
	if v, ok := p.c.get(r); ok {
		return pform{inv: v & 1}
	}
	if f, ok := p.forms[r]; ok {
		return f
	}
	return pform{regBits: map[leaf]uint64{{reg: r, ver: p.regVer[r]}: 1}, n: 1}
}

// formOf returns the form of in's result when in is a 1-bit xor, a 1-bit
// loadbits or a 1-bit extract.
func (p *parityBlock) formOf(in *sir.Inst) (pform, bool) {
	u := p.u
	if in.Dst == sir.NoReg || u.Width(in.Dst) != 1 {
		return pform{}, false
	}
	switch in.Op {
	case sir.OpLoadBits:
		if in.Addr.Dynamic() {
			return pform{}, false
		}
		l := leaf{home: in.Addr.Home, homeVer: p.homeVer[in.Addr.Home], mem: true}
		pos := 8*in.Addr.Offset + in.Lo
		bit := memBit{pos, p.byteVer[byteKey{in.Addr.Home, pos / 8}]}
		return pform{memBits: map[leaf]map[memBit]bool{l: {bit: true}}, n: 1}, true
	case sir.OpExtract:
		if _, ok := p.c.get(in.A); ok || u.Width(in.A) > 64 {
			return pform{}, false
		}
		l := leaf{reg: in.A, ver: p.regVer[in.A]}
		return pform{regBits: map[leaf]uint64{l: 1 << uint(in.Lo)}, n: 1}, true
	case sir.OpXor:
		a, b := p.operand(in.A), p.operand(in.B)
		if a.n+b.n > parityMaxLeaves {
			return pform{}, false
		}
		return xorForms(a, b), true
	}
	return pform{}, false
}

func xorForms(a, b pform) pform {
	out := pform{inv: a.inv ^ b.inv, regBits: map[leaf]uint64{}, memBits: map[leaf]map[memBit]bool{}}
	for _, f := range []pform{a, b} {
		for l, m := range f.regBits {
			out.regBits[l] ^= m
			if out.regBits[l] == 0 {
				delete(out.regBits, l)
			}
		}
		for l, bits := range f.memBits {
			set := out.memBits[l]
			if set == nil {
				set = map[memBit]bool{}
				out.memBits[l] = set
			}
			for pos := range bits {
				if set[pos] {
					delete(set, pos)
				} else {
					set[pos] = true
				}
			}
			if len(set) == 0 {
				delete(out.memBits, l)
			}
		}
	}
	for _, m := range out.regBits {
		out.n += bits.OnesCount64(m)
	}
	for _, set := range out.memBits {
		out.n += len(set)
	}
	return out
}

// window is one word the rewrite reads: a register, or a loadbits of a
// home's bits [lo, lo+width).
type window struct {
	l     leaf
	off   int // byte offset (memory)
	lo    int // bit within the byte window (memory)
	width int
	mask  uint64
}

// windows lists the words f reads, memory bits cut into loadbits windows.
func (p *parityBlock) windows(f pform) []window {
	var out []window
	regs := make([]leaf, 0, len(f.regBits))
	for l := range f.regBits {
		regs = append(regs, l)
	}
	slices.SortFunc(regs, func(a, b leaf) int { return int(a.reg) - int(b.reg) })
	for _, l := range regs {
		out = append(out, window{l: l, width: p.u.Width(l.reg), mask: f.regBits[l]})
	}
	homes := make([]leaf, 0, len(f.memBits))
	for l := range f.memBits {
		homes = append(homes, l)
	}
	slices.SortFunc(homes, func(a, b leaf) int { return int(a.home) - int(b.home) })
	for _, l := range homes {
		pos := make([]int, 0, len(f.memBits[l]))
		for q := range f.memBits[l] {
			pos = append(pos, q.pos)
		}
		slices.Sort(pos)
		for i := 0; i < len(pos); {
			start := pos[i]
			w := window{l: l, off: start / 8, lo: start % 8}
			for ; i < len(pos) && pos[i]-start+w.lo < 64; i++ {
				w.mask |= 1 << uint(pos[i]-start)
				w.width = pos[i] - start + 1
			}
			out = append(out, w)
		}
	}
	return out
}

// worth reports whether the rewrite (about three instructions a word and
// two at the end) beats the tree (an xor and a leaf per bit).
func (p *parityBlock) worth(f pform) bool {
	return f.n >= 4 && f.n > 3*len(p.windows(f))+2
}

// valid reports whether every leaf of f still holds its value.
func (p *parityBlock) valid(f pform) bool {
	for l := range f.regBits {
		if p.regVer[l.reg] != l.ver {
			return false
		}
	}
	for l, bits := range f.memBits {
		if p.homeVer[l.home] != l.homeVer {
			return false
		}
		for q := range bits {
			if p.byteVer[byteKey{l.home, q.pos / 8}] != q.ver {
				return false
			}
		}
	}
	return true
}

// emit appends the word form of f, its result in dst (the last
// instruction appended assigns dst).
func (p *parityBlock) emit(out []sir.Inst, dst sir.Reg, f pform) []sir.Inst {
	u := p.u
	var acc sir.Reg = sir.NoReg
	for _, w := range p.windows(f) {
		src := w.l.reg
		if w.l.mem {
			src = u.NewReg(w.width)
			out = append(out, sir.Inst{Op: sir.OpLoadBits, Dst: src, Addr: sir.Addr{Home: w.l.home, Offset: w.off}, Lo: w.lo})
		}
		width := u.Width(src)
		m := u.NewReg(width)
		out = append(out, sir.Inst{Op: sir.OpConst, Dst: m, Imm: w.mask})
		v := u.NewReg(width)
		out = append(out, sir.Inst{Op: sir.OpAnd, Dst: v, A: src, B: m})
		if width < 64 {
			z := u.NewReg(64)
			out = append(out, sir.Inst{Op: sir.OpZExt, Dst: z, A: v})
			v = z
		}
		if acc == sir.NoReg {
			acc = v
			continue
		}
		x := u.NewReg(64)
		out = append(out, sir.Inst{Op: sir.OpXor, Dst: x, A: acc, B: v})
		acc = x
	}
	cnt := u.NewReg(64)
	out = append(out, sir.Inst{Op: sir.OpPopCnt, Dst: cnt, A: acc})
	if f.inv == 0 {
		return append(out, sir.Inst{Op: sir.OpTrunc, Dst: dst, A: cnt})
	}
	bit := u.NewReg(1)
	one := u.NewReg(1)
	out = append(out, sir.Inst{Op: sir.OpTrunc, Dst: bit, A: cnt}, sir.Inst{Op: sir.OpConst, Dst: one, Imm: 1})
	return append(out, sir.Inst{Op: sir.OpXor, Dst: dst, A: bit, B: one})
}
