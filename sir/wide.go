package sir

// Values wider than 64 bits live in word tuples: []Reg, least significant
// word first, every word 64 bits wide except the last, which holds the
// remaining bits (a 100-bit value is a 64-bit and a 36-bit register). The
// helpers below emit the multi-word idioms the package documentation lists;
// they use only SIR ops (no calls), so a native backend needs nothing
// special for them. Operands of one helper have the same word layout.

// WideWidth is the total width of a word tuple.
func (b *Builder) WideWidth(x []Reg) int {
	n := 0
	for _, r := range x {
		n += b.Width(r)
	}
	return n
}

// AddWide returns x + y modulo 2^W (an addc/addco carry chain).
func (b *Builder) AddWide(x, y []Reg) []Reg {
	out := make([]Reg, len(x))
	c := b.Const(1, 0)
	for i := range x {
		out[i] = b.AddC(x[i], y[i], c)
		if i+1 < len(x) {
			c = b.AddCO(x[i], y[i], c)
		}
	}
	return out
}

// SubWide returns x - y modulo 2^W (a subb/subbo borrow chain).
func (b *Builder) SubWide(x, y []Reg) []Reg {
	out := make([]Reg, len(x))
	c := b.Const(1, 0)
	for i := range x {
		out[i] = b.SubB(x[i], y[i], c)
		if i+1 < len(x) {
			c = b.SubBO(x[i], y[i], c)
		}
	}
	return out
}

// ULtWide returns the 1-bit x < y (unsigned): the borrow out of x - y.
func (b *Builder) ULtWide(x, y []Reg) Reg {
	c := b.Const(1, 0)
	for i := range x {
		c = b.SubBO(x[i], y[i], c)
	}
	return c
}

// widen zero-extends every word to 64 bits.
func (b *Builder) widen(x []Reg) []Reg {
	out := make([]Reg, len(x))
	for i, r := range x {
		out[i] = b.ZExt(64, r)
	}
	return out
}

// narrow truncates 64-bit words back to the layout of like.
func (b *Builder) narrow(v, like []Reg) []Reg {
	out := make([]Reg, len(like))
	for i := range like {
		out[i] = b.Trunc(b.Width(like[i]), v[i])
	}
	return out
}

// MulWide returns x * y modulo 2^W (signed and unsigned products agree
// modulo 2^W): schoolbook multiplication with mul/mulhu on 64-bit words,
// carries detected with ult, unrolled: O(n^2) instructions for n words, so
// only for a few words (MulWideMem loops for wider ones).
func (b *Builder) MulWide(x, y []Reg) []Reg {
	n := len(x)
	X, Y := b.widen(x), b.widen(y)
	acc := make([]Reg, n)
	for k := range acc {
		acc[k] = b.Const(64, 0)
	}
	for i := 0; i < n; i++ {
		carry := b.Const(64, 0)
		for j := 0; i+j < n; j++ {
			k := i + j
			lo := b.Mul(X[i], Y[j])
			t := b.Add(acc[k], lo)
			c1 := b.ULt(t, lo)
			t2 := b.Add(t, carry)
			c2 := b.ULt(t2, carry)
			acc[k] = t2
			if k+1 < n {
				hi := b.Op(OpMulHiU, X[i], Y[j])
				carry = b.Add(b.Add(hi, b.ZExt(64, c1)), b.ZExt(64, c2))
			}
		}
	}
	return b.narrow(acc, x)
}

// negWide returns -v on 64-bit words holding an nbits-bit value.
func (b *Builder) negWide(v []Reg, nbits int) []Reg {
	zero := b.Const(64, 0)
	out := make([]Reg, len(v))
	c := b.Const(1, 0)
	for i := range v {
		out[i] = b.SubB(zero, v[i], c)
		c = b.SubBO(zero, v[i], c)
	}
	top := len(v) - 1
	out[top] = b.And(out[top], b.Const(64, Mask(nbits-64*top)))
	return out
}

