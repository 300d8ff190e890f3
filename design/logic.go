package design

import (
	"fmt"
	"math/big"
	"math/bits"
	"strconv"
	"strings"
)

// This file folds constants with x and z bits exactly as IEEE 1800-2017
// clause 11 defines the four-state operators. A four-state constant is three
// bit sets (Const.Val, Unknown.XZ, Unknown.Z), so every operator is a few
// whole-word big.Int operations on them: a 10^6-bit constant folds in time
// linear in its width, not a loop over its bits (only FormatBinary, which
// writes a digit a bit, visits each). When no operand has an x or z bit the
// result is exactly the 2-state one of eval.go, so adding four states
// changes nothing for code that never writes x or z.
//
// A z bit reaching an operator behaves as x and operators never produce z;
// only moving bits (selects, shifts, concatenation, replication, extension,
// truncation, the chosen arm of ?:) and the identity tests (===, case
// matching) keep z apart from x.

// Bit4 is one four-state bit.
type Bit4 uint8

// The four values of a Bit4.
const (
	B0 Bit4 = iota
	B1
	BX
	BZ
)

// fourZero is a shared zero, read only: it stands for an absent x or z set.
var fourZero = new(big.Int)

// NewConst4 builds a constant of type t from value bits, x/z mask and z mask
// (any of xz, z may be nil), masking to t.Width and normalizing (Val has 0
// where XZ; Z ⊆ XZ; U nil when no x/z bit), so that every other function
// here may rely on that form. at is U.At.
func NewConst4(t Type, val, xz, z *big.Int, at Pos) *Const {
	w := t.Width
	if val == nil {
		val = fourZero
	}
	v := Mask(val, w)
	var xzm, zm *big.Int
	if xz != nil && xz.Sign() != 0 {
		xzm = Mask(xz, w)
	}
	if z != nil && z.Sign() != 0 {
		zm = Mask(z, w)
		if zm.Sign() == 0 {
			zm = nil
		} else if xzm == nil {
			xzm = zm
		} else {
			// A bit marked z is z whether or not xz marks it too.
			xzm = new(big.Int).Or(xzm, zm)
		}
	}
	if xzm == nil || xzm.Sign() == 0 {
		return &Const{T: t, Val: v}
	}
	if new(big.Int).And(v, xzm).Sign() != 0 {
		v = new(big.Int).AndNot(v, xzm)
	}
	return &Const{T: t, Val: v, U: &Unknown{XZ: xzm, Z: zm, At: at}}
}

// Known reports whether c has no x or z bit; such a constant is exactly its
// 2-state Val.
func (c *Const) Known() bool {
	return c.U == nil || c.U.XZ == nil || c.U.XZ.Sign() == 0
}

// XZBits returns the bits of c that are x or z, as a fresh big.Int that the
// caller may modify (a copy, so a caller cannot corrupt the constant).
func (c *Const) XZBits() *big.Int {
	if c.Known() {
		return new(big.Int)
	}
	return new(big.Int).Set(c.U.XZ)
}

// ZBits returns the bits of c that are z, as a fresh big.Int (see XZBits).
func (c *Const) ZBits() *big.Int {
	if c.Known() || c.U.Z == nil {
		return new(big.Int)
	}
	return new(big.Int).And(c.U.Z, c.U.XZ)
}

// fourParts returns c's value bits, x/z bits and z bits in normal form
// (value 0 where x/z, z ⊆ x/z) even for a Const built by hand rather than by
// NewConst4. The results are shared and must not be modified.
func (c *Const) fourParts() (v, xz, z *big.Int) {
	if c.Known() {
		return c.Val, fourZero, fourZero
	}
	xz = c.U.XZ
	v = c.Val
	if new(big.Int).And(v, xz).Sign() != 0 {
		v = new(big.Int).AndNot(v, xz)
	}
	z = fourZero
	if c.U.Z != nil && c.U.Z.Sign() != 0 {
		z = new(big.Int).And(c.U.Z, xz)
	}
	return v, xz, z
}

