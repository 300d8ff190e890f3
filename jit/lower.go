package jit

import (
	"fmt"

	"github.com/weft-hdl/weft/jit/amd64"
	"github.com/weft-hdl/weft/sir"
	"golang.org/x/sys/cpu"
)

// Lowering, first cut: every SIR register lives in an 8-byte spill slot of
// the kernel's arena, and each instruction loads its operands into scratch
// machine registers, computes, masks the result to the destination width and
// stores it back. This is the simplest correct register allocation; linear
// scan over machine registers (keeping values in registers across
// instructions) is later work.
//
// # The arena convention
//
// The arena lies after the simulation state, addressed from StateReg (RBX)
// like the state itself, never on the goroutine stack:
//
//	[0, StateSize)                         simulation state (homes, ring)
//	[ArenaOffset, ArenaOffset+ArenaSize)   this kernel's arena
//
// where ArenaOffset = StateSize rounded up to 8. Slot 0 holds the back-edge
// budget, slot r (r >= 1) holds SIR register r. The caller allocates
// StateSize+padding+ArenaSize bytes (Kernel.Size) and passes the whole
// buffer; the arena needs no initialisation and holds nothing between runs,
// so kernels run one after another may share it (size it for the largest).
//
// # What is lowered
//
// Every op, at widths 1..64: Compile returns an error naming any op it
// does not lower (OpPopCnt on a CPU without POPCNT), and the caller falls
// back to the interpreter. OpEvent appends its record to the event ring
// byte for byte as sir/interp does (sir.RingReserve's overflow rule, the
// capacity clamped to the end of the state, so nothing is written past
// it), and a ret ok of a unit with events returns ringfull when the ring's
// dropped count is non-zero. clz uses bsr (no LZCNT needed);
// popcnt needs the POPCNT instruction (x86-64-v2), checked with
// golang.org/x/sys/cpu at compile time. Division tests the divisor (0, and
// -1 for signed ops) before div/idiv, so no #DE is possible; dynamic
// indexes are bounds-checked before the access; loadbits/storebits touch
// exactly the bytes the interpreter touches.
//
// # Runaway loops
//
// The interpreter bounds instructions per run; native code bounds backward
// jumps instead (Options.MaxBackEdges, a budget in arena slot 0), returning
// sir.StatusStepLimit when it runs out. Units without backward jumps (all
// the kernels lowered today) never pay for it.

// Options tune Compile.
type Options struct {
	// StateSize is the size in bytes of the simulation state; the arena
	// starts at StateSize rounded up to 8. 0 means the unit's own extent
	// (the highest byte it accesses), which is right only when this unit
	// is the only user of the state buffer.
	StateSize int
	// ArenaOffset, when non-zero, places the arena there instead (at or
	// after StateSize, a multiple of 8): partitioned kernels give every
	// lane its own arena, since lanes run at once.
	ArenaOffset int
	// MaxBackEdges bounds the backward jumps of one run (0: 1<<28).
	MaxBackEdges int64
}

// DefaultMaxBackEdges is the default of Options.MaxBackEdges.
const DefaultMaxBackEdges = 1 << 28

// Scratch registers (RBX is the state base).
const (
	rA   = amd64.RAX
	rC   = amd64.RCX
	rD   = amd64.RDX
	rS   = amd64.RSI
	rDI  = amd64.RDI
	base = StateReg
)

// UnsupportedError reports an op the native backend does not lower.
type UnsupportedError struct {
	Unit string
	Op   sir.Op
	Why  string
}

func (e *UnsupportedError) Error() string {
	s := fmt.Sprintf("jit: unit %q: op %s not supported by the native backend", e.Unit, e.Op)
	if e.Why != "" {
		s += " (" + e.Why + ")"
	}
	return s
}

type lowerer struct {
	u        *sir.Unit
	l        sir.Layout
	a        *amd64.Assembler
	arenaOff int
	minState int
	blocks   []amd64.Label
	stepExit amd64.Label
	usedStep bool
	// stateSize is the size of the simulation state; ring is the offset
	// of the event ring header (-1 when the unit has no events).
	stateSize int
	ring      int
}

