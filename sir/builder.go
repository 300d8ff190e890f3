package sir

// Builder constructs a unit: it keeps a current block and appends to it.
// Methods that return a Reg allocate a fresh register for the result;
// the ...To forms assign an existing register (SIR registers may be assigned
// more than once, e.g. a variable set on both arms of an if). The builder
// does not validate: call Finish (or Check) when done.
type Builder struct {
	U   *Unit
	cur BlockID

	// limit > 0 bounds the instructions kept (SetLimit); emitted counts
	// every Emit, kept or not.
	limit, emitted int
	spare          [65]Reg // past the limit: one register per width, reused
}

// SetLimit bounds the instructions the unit may hold (0: none). Past it
// the builder drops what it is asked to emit and hands out one register
// per width again and again, so that a lowering which would build a huge
// unit runs on in bounded memory; Over reports it, and the unit is
// garbage (it fails Check).
func (b *Builder) SetLimit(n int) { b.limit = n }

// Emitted counts the instructions emitted so far, dropped ones included.
func (b *Builder) Emitted() int { return b.emitted }

// Over reports whether more instructions were emitted than the limit.
func (b *Builder) Over() bool { return b.limit > 0 && b.emitted > b.limit }

// NewBuilder starts a unit with an empty entry block b0 as the current block.
func NewBuilder(name string) *Builder {
	u := NewUnit(name)
	u.NewBlock()
	return &Builder{U: u}
}

// Finish checks the unit and returns it.
func (b *Builder) Finish() (*Unit, error) {
	if err := Check(b.U); err != nil {
		return nil, err
	}
	return b.U, nil
}

// Block is the current block.
func (b *Builder) Block() BlockID { return b.cur }

// NewBlock adds an empty block (the current block does not change).
func (b *Builder) NewBlock() BlockID { return b.U.NewBlock() }

// SetBlock makes id the current block.
func (b *Builder) SetBlock(id BlockID) { b.cur = id }

// Reg allocates a register of width w.
func (b *Builder) Reg(w int) Reg {
	if b.Over() && w >= 1 && w <= 64 {
		if b.spare[w] == NoReg {
			b.spare[w] = b.U.NewReg(w)
		}
		return b.spare[w]
	}
	return b.U.NewReg(w)
}

// Width is the width of r.
func (b *Builder) Width(r Reg) int { return b.U.Width(r) }

// Emit appends in to the current block.
func (b *Builder) Emit(in Inst) {
	b.emitted++
	if b.Over() {
		return
	}
	blk := b.U.Blocks[b.cur]
	blk.Insts = append(blk.Insts, in)
}

// resultWidth is the natural result width of op on its operands.
func (b *Builder) resultWidth(op Op, x, y Reg) int {
	switch {
	case op.IsCompare(), op == OpAddCO, op == OpSubBO:
		return 1
	case op == OpMux:
		return b.Width(y)
	}
	return b.Width(x)
}

// OpTo emits dst = op x, y, z (unused operands NoReg).
func (b *Builder) OpTo(dst Reg, op Op, x, y, z Reg) {
	b.Emit(Inst{Op: op, Dst: dst, A: x, B: y, C: z})
}

// Op emits op on up to three operands into a new register of the op's
// natural width (1 for comparisons and carries, the width of B for mux, the
// width of A otherwise).
func (b *Builder) Op(op Op, args ...Reg) Reg {
	var r [3]Reg
	copy(r[:], args)
	d := b.Reg(b.resultWidth(op, r[0], r[1]))
	b.OpTo(d, op, r[0], r[1], r[2])
	return d
}

// Const returns a new w-bit register holding v (masked to w bits).
func (b *Builder) Const(w int, v uint64) Reg {
	d := b.Reg(w)
	b.ConstTo(d, v)
	return d
}

// ConstTo assigns v (masked to dst's width) to dst.
func (b *Builder) ConstTo(dst Reg, v uint64) {
	b.Emit(Inst{Op: OpConst, Dst: dst, Imm: v & Mask(b.Width(dst))})
}

// CopyTo assigns src to dst (same width).
func (b *Builder) CopyTo(dst, src Reg) { b.OpTo(dst, OpCopy, src, NoReg, NoReg) }