// fourAt is the position a result made from xs names: that of the first
// operand with an x or z bit.
func fourAt(xs ...*Const) Pos {
	for _, x := range xs {
		if !x.Known() {
			return x.U.At
		}
	}
	return Pos{}
}

// fourAllX is the all-x value of type t: the result of an arithmetic
// operator with an x or z operand.
func fourAllX(t Type, at Pos) *Const {
	return NewConst4(t, nil, Ones(t.Width), nil, at)
}

// fourBit is the 1-bit result b of a comparison or logical operator, in bit
// 0 of type t (t is 1 bit wide by the operators' invariants). BX and BZ
// both give x: an operator never produces z.
func fourBit(t Type, b Bit4, at Pos) *Const {
	switch b {
	case B0:
		return NewConst(t, new(big.Int))
	case B1:
		return NewConst(t, big.NewInt(1))
	}
	return NewConst4(t, nil, big.NewInt(1), nil, at)
}

// fourNot is the logical negation of a truth value: x (or z) stays x.
func fourNot(b Bit4) Bit4 {
	switch b {
	case B0:
		return B1
	case B1:
		return B0
	}
	return BX
}

// fourPopcount is the number of 1 bits of a non-negative v.
func fourPopcount(v *big.Int) int {
	n := 0
	for _, w := range v.Bits() {
		n += bits.OnesCount(uint(w))
	}
	return n
}

// FoldUnary computes op on x giving type t with IEEE 1800's four-state
// rules; on a known x it is exactly EvalUnary.
func FoldUnary(op UnOp, x *Const, t Type) *Const {
	if x.Known() {
		return NewConst(t, EvalUnary(op, x.Val, x.T, t))
	}
	v, xz, _ := x.fourParts()
	at := x.U.At
	switch op {
	case OpNeg:
		return fourAllX(t, at)
	case OpNot:
		// The known 0 bits become 1; x and z both give x.
		notZero := new(big.Int).Or(v, xz)
		return NewConst4(t, new(big.Int).AndNot(Ones(t.Width), notZero), xz, nil, at)
	case OpLogNot:
		return fourBit(t, fourNot(Truth(x)), at)
	case OpRedAnd, OpRedNand:
		// x has an x bit, so the result is 0 (a known 0 bit) or x.
		r := BX
		if new(big.Int).Or(v, xz).Cmp(Ones(x.T.Width)) != 0 {
			r = B0
		}
		if op == OpRedNand {
			r = fourNot(r)
		}
		return fourBit(t, r, at)
	case OpRedOr, OpRedNor:
		r := BX
		if v.Sign() != 0 {
			r = B1
		}
		if op == OpRedNor {
			r = fourNot(r)
		}
		return fourBit(t, r, at)
	case OpRedXor, OpRedXnor:
		return fourBit(t, BX, at)
	}
	panic(fmt.Sprintf("design: unknown unary op %d", op))
}

// FoldBinary computes x op y giving type t with IEEE 1800's four-state
// rules; when both operands are known it is exactly EvalBinary (weft's
// 2-state choices such as x/0 == 0 included).
func FoldBinary(op BinOp, x, y *Const, t Type) *Const {
	if x.Known() && y.Known() {
		return NewConst(t, EvalBinary(op, x.Val, x.T, y.Val, y.T, t))
	}
	at := fourAt(x, y)
	xv, xxz, xzs := x.fourParts()
	yv, yxz, _ := y.fourParts()
	switch op {
	case OpAdd, OpSub, OpMul, OpDiv, OpMod, OpPow:
		return fourAllX(t, at)
	case OpAnd:
		// 1 where both are 1, 0 where either is a known 0, else x.
		rxz := new(big.Int).Or(xxz, yxz)
		rxz.And(rxz, new(big.Int).Or(xv, xxz))
		rxz.And(rxz, new(big.Int).Or(yv, yxz))
		return NewConst4(t, new(big.Int).And(xv, yv), rxz, nil, at)
	case OpOr:
		// 1 where either is a known 1, 0 where both are 0, else x.
		one := new(big.Int).Or(xv, yv)
		rxz := new(big.Int).Or(xxz, yxz)
		return NewConst4(t, one, rxz.AndNot(rxz, one), nil, at)
	case OpXor, OpXnor:
		r := new(big.Int).Xor(xv, yv)
		if op == OpXnor {
			r.AndNot(Ones(t.Width), r)
		}
		return NewConst4(t, r, new(big.Int).Or(xxz, yxz), nil, at)
	case OpShl, OpShr, OpAShr:
		if !y.Known() {
			return fourAllX(t, at)
		}
		return fourShift(op, xv, xxz, xzs, x.Bit(t.Width-1), y.Val, t, at)
	case OpEq, OpNe:
		r := fourEq(x, y)
		if op == OpNe {
			r = fourNot(r)
		}
		return fourBit(t, r, at)
	case OpLt, OpLe, OpGt, OpGe:
		return fourBit(t, BX, at)
	}
	panic(fmt.Sprintf("design: unknown binary op %d", op))
}

