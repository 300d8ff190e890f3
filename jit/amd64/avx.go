package amd64

// AVX2 forms (VEX-encoded, 256-bit unless named otherwise). x86asm does
// not decode VEX, so the tests check these against objdump where it is
// installed.

// vex emits a three-byte VEX prefix, the opcode and the ModRM bytes: map is
// 1 (0F), 2 (0F38) or 3 (0F3A); pp 0 (none), 1 (66), 2 (F3) or 3 (F2); l256
// selects 256-bit vectors; v is the extra source register (vvvv) or 0 when
// unused; reg the ModRM.reg field.
func (a *Assembler) vex(mmap, pp byte, w1, l256 bool, v XReg, op byte, reg byte, rm operand) {
	b1 := byte(0xE0) | mmap // R, X, B inverted: set means no extension
	if reg >= 8 {
		b1 &^= 0x80
	}
	if rm.mem {
		if rm.m.Scale != 0 && rm.m.Index.hi() {
			b1 &^= 0x40
		}
		if rm.m.Base.hi() {
			b1 &^= 0x20
		}
	} else if rm.reg.hi() {
		b1 &^= 0x20
	}
	b2 := (^byte(v)&15)<<3 | pp
	if w1 {
		b2 |= 0x80
	}
	if l256 {
		b2 |= 4
	}
	a.buf = append(a.buf, 0xC4, b1, b2, op)
	a.modrmBytes(reg, rm)
}

// VPacked emits the AVX2 form of op: dst = src1 op src2, lane by lane, on
// 256 bits (PAndN: dst = ^src1 & src2).
func (a *Assembler) VPacked(op PackedOp, l Lane, dst, src1, src2 XReg) {
	if !op.HasLane(l) {
		a.fail("v%s: no %d-byte lanes", op.name, l)
		return
	}
	if a.checkX("v"+op.name, dst, src1, src2) {
		a.vex(1, 1, false, true, src1, op.op[laneIndex(l)], byte(dst), rop(Reg(src2), 32))
	}
}

// VMovdquLoad emits vmovdqu dst, [m] (32 bytes, any alignment).
func (a *Assembler) VMovdquLoad(dst XReg, m Mem) {
	if a.checkX("vmovdqu", dst) && a.checkM("vmovdqu", m) {
		a.vex(1, 2, false, true, 0, 0x6F, byte(dst), mop(m))
	}
}

// VMovdquStore emits vmovdqu [m], src (32 bytes).
func (a *Assembler) VMovdquStore(m Mem, src XReg) {
	if a.checkX("vmovdqu", src) && a.checkM("vmovdqu", m) {
		a.vex(1, 2, false, true, 0, 0x7F, byte(src), mop(m))
	}
}

// VMovdqa emits vmovdqa dst, src (a 256-bit register copy).
func (a *Assembler) VMovdqa(dst, src XReg) {
	if a.checkX("vmovdqa", dst, src) {
		a.vex(1, 1, false, true, 0, 0x6F, byte(dst), rop(Reg(src), 32))
	}
}

// VMovqXR emits vmovq dst, src (the 64-bit register into the low lane of
// xmm dst, the rest of the ymm register zeroed).
func (a *Assembler) VMovqXR(dst XReg, src Reg) {
	if a.checkX("vmovq", dst) && a.checkR("vmovq", src) {
		a.vex(1, 1, true, false, 0, 0x6E, byte(dst), rop(src, 64))
	}
}

// VPunpcklqdq emits the 128-bit vpunpcklqdq dst, src1, src2 (src1's low
// qword, then src2's; the upper half of ymm dst zeroed).
func (a *Assembler) VPunpcklqdq(dst, src1, src2 XReg) {
	if a.checkX("vpunpcklqdq", dst, src1, src2) {
		a.vex(1, 1, false, false, src1, 0x6C, byte(dst), rop(Reg(src2), 32))
	}
}

// VInserti128High emits vinserti128 dst, src1, src2, 1: src1 with its upper
// 128 bits replaced by xmm src2.
func (a *Assembler) VInserti128High(dst, src1, src2 XReg) {
	if a.checkX("vinserti128", dst, src1, src2) {
		a.vex(3, 1, false, true, src1, 0x38, byte(dst), rop(Reg(src2), 32))
		a.buf = append(a.buf, 1)
	}
}

// VPbroadcastq emits vpbroadcastq dst, src: xmm src's low qword in every
// qword of ymm dst.
func (a *Assembler) VPbroadcastq(dst, src XReg) {
	if a.checkX("vpbroadcastq", dst, src) {
		a.vex(2, 1, false, true, 0, 0x59, byte(dst), rop(Reg(src), 32))
	}
}

// Vzeroupper emits vzeroupper (clears the upper halves of every ymm
// register: SSE code after AVX code then pays no transition).
func (a *Assembler) Vzeroupper() { a.Raw(0xC5, 0xF8, 0x77) }
