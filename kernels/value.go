package kernels

import (
	"math/big"
	"math/bits"

	"github.com/weft-hdl/weft/sir"
)

// value is a lowered SystemVerilog value of width bits: a word tuple in
// SIR's convention (least significant word first, every word 64 bits but
// the last, which holds the remaining bits; each register canonical).
type value struct {
	w     []sir.Reg
	width int
}

func nwords(width int) int { return (width + 63) / 64 }

// wordWidth is the width of word i of a width-bit tuple.
func wordWidth(width, i int) int { return min(64, width-64*i) }

// one returns the single register of a value of at most 64 bits.
func (v value) one() sir.Reg { return v.w[0] }

// vb wraps the sir.Builder with value-level operations.
type vb struct {
	b *sir.Builder
	// scratch returns the address of at least n bytes of state the wide
	// multiply, divide and shift loops may overwrite.
	scratch func(n int) sir.Addr
}

func (x *vb) single(r sir.Reg) value { return value{w: []sir.Reg{r}, width: x.b.Width(r)} }

// constBig returns a width-bit constant (v is masked).
func (x *vb) constBig(width int, v *big.Int) value {
	n := nwords(width)
	out := value{w: make([]sir.Reg, n), width: width}
	ws := v.Bits()
	for i := 0; i < n; i++ {
		var word uint64
		if bits.UintSize == 64 {
			if i < len(ws) {
				word = uint64(ws[i])
			}
		} else {
			if 2*i < len(ws) {
				word = uint64(ws[2*i])
			}
			if 2*i+1 < len(ws) {
				word |= uint64(ws[2*i+1]) << 32
			}
		}
		out.w[i] = x.b.Const(wordWidth(width, i), word)
	}
	return out
}

// constU returns a width-bit constant holding v (masked) in the low word.
func (x *vb) constU(width int, v uint64) value {
	n := nwords(width)
	out := value{w: make([]sir.Reg, n), width: width}
	for i := 0; i < n; i++ {
		var word uint64
		if i == 0 {
			word = v
		}
		out.w[i] = x.b.Const(wordWidth(width, i), word)
	}
	return out
}

func (x *vb) zero(width int) value { return x.constU(width, 0) }

// ones returns a width-bit all-ones value.
func (x *vb) ones(width int) value {
	n := nwords(width)
	out := value{w: make([]sir.Reg, n), width: width}
	for i := range out.w {
		out.w[i] = x.b.Const(wordWidth(width, i), ^uint64(0))
	}
	return out
}

// resize zero-extends or truncates v to width bits.
func (x *vb) resize(v value, width int) value {
	if width >= v.width {
		return x.zext(v, width)
	}
	return x.trunc(v, width)
}

// zext zero-extends v to width >= v.width bits.
func (x *vb) zext(v value, width int) value {
	if width == v.width {
		return v
	}
	n := nwords(width)
	out := value{w: make([]sir.Reg, n), width: width}
	copy(out.w, v.w)
	top := len(v.w) - 1
	out.w[top] = x.b.ZExt(wordWidth(width, top), v.w[top])
	for i := len(v.w); i < n; i++ {
		out.w[i] = x.b.Const(wordWidth(width, i), 0)
	}
	return out
}

// sext sign-extends v to width >= v.width bits.
func (x *vb) sext(v value, width int) value {
	if width == v.width {
		return v
	}
	n := nwords(width)
	out := value{w: make([]sir.Reg, n), width: width}
	copy(out.w, v.w)
	top := len(v.w) - 1
	tw := wordWidth(width, top)
	out.w[top] = x.b.Conv(sir.OpSExt, tw, v.w[top])
	if len(v.w) < n {
		// fill words: all sign bits of the old top word
		top64 := x.b.Conv(sir.OpSExt, 64, v.w[top])
		fill := x.b.AShr(top64, x.b.Const(8, 63))
		for i := len(v.w); i < n; i++ {
			out.w[i] = x.b.Trunc(wordWidth(width, i), fill)
		}
	}
	return out
}

// trunc keeps the low width <= v.width bits.
func (x *vb) trunc(v value, width int) value {
	if width == v.width {
		return v
	}
	n := nwords(width)
	out := value{w: append([]sir.Reg(nil), v.w[:n]...), width: width}
	out.w[n-1] = x.b.Trunc(wordWidth(width, n-1), v.w[n-1])
	return out
}

// word64 returns word i of v zero-extended to 64 bits (0 beyond the value).
func (x *vb) word64(v value, i int) sir.Reg {
	if i < 0 || i >= len(v.w) {
		return x.b.Const(64, 0)
	}
	return x.b.ZExt(64, v.w[i])
}