// lower emits the machine code of u. arenaOff is the byte offset of the
// arena from the state base.
func lower(u *sir.Unit, l sir.Layout, stateSize, arenaOff int, maxBack int64) ([]byte, error) {
	x := &lowerer{u: u, l: l, a: amd64.New(), arenaOff: arenaOff, stateSize: stateSize, ring: -1}
	a := x.a
	if int64(arenaOff)+8*int64(len(u.Regs)) >= 1<<31 {
		return nil, fmt.Errorf("jit: unit %q: state+arena beyond 2 GiB", u.Name)
	}
	x.blocks = make([]amd64.Label, len(u.Blocks))
	for i := range x.blocks {
		x.blocks[i] = a.NewLabel()
	}
	x.stepExit = a.NewLabel()
	if hasEvent(u) {
		x.ring = l.Offset(sir.RingHome)
		if x.ring < 0 || x.ring+sir.RingHeaderSize > stateSize {
			return nil, fmt.Errorf("jit: unit %q: event ring at %d outside the state of %d bytes", u.Name, x.ring, stateSize)
		}
	}
	if hasBackEdge(u) {
		if maxBack <= 0 || maxBack >= 1<<31 {
			maxBack = DefaultMaxBackEdges
		}
		a.MovMemImm(x.slotN(0), maxBack, 64)
	}
	for bi, b := range u.Blocks {
		a.Bind(x.blocks[bi])
		for ii := range b.Insts {
			if err := x.inst(&b.Insts[ii]); err != nil {
				return nil, err
			}
		}
		x.term(bi, &b.Term)
	}
	if x.usedStep {
		a.Bind(x.stepExit)
		a.MovRegImm(StatusReg, int64(sir.StatusStepLimit), 32)
		a.Ret()
	}
	return a.Finish()
}

func hasEvent(u *sir.Unit) bool {
	for _, b := range u.Blocks {
		for i := range b.Insts {
			if b.Insts[i].Op == sir.OpEvent {
				return true
			}
		}
	}
	return false
}

func hasBackEdge(u *sir.Unit) bool {
	for bi, b := range u.Blocks {
		var buf [2]sir.BlockID
		for _, s := range b.Term.Succs(buf[:0]) {
			if int(s) <= bi {
				return true
			}
		}
	}
	return false
}

func (x *lowerer) slotN(i int) amd64.Mem     { return amd64.M(base, int32(x.arenaOff+8*i)) }
func (x *lowerer) slot(r sir.Reg) amd64.Mem  { return x.slotN(int(r)) }
func (x *lowerer) ld(m amd64.Reg, r sir.Reg) { x.a.MovRegMem(m, x.slot(r), 64) }
func (x *lowerer) st(r sir.Reg, m amd64.Reg) { x.a.MovMemReg(x.slot(r), m, 64) }
func (x *lowerer) w(r sir.Reg) int           { return x.u.Width(r) }

// mask clears the bits of m at and above w.
func (x *lowerer) mask(m amd64.Reg, w int) {
	a := x.a
	switch {
	case w >= 64:
	case w == 32:
		a.MovRegReg(m, m, 32)
	case w < 32:
		a.AluRegImm(amd64.And, m, int64(sir.Mask(w)), 32)
	default:
		a.ShiftRegImm(amd64.Shl, m, uint8(64-w), 64)
		a.ShiftRegImm(amd64.Shr, m, uint8(64-w), 64)
	}
}

// sext sign-extends the low w bits of m to 64 bits.
func (x *lowerer) sext(m amd64.Reg, w int) {
	if w < 64 {
		x.a.ShiftRegImm(amd64.Shl, m, uint8(64-w), 64)
		x.a.ShiftRegImm(amd64.Sar, m, uint8(64-w), 64)
	}
}

func (x *lowerer) zero(m amd64.Reg) { x.a.AluRegReg(amd64.Xor, m, m, 32) }

func (x *lowerer) unsupported(op sir.Op, why string) error {
	return &UnsupportedError{Unit: x.u.Name, Op: op, Why: why}
}

