package kernels

import (
	"github.com/weft-hdl/weft/design"
	"github.com/weft-hdl/weft/sir"
)

// loc is a resolved reference: a register variable or an element of a
// storage object, and a bit window inside it.
type loc struct {
	none bool    // constant out-of-range address: reads 0, writes nothing
	rv   *regVar // register variable (else memory)
	mem  memRef
	elem int     // static element (memory)
	idx  sir.Reg // dynamic flattened element index (NoReg: static)
	W    int     // element (or variable) width

	// Bit window: static bits [lo, lo+n) (n may be 0: nothing), or, when
	// dyn, offset off (64-bit) and write mask mask (W bits).
	dyn   bool
	lo, n int
	off   sir.Reg
	mask  value
}

// elemIndex resolves the element of an array reference: static (elem),
// dynamic (idx, >= elems when out of range) or none (constant out of
// range).
func (u *ub) elemIndex(e *design.ElemRef) (elem int, idx sir.Reg, none bool) {
	h := e.Home
	allConst := true
	flat := 0
	for i, ix := range e.Index {
		size := h.Unpacked[i].Size()
		v, ok := design.ConstUint(ix)
		if !ok {
			if _, isc := ix.(*design.Const); isc {
				return 0, sir.NoReg, true // a huge constant
			}
			allConst = false
			break
		}
		if v >= size {
			return 0, sir.NoReg, true
		}
		flat = flat*size + v
	}
	if allConst {
		return flat, sir.NoReg, false
	}
	b := u.b
	elems := h.Elems()
	if len(e.Index) == 1 {
		v := u.expr(e.Index[0])
		if len(v.w) == 1 {
			return 0, v.one(), false
		}
		return 0, u.amount64(v), false
	}
	ok := b.Const(1, 1)
	acc := b.Const(64, 0)
	for i, ix := range e.Index {
		size := h.Unpacked[i].Size()
		k := u.amount64(u.expr(ix))
		ok = b.And(ok, b.ULt(k, b.Const(64, uint64(size))))
		acc = b.Add(b.Mul(acc, b.Const(64, uint64(size))), k)
	}
	return 0, b.Mux(ok, acc, b.Const(64, uint64(elems))), false
}

// resolve evaluates the address of an lvalue chain (HomeRef, ElemRef,
// Slice). Concatenations are split by the caller.
func (u *ub) resolve(lv design.Expr) *loc {
	switch e := lv.(type) {
	case *design.HomeRef:
		if v := u.vars[e.Home]; v != nil {
			return &loc{rv: v, W: v.width, n: v.width}
		}
		m := u.memOf(e.Home)
		return &loc{mem: m, W: m.width, n: m.width}
	case *design.ElemRef:
		m := u.memOf(e.Home)
		elem, idx, none := u.elemIndex(e)
		return &loc{none: none, mem: m, elem: elem, idx: idx, W: m.width, n: m.width}
	case *design.Slice:
		l := u.resolve(e.X)
		if l.none {
			return l
		}
		T := e.T.Width
		if c, ok := design.ConstUint(e.Lsb); ok && !l.dyn {
			if c >= l.n {
				l.n = 0
				return l
			}
			l.lo += c
			l.n = min(T, l.n-c)
			return l
		}
		// dynamic window: off' = off + lsb, mask' = mask & (ones(T) << off')
		b := u.b
		if !l.dyn {
			l.dyn = true
			l.off = b.Const(64, uint64(l.lo))
			if l.n == 0 {
				l.mask = u.zero(l.W)
			} else {
				l.mask = u.insert(u.zero(l.W), l.lo, u.ones(l.n))
			}
		}
		lsb := u.amount64(u.expr(e.Lsb))
		lsb = b.Mux(b.ULt(lsb, b.Const(64, 1<<32)), lsb, b.Const(64, 1<<32))
		l.off = b.Add(l.off, lsb)
		m := u.shift(sir.OpShl, u.resize(u.ones(T), l.W), u.single(l.off))
		l.mask = u.bitwise(sir.OpAnd, l.mask, m)
		return l
	}
	u.c.fail("cannot assign to %T", lv)
	return &loc{none: true}
}

