package amd64

// ---- data movement ----

// MovRegReg emits mov dst, src.
func (a *Assembler) MovRegReg(dst, src Reg, w int) {
	if a.err != nil || !a.checkW("mov", w, true) || !a.checkR("mov", dst, src) {
		return
	}
	a.modrm(w, 0, []byte{sel(w, 0x88, 0x89)}, byte(src), w == 8, rop(dst, w))
}

// MovRegImm emits the shortest flag-preserving move of imm into dst. At
// width 64, imm in [0, 2^32) uses mov r32, imm32 (zero-extending), other
// imm32 values the sign-extended mov r64, imm32, the rest movabs. At
// narrower widths imm may be given signed or unsigned.
func (a *Assembler) MovRegImm(dst Reg, imm int64, w int) {
	if a.err != nil || !a.checkW("mov", w, true) || !a.checkR("mov", dst) {
		return
	}
	switch {
	case w == 64 && imm >= 0 && imm < 1<<32:
		a.opReg(32, 0xB8, dst)
		a.imm(imm, 4)
	case w == 64 && imm >= -1<<31 && imm < 1<<31:
		a.modrm(64, 0, []byte{0xC7}, 0, false, rop(dst, 64))
		a.imm(imm, 4)
	case w == 64:
		a.opReg(64, 0xB8, dst)
		a.imm(imm, 8)
	default:
		if _, ok := immFits(imm, w); !ok {
			a.fail("mov %s, %#x: immediate does not fit", dst.Name(w), imm)
			return
		}
		a.opReg(w, sel(w, 0xB0, 0xB8), dst)
		a.imm(imm, immSize(w))
	}
}

// MovRegMem emits the load mov dst, [m].
func (a *Assembler) MovRegMem(dst Reg, m Mem, w int) {
	if a.err != nil || !a.checkW("mov", w, true) || !a.checkR("mov", dst) || !a.checkM("mov", m) {
		return
	}
	a.modrm(w, 0, []byte{sel(w, 0x8A, 0x8B)}, byte(dst), w == 8, mop(m))
}

// MovMemReg emits the store mov [m], src.
func (a *Assembler) MovMemReg(m Mem, src Reg, w int) {
	if a.err != nil || !a.checkW("mov", w, true) || !a.checkR("mov", src) || !a.checkM("mov", m) {
		return
	}
	a.modrm(w, 0, []byte{sel(w, 0x88, 0x89)}, byte(src), w == 8, mop(m))
}

// MovMemImm emits the store mov [m], imm (sign-extended imm32 at width 64).
func (a *Assembler) MovMemImm(m Mem, imm int64, w int) {
	if a.err != nil || !a.checkW("mov", w, true) || !a.checkM("mov", m) {
		return
	}
	if _, ok := immFits(imm, w); !ok {
		a.fail("mov %s, %#x: immediate does not fit", m, imm)
		return
	}
	a.modrm(w, 0, []byte{sel(w, 0xC6, 0xC7)}, 0, false, mop(m))
	a.imm(imm, immSize(w))
}

// extend checks and encodes movzx/movsx/movsxd dst(dw) <- src(sw).
func (a *Assembler) extend(what string, signed bool, dst Reg, src operand, dw, sw int) {
	if dw != 32 && dw != 64 {
		a.fail("%s: invalid destination width %d", what, dw)
		return
	}
	switch sw {
	case 8, 16:
		op := byte(0xB6)
		if signed {
			op = 0xBE
		}
		if sw == 16 {
			op++
		}
		src.byte_ = !src.mem && sw == 8
		a.modrm(dw, 0, []byte{0x0F, op}, byte(dst), false, src)
	case 32:
		if !signed || dw != 64 {
			a.fail("%s: invalid widths %d <- %d (use a 32-bit mov to zero-extend)", what, dw, sw)
			return
		}
		a.modrm(64, 0, []byte{0x63}, byte(dst), false, src)
	default:
		a.fail("%s: invalid source width %d", what, sw)
	}
}