// fourShift shifts the value bits v, x/z bits xz and z bits z of a w-bit
// value together by the known amount amt, as EvalBinary shifts the value:
// vacated bits are 0, or copies of the sign bit (which may be x or z) for an
// arithmetic shift of a signed type; an amount >= w shifts everything out.
func fourShift(op BinOp, v, xz, z *big.Int, sign Bit4, amt *big.Int, t Type, at Pos) *Const {
	w := t.Width
	n := w
	if amt.IsInt64() && amt.Int64() < int64(w) {
		n = int(amt.Int64())
	}
	move := func(b *big.Int) *big.Int {
		if b.Sign() == 0 {
			return new(big.Int)
		}
		if op == OpShl {
			return Mask(new(big.Int).Lsh(b, uint(n)), w)
		}
		return new(big.Int).Rsh(b, uint(n))
	}
	rv, rxz, rz := move(v), move(xz), move(z)
	if op == OpAShr && t.Signed && n > 0 && sign != B0 {
		fill := new(big.Int).Lsh(Ones(n), uint(w-n))
		switch sign {
		case B1:
			rv.Or(rv, fill)
		case BX:
			rxz.Or(rxz, fill)
		case BZ:
			rxz.Or(rxz, fill)
			rz.Or(rz, fill)
		}
	}
	return NewConst4(t, rv, rxz, rz, at)
}

// fourEq is x == y (IEEE 1800 11.4.5): 0 when some bit is known in both
// and differs, else x when either has an x or z bit, else 1. Operands of
// different types are first extended, each by its own signedness, to a
// common width with room for the sign, which is how EvalBinary compares
// them.
func fourEq(x, y *Const) Bit4 {
	if x.T != y.T {
		w := max(x.T.Width, y.T.Width) + 1
		x = FoldExtend(x, x.T.Signed, Type{Width: w})
		y = FoldExtend(y, y.T.Signed, Type{Width: w})
	}
	xv, xxz, _ := x.fourParts()
	yv, yxz, _ := y.fourParts()
	unknown := new(big.Int).Or(xxz, yxz)
	differ := new(big.Int).Xor(xv, yv)
	if differ.AndNot(differ, unknown).Sign() != 0 {
		return B0
	}
	if unknown.Sign() != 0 {
		return BX
	}
	return B1
}

// FoldCaseEq is x === y: the bits are identical, x and z included (x and y
// have the same width; were they not, the bits above the narrower read 0).
func FoldCaseEq(x, y *Const) bool {
	xv, xxz, xz := x.fourParts()
	yv, yxz, yz := y.fourParts()
	return xv.Cmp(yv) == 0 && xxz.Cmp(yxz) == 0 && xz.Cmp(yz) == 0
}

