package amd64

import (
	"encoding/binary"
	"fmt"
)

// Assembler appends x86-64 instructions to a buffer. The zero value is not
// ready; use New.
type Assembler struct {
	buf    []byte
	labels []int // bound offset per label, -1 while unbound
	fixups []fixup
	err    error
}

// Label names a code position. Create it with NewLabel, place it with Bind;
// branches may refer to it before or after it is bound.
type Label int32

type fixup struct {
	label Label
	at    int // offset of the rel field
	size  int // 1 or 4 bytes
	end   int // offset of the next instruction (rel is relative to it)
}

// New returns an empty assembler.
func New() *Assembler {
	return &Assembler{buf: make([]byte, 0, 256)}
}

// Reset empties the assembler for reuse, keeping its buffers.
func (a *Assembler) Reset() {
	a.buf = a.buf[:0]
	a.labels = a.labels[:0]
	a.fixups = a.fixups[:0]
	a.err = nil
}

// Len returns the number of bytes emitted so far (the offset of the next
// instruction).
func (a *Assembler) Len() int { return len(a.buf) }

// Err returns the first error recorded, if any.
func (a *Assembler) Err() error { return a.err }

func (a *Assembler) fail(format string, args ...any) {
	if a.err == nil {
		a.err = fmt.Errorf("amd64: "+format, args...)
	}
}

// NewLabel returns a new, unbound label.
func (a *Assembler) NewLabel() Label {
	a.labels = append(a.labels, -1)
	return Label(len(a.labels) - 1)
}

// Bind places l at the current position.
func (a *Assembler) Bind(l Label) {
	if !a.labelOK("Bind", l) {
		return
	}
	if a.labels[l] >= 0 {
		a.fail("Bind: label %d bound twice", l)
		return
	}
	a.labels[l] = len(a.buf)
}

// Offset returns the position l is bound to.
func (a *Assembler) Offset(l Label) (int, bool) {
	if int(l) < 0 || int(l) >= len(a.labels) || a.labels[l] < 0 {
		return 0, false
	}
	return a.labels[l], true
}

func (a *Assembler) labelOK(what string, l Label) bool {
	if int(l) < 0 || int(l) >= len(a.labels) {
		a.fail("%s: unknown label %d", what, l)
		return false
	}
	return true
}

// Finish resolves branch targets and returns the code. It returns the first
// error recorded while assembling, an unbound label, or a short branch whose
// target is out of rel8 range. The returned slice aliases the assembler's
// buffer until Reset.
func (a *Assembler) Finish() ([]byte, error) {
	if a.err != nil {
		return nil, a.err
	}
	for _, f := range a.fixups {
		target := a.labels[f.label]
		if target < 0 {
			return nil, fmt.Errorf("amd64: label %d used but never bound", f.label)
		}
		rel := target - f.end
		if f.size == 1 {
			if rel < -128 || rel > 127 {
				return nil, fmt.Errorf("amd64: short branch at %#x to label %d: displacement %d out of rel8 range", f.end-2, f.label, rel)
			}
			a.buf[f.at] = byte(int8(rel))
		} else {
			binary.LittleEndian.PutUint32(a.buf[f.at:], uint32(int32(rel)))
		}
	}
	return a.buf, nil
}

// Raw appends bytes verbatim (for forms the encoder does not offer).
func (a *Assembler) Raw(b ...byte) {
	if a.err == nil {
		a.buf = append(a.buf, b...)
	}
}

// ---- operand checks ----

func (a *Assembler) checkW(what string, w int, allow8 bool) bool {
	if w == 16 || w == 32 || w == 64 || (w == 8 && allow8) {
		return true
	}
	a.fail("%s: invalid width %d", what, w)
	return false
}

func (a *Assembler) checkR(what string, rs ...Reg) bool {
	for _, r := range rs {
		if !r.valid() {
			a.fail("%s: invalid register %d", what, r)
			return false
		}
	}
	return true
}

func (a *Assembler) checkM(what string, m Mem) bool {
	if !m.Base.valid() {
		a.fail("%s: invalid base register %d", what, m.Base)
		return false
	}
	switch m.Scale {
	case 0:
	case 1, 2, 4, 8:
		if !m.Index.valid() {
			a.fail("%s: invalid index register %d", what, m.Index)
			return false
		}
		if m.Index == RSP {
			a.fail("%s: rsp cannot be an index register", what)
			return false
		}
	default:
		a.fail("%s: invalid scale %d", what, m.Scale)
		return false
	}
	return true
}

// immFits reports whether imm is representable in a w-bit immediate field
// (as a signed or unsigned value); for w = 64, the field is a sign-extended
// imm32. It returns the value sign-extended from the field width.
func immFits(imm int64, w int) (int64, bool) {
	switch w {
	case 8:
		return int64(int8(imm)), imm >= -1<<7 && imm < 1<<8
	case 16:
		return int64(int16(imm)), imm >= -1<<15 && imm < 1<<16
	case 32:
		return int64(int32(imm)), imm >= -1<<31 && imm < 1<<32
	default:
		return imm, imm >= -1<<31 && imm < 1<<31
	}
}