// Movzx emits movzx dst(dw), src(sw) for sw 8 or 16 and dw 32 or 64.
func (a *Assembler) Movzx(dst, src Reg, dw, sw int) {
	if a.err != nil || !a.checkR("movzx", dst, src) {
		return
	}
	a.extend("movzx", false, dst, rop(src, sw), dw, sw)
}

// MovzxMem emits movzx dst(dw), [m](sw).
func (a *Assembler) MovzxMem(dst Reg, m Mem, dw, sw int) {
	if a.err != nil || !a.checkR("movzx", dst) || !a.checkM("movzx", m) {
		return
	}
	a.extend("movzx", false, dst, mop(m), dw, sw)
}

// Movsx emits movsx dst(dw), src(sw) for sw 8 or 16 and dw 32 or 64, and
// movsxd for sw 32, dw 64.
func (a *Assembler) Movsx(dst, src Reg, dw, sw int) {
	if a.err != nil || !a.checkR("movsx", dst, src) {
		return
	}
	a.extend("movsx", true, dst, rop(src, sw), dw, sw)
}

// MovsxMem emits movsx/movsxd dst(dw), [m](sw).
func (a *Assembler) MovsxMem(dst Reg, m Mem, dw, sw int) {
	if a.err != nil || !a.checkR("movsx", dst) || !a.checkM("movsx", m) {
		return
	}
	a.extend("movsx", true, dst, mop(m), dw, sw)
}

// Lea emits lea dst, [m] (w 16, 32 or 64).
func (a *Assembler) Lea(dst Reg, m Mem, w int) {
	if a.err != nil || !a.checkW("lea", w, false) || !a.checkR("lea", dst) || !a.checkM("lea", m) {
		return
	}
	a.modrm(w, 0, []byte{0x8D}, byte(dst), false, mop(m))
}

// Push emits push r (64-bit).
func (a *Assembler) Push(r Reg) {
	if a.err == nil && a.checkR("push", r) {
		a.opReg(32, 0x50, r)
	}
}

// Pop emits pop r (64-bit).
func (a *Assembler) Pop(r Reg) {
	if a.err == nil && a.checkR("pop", r) {
		a.opReg(32, 0x58, r)
	}
}

// ---- two-operand arithmetic ----

// AluOp is one of the classic two-operand integer operations.
type AluOp uint8

// The values are the ModRM.reg extension of the 80/81/83 group.
const (
	Add AluOp = iota
	Or
	Adc
	Sbb
	And
	Sub
	Xor
	Cmp
)

var aluNames = [...]string{"add", "or", "adc", "sbb", "and", "sub", "xor", "cmp"}

func (op AluOp) String() string {
	if int(op) < len(aluNames) {
		return aluNames[op]
	}
	return "alu?"
}

func (a *Assembler) aluOK(op AluOp, w int) bool {
	if a.err != nil {
		return false
	}
	if op > Cmp {
		a.fail("invalid alu op %d", op)
		return false
	}
	return a.checkW(op.String(), w, true)
}

// AluRegReg emits op dst, src.
func (a *Assembler) AluRegReg(op AluOp, dst, src Reg, w int) {
	if !a.aluOK(op, w) || !a.checkR(op.String(), dst, src) {
		return
	}
	a.modrm(w, 0, []byte{byte(op)<<3 | sel(w, 0, 1)}, byte(src), w == 8, rop(dst, w))
}

// AluRegMem emits op dst, [m].
func (a *Assembler) AluRegMem(op AluOp, dst Reg, m Mem, w int) {
	if !a.aluOK(op, w) || !a.checkR(op.String(), dst) || !a.checkM(op.String(), m) {
		return
	}
	a.modrm(w, 0, []byte{byte(op)<<3 | sel(w, 2, 3)}, byte(dst), w == 8, mop(m))
}

// AluMemReg emits op [m], src.
func (a *Assembler) AluMemReg(op AluOp, m Mem, src Reg, w int) {
	if !a.aluOK(op, w) || !a.checkR(op.String(), src) || !a.checkM(op.String(), m) {
		return
	}
	a.modrm(w, 0, []byte{byte(op)<<3 | sel(w, 0, 1)}, byte(src), w == 8, mop(m))
}