func (x *lowerer) inst(in *sir.Inst) error {
	a := x.a
	w := x.w(in.Dst)
	aw := x.w(in.A)
	switch in.Op {
	case sir.OpConst:
		v := int64(in.Imm & sir.Mask(w))
		if v >= -1<<31 && v < 1<<31 {
			a.MovMemImm(x.slot(in.Dst), v, 64)
			return nil
		}
		a.MovRegImm(rA, v, 64)
	case sir.OpCopy, sir.OpZExt, sir.OpTrunc:
		x.ld(rA, in.A)
		if in.Op == sir.OpTrunc {
			x.mask(rA, w)
		}
	case sir.OpAdd, sir.OpSub, sir.OpAnd, sir.OpOr, sir.OpXor:
		x.ld(rA, in.A)
		op := map[sir.Op]amd64.AluOp{sir.OpAdd: amd64.Add, sir.OpSub: amd64.Sub, sir.OpAnd: amd64.And, sir.OpOr: amd64.Or, sir.OpXor: amd64.Xor}[in.Op]
		a.AluRegMem(op, rA, x.slot(in.B), 64)
		if in.Op == sir.OpAdd || in.Op == sir.OpSub {
			x.mask(rA, w)
		}
	case sir.OpMul:
		x.ld(rA, in.A)
		a.ImulRegMem(rA, x.slot(in.B), 64)
		x.mask(rA, w)
	case sir.OpMulHiU, sir.OpMulHiS:
		x.ld(rA, in.A)
		x.ld(rC, in.B)
		if in.Op == sir.OpMulHiU {
			a.Unary(amd64.Mul, rC, 64)
		} else {
			x.sext(rA, w)
			x.sext(rC, w)
			a.Unary(amd64.Imul1, rC, 64)
		}
		if w == 64 {
			a.MovRegReg(rA, rD, 64)
		} else {
			a.ShrdImm(rA, rD, uint8(w), 64)
			x.mask(rA, w)
		}
	case sir.OpDivU, sir.OpRemU:
		x.ld(rA, in.A)
		x.ld(rC, in.B)
		zero, done := a.NewLabel(), a.NewLabel()
		a.TestRegReg(rC, rC, 64)
		a.Jcc(amd64.CondE, zero)
		x.zero(rD)
		a.Unary(amd64.Div, rC, 64)
		if in.Op == sir.OpRemU {
			a.MovRegReg(rA, rD, 64)
		}
		a.Jmp(done)
		a.Bind(zero)
		x.zero(rA)
		a.Bind(done)
	case sir.OpDivS, sir.OpRemS:
		x.ld(rA, in.A)
		x.ld(rC, in.B)
		x.sext(rA, w)
		x.sext(rC, w)
		zero, m1, done := a.NewLabel(), a.NewLabel(), a.NewLabel()
		a.TestRegReg(rC, rC, 64)
		a.Jcc(amd64.CondE, zero)
		a.AluRegImm(amd64.Cmp, rC, -1, 64)
		a.Jcc(amd64.CondE, m1)
		a.Cqo()
		a.Unary(amd64.Idiv, rC, 64)
		if in.Op == sir.OpRemS {
			a.MovRegReg(rA, rD, 64)
		}
		a.Jmp(done)
		a.Bind(m1) // x / -1 = -x (MIN stays MIN), x % -1 = 0
		if in.Op == sir.OpDivS {
			a.Unary(amd64.Neg, rA, 64)
			a.Jmp(done)
		}
		a.Bind(zero)
		x.zero(rA)
		a.Bind(done)
		x.mask(rA, w)
	case sir.OpAddC, sir.OpSubB:
		x.ld(rA, in.A)
		x.ld(rD, in.C)
		a.AluRegImm(amd64.And, rD, 1, 32)
		if in.Op == sir.OpAddC {
			a.AluRegMem(amd64.Add, rA, x.slot(in.B), 64)
			a.AluRegReg(amd64.Add, rA, rD, 64)
		} else {
			a.AluRegMem(amd64.Sub, rA, x.slot(in.B), 64)
			a.AluRegReg(amd64.Sub, rA, rD, 64)
		}
		x.mask(rA, w)
	case sir.OpAddCO:
		x.ld(rA, in.A)
		x.ld(rD, in.C)
		if aw == 64 {
			a.BtRegImm(rD, 0, 64)
			a.AluRegMem(amd64.Adc, rA, x.slot(in.B), 64)
			a.Setcc(amd64.CondB, rA)
			a.Movzx(rA, rA, 32, 8)
		} else {
			a.AluRegImm(amd64.And, rD, 1, 32)
			a.AluRegMem(amd64.Add, rA, x.slot(in.B), 64)
			a.AluRegReg(amd64.Add, rA, rD, 64)
			a.ShiftRegImm(amd64.Shr, rA, uint8(aw), 64)
			a.AluRegImm(amd64.And, rA, 1, 32)
		}
	case sir.OpSubBO: // operands are zero-extended: the 64-bit borrow is A < B+C
		x.ld(rA, in.A)
		x.ld(rD, in.C)
		a.BtRegImm(rD, 0, 64)
		a.AluRegMem(amd64.Sbb, rA, x.slot(in.B), 64)
		a.Setcc(amd64.CondB, rA)
		a.Movzx(rA, rA, 32, 8)
	case sir.OpNot:
		x.ld(rA, in.A)
		a.Unary(amd64.Not, rA, 64)
		x.mask(rA, w)
	case sir.OpNeg:
		x.ld(rA, in.A)
		a.Unary(amd64.Neg, rA, 64)
		x.mask(rA, w)
	case sir.OpShl, sir.OpLShr:
		x.ld(rA, in.A)
		x.ld(rC, in.B)
		x.zero(rD)
		if in.Op == sir.OpShl {
			a.ShiftRegCL(amd64.Shl, rA, 64)
			x.mask(rA, w)
		} else {
			a.ShiftRegCL(amd64.Shr, rA, 64)
		}
		a.AluRegImm(amd64.Cmp, rC, int64(w), 64)
		a.Cmov(amd64.CondAE, rA, rD, 64)
	case sir.OpAShr:
		x.ld(rA, in.A)
		x.ld(rC, in.B)
		x.sext(rA, w)
		a.MovRegImm(rD, int64(w-1), 32)
		a.AluRegImm(amd64.Cmp, rC, int64(w), 64)
		a.Cmov(amd64.CondAE, rC, rD, 64)
		a.ShiftRegCL(amd64.Sar, rA, 64)
		x.mask(rA, w)
	case sir.OpFShl, sir.OpFShr:
		x.funnel(in, w)
	case sir.OpEq, sir.OpNe, sir.OpULt, sir.OpULe, sir.OpSLt, sir.OpSLe:
		x.ld(rA, in.A)
		cc := map[sir.Op]amd64.Cond{sir.OpEq: amd64.CondE, sir.OpNe: amd64.CondNE, sir.OpULt: amd64.CondB,
			sir.OpULe: amd64.CondBE, sir.OpSLt: amd64.CondL, sir.OpSLe: amd64.CondLE}[in.Op]
		if in.Op == sir.OpSLt || in.Op == sir.OpSLe {
			x.ld(rC, in.B)
			x.sext(rA, aw)
			x.sext(rC, aw)
			a.AluRegReg(amd64.Cmp, rA, rC, 64)
		} else {
			a.AluRegMem(amd64.Cmp, rA, x.slot(in.B), 64)
		}
		a.Setcc(cc, rA)
		a.Movzx(rA, rA, 32, 8)
	case sir.OpMux:
		x.ld(rD, in.A)
		x.ld(rA, in.C)
		a.TestRegImm(rD, 1, 32)
		a.CmovMem(amd64.CondNE, rA, x.slot(in.B), 64)
	case sir.OpSExt:
		x.ld(rA, in.A)
		x.sext(rA, aw)
		x.mask(rA, w)
	case sir.OpExtract:
		x.ld(rA, in.A)
		if in.Lo > 0 {
			a.ShiftRegImm(amd64.Shr, rA, uint8(in.Lo), 64)
		}
		x.mask(rA, w)
	case sir.OpInsert:
		bw := x.w(in.B)
		x.ld(rA, in.A)
		x.ld(rC, in.B)
		a.MovRegImm(rD, int64(^(sir.Mask(bw) << uint(in.Lo))), 64)
		a.AluRegReg(amd64.And, rA, rD, 64)
		if in.Lo > 0 {
			a.ShiftRegImm(amd64.Shl, rC, uint8(in.Lo), 64)
		}
		a.AluRegReg(amd64.Or, rA, rC, 64)
		x.mask(rA, w)
	case sir.OpPopCnt:
		if !cpu.X86.HasPOPCNT {
			return x.unsupported(in.Op, "CPU lacks POPCNT")
		}
		x.ld(rC, in.A)
		a.Bits(amd64.Popcnt, rA, rC, 64)
		x.mask(rA, w)
	case sir.OpClz: // aw-1-bsr(a), with bsr(0) taken as -1
		x.ld(rA, in.A)
		a.MovRegImm(rD, -1, 64)
		a.Bits(amd64.Bsr, rC, rA, 64)
		a.Cmov(amd64.CondE, rC, rD, 64)
		a.MovRegImm(rA, int64(aw-1), 64)
		a.AluRegReg(amd64.Sub, rA, rC, 64)
		x.mask(rA, w)
	case sir.OpLoad, sir.OpStore, sir.OpLoadBits, sir.OpStoreBits:
		return x.mem(in)
	case sir.OpEvent:
		return x.event(in)
	default:
		return x.unsupported(in.Op, "")
	}
	x.st(in.Dst, rA)
	return nil
}

