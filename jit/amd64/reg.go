package amd64

import "fmt"

// Reg is a general-purpose register, numbered as in the instruction encoding.
type Reg uint8

// The sixteen general-purpose registers.
const (
	RAX Reg = iota
	RCX
	RDX
	RBX
	RSP
	RBP
	RSI
	RDI
	R8
	R9
	R10
	R11
	R12
	R13
	R14
	R15
)

// NumRegs is the number of general-purpose registers.
const NumRegs = 16

func (r Reg) valid() bool { return r < NumRegs }
func (r Reg) low() byte   { return byte(r) & 7 }
func (r Reg) hi() bool    { return r >= 8 }

var regNames = [4][NumRegs]string{
	{"al", "cl", "dl", "bl", "spl", "bpl", "sil", "dil", "r8b", "r9b", "r10b", "r11b", "r12b", "r13b", "r14b", "r15b"},
	{"ax", "cx", "dx", "bx", "sp", "bp", "si", "di", "r8w", "r9w", "r10w", "r11w", "r12w", "r13w", "r14w", "r15w"},
	{"eax", "ecx", "edx", "ebx", "esp", "ebp", "esi", "edi", "r8d", "r9d", "r10d", "r11d", "r12d", "r13d", "r14d", "r15d"},
	{"rax", "rcx", "rdx", "rbx", "rsp", "rbp", "rsi", "rdi", "r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15"},
}

// String returns the register's 64-bit name.
func (r Reg) String() string { return r.Name(64) }

// Name returns the register's name at width w (8, 16, 32 or 64 bits).
func (r Reg) Name(w int) string {
	i := widthIndex(w)
	if !r.valid() || i < 0 {
		return fmt.Sprintf("reg(%d)/%d", r, w)
	}
	return regNames[i][r]
}

func widthIndex(w int) int {
	switch w {
	case 8:
		return 0
	case 16:
		return 1
	case 32:
		return 2
	case 64:
		return 3
	}
	return -1
}

// Cond is a condition code, numbered as in Jcc/SETcc/CMOVcc encodings.
type Cond uint8

// Condition codes. Unsigned compares: B, AE, BE, A; signed: L, GE, LE, G.
const (
	CondO  Cond = iota // overflow
	CondNO             // not overflow
	CondB              // below (unsigned <), carry set
	CondAE             // above or equal (unsigned >=), carry clear
	CondE              // equal, zero
	CondNE             // not equal, not zero
	CondBE             // below or equal (unsigned <=)
	CondA              // above (unsigned >)
	CondS              // sign
	CondNS             // not sign
	CondP              // parity even
	CondNP             // parity odd
	CondL              // less (signed <)
	CondGE             // greater or equal (signed >=)
	CondLE             // less or equal (signed <=)
	CondG              // greater (signed >)
)

// Aliases.
const (
	CondC  = CondB
	CondNC = CondAE
	CondZ  = CondE
	CondNZ = CondNE
)

// NumConds is the number of condition codes.
const NumConds = 16

var condNames = [NumConds]string{"o", "no", "b", "ae", "e", "ne", "be", "a", "s", "ns", "p", "np", "l", "ge", "le", "g"}

// String returns the mnemonic suffix ("ne", "ae", ...).
func (c Cond) String() string {
	if c >= NumConds {
		return fmt.Sprintf("cond(%d)", c)
	}
	return condNames[c]
}

// Invert returns the opposite condition.
func (c Cond) Invert() Cond { return c ^ 1 }

// Mem is a memory operand [Base + Index*Scale + Disp]. Scale 0 means no
// index; otherwise Scale is 1, 2, 4 or 8 and Index may be any register but
// RSP.
type Mem struct {
	Base  Reg
	Index Reg
	Scale uint8
	Disp  int32
}

// M returns the operand [base + disp].
func M(base Reg, disp int32) Mem { return Mem{Base: base, Disp: disp} }

// MI returns the operand [base + index*scale + disp].
func MI(base, index Reg, scale uint8, disp int32) Mem {
	return Mem{Base: base, Index: index, Scale: scale, Disp: disp}
}

func (m Mem) String() string {
	s := "[" + m.Base.String()
	if m.Scale != 0 {
		s += fmt.Sprintf("+%s*%d", m.Index, m.Scale)
	}
	if m.Disp != 0 {
		s += fmt.Sprintf("%+#x", m.Disp)
	}
	return s + "]"
}