// AluRegImm emits op dst, imm, using the sign-extended imm8 form when imm
// fits. imm may be given signed or unsigned at widths below 64; at width
// 64 it must fit a sign-extended imm32.
func (a *Assembler) AluRegImm(op AluOp, dst Reg, imm int64, w int) {
	if !a.aluOK(op, w) || !a.checkR(op.String(), dst) {
		return
	}
	a.aluImm(op, rop(dst, w), imm, w)
}

// AluMemImm emits op [m], imm.
func (a *Assembler) AluMemImm(op AluOp, m Mem, imm int64, w int) {
	if !a.aluOK(op, w) || !a.checkM(op.String(), m) {
		return
	}
	a.aluImm(op, mop(m), imm, w)
}

func (a *Assembler) aluImm(op AluOp, rm operand, imm int64, w int) {
	v, ok := immFits(imm, w)
	if !ok {
		a.fail("%s: immediate %#x does not fit width %d", op, imm, w)
		return
	}
	switch {
	case w == 8:
		a.modrm(w, 0, []byte{0x80}, byte(op), false, rm)
		a.imm(v, 1)
	case v >= -128 && v <= 127:
		a.modrm(w, 0, []byte{0x83}, byte(op), false, rm)
		a.imm(v, 1)
	default:
		a.modrm(w, 0, []byte{0x81}, byte(op), false, rm)
		a.imm(v, immSize(w))
	}
}

// TestRegReg emits test x, y.
func (a *Assembler) TestRegReg(x, y Reg, w int) {
	if a.err != nil || !a.checkW("test", w, true) || !a.checkR("test", x, y) {
		return
	}
	a.modrm(w, 0, []byte{sel(w, 0x84, 0x85)}, byte(y), w == 8, rop(x, w))
}

// TestMemReg emits test [m], r.
func (a *Assembler) TestMemReg(m Mem, r Reg, w int) {
	if a.err != nil || !a.checkW("test", w, true) || !a.checkR("test", r) || !a.checkM("test", m) {
		return
	}
	a.modrm(w, 0, []byte{sel(w, 0x84, 0x85)}, byte(r), w == 8, mop(m))
}

// TestRegImm emits test r, imm (no imm8 form exists).
func (a *Assembler) TestRegImm(r Reg, imm int64, w int) {
	if a.err != nil || !a.checkW("test", w, true) || !a.checkR("test", r) {
		return
	}
	a.testImm(rop(r, w), imm, w)
}

// TestMemImm emits test [m], imm.
func (a *Assembler) TestMemImm(m Mem, imm int64, w int) {
	if a.err != nil || !a.checkW("test", w, true) || !a.checkM("test", m) {
		return
	}
	a.testImm(mop(m), imm, w)
}

func (a *Assembler) testImm(rm operand, imm int64, w int) {
	v, ok := immFits(imm, w)
	if !ok {
		a.fail("test: immediate %#x does not fit width %d", imm, w)
		return
	}
	a.modrm(w, 0, []byte{sel(w, 0xF6, 0xF7)}, 0, false, rm)
	a.imm(v, immSize(w))
}

// ---- one-operand group (F6/F7) ----

// UnOp is an operation of the F6/F7 group.
type UnOp uint8

// The values are the ModRM.reg extension. Mul, Imul1, Div and Idiv work on
// rdx:rax (edx:eax, dx:ax; ax for width 8).
const (
	Not   UnOp = 2
	Neg   UnOp = 3
	Mul   UnOp = 4 // rdx:rax = rax * r (unsigned)
	Imul1 UnOp = 5 // rdx:rax = rax * r (signed)
	Div   UnOp = 6 // rax = rdx:rax / r, rdx = remainder (unsigned)
	Idiv  UnOp = 7 // signed
)

var unNames = [8]string{2: "not", 3: "neg", 4: "mul", 5: "imul", 6: "div", 7: "idiv"}

func (op UnOp) String() string {
	if op >= 2 && op <= 7 {
		return unNames[op]
	}
	return "unop?"
}