// funnel lowers fshl/fshr on A:B by C (A high), 0 when C >= 2w.
func (x *lowerer) funnel(in *sir.Inst, w int) {
	a := x.a
	x.ld(rC, in.C)
	zero, big, done := a.NewLabel(), a.NewLabel(), a.NewLabel()
	a.AluRegImm(amd64.Cmp, rC, int64(2*w), 64)
	a.Jcc(amd64.CondAE, zero)
	a.AluRegImm(amd64.Cmp, rC, int64(w), 64)
	a.Jcc(amd64.CondAE, big)
	x.ld(rA, in.A)
	x.ld(rD, in.B)
	if in.Op == sir.OpFShl { // a<<c | b>>(w-c): shld on b aligned to the top
		if w < 64 {
			a.ShiftRegImm(amd64.Shl, rD, uint8(64-w), 64)
		}
		a.ShldCL(rA, rD, 64)
		x.mask(rA, w)
	} else if w == 64 { // b>>c | a<<(64-c)
		a.ShrdCL(rD, rA, 64)
		a.MovRegReg(rA, rD, 64)
	} else { // b>>c | a<<(w-c), w-c in 1..w
		a.ShiftRegCL(amd64.Shr, rD, 64)
		a.Unary(amd64.Neg, rC, 32)
		a.AluRegImm(amd64.Add, rC, int64(w), 32)
		a.ShiftRegCL(amd64.Shl, rA, 64)
		a.AluRegReg(amd64.Or, rA, rD, 64)
		x.mask(rA, w)
	}
	a.Jmp(done)
	a.Bind(big) // w <= c < 2w
	a.AluRegImm(amd64.Sub, rC, int64(w), 32)
	if in.Op == sir.OpFShl {
		x.ld(rA, in.B)
		a.ShiftRegCL(amd64.Shl, rA, 64)
		x.mask(rA, w)
	} else {
		x.ld(rA, in.A)
		a.ShiftRegCL(amd64.Shr, rA, 64)
	}
	a.Jmp(done)
	a.Bind(zero)
	x.zero(rA)
	a.Bind(done)
}