// extract returns bits [lo, lo+width) of v; bits at or above v.width read 0.
func (x *vb) extract(v value, lo, width int) value {
	if lo == 0 && width == v.width {
		return v
	}
	if lo >= v.width {
		return x.zero(width)
	}
	if lo+width > v.width {
		return x.zext(x.extract(v, lo, v.width-lo), width)
	}
	n := nwords(width)
	out := value{w: make([]sir.Reg, n), width: width}
	for j := 0; j < n; j++ {
		cw := wordWidth(width, j)
		p := lo + 64*j
		q, off := p/64, p%64
		qw := wordWidth(v.width, q)
		switch {
		case off == 0 && cw == qw:
			out.w[j] = v.w[q]
		case off+cw <= qw:
			out.w[j] = x.b.Extract(cw, v.w[q], off)
		default:
			// spans words q and q+1
			r := x.b.Reg(64)
			x.b.OpTo(r, sir.OpFShr, x.word64(v, q+1), x.word64(v, q), x.b.Const(8, uint64(off)))
			out.w[j] = x.b.Trunc(cw, r)
		}
	}
	return out
}

// insert returns v with bits [lo, lo+y.width) replaced by y (bits beyond
// v.width dropped).
func (x *vb) insert(v value, lo int, y value) value {
	if lo >= v.width {
		return v
	}
	if lo+y.width > v.width {
		y = x.trunc(y, v.width-lo)
	}
	if lo == 0 && y.width == v.width {
		return y
	}
	out := value{w: append([]sir.Reg(nil), v.w...), width: v.width}
	x.insertAt(out, lo, y)
	return out
}

// insertAt is insert into v's own words (lo+y.width <= v.width): callers
// that insert many times into one fresh value copy it once, not each time.
func (x *vb) insertAt(v value, lo int, y value) {
	for q := lo / 64; q <= (lo+y.width-1)/64; q++ {
		qw := wordWidth(v.width, q)
		a := max(lo, 64*q) - 64*q
		e := min(lo+y.width, 64*q+qw) - 64*q
		piece := x.extract(y, 64*q+a-lo, e-a)
		if a == 0 && e == qw {
			v.w[q] = piece.one()
		} else {
			v.w[q] = x.b.Insert(v.w[q], piece.one(), a)
		}
	}
}

// bitwise applies op word by word.
func (x *vb) bitwise(op sir.Op, a, c value) value {
	out := value{w: make([]sir.Reg, len(a.w)), width: a.width}
	for i := range a.w {
		out.w[i] = x.b.Op(op, a.w[i], c.w[i])
	}
	return out
}

func (x *vb) not(a value) value {
	out := value{w: make([]sir.Reg, len(a.w)), width: a.width}
	for i := range a.w {
		out.w[i] = x.b.Not(a.w[i])
	}
	return out
}

func (x *vb) add(a, c value) value {
	if len(a.w) == 1 {
		return x.single(x.b.Add(a.one(), c.one()))
	}
	return value{w: x.b.AddWide(a.w, c.w), width: a.width}
}

func (x *vb) sub(a, c value) value {
	if len(a.w) == 1 {
		return x.single(x.b.Sub(a.one(), c.one()))
	}
	return value{w: x.b.SubWide(a.w, c.w), width: a.width}
}

func (x *vb) neg(a value) value {
	if len(a.w) == 1 {
		return x.single(x.b.Neg(a.one()))
	}
	return x.sub(x.zero(a.width), a)
}

// mulUnrolled is the widest product, in words, lowered unrolled
// (sir.Builder.MulWide: about 5n^2 instructions, no loop overhead); wider
// ones loop in scratch memory.
const mulUnrolled = 8

func (x *vb) mul(a, c value) value {
	n := len(a.w)
	switch {
	case n == 1:
		return x.single(x.b.Mul(a.one(), c.one()))
	case n <= mulUnrolled:
		return value{w: x.b.MulWide(a.w, c.w), width: a.width}
	}
	return value{w: x.b.MulWideMem(a.w, c.w, x.scratch(sir.MulWideScratch(n))), width: a.width}
}

// divrem returns a / c and a % c (SystemVerilog semantics; 0 for c == 0).
func (x *vb) divrem(a, c value, signed bool) (q, r value) {
	if len(a.w) == 1 {
		if signed {
			return x.single(x.b.Op(sir.OpDivS, a.one(), c.one())), x.single(x.b.Op(sir.OpRemS, a.one(), c.one()))
		}
		return x.single(x.b.Op(sir.OpDivU, a.one(), c.one())), x.single(x.b.Op(sir.OpRemU, a.one(), c.one()))
	}
	qw, rw := x.b.DivRemWide(a.w, c.w, signed, x.scratch(sir.DivRemWideScratch(len(a.w))))
	return value{w: qw, width: a.width}, value{w: rw, width: a.width}
}

