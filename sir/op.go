package sir

import "fmt"

// Op is an instruction opcode. In the comments, w is the width of Dst, aw,
// bw and cw the widths of A, B and C; "A,B:w" means both operands are w bits.
// Every result is masked to w bits (the canonical zero-extended form).
type Op uint8

const (
	OpInvalid Op = iota

	OpConst // Dst = Imm (Imm < 2^w)
	OpCopy  // Dst = A; A:w

	// Arithmetic, A,B:w, modulo 2^w.
	OpAdd
	OpSub
	OpMul
	OpMulHiU // bits [w, 2w) of the unsigned 2w-bit product A*B
	OpMulHiS // bits [w, 2w) of the signed 2w-bit product A*B
	OpDivU   // A / B; 0 when B == 0
	OpDivS   // signed A / B truncated toward 0; 0 when B == 0; MIN / -1 == MIN
	OpRemU   // A % B; 0 when B == 0
	OpRemS   // signed remainder with the dividend's sign; 0 when B == 0; MIN % -1 == 0

	// Multi-word arithmetic: C is a 1-bit carry (borrow) in.
	OpAddC  // Dst:w = A + B + C; A,B:w
	OpAddCO // Dst:1 = carry out of A + B + C at width aw; A,B:aw
	OpSubB  // Dst:w = A - B - C; A,B:w
	OpSubBO // Dst:1 = borrow out of A - B - C at width aw (A < B + C); A,B:aw

	// Bitwise, A,B:w (A:w for not, neg).
	OpAnd
	OpOr
	OpXor
	OpNot // ^A
	OpNeg // -A

	// Shifts: A:w, B any width, unsigned amount.
	OpShl  // A << B; 0 when B >= w
	OpLShr // A >> B; 0 when B >= w
	OpAShr // signed A >> B; all sign bits when B >= w
	// Funnel shifts over the 2w-bit value A:B (A high), C any width:
	OpFShl // Dst = bits [w, 2w) of (A:B) << C; 0 when C >= 2w
	OpFShr // Dst = bits [0, w) of (A:B) >> C; 0 when C >= 2w

	// Comparisons: Dst:1, A,B:aw.
	OpEq
	OpNe
	OpULt
	OpULe
	OpSLt
	OpSLe

	OpMux     // Dst = A ? B : C; A:1, B,C:w
	OpZExt    // Dst = A zero-extended; aw <= w
	OpSExt    // Dst = A sign-extended; aw <= w
	OpTrunc   // Dst = low w bits of A; aw >= w
	OpExtract // Dst = bits [Lo, Lo+w) of A; Lo+w <= aw
	OpInsert  // Dst = A with bits [Lo, Lo+bw) replaced by B; w == aw, Lo+bw <= aw
	OpPopCnt  // Dst = number of 1 bits of A, mod 2^w (w == 1: parity)
	OpClz     // Dst = leading zero bits of A within aw bits (aw when A == 0), mod 2^w

	// Memory (see Addr for addressing and out-of-range indexes).
	OpLoad      // Dst = Size bytes little-endian at Addr, mod 2^w; w <= 8*Size
	OpStore     // Size bytes at Addr = A zero-extended; aw <= 8*Size
	OpLoadBits  // Dst = w bits at bit offset Lo from Addr; Lo%8 + w <= 64
	OpStoreBits // bits [Lo, Lo+aw) from Addr = A, other bits kept; Lo%8 + aw <= 64

	OpEvent // append Ev to the runtime-event ring

	numOps
)

type opInfo struct {
	name  string
	nargs int  // register operands used among A, B, C
	dst   bool // defines Dst
	pure  bool // no effect but Dst: removable when Dst is dead
}