func (b *Builder) muxWide(c Reg, t, f []Reg) []Reg {
	out := make([]Reg, len(t))
	for i := range t {
		out[i] = b.Mux(c, t[i], f[i])
	}
	return out
}

// The helpers below keep their operands in scratch memory (a state region
// the caller reserves and the helper may overwrite) and loop over it with
// indexed loads and stores, so their code is linear in the operand words,
// not quadratic: a 100,000-bit product unrolled would be millions of
// instructions. Scratch contents are dead once a helper returns. Each
// helper ends the current block with a branch into its loops; the builder
// continues in the block after them.

// array is one region of a helper's scratch: count elements of stride
// bytes from off.
type array struct {
	home               HomeID
	off, stride, count int
}

func (a array) at(i Reg) Addr {
	return Addr{Home: a.home, Offset: a.off, Index: i, Stride: a.stride, Count: a.count}
}

// word is the static address of 64-bit word i of the region.
func (a array) word(i int) Addr { return Addr{Home: a.home, Offset: a.off + 8*i} }

// inc adds 1 to the 64-bit register r.
func (b *Builder) inc(r Reg) { b.OpTo(r, OpAdd, r, b.Const(64, 1), NoReg) }

// dec subtracts 1 from the 64-bit register r.
func (b *Builder) dec(r Reg) { b.OpTo(r, OpSub, r, b.Const(64, 1), NoReg) }

// counter returns a fresh 64-bit register set to v.
func (b *Builder) counter(v Reg) Reg {
	r := b.Reg(64)
	b.CopyTo(r, v)
	return r
}

// digit loads 32-bit digit i of a as a 64-bit value.
func (b *Builder) digit(a array, i Reg) Reg { return b.ZExt(64, b.Load(32, 4, a.at(i))) }

// setDigit stores the low 32 bits of the 64-bit v as digit i of a.
func (b *Builder) setDigit(a array, i, v Reg) { b.Store(4, a.at(i), b.Trunc(32, v)) }

// MulWideScratch is the scratch memory, in bytes, MulWideMem needs for
// operands of n words.
func MulWideScratch(n int) int { return 24 * n }

// MulWideMem returns x * y modulo 2^W, as MulWide does, with a loop over
// the words in scratch memory: MulWideScratch(len(x)) bytes at the static
// address s. Its code is O(n) instructions where MulWide's is O(n^2); it
// runs at most n(n+1)/2 word products, skipping zero words of x and the
// words of y above its most significant nonzero one, so small values in
// wide registers cost O(n).
func (b *Builder) MulWideMem(x, y []Reg, s Addr) []Reg {
	n := len(x)
	X := array{s.Home, s.Offset, 8, n}
	Y := array{s.Home, s.Offset + 8*n, 8, n}
	P := array{s.Home, s.Offset + 16*n, 8, n}
	zero64, one64 := b.Const(64, 0), b.Const(64, 1)
	// mx, ny: the significant words of x and y.
	mx, ny := b.Const(64, 0), b.Const(64, 0)
	for i := range x {
		b.Store(8, X.word(i), x[i])
		b.Store(8, Y.word(i), y[i])
		b.Store(8, P.word(i), zero64)
		k := b.Const(64, uint64(i+1))
		mx = b.Mux(b.Ne(b.ZExt(64, x[i]), zero64), k, mx)
		ny = b.Mux(b.Ne(b.ZExt(64, y[i]), zero64), k, ny)
	}
	N := b.Const(64, uint64(n))
	i := b.counter(zero64)
	outer, row, inner, tail, next, done := b.NewBlock(), b.NewBlock(), b.NewBlock(), b.NewBlock(), b.NewBlock(), b.NewBlock()
	b.Branch(b.And(b.Ne(mx, zero64), b.Ne(ny, zero64)), outer, done)

	b.SetBlock(outer)
	xi := b.Load(64, 8, X.at(i))
	b.Branch(b.Eq(xi, zero64), next, row)

	b.SetBlock(row)
	// The row adds xi*y into P[i:]: min(ny, n-i) products, then the carry
	// into P[i+ny], which no earlier row has written (out of range when the
	// row reached the top word: the store is dropped).
	rest := b.Sub(N, i)
	lim := b.Mux(b.ULt(ny, rest), ny, rest)
	j, k, carry := b.counter(zero64), b.counter(i), b.counter(zero64)
	b.Jump(inner)

	b.SetBlock(inner)
	yj := b.Load(64, 8, Y.at(j))
	acc := b.Load(64, 8, P.at(k))
	lo := b.Mul(xi, yj)
	hi := b.Op(OpMulHiU, xi, yj)
	t := b.Add(acc, lo)
	c1 := b.ULt(t, lo)
	t2 := b.Add(t, carry)
	c2 := b.ULt(t2, carry)
	b.Store(8, P.at(k), t2)
	// xi*yj + acc + carry < 2^128, so the new carry fits in 64 bits.
	b.OpTo(carry, OpAddC, hi, b.ZExt(64, c1), c2)
	b.inc(j)
	b.inc(k)
	b.Branch(b.ULt(j, lim), inner, tail)

	b.SetBlock(tail)
	b.Store(8, P.at(k), carry)
	b.Jump(next)

	b.SetBlock(next)
	b.OpTo(i, OpAdd, i, one64, NoReg)
	b.Branch(b.ULt(i, mx), outer, done)

	b.SetBlock(done)
	out := make([]Reg, n)
	for i := range out {
		out[i] = b.Load(b.Width(x[i]), 8, P.word(i))
	}
	return out
}