func (b *Builder) Copy(x Reg) Reg        { return b.Op(OpCopy, x) }
func (b *Builder) Add(x, y Reg) Reg      { return b.Op(OpAdd, x, y) }
func (b *Builder) Sub(x, y Reg) Reg      { return b.Op(OpSub, x, y) }
func (b *Builder) Mul(x, y Reg) Reg      { return b.Op(OpMul, x, y) }
func (b *Builder) And(x, y Reg) Reg      { return b.Op(OpAnd, x, y) }
func (b *Builder) Or(x, y Reg) Reg       { return b.Op(OpOr, x, y) }
func (b *Builder) Xor(x, y Reg) Reg      { return b.Op(OpXor, x, y) }
func (b *Builder) Not(x Reg) Reg         { return b.Op(OpNot, x) }
func (b *Builder) Neg(x Reg) Reg         { return b.Op(OpNeg, x) }
func (b *Builder) Shl(x, n Reg) Reg      { return b.Op(OpShl, x, n) }
func (b *Builder) LShr(x, n Reg) Reg     { return b.Op(OpLShr, x, n) }
func (b *Builder) AShr(x, n Reg) Reg     { return b.Op(OpAShr, x, n) }
func (b *Builder) Eq(x, y Reg) Reg       { return b.Op(OpEq, x, y) }
func (b *Builder) Ne(x, y Reg) Reg       { return b.Op(OpNe, x, y) }
func (b *Builder) ULt(x, y Reg) Reg      { return b.Op(OpULt, x, y) }
func (b *Builder) ULe(x, y Reg) Reg      { return b.Op(OpULe, x, y) }
func (b *Builder) SLt(x, y Reg) Reg      { return b.Op(OpSLt, x, y) }
func (b *Builder) Mux(c, t, f Reg) Reg   { return b.Op(OpMux, c, t, f) }
func (b *Builder) AddC(x, y, c Reg) Reg  { return b.Op(OpAddC, x, y, c) }
func (b *Builder) AddCO(x, y, c Reg) Reg { return b.Op(OpAddCO, x, y, c) }
func (b *Builder) SubB(x, y, c Reg) Reg  { return b.Op(OpSubB, x, y, c) }
func (b *Builder) SubBO(x, y, c Reg) Reg { return b.Op(OpSubBO, x, y, c) }

// Conv emits a width-changing unary op (zext, sext, trunc, popcnt, clz)
// into a new w-bit register.
func (b *Builder) Conv(op Op, w int, x Reg) Reg {
	d := b.Reg(w)
	b.OpTo(d, op, x, NoReg, NoReg)
	return d
}

// ZExt zero-extends x to w bits (a copy when x already has w bits).
func (b *Builder) ZExt(w int, x Reg) Reg {
	if b.Width(x) == w {
		return x
	}
	return b.Conv(OpZExt, w, x)
}

// Trunc keeps the low w bits of x (x itself when it has w bits).
func (b *Builder) Trunc(w int, x Reg) Reg {
	if b.Width(x) == w {
		return x
	}
	return b.Conv(OpTrunc, w, x)
}

// Extract returns bits [lo, lo+w) of x.
func (b *Builder) Extract(w int, x Reg, lo int) Reg {
	d := b.Reg(w)
	b.Emit(Inst{Op: OpExtract, Dst: d, A: x, Lo: lo})
	return d
}

// Insert returns x with bits [lo, lo+width(y)) replaced by y.
func (b *Builder) Insert(x, y Reg, lo int) Reg {
	d := b.Reg(b.Width(x))
	b.Emit(Inst{Op: OpInsert, Dst: d, A: x, B: y, Lo: lo})
	return d
}

// Load reads size bytes at a into a new w-bit register.
func (b *Builder) Load(w, size int, a Addr) Reg {
	d := b.Reg(w)
	b.Emit(Inst{Op: OpLoad, Dst: d, Size: size, Addr: a})
	return d
}

// Store writes x (zero-extended) to size bytes at a.
func (b *Builder) Store(size int, a Addr, x Reg) {
	b.Emit(Inst{Op: OpStore, A: x, Size: size, Addr: a})
}

// LoadBits reads w bits at bit offset lo from a.
func (b *Builder) LoadBits(w int, a Addr, lo int) Reg {
	d := b.Reg(w)
	b.Emit(Inst{Op: OpLoadBits, Dst: d, Addr: a, Lo: lo})
	return d
}

// StoreBits writes x to bits [lo, lo+width(x)) from a.
func (b *Builder) StoreBits(a Addr, lo int, x Reg) {
	b.Emit(Inst{Op: OpStoreBits, A: x, Addr: a, Lo: lo})
}

// Event appends a runtime event.
func (b *Builder) Event(ev *Event) { b.Emit(Inst{Op: OpEvent, Ev: ev}) }

// Jump ends the current block with a jump.
func (b *Builder) Jump(to BlockID) { b.U.Blocks[b.cur].Term = Term{Kind: TermJump, Then: to} }

// Branch ends the current block with a branch on the 1-bit c.
func (b *Builder) Branch(c Reg, then, els BlockID) {
	b.U.Blocks[b.cur].Term = Term{Kind: TermBranch, Cond: c, Then: then, Else: els}
}

// Return ends the current block with ret s.
func (b *Builder) Return(s Status) { b.U.Blocks[b.cur].Term = Term{Kind: TermReturn, Status: s} }