var opTable = [numOps]opInfo{
	OpInvalid:   {"invalid", 0, false, false},
	OpConst:     {"const", 0, true, true},
	OpCopy:      {"copy", 1, true, true},
	OpAdd:       {"add", 2, true, true},
	OpSub:       {"sub", 2, true, true},
	OpMul:       {"mul", 2, true, true},
	OpMulHiU:    {"mulhu", 2, true, true},
	OpMulHiS:    {"mulhs", 2, true, true},
	OpDivU:      {"divu", 2, true, true},
	OpDivS:      {"divs", 2, true, true},
	OpRemU:      {"remu", 2, true, true},
	OpRemS:      {"rems", 2, true, true},
	OpAddC:      {"addc", 3, true, true},
	OpAddCO:     {"addco", 3, true, true},
	OpSubB:      {"subb", 3, true, true},
	OpSubBO:     {"subbo", 3, true, true},
	OpAnd:       {"and", 2, true, true},
	OpOr:        {"or", 2, true, true},
	OpXor:       {"xor", 2, true, true},
	OpNot:       {"not", 1, true, true},
	OpNeg:       {"neg", 1, true, true},
	OpShl:       {"shl", 2, true, true},
	OpLShr:      {"lshr", 2, true, true},
	OpAShr:      {"ashr", 2, true, true},
	OpFShl:      {"fshl", 3, true, true},
	OpFShr:      {"fshr", 3, true, true},
	OpEq:        {"eq", 2, true, true},
	OpNe:        {"ne", 2, true, true},
	OpULt:       {"ult", 2, true, true},
	OpULe:       {"ule", 2, true, true},
	OpSLt:       {"slt", 2, true, true},
	OpSLe:       {"sle", 2, true, true},
	OpMux:       {"mux", 3, true, true},
	OpZExt:      {"zext", 1, true, true},
	OpSExt:      {"sext", 1, true, true},
	OpTrunc:     {"trunc", 1, true, true},
	OpExtract:   {"extract", 1, true, true},
	OpInsert:    {"insert", 2, true, true},
	OpPopCnt:    {"popcnt", 1, true, true},
	OpClz:       {"clz", 1, true, true},
	OpLoad:      {"load", 0, true, true},
	OpStore:     {"store", 1, false, false},
	OpLoadBits:  {"loadbits", 0, true, true},
	OpStoreBits: {"storebits", 1, false, false},
	OpEvent:     {"event", 0, false, false},
}

var opByName = func() map[string]Op {
	m := map[string]Op{}
	for op := Op(1); op < numOps; op++ {
		m[opTable[op].name] = op
	}
	return m
}()

func (op Op) String() string {
	if op < numOps {
		return opTable[op].name
	}
	return fmt.Sprintf("op%d", uint8(op))
}

// Valid reports whether op is a defined opcode.
func (op Op) Valid() bool { return op > OpInvalid && op < numOps }

// NumArgs is the number of register operands among A, B, C that op reads.
func (op Op) NumArgs() int {
	if op >= numOps {
		return 0
	}
	return opTable[op].nargs
}

// HasDst reports whether op defines Dst.
func (op Op) HasDst() bool { return op < numOps && opTable[op].dst }

// Pure reports whether op has no effect besides defining Dst (loads are pure:
// they never fault).
func (op Op) Pure() bool { return op < numOps && opTable[op].pure }

// IsMem reports whether op has an Addr operand.
func (op Op) IsMem() bool { return op >= OpLoad && op <= OpStoreBits }

// IsStore reports whether op writes memory through Addr.
func (op Op) IsStore() bool { return op == OpStore || op == OpStoreBits }

// IsCompare reports whether op is a comparison (1-bit result).
func (op Op) IsCompare() bool { return op >= OpEq && op <= OpSLe }

// Commutative reports whether A and B may be swapped.
func (op Op) Commutative() bool {
	switch op {
	case OpAdd, OpMul, OpMulHiU, OpMulHiS, OpAnd, OpOr, OpXor, OpEq, OpNe, OpAddC, OpAddCO:
		return true
	}
	return false
}

// Evaluable reports whether Eval computes op (pure ops that do not read
// memory or have an immediate; OpConst included).
func (op Op) Evaluable() bool { return op.Pure() && op != OpLoad && op != OpLoadBits }