// mux returns cond ? t : f (cond is 1 bit).
func (x *vb) mux(cond sir.Reg, t, f value) value {
	out := value{w: make([]sir.Reg, len(t.w)), width: t.width}
	for i := range t.w {
		out.w[i] = x.b.Mux(cond, t.w[i], f.w[i])
	}
	return out
}

// nonzero returns the 1-bit "v != 0".
func (x *vb) nonzero(v value) sir.Reg {
	if v.width == 1 {
		return v.one()
	}
	if len(v.w) == 1 {
		return x.b.Ne(v.one(), x.b.Const(v.width, 0))
	}
	acc := x.word64(v, 0)
	for i := 1; i < len(v.w); i++ {
		acc = x.b.Or(acc, x.word64(v, i))
	}
	return x.b.Ne(acc, x.b.Const(64, 0))
}

func (x *vb) isZero(v value) sir.Reg { return x.b.Xor(x.nonzero(v), x.b.Const(1, 1)) }

func (x *vb) eq(a, c value) sir.Reg {
	if len(a.w) == 1 {
		return x.b.Eq(a.one(), c.one())
	}
	return x.isZero(x.bitwise(sir.OpXor, a, c))
}

// allOnes returns the 1-bit "v == all ones".
func (x *vb) allOnes(v value) sir.Reg {
	var acc sir.Reg
	for i, r := range v.w {
		e := x.b.Eq(r, x.b.Const(wordWidth(v.width, i), ^uint64(0)))
		if acc == sir.NoReg {
			acc = e
		} else {
			acc = x.b.And(acc, e)
		}
	}
	return acc
}

// flipSign xors the sign bit (for signed compares as unsigned).
func (x *vb) flipSign(v value) value {
	out := value{w: append([]sir.Reg(nil), v.w...), width: v.width}
	t := len(v.w) - 1
	tw := wordWidth(v.width, t)
	out.w[t] = x.b.Xor(v.w[t], x.b.Const(tw, 1<<uint(tw-1)))
	return out
}

// lt returns the 1-bit a < c.
func (x *vb) lt(a, c value, signed bool) sir.Reg {
	if len(a.w) == 1 {
		if signed {
			return x.b.SLt(a.one(), c.one())
		}
		return x.b.ULt(a.one(), c.one())
	}
	if signed {
		a, c = x.flipSign(a), x.flipSign(c)
	}
	return x.b.ULtWide(a.w, c.w)
}

func (x *vb) lnot(r sir.Reg) sir.Reg { return x.b.Xor(r, x.b.Const(1, 1)) }

// amount64 converts a shift amount (any width, unsigned) to a 64-bit
// register; amounts that do not fit become all ones (>= any width).
func (x *vb) amount64(n value) sir.Reg {
	lo := x.word64(n, 0)
	if len(n.w) == 1 {
		return lo
	}
	hi := x.nonzero(value{w: n.w[1:], width: n.width - 64})
	return x.b.Mux(hi, x.b.Const(64, ^uint64(0)), lo)
}

// widen64 returns every word of v zero-extended (or, for the top word,
// sign-extended when signExt) to 64 bits.
func (x *vb) widen64(v value, signExt bool) []sir.Reg {
	out := make([]sir.Reg, len(v.w))
	for i, r := range v.w {
		if signExt && i == len(v.w)-1 {
			out[i] = x.b.Conv(sir.OpSExt, 64, r)
		} else {
			out[i] = x.b.ZExt(64, r)
		}
	}
	return out
}

// narrow64 truncates 64-bit words to the layout of a width-bit value.
func (x *vb) narrow64(ws []sir.Reg, width int) value {
	out := value{w: make([]sir.Reg, nwords(width)), width: width}
	for i := range out.w {
		out.w[i] = x.b.Trunc(wordWidth(width, i), ws[i])
	}
	return out
}

// shiftUnrolled is the widest value, in words, shifted by a barrel of
// muxes (n log n instructions, no loop); wider ones loop in scratch
// memory (sir.Builder.ShiftWideMem).
const shiftUnrolled = 16

