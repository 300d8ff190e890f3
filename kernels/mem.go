package kernels

import (
	"github.com/weft-hdl/weft/design"
	"github.com/weft-hdl/weft/sir"
	"github.com/weft-hdl/weft/statelayout"
)

// memRef is a storage object addressed as elems elements of width bits
// (the statelayout encoding: es bytes per element).
type memRef struct {
	id        sir.HomeID
	es, elems int
	width     int
	home      *design.Home // the design home (template home for function arrays)
}

func (u *ub) memOf(h *design.Home) memRef {
	if h.Kind == design.KindFuncLocal {
		o := u.c.funcScratch[h]
		if o == nil {
			o = u.c.sp.AddScratch("$fn."+h.Path, statelayout.ElemSize(h.Width), h.Elems())
			u.c.funcScratch[h] = o
		}
		return memRef{id: o.ID, es: o.ElemSize, elems: o.Elems, width: h.Width, home: h}
	}
	o := u.c.sp.Home(h)
	return memRef{id: o.ID, es: o.ElemSize, elems: o.Elems, width: h.Width, home: h}
}

// with returns m addressing another object of the same encoding.
func (m memRef) with(id sir.HomeID) memRef { m.id = id; return m }

// addr is the address of element elem (static) or idx (dynamic, when not
// NoReg; out of range when >= elems).
func (m memRef) addr(elem int, idx sir.Reg) sir.Addr {
	if idx != sir.NoReg {
		return sir.Addr{Home: m.id, Index: idx, Stride: m.es, Count: m.elems}
	}
	return sir.Addr{Home: m.id, Offset: elem * m.es}
}

func plus(a sir.Addr, k int) sir.Addr { a.Offset += k; return a }

// loadElem reads a whole element of width bits.
func (u *ub) loadElem(a sir.Addr, width, es int) value {
	if width <= 64 {
		return u.single(u.b.Load(width, es, a))
	}
	v := value{w: make([]sir.Reg, nwords(width)), width: width}
	for i := range v.w {
		v.w[i] = u.b.Load(wordWidth(width, i), 8, plus(a, 8*i))
	}
	return v
}

// storeElem writes a whole element (v has the element's width).
func (u *ub) storeElem(a sir.Addr, v value, es int) {
	if v.width <= 64 {
		u.b.Store(es, a, v.one())
		return
	}
	for i, r := range v.w {
		u.b.Store(8, plus(a, 8*i), r)
	}
}

// loadField reads bits [lo, lo+n) of the element at a.
func (u *ub) loadField(a sir.Addr, lo, n int) value {
	v := value{w: make([]sir.Reg, nwords(n)), width: n}
	for j := range v.w {
		cw := wordWidth(n, j)
		p := lo + 64*j
		v.w[j] = u.loadChunk(a, p, cw)
	}
	return v
}

// loadChunk reads cw <= 64 bits at bit p from a.
func (u *ub) loadChunk(a sir.Addr, p, cw int) sir.Reg {
	b := u.b
	byteOff, bit := p/8, p%8
	at := plus(a, byteOff)
	if bit == 0 && (cw == 8 || cw == 16 || cw == 32 || cw == 64) {
		return b.Load(cw, cw/8, at)
	}
	if bit+cw <= 64 {
		return b.LoadBits(cw, at, bit)
	}
	lw := 64 - bit
	low := b.LoadBits(lw, at, bit)
	high := b.LoadBits(cw-lw, plus(at, 8), 0)
	return b.Insert(b.ZExt(cw, low), high, lw)
}

// storeField writes v (n bits) to bits [lo, lo+n) of the element at a.
func (u *ub) storeField(a sir.Addr, lo int, v value) {
	for j, r := range v.w {
		u.storeChunk(a, lo+64*j, r)
	}
}

func (u *ub) storeChunk(a sir.Addr, p int, r sir.Reg) {
	b := u.b
	cw := b.Width(r)
	byteOff, bit := p/8, p%8
	at := plus(a, byteOff)
	if bit == 0 && (cw == 8 || cw == 16 || cw == 32 || cw == 64) {
		b.Store(cw/8, at, r)
		return
	}
	if bit+cw <= 64 {
		b.StoreBits(at, bit, r)
		return
	}
	lw := 64 - bit
	b.StoreBits(at, bit, b.Trunc(lw, r))
	b.StoreBits(plus(at, 8), 0, b.Extract(cw-lw, r, lw))
}