// FoldWildEq is x ==? y (IEEE 1800 11.4.6), a 1-bit unsigned 0, 1 or x: the
// x and z bits of y match anything; of the other bits, a known mismatch
// gives 0, else an x or z bit of x gives x, else 1.
func FoldWildEq(x, y *Const) *Const {
	xv, xxz, _ := x.fourParts()
	yv, yxz, _ := y.fourParts()
	care := new(big.Int).Or(xxz, yxz)
	diff := new(big.Int).Xor(xv, yv)
	if diff.AndNot(diff, care).Sign() != 0 {
		return fourBit(Bit, B0, Pos{})
	}
	if new(big.Int).AndNot(xxz, yxz).Sign() != 0 {
		return fourBit(Bit, BX, x.U.At)
	}
	return fourBit(Bit, B1, Pos{})
}

// FoldCond is c ? a : b with a and b of type t. A known truth value of c
// picks an arm whole (its z bits stay z); an x one merges the arms bit by
// bit (IEEE 1800 11.4.11 table 11-21): bits known and equal in both are
// kept, every other bit is x (z in both arms gives x too).
func FoldCond(c, a, b *Const, t Type) *Const {
	switch Truth(c) {
	case B1:
		return fourRetype(a, t)
	case B0:
		return fourRetype(b, t)
	}
	av, axz, _ := a.fourParts()
	bv, bxz, _ := b.fourParts()
	differ := new(big.Int).Xor(av, bv)
	differ.Or(differ, axz)
	differ.Or(differ, bxz)
	return NewConst4(t, new(big.Int).AndNot(av, differ), differ, nil, c.U.At)
}

// fourRetype is x as a value of type t, keeping its x and z bits.
func fourRetype(x *Const, t Type) *Const {
	if x.Known() {
		return NewConst(t, x.Val)
	}
	v, xz, z := x.fourParts()
	return NewConst4(t, v, xz, z, x.U.At)
}

// FoldExtend widens x to t.Width bits, sign-extending when signExt (an x or
// z sign bit extends as x or z bits) and zero-extending otherwise; with
// t.Width == x's width it only relabels the signedness (a narrower t
// truncates). On a known x it is exactly EvalExtend.
func FoldExtend(x *Const, signExt bool, t Type) *Const {
	if x.Known() {
		return NewConst(t, EvalExtend(x.Val, x.T, signExt, t))
	}
	v, xz, z := x.fourParts()
	w := x.T.Width
	if signExt && t.Width > w {
		fill := new(big.Int).Lsh(Ones(t.Width-w), uint(w))
		switch x.Bit(w - 1) {
		case B1:
			v = new(big.Int).Or(v, fill)
		case BX:
			xz = new(big.Int).Or(xz, fill)
		case BZ:
			xz = new(big.Int).Or(xz, fill)
			z = new(big.Int).Or(z, fill)
		}
	}
	return NewConst4(t, v, xz, z, x.U.At)
}

// FoldTrunc keeps the low t.Width bits of x, x and z bits included.
func FoldTrunc(x *Const, t Type) *Const {
	return fourRetype(x, t)
}

// FoldSlice is the t.Width bits of x from bit lsb (lsb >= 0) up, x and z
// bits included; bits at offsets >= x's width read 0, weft's convention for
// an out-of-range select of a constant.
func FoldSlice(x *Const, lsb int, t Type) *Const {
	if x.Known() {
		return NewConst(t, new(big.Int).Rsh(x.Val, uint(lsb)))
	}
	v, xz, z := x.fourParts()
	return NewConst4(t, new(big.Int).Rsh(v, uint(lsb)), new(big.Int).Rsh(xz, uint(lsb)),
		new(big.Int).Rsh(z, uint(lsb)), x.U.At)
}

// FoldConcat is {parts[0], parts[1], ...} (parts[0] most significant), an
// unsigned value of the parts' total width with their x and z bits.
func FoldConcat(parts []*Const) *Const {
	n := len(parts)
	vals, xzs, zs, widths := make([]*big.Int, n), make([]*big.Int, n), make([]*big.Int, n), make([]int, n)
	total := 0
	for i, p := range parts {
		vals[i], xzs[i], zs[i] = p.fourParts()
		widths[i] = p.T.Width
		total += p.T.Width
	}
	t := Type{Width: total}
	val := ConcatBits(vals, widths)
	for _, p := range parts {
		if !p.Known() {
			return NewConst4(t, val, ConcatBits(xzs, widths), ConcatBits(zs, widths), p.U.At)
		}
	}
	return NewConst(t, val)
}