// ---- encoding core ----

// operand is the r/m operand of a ModRM instruction: a register or memory.
type operand struct {
	mem   bool
	reg   Reg
	m     Mem
	byte_ bool // a register operand that is 8 bits wide
}

func rop(r Reg, w int) operand { return operand{reg: r, byte_: w == 8} }
func mop(m Mem) operand        { return operand{mem: true, m: m} }

// modrm emits [66] [pfx] [REX] op... ModRM [SIB] [disp]. w selects the
// operand-size prefix (16) or REX.W (64); reg is the ModRM.reg field (a
// register number or an opcode extension); regByte says reg names an 8-bit
// register (SPL..DIL need a REX prefix).
func (a *Assembler) modrm(w int, pfx byte, op []byte, reg byte, regByte bool, rm operand) {
	if w == 16 {
		a.buf = append(a.buf, 0x66)
	}
	if pfx != 0 {
		a.buf = append(a.buf, pfx)
	}
	rex := byte(0x40)
	force := false
	if w == 64 {
		rex |= 8
	}
	if reg >= 8 {
		rex |= 4
	}
	if regByte && reg >= 4 && reg < 8 {
		force = true
	}
	if rm.mem {
		if rm.m.Scale != 0 && rm.m.Index.hi() {
			rex |= 2
		}
		if rm.m.Base.hi() {
			rex |= 1
		}
	} else {
		if rm.reg.hi() {
			rex |= 1
		}
		if rm.byte_ && rm.reg >= 4 && rm.reg < 8 {
			force = true
		}
	}
	if rex != 0x40 || force {
		a.buf = append(a.buf, rex)
	}
	a.buf = append(a.buf, op...)
	a.modrmBytes(reg, rm)
}

// modrmBytes emits the ModRM byte, SIB and displacement of reg (the
// ModRM.reg field) and rm, the REX or VEX bits already emitted.
func (a *Assembler) modrmBytes(reg byte, rm operand) {
	r3 := (reg & 7) << 3
	if !rm.mem {
		a.buf = append(a.buf, 0xC0|r3|rm.reg.low())
		return
	}
	m := rm.m
	var mod byte
	switch {
	case m.Disp == 0 && m.Base.low() != 5: // rbp/r13 with mod 00 mean rip/disp32
		mod = 0
	case m.Disp >= -128 && m.Disp <= 127:
		mod = 1
	default:
		mod = 2
	}
	if m.Scale != 0 || m.Base.low() == 4 { // rsp/r12 as base need a SIB
		a.buf = append(a.buf, mod<<6|r3|4)
		idx, ss := byte(4), byte(0) // index 100 = none
		if m.Scale != 0 {
			idx = m.Index.low()
			ss = [9]byte{1: 0, 2: 1, 4: 2, 8: 3}[m.Scale]
		}
		a.buf = append(a.buf, ss<<6|idx<<3|m.Base.low())
	} else {
		a.buf = append(a.buf, mod<<6|r3|m.Base.low())
	}
	switch mod {
	case 1:
		a.buf = append(a.buf, byte(int8(m.Disp)))
	case 2:
		a.buf = binary.LittleEndian.AppendUint32(a.buf, uint32(m.Disp))
	}
}

// opReg emits [66] [REX] op+r (B8+r, 50+r, ...).
func (a *Assembler) opReg(w int, op byte, r Reg) {
	if w == 16 {
		a.buf = append(a.buf, 0x66)
	}
	rex := byte(0x40)
	if w == 64 {
		rex |= 8
	}
	if r.hi() {
		rex |= 1
	}
	if rex != 0x40 || (w == 8 && r >= 4 && r < 8) {
		a.buf = append(a.buf, rex)
	}
	a.buf = append(a.buf, op+r.low())
}

func (a *Assembler) imm(v int64, size int) {
	switch size {
	case 1:
		a.buf = append(a.buf, byte(v))
	case 2:
		a.buf = binary.LittleEndian.AppendUint16(a.buf, uint16(v))
	case 4:
		a.buf = binary.LittleEndian.AppendUint32(a.buf, uint32(v))
	case 8:
		a.buf = binary.LittleEndian.AppendUint64(a.buf, uint64(v))
	}
}

// immSize is the size of a full (not imm8) immediate at width w.
func immSize(w int) int {
	switch w {
	case 8:
		return 1
	case 16:
		return 2
	}
	return 4
}

// sel returns op8 for byte operations, op otherwise.
func sel(w int, op8, op byte) byte {
	if w == 8 {
		return op8
	}
	return op
}