// mem lowers load, store, loadbits and storebits.
func (x *lowerer) mem(in *sir.Inst) error {
	a := x.a
	h := x.l.Offset(in.Addr.Home)
	if h < 0 || in.Addr.Home == sir.RingHome {
		return fmt.Errorf("jit: unit %q: layout has no offset for %s", x.u.Name, in.Addr.Home)
	}
	off := h + in.Addr.Offset
	size := in.Size
	bits := in.Op == sir.OpLoadBits || in.Op == sir.OpStoreBits
	lo := 0
	vw := x.w(in.Dst)
	if in.Op.IsStore() {
		vw = x.w(in.A)
	}
	if bits {
		off += in.Lo / 8
		lo = in.Lo % 8
		size = (lo + vw + 7) / 8
	}
	end := int64(off) + int64(size)
	if in.Addr.Dynamic() {
		end += int64(in.Addr.Count-1) * int64(in.Addr.Stride)
	}
	if end > int64(x.arenaOff) || off < 0 {
		return fmt.Errorf("jit: unit %q: access [%d, %d) outside the state of %d bytes", x.u.Name, off, end, x.arenaOff)
	}
	x.minState = max(x.minState, int(end))
	m := amd64.M(base, int32(off))
	skip := a.NewLabel()
	if in.Addr.Dynamic() {
		if !in.Op.IsStore() {
			x.zero(rA) // the result when out of range
		}
		x.ld(rS, in.Addr.Index)
		a.AluRegImm(amd64.Cmp, rS, int64(in.Addr.Count), 64) // Count < 2^31: end fits
		a.Jcc(amd64.CondAE, skip)
		switch in.Addr.Stride {
		case 1, 2, 4, 8:
			m = amd64.MI(base, rS, uint8(in.Addr.Stride), int32(off))
		default:
			a.ImulRegRegImm(rS, rS, int64(in.Addr.Stride), 64)
			m = amd64.MI(base, rS, 1, int32(off))
		}
	}
	switch in.Op {
	case sir.OpLoad:
		x.load(rA, m, size)
		x.mask(rA, vw)
	case sir.OpStore:
		x.ld(rA, in.A)
		a.MovMemReg(m, rA, 8*size)
	case sir.OpLoadBits:
		x.readBytes(m, size)
		if lo > 0 {
			a.ShiftRegImm(amd64.Shr, rA, uint8(lo), 64)
		}
		x.mask(rA, vw)
	case sir.OpStoreBits:
		x.readBytes(m, size) // rA = old bytes
		a.MovRegImm(rD, int64(^(sir.Mask(vw) << uint(lo))), 64)
		a.AluRegReg(amd64.And, rA, rD, 64)
		x.ld(rC, in.A)
		if lo > 0 {
			a.ShiftRegImm(amd64.Shl, rC, uint8(lo), 64)
		}
		a.AluRegReg(amd64.Or, rA, rC, 64)
		x.writeBytes(m, size)
	}
	a.Bind(skip)
	if !in.Op.IsStore() {
		x.st(in.Dst, rA)
	}
	return nil
}