// DivRemWideScratch is the scratch memory, in bytes, DivRemWide needs for
// operands of n words.
func DivRemWideScratch(n int) int { return 24*n + 8 }

// DivRemWide returns x / y and x % y with SystemVerilog semantics at the
// tuple's width W: truncating signed division when signed (remainder with
// the dividend's sign, MIN / -1 == MIN), and 0 for both when y == 0. The
// magnitudes are divided by Knuth's algorithm D on 32-bit digits (so that
// every partial quotient is a 64-by-32-bit divu) in scratch memory:
// DivRemWideScratch(len(x)) bytes at the static address s. Its code is
// O(n) instructions; it runs (m-k+1)·k digit steps for an m-digit
// dividend and a k-digit divisor (significant digits), at most (W/64)^2.
func (b *Builder) DivRemWide(x, y []Reg, signed bool, s Addr) (q, r []Reg) {
	n := len(x)
	N := b.WideWidth(x)
	X, Y := b.widen(x), b.widen(y)
	var sx, sy Reg
	if signed {
		sx = b.Extract(1, X[n-1], (N-1)%64)
		sy = b.Extract(1, Y[n-1], (N-1)%64)
		X = b.muxWide(sx, b.negWide(X, N), X)
		Y = b.muxWide(sy, b.negWide(Y, N), Y)
	}
	// Digits: U holds the dividend and, at the end, the remainder (2n
	// digits and room for the normalisation's extra one); V the divisor;
	// Q the quotient.
	D := 2 * n
	U := array{s.Home, s.Offset, 4, D + 2}
	V := array{s.Home, s.Offset + 8*n + 8, 4, D}
	Q := array{s.Home, s.Offset + 16*n + 8, 4, D}
	zero64, one64 := b.Const(64, 0), b.Const(64, 1)
	for i := 0; i < n; i++ {
		b.Store(8, U.word(i), X[i])
		b.Store(8, V.word(i), Y[i])
		b.Store(8, Q.word(i), zero64)
	}
	b.Store(8, U.word(n), zero64)

	end := b.NewBlock()
	nv := b.sigDigits(V, D)
	mu := b.sigDigits(U, D)
	div := b.NewBlock()
	// A zero divisor, or a dividend with fewer digits than the divisor:
	// Q = 0 and U already holds the remainder.
	b.Branch(b.Or(b.Eq(nv, zero64), b.ULt(mu, nv)), end, div)

	b.SetBlock(div)
	short, long := b.NewBlock(), b.NewBlock()
	b.Branch(b.Eq(nv, one64), short, long)

	b.SetBlock(short)
	b.shortDivision(U, V, Q, mu)
	b.Jump(end)

	b.SetBlock(long)
	b.longDivision(U, V, Q, mu, nv)
	b.Jump(end)

	b.SetBlock(end)
	Qw, Rw := make([]Reg, n), make([]Reg, n)
	for i := 0; i < n; i++ {
		Qw[i] = b.Load(64, 8, Q.word(i))
		Rw[i] = b.Load(64, 8, U.word(i))
	}
	if signed {
		Qw = b.muxWide(b.Xor(sx, sy), b.negWide(Qw, N), Qw)
		Rw = b.muxWide(sx, b.negWide(Rw, N), Rw)
	}
	any := Y[0]
	for _, w := range Y[1:] {
		any = b.Or(any, w)
	}
	yz := b.Eq(any, zero64)
	zeros := make([]Reg, n)
	for i := range zeros {
		zeros[i] = zero64
	}
	Qw = b.muxWide(yz, zeros, Qw)
	Rw = b.muxWide(yz, zeros, Rw)
	return b.narrow(Qw, x), b.narrow(Rw, x)
}

