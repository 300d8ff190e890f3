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
// carries detected with ult.
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

// DivRemWide returns x / y and x % y with SystemVerilog semantics at the
// tuple's width W: truncating signed division when signed (remainder with
// the dividend's sign, MIN / -1 == MIN), and 0 for both when y == 0. It
// emits a bit-serial restoring division loop (W iterations of shift,
// trial subtract and select on ceil((W+1)/64) words): the current block
// ends with a jump into the loop, and the builder continues in the block
// after it.
func (b *Builder) DivRemWide(x, y []Reg, signed bool) (q, r []Reg) {
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
	m := (N + 1 + 63) / 64
	zero64, one64 := b.Const(64, 0), b.Const(64, 1)
	zero1, one1 := b.Const(1, 0), b.Const(1, 1)
	D := append(append([]Reg(nil), Y...), make([]Reg, m-n)...)
	for i := n; i < m; i++ {
		D[i] = zero64
	}
	A := make([]Reg, n) // dividend bits shift out of the top; quotient bits shift in
	for i := range A {
		A[i] = b.Reg(64)
		b.CopyTo(A[i], X[i])
	}
	R := make([]Reg, m)
	for i := range R {
		R[i] = b.Reg(64)
		b.ConstTo(R[i], 0)
	}
	cnt := b.Reg(32)
	b.ConstTo(cnt, uint64(N))
	loop, exit := b.NewBlock(), b.NewBlock()
	b.Jump(loop)

	b.SetBlock(loop)
	msb := b.ZExt(64, b.Extract(1, A[n-1], (N-1)%64))
	for i := m - 1; i > 0; i-- {
		b.OpTo(R[i], OpFShl, R[i], R[i-1], one64)
	}
	b.OpTo(R[0], OpShl, R[0], one64, NoReg)
	b.OpTo(R[0], OpOr, R[0], msb, NoReg)
	for i := n - 1; i > 0; i-- {
		b.OpTo(A[i], OpFShl, A[i], A[i-1], one64)
	}
	b.OpTo(A[0], OpShl, A[0], one64, NoReg)
	b.OpTo(A[n-1], OpAnd, A[n-1], b.Const(64, Mask(N-64*(n-1))), NoReg)
	T := make([]Reg, m)
	bor := zero1
	for i := 0; i < m; i++ {
		T[i] = b.SubB(R[i], D[i], bor)
		bor = b.SubBO(R[i], D[i], bor)
	}
	ge := b.Xor(bor, one1)
	for i := range R {
		b.OpTo(R[i], OpMux, ge, T[i], R[i])
	}
	b.OpTo(A[0], OpOr, A[0], b.ZExt(64, ge), NoReg)
	b.OpTo(cnt, OpSub, cnt, b.Const(32, 1), NoReg)
	b.Branch(b.Ne(cnt, b.Const(32, 0)), loop, exit)

	b.SetBlock(exit)
	Q, Rm := A, R[:n]
	if signed {
		Q = b.muxWide(b.Xor(sx, sy), b.negWide(Q, N), Q)
		Rm = b.muxWide(sx, b.negWide(Rm, N), Rm)
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
	Q = b.muxWide(yz, zeros, Q)
	Rm = b.muxWide(yz, zeros, Rm)
	return b.narrow(Q, x), b.narrow(Rm, x)
}