// Unary emits op r (not, neg, mul, imul, div, idiv).
func (a *Assembler) Unary(op UnOp, r Reg, w int) {
	if a.err != nil || !a.unOK(op, w) || !a.checkR(op.String(), r) {
		return
	}
	a.modrm(w, 0, []byte{sel(w, 0xF6, 0xF7)}, byte(op), false, rop(r, w))
}

// UnaryMem emits op [m].
func (a *Assembler) UnaryMem(op UnOp, m Mem, w int) {
	if a.err != nil || !a.unOK(op, w) || !a.checkM(op.String(), m) {
		return
	}
	a.modrm(w, 0, []byte{sel(w, 0xF6, 0xF7)}, byte(op), false, mop(m))
}

func (a *Assembler) unOK(op UnOp, w int) bool {
	if op < Not || op > Idiv {
		a.fail("invalid unary op %d", op)
		return false
	}
	return a.checkW(op.String(), w, true)
}

// ImulRegReg emits imul dst, src (dst = low bits of dst*src).
func (a *Assembler) ImulRegReg(dst, src Reg, w int) {
	if a.err != nil || !a.checkW("imul", w, false) || !a.checkR("imul", dst, src) {
		return
	}
	a.modrm(w, 0, []byte{0x0F, 0xAF}, byte(dst), false, rop(src, w))
}

// ImulRegMem emits imul dst, [m].
func (a *Assembler) ImulRegMem(dst Reg, m Mem, w int) {
	if a.err != nil || !a.checkW("imul", w, false) || !a.checkR("imul", dst) || !a.checkM("imul", m) {
		return
	}
	a.modrm(w, 0, []byte{0x0F, 0xAF}, byte(dst), false, mop(m))
}

// ImulRegRegImm emits imul dst, src, imm.
func (a *Assembler) ImulRegRegImm(dst, src Reg, imm int64, w int) {
	if a.err != nil || !a.checkW("imul", w, false) || !a.checkR("imul", dst, src) {
		return
	}
	v, ok := immFits(imm, w)
	if !ok {
		a.fail("imul: immediate %#x does not fit width %d", imm, w)
		return
	}
	if v >= -128 && v <= 127 {
		a.modrm(w, 0, []byte{0x6B}, byte(dst), false, rop(src, w))
		a.imm(v, 1)
		return
	}
	a.modrm(w, 0, []byte{0x69}, byte(dst), false, rop(src, w))
	a.imm(v, immSize(w))
}

// ---- shifts and bits ----

// ShiftOp is a rotate or shift of the C0/C1/D0-D3 group.
type ShiftOp uint8

// The values are the ModRM.reg extension.
const (
	Rol ShiftOp = 0
	Ror ShiftOp = 1
	Rcl ShiftOp = 2
	Rcr ShiftOp = 3
	Shl ShiftOp = 4
	Shr ShiftOp = 5
	Sar ShiftOp = 7
)

var shiftNames = [8]string{"rol", "ror", "rcl", "rcr", "shl", "shr", "", "sar"}

func (op ShiftOp) String() string {
	if op < 8 && shiftNames[op] != "" {
		return shiftNames[op]
	}
	return "shift?"
}

func (a *Assembler) shiftOK(op ShiftOp, w int) bool {
	if a.err != nil {
		return false
	}
	if op > Sar || op == 6 {
		a.fail("invalid shift op %d", op)
		return false
	}
	return a.checkW(op.String(), w, true)
}

// ShiftRegCL emits op r, cl. The hardware masks the count to 5 bits (6 at
// width 64).
func (a *Assembler) ShiftRegCL(op ShiftOp, r Reg, w int) {
	if a.shiftOK(op, w) && a.checkR(op.String(), r) {
		a.modrm(w, 0, []byte{sel(w, 0xD2, 0xD3)}, byte(op), false, rop(r, w))
	}
}

// ShiftMemCL emits op [m], cl.
func (a *Assembler) ShiftMemCL(op ShiftOp, m Mem, w int) {
	if a.shiftOK(op, w) && a.checkM(op.String(), m) {
		a.modrm(w, 0, []byte{sel(w, 0xD2, 0xD3)}, byte(op), false, mop(m))
	}
}