// FoldRepl is {n{x}}: n >= 1 copies of x side by side, unsigned, with x's x
// and z bits in every copy.
func FoldRepl(x *Const, n int) *Const {
	w := x.T.Width
	t := Type{Width: w * n}
	if x.Known() {
		return NewConst(t, ReplicateBits(x.Val, w, n))
	}
	v, xz, z := x.fourParts()
	return NewConst4(t, ReplicateBits(v, w, n), ReplicateBits(xz, w, n), ReplicateBits(z, w, n), x.U.At)
}

// CaseMatch reports whether a case item label matches the selector (IEEE
// 1800 12.5.1): case compares with ===; casez ignores the bits that are z
// (or ?) in either; casex ignores the bits that are x or z in either; case
// inside (12.5.4) matches when sel ==? label is 1, so the label's x and z
// bits are wildcards and an x result does not match.
func CaseMatch(kind CaseKind, sel, label *Const) bool {
	switch kind {
	case CaseEq:
		return FoldCaseEq(sel, label)
	case CaseInside:
		return Truth(FoldWildEq(sel, label)) == B1
	case CaseZ, CaseX:
		sv, sxz, sz := sel.fourParts()
		lv, lxz, lz := label.fourParts()
		var ignore *big.Int
		if kind == CaseZ {
			ignore = new(big.Int).Or(sz, lz)
		} else {
			ignore = new(big.Int).Or(sxz, lxz)
		}
		diff := new(big.Int).Xor(sv, lv)
		diff.Or(diff, new(big.Int).Xor(sxz, lxz))
		diff.Or(diff, new(big.Int).Xor(sz, lz))
		return diff.AndNot(diff, ignore).Sign() == 0
	}
	panic(fmt.Sprintf("design: unknown case kind %d", kind))
}

// Truth is c's truth value as a condition reads it: B1 when some bit is a
// known 1, B0 when every bit is a known 0, else BX.
func Truth(c *Const) Bit4 {
	if c.Known() {
		if c.Val.Sign() != 0 {
			return B1
		}
		return B0
	}
	if v, _, _ := c.fourParts(); v.Sign() != 0 {
		return B1
	}
	return BX
}

// Bit returns bit i of c (0 = lsb); bits outside 0..width-1 read 0, as an
// out-of-range select does.
func (c *Const) Bit(i int) Bit4 {
	if i < 0 || i >= c.T.Width {
		return B0
	}
	if !c.Known() && c.U.XZ.Bit(i) == 1 {
		if c.U.Z != nil && c.U.Z.Bit(i) == 1 {
			return BZ
		}
		return BX
	}
	return Bit4(c.Val.Bit(i))
}

// CountBits4 is $countbits(c, ...): the number of bits of c equal to any of
// the selected values (0, 1, x, z).
func CountBits4(c *Const, zeros, ones, xs, zs bool) int {
	v, xz, z := c.fourParts()
	n1, nxz, nz := fourPopcount(v), fourPopcount(xz), fourPopcount(z)
	n := 0
	if zeros {
		n += c.T.Width - n1 - nxz
	}
	if ones {
		n += n1
	}
	if xs {
		n += nxz - nz
	}
	if zs {
		n += nz
	}
	return n
}

// FormatBinary writes c as a sized binary literal, such as 4'b1x0z (most
// significant digit first), for messages that show an x or z bit.
func FormatBinary(c *Const) string {
	w := c.T.Width
	var sb strings.Builder
	sb.Grow(w + 24)
	sb.WriteString(strconv.Itoa(w))
	sb.WriteString("'b")
	for i := w - 1; i >= 0; i-- {
		sb.WriteByte("01xz"[c.Bit(i)])
	}
	return sb.String()
}