// load zero-extends size (1, 2, 4, 8) bytes at m into r.
func (x *lowerer) load(r amd64.Reg, m amd64.Mem, size int) {
	switch size {
	case 1, 2:
		x.a.MovzxMem(r, m, 32, 8*size)
	case 4:
		x.a.MovRegMem(r, m, 32)
	default:
		x.a.MovRegMem(r, m, 64)
	}
}

// pieces splits n (1..8) bytes into power-of-two accesses, largest first.
func pieces(n int) (ps [][2]int) {
	at := 0
	for _, s := range []int{8, 4, 2, 1} {
		if n-at >= s {
			ps = append(ps, [2]int{s, at})
			at += s
		}
	}
	return ps
}

// readBytes sets rA to the n bytes at m, little-endian, touching exactly those
// bytes (clobbers rD).
func (x *lowerer) readBytes(m amd64.Mem, n int) {
	ps := pieces(n)
	x.load(rA, m, ps[0][0])
	for _, p := range ps[1:] {
		pm := m
		pm.Disp += int32(p[1])
		x.load(rD, pm, p[0])
		x.a.ShiftRegImm(amd64.Shl, rD, uint8(8*p[1]), 64)
		x.a.AluRegReg(amd64.Or, rA, rD, 64)
	}
}

// writeBytes stores the low n bytes of rA at m (clobbers rA).
func (x *lowerer) writeBytes(m amd64.Mem, n int) {
	at := 0
	for _, p := range pieces(n) {
		if p[1] > at {
			x.a.ShiftRegImm(amd64.Shr, rA, uint8(8*(p[1]-at)), 64)
			at = p[1]
		}
		pm := m
		pm.Disp += int32(p[1])
		x.a.MovMemReg(pm, rA, 8*p[0])
	}
}