// ShiftRegImm emits op r, n (the one-byte-shorter D1 form for n = 1). n
// must be below 32 (64 at width 64): the hardware would mask it.
func (a *Assembler) ShiftRegImm(op ShiftOp, r Reg, n uint8, w int) {
	if a.shiftOK(op, w) && a.checkR(op.String(), r) && a.countOK(op.String(), n, w) {
		a.shiftImm(op, rop(r, w), n, w)
	}
}

// ShiftMemImm emits op [m], n.
func (a *Assembler) ShiftMemImm(op ShiftOp, m Mem, n uint8, w int) {
	if a.shiftOK(op, w) && a.checkM(op.String(), m) && a.countOK(op.String(), n, w) {
		a.shiftImm(op, mop(m), n, w)
	}
}

func (a *Assembler) countOK(what string, n uint8, w int) bool {
	limit := uint8(32)
	if w == 64 {
		limit = 64
	}
	if n >= limit {
		a.fail("%s: count %d out of range at width %d", what, n, w)
		return false
	}
	return true
}

func (a *Assembler) shiftImm(op ShiftOp, rm operand, n uint8, w int) {
	if n == 1 {
		a.modrm(w, 0, []byte{sel(w, 0xD0, 0xD1)}, byte(op), false, rm)
		return
	}
	a.modrm(w, 0, []byte{sel(w, 0xC0, 0xC1)}, byte(op), false, rm)
	a.imm(int64(n), 1)
}

// ShldImm emits shld dst, src, n: dst = dst<<n | src>>(w-n).
func (a *Assembler) ShldImm(dst, src Reg, n uint8, w int) { a.dshift("shld", 0xA4, dst, src, n, w) }

// ShldCL emits shld dst, src, cl.
func (a *Assembler) ShldCL(dst, src Reg, w int) { a.dshift("shld", 0xA5, dst, src, 0, w) }

// ShrdImm emits shrd dst, src, n: dst = dst>>n | src<<(w-n).
func (a *Assembler) ShrdImm(dst, src Reg, n uint8, w int) { a.dshift("shrd", 0xAC, dst, src, n, w) }

// ShrdCL emits shrd dst, src, cl.
func (a *Assembler) ShrdCL(dst, src Reg, w int) { a.dshift("shrd", 0xAD, dst, src, 0, w) }

func (a *Assembler) dshift(what string, op byte, dst, src Reg, n uint8, w int) {
	if a.err != nil || !a.checkW(what, w, false) || !a.checkR(what, dst, src) {
		return
	}
	byImm := op&1 == 0
	if byImm && !a.countOK(what, n, w) {
		return
	}
	a.modrm(w, 0, []byte{0x0F, op}, byte(src), false, rop(dst, w))
	if byImm {
		a.imm(int64(n), 1)
	}
}

// BtRegReg emits bt r, bit (CF = bit of r, bit taken modulo w).
func (a *Assembler) BtRegReg(r, bit Reg, w int) {
	if a.err != nil || !a.checkW("bt", w, false) || !a.checkR("bt", r, bit) {
		return
	}
	a.modrm(w, 0, []byte{0x0F, 0xA3}, byte(bit), false, rop(r, w))
}

// BtRegImm emits bt r, n.
func (a *Assembler) BtRegImm(r Reg, n uint8, w int) {
	if a.err != nil || !a.checkW("bt", w, false) || !a.checkR("bt", r) {
		return
	}
	if int(n) >= w {
		a.fail("bt: bit %d out of range at width %d", n, w)
		return
	}
	a.modrm(w, 0, []byte{0x0F, 0xBA}, 4, false, rop(r, w))
	a.imm(int64(n), 1)
}

// BtMemImm emits bt [m], n (n below w).
func (a *Assembler) BtMemImm(m Mem, n uint8, w int) {
	if a.err != nil || !a.checkW("bt", w, false) || !a.checkM("bt", m) {
		return
	}
	if int(n) >= w {
		a.fail("bt: bit %d out of range at width %d", n, w)
		return
	}
	a.modrm(w, 0, []byte{0x0F, 0xBA}, 4, false, mop(m))
	a.imm(int64(n), 1)
}