// staticRead reports whether reading e can use a direct field load: a
// reference chain to memory with constant bit offsets.
func (u *ub) staticRead(e design.Expr) bool {
	switch e := e.(type) {
	case *design.HomeRef:
		_, snapped := u.snap[e.Home]
		return u.vars[e.Home] == nil && !e.Home.IsArray() && !snapped
	case *design.ElemRef:
		return true
	case *design.Slice:
		if _, ok := design.ConstUint(e.Lsb); !ok {
			return false
		}
		return u.staticRead(e.X)
	}
	return false
}

// read loads the window of a static (non-dyn) location as an n-bit value
// (nil-width 0 windows are the caller's business).
func (u *ub) readLoc(l *loc) value {
	if l.rv != nil {
		return u.extract(l.rv.value(), l.lo, l.n)
	}
	a := l.mem.addr(l.elem, l.idx)
	if l.lo == 0 && l.n == l.W {
		return u.loadElem(a, l.W, l.mem.es)
	}
	return u.loadField(a, l.lo, l.n)
}

// write stores v (any width; the low bits that fit the window are used)
// to l. nb selects the non-blocking path (staging copy or slot) in an
// evaluate unit.
func (u *ub) write(l *loc, v value, nb bool) {
	if l.none || (!l.dyn && l.n == 0) {
		return
	}
	if l.rv != nil {
		cur := l.rv.value()
		if l.dyn {
			u.setVar(l.rv, u.merge(cur, v, l))
		} else {
			u.setVar(l.rv, u.insert(cur, l.lo, u.resize(v, l.n)))
		}
		return
	}
	m := l.mem
	if nb && u.mode == modeEval && m.home != nil && m.home.Kind != design.KindFuncLocal && !u.c.inPlace[m.home] {
		if st := u.c.sp.Staging(m.home); st != nil {
			m = m.with(st.ID)
		} else if u.grp != nil && u.c.sparse[u.grp.index][m.home] {
			u.siteWrite(l, v)
			return
		}
	}
	a := m.addr(l.elem, l.idx)
	if l.dyn {
		old := u.loadElem(a, l.W, m.es)
		u.storeElem(a, u.merge(old, v, l), m.es)
		return
	}
	if l.lo == 0 && l.n == l.W {
		u.storeElem(a, u.resize(v, l.W), m.es)
		return
	}
	u.storeField(a, l.lo, u.resize(v, l.n))
}

// merge returns old with the bits of the dynamic window of l replaced by
// v: (old &^ mask) | ((v << off) & mask).
func (u *ub) merge(old, v value, l *loc) value {
	sh := u.shift(sir.OpShl, u.resize(v, l.W), u.single(l.off))
	keep := u.bitwise(sir.OpAnd, old, u.not(l.mask))
	return u.bitwise(sir.OpOr, keep, u.bitwise(sir.OpAnd, sh, l.mask))
}

// lvalueParts flattens a concatenation lvalue into its parts, most
// significant first.
func lvalueParts(lv design.Expr, out []design.Expr) []design.Expr {
	if c, ok := lv.(*design.Concat); ok {
		for _, p := range c.Parts {
			out = lvalueParts(p, out)
		}
		return out
	}
	return append(out, lv)
}

// assignTo writes v to an lvalue (splitting concatenations: all addresses
// are resolved before any part is written).
func (u *ub) assignTo(lv design.Expr, v value, nb bool) {
	parts := lvalueParts(lv, nil)
	locs := make([]*loc, len(parts))
	for i, p := range parts {
		locs[i] = u.resolve(p)
	}
	shift := 0
	for i := len(parts) - 1; i >= 0; i-- {
		w := parts[i].Type().Width
		u.write(locs[i], u.extract(v, shift, w), nb)
		shift += w
	}
}
