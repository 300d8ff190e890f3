package amd64

import "fmt"

// XReg is an SSE register (XMM0-XMM15), numbered as in the encoding.
type XReg uint8

// The sixteen SSE registers.
const (
	X0 XReg = iota
	X1
	X2
	X3
	X4
	X5
	X6
	X7
	X8
	X9
	X10
	X11
	X12
	X13
	X14
	X15
)

func (x XReg) valid() bool { return x < 16 }

// String returns the register's name ("xmm3").
func (x XReg) String() string { return fmt.Sprintf("xmm%d", x) }

// Lane is the element size, in bytes, of a packed integer operation: 1, 2,
// 4 or 8.
type Lane int

// SSE2 packed-integer operations with a register or memory source, by the
// second opcode byte of their 66 0F encoding.
type PackedOp struct {
	name string
	op   [4]byte // by lane size 1, 2, 4, 8 (0: no such form)
}

// The packed operations lowering uses. PAnd, POr, PXor and PAndN ignore
// the lane size.
var (
	PAdd  = PackedOp{"padd", [4]byte{0xFC, 0xFD, 0xFE, 0xD4}}
	PSub  = PackedOp{"psub", [4]byte{0xF8, 0xF9, 0xFA, 0xFB}}
	PAnd  = PackedOp{"pand", [4]byte{0xDB, 0xDB, 0xDB, 0xDB}}
	PAndN = PackedOp{"pandn", [4]byte{0xDF, 0xDF, 0xDF, 0xDF}}
	POr   = PackedOp{"por", [4]byte{0xEB, 0xEB, 0xEB, 0xEB}}
	PXor  = PackedOp{"pxor", [4]byte{0xEF, 0xEF, 0xEF, 0xEF}}
	// PCmpEq sets a lane to all ones where the lanes are equal (no
	// 8-byte form in SSE2).
	PCmpEq = PackedOp{"pcmpeq", [4]byte{0x74, 0x75, 0x76, 0}}
)

func laneIndex(l Lane) int {
	switch l {
	case 1:
		return 0
	case 2:
		return 1
	case 4:
		return 2
	case 8:
		return 3
	}
	return -1
}

// HasLane reports whether op has a form for lane size l.
func (op PackedOp) HasLane(l Lane) bool {
	i := laneIndex(l)
	return i >= 0 && op.op[i] != 0
}

func (a *Assembler) checkX(what string, xs ...XReg) bool {
	for _, x := range xs {
		if !x.valid() {
			a.fail("%s: invalid SSE register %d", what, x)
			return false
		}
	}
	return true
}

// sse emits [66|F3] [REX] 0F op ModRM for an SSE instruction whose ModRM.reg
// is reg (a register number or an opcode extension); w64 sets REX.W.
func (a *Assembler) sse(pfx byte, op byte, reg byte, rm operand, w64 bool) {
	w := 32
	if w64 {
		w = 64
	}
	a.modrm(w, pfx, []byte{0x0F, op}, reg, false, rm)
}

// Packed emits op dst, src (dst = dst op src lane by lane; PAndN: dst =
// ^dst & src).
func (a *Assembler) Packed(op PackedOp, l Lane, dst, src XReg) {
	if !op.HasLane(l) {
		a.fail("%s: no %d-byte lanes", op.name, l)
		return
	}
	if a.checkX(op.name, dst, src) {
		a.sse(0x66, op.op[laneIndex(l)], byte(dst), rop(Reg(src), 32), false)
	}
}

// MovdquLoad emits movdqu dst, [m] (16 bytes, any alignment).
func (a *Assembler) MovdquLoad(dst XReg, m Mem) {
	if a.checkX("movdqu", dst) && a.checkM("movdqu", m) {
		a.sse(0xF3, 0x6F, byte(dst), mop(m), false)
	}
}

// MovdquStore emits movdqu [m], src.
func (a *Assembler) MovdquStore(m Mem, src XReg) {
	if a.checkX("movdqu", src) && a.checkM("movdqu", m) {
		a.sse(0xF3, 0x7F, byte(src), mop(m), false)
	}
}

// Movdqa emits movdqa dst, src (a register copy).
func (a *Assembler) Movdqa(dst, src XReg) {
	if a.checkX("movdqa", dst, src) {
		a.sse(0x66, 0x6F, byte(dst), rop(Reg(src), 32), false)
	}
}

// MovqXR emits movq dst, src (the 64-bit register into the low lane, the
// high one zeroed).
func (a *Assembler) MovqXR(dst XReg, src Reg) {
	if a.checkX("movq", dst) && a.checkR("movq", src) {
		a.sse(0x66, 0x6E, byte(dst), rop(src, 64), true)
	}
}

// Pshufd emits pshufd dst, src, order (dword i of dst is dword
// order>>(2i)&3 of src).
func (a *Assembler) Pshufd(dst, src XReg, order uint8) {
	if a.checkX("pshufd", dst, src) {
		a.sse(0x66, 0x70, byte(dst), rop(Reg(src), 32), false)
		a.buf = append(a.buf, order)
	}
}

// Punpcklqdq emits punpcklqdq dst, src (dst's low qword, then src's).
func (a *Assembler) Punpcklqdq(dst, src XReg) {
	if a.checkX("punpcklqdq", dst, src) {
		a.sse(0x66, 0x6C, byte(dst), rop(Reg(src), 32), false)
	}
}