// sigDigits returns the number of digits of a's first d below its most
// significant nonzero one (0 for zero), scanning down from the top.
func (b *Builder) sigDigits(a array, d int) Reg {
	zero64 := b.Const(64, 0)
	cnt := b.counter(b.Const(64, uint64(d)))
	head, chk, step, done := b.NewBlock(), b.NewBlock(), b.NewBlock(), b.NewBlock()
	b.Jump(head)
	b.SetBlock(head)
	b.Branch(b.Ne(cnt, zero64), chk, done)
	b.SetBlock(chk)
	top := b.Load(32, 4, a.at(b.Sub(cnt, b.Const(64, 1))))
	b.Branch(b.Eq(top, b.Const(32, 0)), step, done)
	b.SetBlock(step)
	b.dec(cnt)
	b.Jump(head)
	b.SetBlock(done)
	return cnt
}

// shortDivision divides the mu-digit U by the one-digit V (nonzero): Q
// gets the quotient, U the remainder.
func (b *Builder) shortDivision(U, V, Q array, mu Reg) {
	zero64 := b.Const(64, 0)
	v := b.digit(V, zero64)
	rem := b.counter(zero64)
	j := b.counter(mu)
	loop, done := b.NewBlock(), b.NewBlock()
	b.Jump(loop)
	b.SetBlock(loop)
	b.dec(j)
	t := b.Or(b.Shl(rem, b.Const(64, 32)), b.digit(U, j))
	qd := b.Op(OpDivU, t, v)
	b.OpTo(rem, OpSub, t, b.Mul(qd, v), NoReg)
	b.setDigit(Q, j, qd)
	b.setDigit(U, j, zero64)
	b.Branch(b.Ne(j, zero64), loop, done)
	b.SetBlock(done)
	b.setDigit(U, zero64, rem)
}