// BitOp is a bit-count or bit-scan instruction.
type BitOp uint8

// Bit-count and bit-scan operations. Lzcnt and Tzcnt need the LZCNT and BMI1
// CPU features; on older CPUs their encodings run as Bsr and Bsf.
const (
	Popcnt BitOp = iota // F3 0F B8
	Lzcnt               // F3 0F BD; w for a zero source
	Tzcnt               // F3 0F BC; w for a zero source
	Bsr                 // 0F BD; index of the highest set bit, dst undefined and ZF set for 0
	Bsf                 // 0F BC; index of the lowest set bit
)

var bitOps = [...]struct {
	name string
	pfx  byte
	op   byte
}{{"popcnt", 0xF3, 0xB8}, {"lzcnt", 0xF3, 0xBD}, {"tzcnt", 0xF3, 0xBC}, {"bsr", 0, 0xBD}, {"bsf", 0, 0xBC}}

func (op BitOp) String() string {
	if int(op) < len(bitOps) {
		return bitOps[op].name
	}
	return "bitop?"
}

// Bits emits op dst, src (popcnt, lzcnt, tzcnt, bsr, bsf).
func (a *Assembler) Bits(op BitOp, dst, src Reg, w int) {
	if a.err != nil {
		return
	}
	if int(op) >= len(bitOps) {
		a.fail("invalid bit op %d", op)
		return
	}
	e := bitOps[op]
	if !a.checkW(e.name, w, false) || !a.checkR(e.name, dst, src) {
		return
	}
	a.modrm(w, e.pfx, []byte{0x0F, e.op}, byte(dst), false, rop(src, w))
}

// ---- flags consumers ----

// Setcc emits setcc dst8 (dst's low byte = cc ? 1 : 0).
func (a *Assembler) Setcc(cc Cond, dst Reg) {
	if a.err != nil || !a.condOK("set", cc) || !a.checkR("set", dst) {
		return
	}
	a.modrm(0, 0, []byte{0x0F, 0x90 | byte(cc)}, 0, false, rop(dst, 8))
}

// Cmov emits cmovcc dst, src.
func (a *Assembler) Cmov(cc Cond, dst, src Reg, w int) {
	if a.err != nil || !a.condOK("cmov", cc) || !a.checkW("cmov", w, false) || !a.checkR("cmov", dst, src) {
		return
	}
	a.modrm(w, 0, []byte{0x0F, 0x40 | byte(cc)}, byte(dst), false, rop(src, w))
}

// CmovMem emits cmovcc dst, [m]. The load happens whatever the condition.
func (a *Assembler) CmovMem(cc Cond, dst Reg, m Mem, w int) {
	if a.err != nil || !a.condOK("cmov", cc) || !a.checkW("cmov", w, false) || !a.checkR("cmov", dst) || !a.checkM("cmov", m) {
		return
	}
	a.modrm(w, 0, []byte{0x0F, 0x40 | byte(cc)}, byte(dst), false, mop(m))
}

func (a *Assembler) condOK(what string, cc Cond) bool {
	if cc >= NumConds {
		a.fail("%s: invalid condition %d", what, cc)
		return false
	}
	return true
}

// ---- sign extension of rax ----

// Cqo emits cqo (rdx = sign of rax).
func (a *Assembler) Cqo() { a.Raw(0x48, 0x99) }

// Cdq emits cdq (edx = sign of eax).
func (a *Assembler) Cdq() { a.Raw(0x99) }

// Cdqe emits cdqe (rax = sign-extended eax).
func (a *Assembler) Cdqe() { a.Raw(0x48, 0x98) }

// ---- control flow ----

// Jcc emits a conditional branch to l: rel8 when l is already bound and
// near, rel32 otherwise.
func (a *Assembler) Jcc(cc Cond, l Label) {
	if a.err != nil || !a.condOK("j", cc) || !a.labelOK("j", l) {
		return
	}
	if a.near(l) {
		a.branch(l, 0x70|byte(cc))
		return
	}
	a.branch(l, 0x0F, 0x80|byte(cc))
}