func (x *lowerer) term(bi int, t *sir.Term) {
	a := x.a
	goTo := func(to sir.BlockID, fallthroughOK bool) {
		if int(to) <= bi {
			x.usedStep = true
			a.AluMemImm(amd64.Sub, x.slotN(0), 1, 64)
			a.Jcc(amd64.CondE, x.stepExit)
		}
		if !fallthroughOK || int(to) != bi+1 {
			a.Jmp(x.blocks[to])
		}
	}
	switch t.Kind {
	case sir.TermJump:
		goTo(t.Then, true)
	case sir.TermBranch:
		x.ld(rA, t.Cond)
		a.TestRegReg(rA, rA, 64)
		if int(t.Then) > bi && int(t.Else) > bi {
			a.Jcc(amd64.CondNE, x.blocks[t.Then])
			goTo(t.Else, true)
			return
		}
		els := a.NewLabel()
		a.Jcc(amd64.CondE, els)
		goTo(t.Then, false)
		a.Bind(els)
		goTo(t.Else, true)
	default:
		a.MovRegImm(StatusReg, int64(t.Status), 32)
		if t.Status == sir.StatusOK && x.ring >= 0 { // ringfull when events were dropped
			a.MovRegImm(rD, int64(sir.StatusRingFull), 32)
			a.AluMemImm(amd64.Cmp, x.ringField(ringDropped), 0, 32)
			a.Cmov(amd64.CondNE, StatusReg, rD, 32)
		}
		a.Ret()
	}
}

// Ring header fields (sir/ring.go).
const (
	ringCount   = 0
	ringUsed    = 4
	ringCap     = 8
	ringDropped = 12
)

func (x *lowerer) ringField(f int) amd64.Mem { return amd64.M(base, int32(x.ring+f)) }

// event lowers OpEvent exactly as sir.RingReserve and the interpreter do:
// the record is dropped (and dropped incremented) when an earlier event was
// dropped or it does not fit in cap-used bytes, cap being clamped to the end
// of the state; otherwise count and used advance and the record (header,
// then per argument width, flags and words) is written at ring+16+used.
func (x *lowerer) event(in *sir.Inst) error {
	a := x.a
	ev := in.Ev
	size := sir.RecordSize(ev)
	maxCap := x.stateSize - x.ring - sir.RingHeaderSize
	if len(ev.Args) > 0xffff || size >= 1<<30 {
		return fmt.Errorf("jit: unit %q: event record of %d bytes", x.u.Name, size)
	}
	drop, done := a.NewLabel(), a.NewLabel()
	a.AluMemImm(amd64.Cmp, x.ringField(ringDropped), 0, 32)
	a.Jcc(amd64.CondNE, drop)
	a.MovRegMem(rA, x.ringField(ringUsed), 32) // zero-extended
	a.MovRegMem(rD, x.ringField(ringCap), 32)
	a.MovRegImm(rC, int64(maxCap), 64)
	a.AluRegReg(amd64.Cmp, rD, rC, 64)
	a.Cmov(amd64.CondA, rD, rC, 64) // capacity = min(cap, maxCap)
	a.Lea(rS, amd64.M(rA, int32(size)), 64)
	a.AluRegReg(amd64.Cmp, rS, rD, 64)
	a.Jcc(amd64.CondA, drop) // used+size > capacity
	a.MovMemReg(x.ringField(ringUsed), rS, 32)
	a.AluMemImm(amd64.Add, x.ringField(ringCount), 1, 32)
	rec := func(k int) amd64.Mem { return amd64.MI(base, rA, 1, int32(x.ring+sir.RingHeaderSize+k)) }
	put := func(k int, v uint64) {
		if int64(v) >= -1<<31 && int64(v) < 1<<31 {
			a.MovMemImm(rec(k), int64(v), 64)
			return
		}
		a.MovRegImm(rC, int64(v), 64)
		a.MovMemReg(rec(k), rC, 64)
	}
	put(0, uint64(byte(ev.Kind))|uint64(uint16(len(ev.Args)))<<16|uint64(uint32(ev.Format))<<32)
	put(8, uint64(uint32(ev.Level))|uint64(uint32(size))<<32)
	q := 16
	for _, arg := range ev.Args {
		var flags uint64
		if arg.Signed {
			flags = 1
		}
		put(q, uint64(uint32(arg.Width))|flags<<32)
		q += 8
		for _, r := range arg.Words {
			x.ld(rC, r)
			a.MovMemReg(rec(q), rC, 64)
			q += 8
		}
	}
	a.Jmp(done)
	a.Bind(drop)
	a.AluMemImm(amd64.Add, x.ringField(ringDropped), 1, 32)
	a.Bind(done)
	return nil
}