// longDivision is Knuth's algorithm D (TAOCP 4.3.1; the form of Hacker's
// Delight's divmnu) for a divisor of nv >= 2 digits and a dividend of
// mu >= nv digits: Q gets the quotient, U the remainder.
func (b *Builder) longDivision(U, V, Q array, mu, nv Reg) {
	zero64, one64 := b.Const(64, 0), b.Const(64, 1)
	c32 := b.Const(64, 32)
	base := b.Const(64, 1<<32)
	low32 := b.Const(64, 0xffffffff)

	// D1: shift both so that the divisor's top digit has its top bit set;
	// U grows by a digit.
	sh := b.Conv(OpClz, 32, b.Load(32, 4, V.at(b.Sub(nv, one64))))
	b.normalize(V, nv, sh, false)
	b.normalize(U, mu, sh, true)
	vt := b.digit(V, b.Sub(nv, one64))
	vt2 := b.digit(V, b.Sub(nv, b.Const(64, 2)))

	j := b.counter(b.Add(b.Sub(mu, nv), one64))
	outer, adjust, test2, lower, msub, msubLoop, msubEnd, addBack, addLoop, addEnd, store, done :=
		b.NewBlock(), b.NewBlock(), b.NewBlock(), b.NewBlock(), b.NewBlock(), b.NewBlock(),
		b.NewBlock(), b.NewBlock(), b.NewBlock(), b.NewBlock(), b.NewBlock(), b.NewBlock()
	b.Jump(outer)

	// D3: estimate the quotient digit qhat from the top two digits and
	// correct it with the third (at most two steps).
	b.SetBlock(outer)
	b.dec(j)
	jn := b.Add(j, nv)
	num := b.Or(b.Shl(b.digit(U, jn), c32), b.digit(U, b.Sub(jn, one64)))
	qhat := b.counter(b.Op(OpDivU, num, vt))
	rhat := b.counter(b.Sub(num, b.Mul(qhat, vt)))
	u2 := b.digit(U, b.Sub(jn, b.Const(64, 2)))
	b.Jump(adjust)

	b.SetBlock(adjust)
	b.Branch(b.ULe(base, qhat), lower, test2)

	b.SetBlock(test2)
	// qhat < 2^32 and rhat < 2^32 here: neither side overflows.
	b.Branch(b.ULt(b.Or(b.Shl(rhat, c32), u2), b.Mul(qhat, vt2)), lower, msub)

	b.SetBlock(lower)
	b.dec(qhat)
	b.OpTo(rhat, OpAdd, rhat, vt, NoReg)
	b.Branch(b.ULt(rhat, base), adjust, msub)

	// D4: U[j:j+nv+1] -= qhat * V, with a signed borrow k.
	b.SetBlock(msub)
	i, ij, k := b.counter(zero64), b.counter(j), b.counter(zero64)
	b.Jump(msubLoop)
	b.SetBlock(msubLoop)
	p := b.Mul(qhat, b.digit(V, i))
	t := b.Sub(b.Sub(b.digit(U, ij), k), b.And(p, low32))
	b.setDigit(U, ij, t)
	b.OpTo(k, OpSub, b.LShr(p, c32), b.AShr(t, c32), NoReg)
	b.inc(i)
	b.inc(ij)
	b.Branch(b.ULt(i, nv), msubLoop, msubEnd)
	b.SetBlock(msubEnd)
	top := b.Sub(b.digit(U, jn), k)
	b.setDigit(U, jn, top)
	b.Branch(b.SLt(top, zero64), addBack, store)

	// D6: qhat was one too large (rare): add V back.
	b.SetBlock(addBack)
	b.dec(qhat)
	b.CopyTo(i, zero64)
	b.CopyTo(ij, j)
	b.CopyTo(k, zero64)
	b.Jump(addLoop)
	b.SetBlock(addLoop)
	sum := b.Add(b.Add(b.digit(U, ij), b.digit(V, i)), k)
	b.setDigit(U, ij, sum)
	b.OpTo(k, OpLShr, sum, c32, NoReg)
	b.inc(i)
	b.inc(ij)
	b.Branch(b.ULt(i, nv), addLoop, addEnd)
	b.SetBlock(addEnd)
	b.setDigit(U, jn, b.Add(b.digit(U, jn), k))
	b.Jump(store)

	b.SetBlock(store)
	b.setDigit(Q, j, qhat)
	b.Branch(b.Ne(j, zero64), outer, done)

	// D8: the remainder is U[0:nv] shifted back (U[nv:] is zero now).
	b.SetBlock(done)
	i = b.counter(zero64)
	un, unDone := b.NewBlock(), b.NewBlock()
	b.Jump(un)
	b.SetBlock(un)
	i1 := b.Add(i, one64)
	hiD := b.Load(32, 4, U.at(i1))
	loD := b.Load(32, 4, U.at(i))
	b.Store(4, U.at(i), b.Op(OpFShr, hiD, loD, sh))
	b.CopyTo(i, i1)
	b.Branch(b.ULt(i, nv), un, unDone)
	b.SetBlock(unDone)
}

