package sir

import "math/bits"

// Mask is the mask of the low w bits (w in 0..64).
func Mask(w int) uint64 {
	if w >= 64 {
		return ^uint64(0)
	}
	return uint64(1)<<uint(w) - 1
}

// SignExtend reads the low w bits of v (1 <= w <= 64) as a signed number.
func SignExtend(v uint64, w int) int64 {
	s := uint(64 - w)
	return int64(v<<s) >> s
}

// Eval computes a pure ALU op on canonical operands: w is the width of Dst,
// aw and bw the widths of A and B, lo the Lo field, imm the Imm field. The
// result is canonical (masked to w bits). It is the single definition of
// SIR's arithmetic: the interpreter and constant folding both call it, and
// native backends are tested against it. Eval panics on ops that are not
// Evaluable.
func Eval(op Op, w, aw, bw, lo int, imm, a, b, c uint64) uint64 {
	m := Mask(w)
	switch op {
	case OpConst:
		return imm & m
	case OpCopy, OpZExt:
		return a & m
	case OpAdd:
		return (a + b) & m
	case OpSub:
		return (a - b) & m
	case OpMul:
		return (a * b) & m
	case OpMulHiU:
		hi, lo := bits.Mul64(a, b)
		return highHalf(hi, lo, w)
	case OpMulHiS:
		sa, sb := SignExtend(a, w), SignExtend(b, w)
		hi, lo := bits.Mul64(uint64(sa), uint64(sb))
		if sa < 0 {
			hi -= uint64(sb)
		}
		if sb < 0 {
			hi -= uint64(sa)
		}
		return highHalf(hi, lo, w)
	case OpDivU:
		if b == 0 {
			return 0
		}
		return a / b
	case OpRemU:
		if b == 0 {
			return 0
		}
		return a % b
	case OpDivS:
		if b == 0 {
			return 0
		}
		return uint64(SignExtend(a, w)/SignExtend(b, w)) & m // Go: MIN / -1 == MIN
	case OpRemS:
		if b == 0 {
			return 0
		}
		return uint64(SignExtend(a, w)%SignExtend(b, w)) & m // Go: MIN % -1 == 0
	case OpAddC:
		return (a + b + c&1) & m
	case OpAddCO:
		if aw == 64 {
			_, carry := bits.Add64(a, b, c&1)
			return carry
		}
		return (a + b + c&1) >> uint(aw) & 1
	case OpSubB:
		return (a - b - c&1) & m
	case OpSubBO:
		if aw == 64 {
			_, borrow := bits.Sub64(a, b, c&1)
			return borrow
		}
		if a < b+c&1 {
			return 1
		}
		return 0
	case OpAnd:
		return a & b
	case OpOr:
		return a | b
	case OpXor:
		return a ^ b
	case OpNot:
		return ^a & m
	case OpNeg:
		return -a & m
	case OpShl:
		if b >= uint64(w) {
			return 0
		}
		return a << b & m
	case OpLShr:
		if b >= uint64(w) {
			return 0
		}
		return a >> b
	case OpAShr:
		if b >= uint64(w) {
			b = uint64(w - 1)
		}
		return uint64(SignExtend(a, w)>>b) & m
	case OpFShl:
		switch {
		case c >= uint64(2*w):
			return 0
		case c >= uint64(w):
			return b << (c - uint64(w)) & m
		case c == 0:
			return a
		}
		return (a<<c | b>>(uint64(w)-c)) & m
	case OpFShr:
		switch {
		case c >= uint64(2*w):
			return 0
		case c >= uint64(w):
			return a >> (c - uint64(w))
		case c == 0:
			return b
		}
		return (b>>c | a<<(uint64(w)-c)) & m
	case OpEq:
		return b2u(a == b)
	case OpNe:
		return b2u(a != b)
	case OpULt:
		return b2u(a < b)
	case OpULe:
		return b2u(a <= b)
	case OpSLt:
		return b2u(SignExtend(a, aw) < SignExtend(b, aw))
	case OpSLe:
		return b2u(SignExtend(a, aw) <= SignExtend(b, aw))
	case OpMux:
		if a&1 != 0 {
			return b
		}
		return c
	case OpSExt:
		return uint64(SignExtend(a, aw)) & m
	case OpTrunc:
		return a & m
	case OpExtract:
		return a >> uint(lo) & m
	case OpInsert:
		f := Mask(bw) << uint(lo)
		return (a&^f | b<<uint(lo)&f) & m
	case OpPopCnt:
		return uint64(bits.OnesCount64(a)) & m
	case OpClz:
		return uint64(bits.LeadingZeros64(a)-(64-aw)) & m
	}
	panic("sir.Eval: op " + op.String() + " is not evaluable")
}

// highHalf returns bits [w, 2w) of the 128-bit value hi:lo.
func highHalf(hi, lo uint64, w int) uint64 {
	if w == 64 {
		return hi
	}
	return (lo>>uint(w) | hi<<uint(64-w)) & Mask(w)
}

func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// EvalInst evaluates the pure, non-memory instruction in of u given its
// operand values.
func EvalInst(u *Unit, in *Inst, a, b, c uint64) uint64 {
	return Eval(in.Op, u.Width(in.Dst), u.Width(in.A), u.Width(in.B), in.Lo, in.Imm, a, b, c)
}