// JccShort emits a rel8 conditional branch to l; Finish fails if l is out
// of range.
func (a *Assembler) JccShort(cc Cond, l Label) {
	if a.err == nil && a.condOK("j", cc) && a.labelOK("j", l) {
		a.branch(l, 0x70|byte(cc))
	}
}

// Jmp emits an unconditional branch to l (rel8 when l is bound and near).
func (a *Assembler) Jmp(l Label) {
	if a.err != nil || !a.labelOK("jmp", l) {
		return
	}
	if a.near(l) {
		a.branch(l, 0xEB)
		return
	}
	a.branch(l, 0xE9)
}

// JmpShort emits a rel8 branch to l.
func (a *Assembler) JmpShort(l Label) {
	if a.err == nil && a.labelOK("jmp", l) {
		a.branch(l, 0xEB)
	}
}

// Call emits call l (rel32).
func (a *Assembler) Call(l Label) {
	if a.err == nil && a.labelOK("call", l) {
		a.branch(l, 0xE8)
	}
}

// JmpReg emits jmp r.
func (a *Assembler) JmpReg(r Reg) {
	if a.err == nil && a.checkR("jmp", r) {
		a.modrm(0, 0, []byte{0xFF}, 4, false, rop(r, 64))
	}
}

// CallReg emits call r.
func (a *Assembler) CallReg(r Reg) {
	if a.err == nil && a.checkR("call", r) {
		a.modrm(0, 0, []byte{0xFF}, 2, false, rop(r, 64))
	}
}

// Ret emits ret.
func (a *Assembler) Ret() { a.Raw(0xC3) }

// Int3 emits a breakpoint.
func (a *Assembler) Int3() { a.Raw(0xCC) }

// Ud2 emits an undefined-instruction trap.
func (a *Assembler) Ud2() { a.Raw(0x0F, 0x0B) }

// near reports whether l is bound and a 2-byte branch emitted here reaches it.
func (a *Assembler) near(l Label) bool {
	t := a.labels[l]
	if t < 0 {
		return false
	}
	rel := t - (len(a.buf) + 2)
	return rel >= -128 && rel <= 127
}

// branch emits the opcode bytes and a rel field (1 byte after a one-byte
// 7x/EB opcode, else 4) with a fix-up to l.
func (a *Assembler) branch(l Label, op ...byte) {
	a.buf = append(a.buf, op...)
	size := 4
	if len(op) == 1 && (op[0]&0xF0 == 0x70 || op[0] == 0xEB) {
		size = 1
	}
	a.fixups = append(a.fixups, fixup{label: l, at: len(a.buf), size: size, end: len(a.buf) + size})
	a.buf = append(a.buf, make([]byte, size)...)
}

// ---- padding ----

// Recommended multi-byte NOPs (Intel SDM, Vol. 2B, NOP).
var nops = [10][]byte{
	1: {0x90},
	2: {0x66, 0x90},
	3: {0x0F, 0x1F, 0x00},
	4: {0x0F, 0x1F, 0x40, 0x00},
	5: {0x0F, 0x1F, 0x44, 0x00, 0x00},
	6: {0x66, 0x0F, 0x1F, 0x44, 0x00, 0x00},
	7: {0x0F, 0x1F, 0x80, 0x00, 0x00, 0x00, 0x00},
	8: {0x0F, 0x1F, 0x84, 0x00, 0x00, 0x00, 0x00, 0x00},
	9: {0x66, 0x0F, 0x1F, 0x84, 0x00, 0x00, 0x00, 0x00, 0x00},
}

// Nop emits n bytes of padding as the fewest multi-byte NOPs.
func (a *Assembler) Nop(n int) {
	for n > 0 && a.err == nil {
		k := min(n, 9)
		a.buf = append(a.buf, nops[k]...)
		n -= k
	}
}

// Align pads with NOPs to a multiple of n bytes (a power of two).
func (a *Assembler) Align(n int) {
	if n <= 0 || n&(n-1) != 0 {
		a.fail("align: %d is not a power of two", n)
		return
	}
	a.Nop(-len(a.buf) & (n - 1))
}