// normalize shifts the d-digit number in a left by sh < 32 bits in place,
// top digit first; with grow, the bits shifted out of the top digit become
// digit d.
func (b *Builder) normalize(a array, d, sh Reg, grow bool) {
	zero64, one64 := b.Const(64, 0), b.Const(64, 1)
	i := b.counter(b.Sub(d, one64))
	if grow {
		b.Store(4, a.at(d), b.Op(OpFShl, b.Const(32, 0), b.Load(32, 4, a.at(i)), sh))
	}
	loop, last := b.NewBlock(), b.NewBlock()
	b.Branch(b.Ne(i, zero64), loop, last)
	b.SetBlock(loop)
	lo := b.Load(32, 4, a.at(b.Sub(i, one64)))
	b.Store(4, a.at(i), b.Op(OpFShl, b.Load(32, 4, a.at(i)), lo, sh))
	b.dec(i)
	b.Branch(b.Ne(i, zero64), loop, last)
	b.SetBlock(last)
	b.Store(4, a.at(zero64), b.Shl(b.Load(32, 4, a.at(zero64)), sh))
}

// ShiftWideScratch is the scratch memory, in bytes, ShiftWideMem needs for
// an operand of n words.
func ShiftWideScratch(n int) int { return 16 * n }

// ShiftWideMem shifts the word tuple x by the unsigned 64-bit amount amt:
// op is OpShl, OpLShr or OpAShr (x read as signed). Amounts >= W give 0
// (all sign bits for OpAShr). It loops over the words in scratch memory:
// ShiftWideScratch(len(x)) bytes at the static address s. Result word i is
// a funnel shift of source words i-k and i-k-1 (i+k and i+k+1 for right
// shifts), k = amt/64, read with dynamic loads whose out-of-range indexes
// give 0, so code and steps are O(n) where a barrel shifter's are
// O(n log n).
func (b *Builder) ShiftWideMem(op Op, x []Reg, amt Reg, s Addr) []Reg {
	n := len(x)
	N := b.WideWidth(x)
	X := array{s.Home, s.Offset, 8, n}
	R := array{s.Home, s.Offset + 8*n, 8, n}
	zero64, one64 := b.Const(64, 0), b.Const(64, 1)
	fill := zero64
	for i, r := range x {
		w := b.ZExt(64, r)
		if op == OpAShr && i == n-1 {
			w = b.Conv(OpSExt, 64, r)
			fill = b.AShr(w, b.Const(8, 63))
		}
		b.Store(8, X.word(i), w)
	}
	k := b.LShr(amt, b.Const(8, 6))
	sh := b.And(amt, b.Const(64, 63))
	nw := b.Const(64, uint64(n))
	i := b.counter(zero64)
	loop, done := b.NewBlock(), b.NewBlock()
	b.Jump(loop)
	b.SetBlock(loop)
	var r Reg
	if op == OpShl {
		hiIdx := b.Sub(i, k) // wraps past n when i < k: the load gives 0
		lo := b.Load(64, 8, X.at(b.Sub(hiIdx, one64)))
		r = b.Op(OpFShl, b.Load(64, 8, X.at(hiIdx)), lo, sh)
	} else {
		loIdx := b.Add(i, k)
		hiIdx := b.Add(loIdx, one64)
		lo := b.Load(64, 8, X.at(loIdx))
		hi := b.Load(64, 8, X.at(hiIdx))
		if op == OpAShr {
			lo = b.Mux(b.ULt(loIdx, nw), lo, fill)
			hi = b.Mux(b.ULt(hiIdx, nw), hi, fill)
		}
		r = b.Op(OpFShr, hi, lo, sh)
	}
	b.Store(8, R.at(i), r)
	b.inc(i)
	b.Branch(b.ULt(i, nw), loop, done)
	b.SetBlock(done)
	inRange := b.ULt(amt, b.Const(64, uint64(N)))
	out := make([]Reg, n)
	for i := range out {
		w := b.Width(x[i])
		out[i] = b.Mux(inRange, b.Load(w, 8, R.word(i)), b.Trunc(w, fill))
	}
	return out
}