// unrollWords is the longest copy or compare (in 8-byte words) emitted as
// straight-line code: a loop costs a counter, an index check and a
// back-edge budget per word, so straight-line code is about three times
// faster, at two instructions a word.
const unrollWords = 64

// copyBytes copies n bytes from (src, off) to (dst, off) — two objects of
// the same encoding — unrolled for short ranges, in a loop otherwise.
func (u *ub) copyBytes(src, dst sir.HomeID, off, n int) {
	b := u.b
	words := n / 8
	if words > unrollWords {
		u.countedLoop(words, func(i sir.Reg) {
			r := b.Load(64, 8, sir.Addr{Home: src, Offset: off, Index: i, Stride: 8, Count: words})
			b.Store(8, sir.Addr{Home: dst, Offset: off, Index: i, Stride: 8, Count: words}, r)
		})
		off += 8 * words
		n -= 8 * words
	}
	for n > 0 {
		sz := 8
		for sz > n {
			sz /= 2
		}
		r := b.Load(8*sz, sz, sir.Addr{Home: src, Offset: off})
		b.Store(sz, sir.Addr{Home: dst, Offset: off}, r)
		off += sz
		n -= sz
	}
}

// diffBytes returns a 1-bit register: whether n bytes at (x, off) and
// (y, off2) differ.
func (u *ub) diffBytes(x sir.HomeID, off int, y sir.HomeID, off2, n int) sir.Reg {
	b := u.b
	acc := b.Reg(1)
	b.ConstTo(acc, 0)
	words := n / 8
	if words > unrollWords {
		u.countedLoop(words, func(i sir.Reg) {
			p := b.Load(64, 8, sir.Addr{Home: x, Offset: off, Index: i, Stride: 8, Count: words})
			q := b.Load(64, 8, sir.Addr{Home: y, Offset: off2, Index: i, Stride: 8, Count: words})
			b.OpTo(acc, sir.OpOr, acc, b.Ne(p, q), sir.NoReg)
		})
		off += 8 * words
		off2 += 8 * words
		n -= 8 * words
	}
	for n > 0 {
		sz := 8
		for sz > n {
			sz /= 2
		}
		p := b.Load(8*sz, sz, sir.Addr{Home: x, Offset: off})
		q := b.Load(8*sz, sz, sir.Addr{Home: y, Offset: off2})
		b.OpTo(acc, sir.OpOr, acc, b.Ne(p, q), sir.NoReg)
		off += sz
		off2 += sz
		n -= sz
	}
	return acc
}

// copyAccess copies the bits of access a from object src to object dst
// (both with a's home encoding).
func (u *ub) copyAccess(a design.Access, src, dst sir.HomeID) {
	m := u.memOf(a.Home)
	W := a.Home.Width
	n := a.ElemHi - a.ElemLo + 1
	if a.Dynamic || (a.Lo == 0 && a.Hi == W-1) {
		lo, hi := a.ElemLo, a.ElemHi
		if a.Dynamic {
			lo, hi = 0, m.elems-1
		}
		u.copyBytes(src, dst, lo*m.es, (hi-lo+1)*m.es)
		return
	}
	field := func(sa, da sir.Addr) {
		v := u.loadField(sa, a.Lo, a.Hi-a.Lo+1)
		u.storeField(da, a.Lo, v)
	}
	if n <= 16 {
		for e := a.ElemLo; e <= a.ElemHi; e++ {
			field(m.with(src).addr(e, sir.NoReg), m.with(dst).addr(e, sir.NoReg))
		}
		return
	}
	u.countedLoop(n, func(i sir.Reg) {
		sa := sir.Addr{Home: src, Offset: a.ElemLo * m.es, Index: i, Stride: m.es, Count: n}
		da := sir.Addr{Home: dst, Offset: a.ElemLo * m.es, Index: i, Stride: m.es, Count: n}
		field(sa, da)
	})
}