// shift shifts v by the unsigned amount n: op is OpShl, OpLShr or OpAShr.
// Amounts >= v.width give 0 (all sign bits for OpAShr).
func (x *vb) shift(op sir.Op, v value, n value) value {
	amt := x.amount64(n)
	if len(v.w) == 1 {
		return x.single(x.b.Op(op, v.one(), amt))
	}
	b := x.b
	W := v.width
	nw := len(v.w)
	if nw > shiftUnrolled {
		return value{w: b.ShiftWideMem(op, v.w, amt, x.scratch(sir.ShiftWideScratch(nw))), width: W}
	}
	ws := x.widen64(v, op == sir.OpAShr)
	var fill sir.Reg
	if op == sir.OpAShr {
		fill = b.AShr(ws[nw-1], b.Const(8, 63))
	} else {
		fill = b.Const(64, 0)
	}
	k := b.LShr(amt, b.Const(8, 6))
	s := b.And(amt, b.Const(64, 63))
	// word shift by k (barrel over k's bits; k < nw when amt < W)
	for j := 0; 1<<uint(j) < nw; j++ {
		step := 1 << uint(j)
		bit := b.Extract(1, k, j)
		next := make([]sir.Reg, nw)
		for i := 0; i < nw; i++ {
			var src sir.Reg
			if op == sir.OpShl {
				if i-step >= 0 {
					src = ws[i-step]
				} else {
					src = b.Const(64, 0)
				}
			} else {
				if i+step < nw {
					src = ws[i+step]
				} else {
					src = fill
				}
			}
			next[i] = b.Mux(bit, src, ws[i])
		}
		ws = next
	}
	// bit shift by s
	res := make([]sir.Reg, nw)
	for i := 0; i < nw; i++ {
		r := b.Reg(64)
		if op == sir.OpShl {
			lower := b.Const(64, 0)
			if i > 0 {
				lower = ws[i-1]
			}
			b.OpTo(r, sir.OpFShl, ws[i], lower, s)
		} else {
			upper := fill
			if i+1 < nw {
				upper = ws[i+1]
			}
			b.OpTo(r, sir.OpFShr, upper, ws[i], s)
		}
		res[i] = r
	}
	out := x.narrow64(res, W)
	inRange := b.ULt(amt, b.Const(64, uint64(W)))
	var big value
	if op == sir.OpAShr {
		big = x.narrow64(repeat(fill, nw), W)
	} else {
		big = x.zero(W)
	}
	return x.mux(inRange, out, big)
}

func repeat(r sir.Reg, n int) []sir.Reg {
	out := make([]sir.Reg, n)
	for i := range out {
		out[i] = r
	}
	return out
}

// popcount returns the number of 1 bits of v in a width-bit value.
func (x *vb) popcount(v value, width int) value {
	var acc sir.Reg
	for _, r := range v.w {
		p := x.b.Conv(sir.OpPopCnt, 64, r)
		if acc == sir.NoReg {
			acc = p
		} else {
			acc = x.b.Add(acc, p)
		}
	}
	return x.resize(x.single(acc), width)
}

// parity returns the 1-bit xor of all bits of v.
func (x *vb) parity(v value) sir.Reg {
	acc := x.word64(v, 0)
	for i := 1; i < len(v.w); i++ {
		acc = x.b.Xor(acc, x.word64(v, i))
	}
	return x.b.Conv(sir.OpPopCnt, 1, acc)
}

// bitlen returns the number of significant bits of v (0 for 0) as a
// 64-bit register.
func (x *vb) bitlen(v value) sir.Reg {
	b := x.b
	res := b.Const(64, 0)
	for i, r := range v.w {
		wi := wordWidth(v.width, i)
		clz := b.Conv(sir.OpClz, 64, r)
		bl := b.Sub(b.Const(64, uint64(64*i+wi)), clz)
		res = b.Mux(b.Ne(r, b.Const(wi, 0)), bl, res)
	}
	return res
}

// repl returns n copies of v side by side.
func (x *vb) repl(v value, n int) value {
	width := v.width * n
	if v.width == 1 {
		return x.mux(v.one(), x.ones(width), x.zero(width))
	}
	// A narrow value repeats with a period of lcm(v.width, 64) bits, whole
	// words: build one period and reuse its words.
	if period := v.width / gcd(v.width, 64) * 64; v.width <= 64 && period < width {
		head := x.repl(v, period/v.width)
		p := len(head.w)
		out := value{w: make([]sir.Reg, nwords(width)), width: width}
		for i := range out.w {
			out.w[i] = x.b.Trunc(wordWidth(width, i), head.w[i%p])
		}
		return out
	}
	out := x.zero(width)
	for i := 0; i < n; i++ {
		x.insertAt(out, i*v.width, v)
	}
	return out
}

func gcd(a, b int) int {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}
