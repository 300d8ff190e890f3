package amd64

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"golang.org/x/arch/x86/x86asm"
)

// A tcase is one emitted instruction and what x86asm must decode it to.
type tcase struct {
	name     string
	emit     func(a *Assembler)
	op       x86asm.Op
	args     []x86asm.Arg
	immBits  int // Imm arguments compare modulo 2^immBits (0: 64)
	memBytes int // size of the memory operand, 0: not checked
}

func xreg(r Reg, w int) x86asm.Reg {
	switch w {
	case 8:
		switch {
		case r < 4:
			return x86asm.AL + x86asm.Reg(r)
		case r < 8:
			return x86asm.SPB + x86asm.Reg(r-4)
		default:
			return x86asm.R8B + x86asm.Reg(r-8)
		}
	case 16:
		return x86asm.AX + x86asm.Reg(r)
	case 32:
		return x86asm.EAX + x86asm.Reg(r)
	}
	return x86asm.RAX + x86asm.Reg(r)
}

func xmem(m Mem) x86asm.Mem {
	x := x86asm.Mem{Base: x86asm.RAX + x86asm.Reg(m.Base), Disp: int64(m.Disp)}
	if m.Scale != 0 {
		x.Index = x86asm.RAX + x86asm.Reg(m.Index)
		x.Scale = m.Scale
	}
	return x
}

func argEq(got, want x86asm.Arg, immBits int) bool {
	switch w := want.(type) {
	case x86asm.Mem:
		g, ok := got.(x86asm.Mem)
		if !ok {
			return false
		}
		if g.Index == 0 {
			g.Scale = 0 // a SIB without index decodes as scale 1
		}
		return g == w
	case x86asm.Imm:
		g, ok := got.(x86asm.Imm)
		if !ok {
			return false
		}
		if immBits == 0 || immBits == 64 {
			return g == w
		}
		mask := uint64(1)<<immBits - 1
		return uint64(g)&mask == uint64(w)&mask
	}
	return got == want
}

// check assembles c alone, decodes it and compares.
func check(t *testing.T, c tcase) bool {
	t.Helper()
	a := New()
	c.emit(a)
	code, err := a.Finish()
	if err != nil {
		t.Errorf("%s: %v", c.name, err)
		return false
	}
	inst, err := x86asm.Decode(code, 64)
	if err != nil {
		t.Errorf("%s: % x: decode: %v", c.name, code, err)
		return false
	}
	ok := inst.Len == len(code) && inst.Op == c.op
	n := 0
	for n < len(inst.Args) && inst.Args[n] != nil {
		n++
	}
	ok = ok && n == len(c.args)
	for i := 0; ok && i < n; i++ {
		ok = argEq(inst.Args[i], c.args[i], c.immBits)
	}
	if ok && c.memBytes != 0 && inst.MemBytes != c.memBytes {
		ok = false
	}
	if ok && bareREX(code) && !hasByteReg(inst.Args) {
		t.Errorf("%s: % x: redundant REX prefix", c.name, code)
		return false
	}
	if !ok {
		t.Errorf("%s: % x decodes as %v (len %d of %d, %d mem bytes); want %v %v (%d mem bytes)",
			c.name, code, x86asm.IntelSyntax(inst, 0, nil), inst.Len, len(code), inst.MemBytes, c.op, c.args, c.memBytes)
	}
	return ok
}

// bareREX reports whether code carries a REX prefix with no bits set.
func bareREX(code []byte) bool {
	i := 0
	for i < len(code) && (code[i] == 0x66 || code[i] == 0xF3) {
		i++
	}
	return i < len(code) && code[i] == 0x40
}

// hasByteReg reports whether an argument is SPL, BPL, SIL or DIL, the only
// reason for a bare REX.
func hasByteReg(as x86asm.Args) bool {
	for _, a := range as {
		if r, ok := a.(x86asm.Reg); ok && r >= x86asm.SPB && r <= x86asm.DIB {
			return true
		}
	}
	return false
}

// ---- operand sets ----

var (
	allRegs = func() (r []Reg) {
		for i := range Reg(NumRegs) {
			r = append(r, i)
		}
		return
	}()
	widths    = []int{8, 16, 32, 64}
	widthsNo8 = []int{16, 32, 64}
	disps     = []int32{0, 1, -1, 127, -128, 128, -129, 0x1234, 0x7fffffff, -0x80000000}
)

// mems returns every base with every displacement class, and every
// base × index × scale with a few displacements.
func mems() []Mem {
	var ms []Mem
	for _, b := range allRegs {
		for _, d := range disps {
			ms = append(ms, M(b, d))
		}
		for _, x := range allRegs {
			if x == RSP {
				continue
			}
			for _, s := range []uint8{1, 2, 4, 8} {
				for _, d := range []int32{0, 0x40, -0x12345} {
					ms = append(ms, MI(b, x, s, d))
				}
			}
		}
	}
	return ms
}

func imms(w int) []int64 {
	switch w {
	case 8:
		return []int64{0, 1, -1, 127, -128, 0x80, 0xff}
	case 16:
		return []int64{0, 1, -1, 127, -128, 128, -129, 0x7fff, -0x8000, 0xffff}
	case 32:
		return []int64{0, 1, -1, 127, -128, 128, -129, 0x12345678, 0x7fffffff, -0x80000000, 0xffffffff}
	}
	return []int64{0, 1, -1, 127, -128, 128, -129, 0x12345678, 0x7fffffff, -0x80000000}
}

// ---- forms ----

// operands for one instance of a form.
type ops struct {
	d, s  Reg
	m     Mem
	w, sw int
	imm   int64
	n     uint8
	cc    Cond
	alu   AluOp
	un    UnOp
	shift ShiftOp
	bit   BitOp
}

// A form is an instruction form: which operands it takes and what it
// decodes to.
type form struct {
	name   string
	widths []int
	mem    bool // uses o.m
	imm    bool // uses o.imm
	count  bool // uses o.n (shift count / bit index)
	build  func(o ops) tcase
}

var aluX = [...]x86asm.Op{x86asm.ADD, x86asm.OR, x86asm.ADC, x86asm.SBB, x86asm.AND, x86asm.SUB, x86asm.XOR, x86asm.CMP}
var unX = [8]x86asm.Op{2: x86asm.NOT, 3: x86asm.NEG, 4: x86asm.MUL, 5: x86asm.IMUL, 6: x86asm.DIV, 7: x86asm.IDIV}
var shiftX = [8]x86asm.Op{x86asm.ROL, x86asm.ROR, x86asm.RCL, x86asm.RCR, x86asm.SHL, x86asm.SHR, 0, x86asm.SAR}
var bitX = [...]x86asm.Op{x86asm.POPCNT, x86asm.LZCNT, x86asm.TZCNT, x86asm.BSR, x86asm.BSF}
var jccX = [NumConds]x86asm.Op{x86asm.JO, x86asm.JNO, x86asm.JB, x86asm.JAE, x86asm.JE, x86asm.JNE, x86asm.JBE, x86asm.JA, x86asm.JS, x86asm.JNS, x86asm.JP, x86asm.JNP, x86asm.JL, x86asm.JGE, x86asm.JLE, x86asm.JG}
var setX = [NumConds]x86asm.Op{x86asm.SETO, x86asm.SETNO, x86asm.SETB, x86asm.SETAE, x86asm.SETE, x86asm.SETNE, x86asm.SETBE, x86asm.SETA, x86asm.SETS, x86asm.SETNS, x86asm.SETP, x86asm.SETNP, x86asm.SETL, x86asm.SETGE, x86asm.SETLE, x86asm.SETG}
var cmovX = [NumConds]x86asm.Op{x86asm.CMOVO, x86asm.CMOVNO, x86asm.CMOVB, x86asm.CMOVAE, x86asm.CMOVE, x86asm.CMOVNE, x86asm.CMOVBE, x86asm.CMOVA, x86asm.CMOVS, x86asm.CMOVNS, x86asm.CMOVP, x86asm.CMOVNP, x86asm.CMOVL, x86asm.CMOVGE, x86asm.CMOVLE, x86asm.CMOVG}

type args = []x86asm.Arg

func xi(v int64) x86asm.Imm { return x86asm.Imm(v) }

func forms() []form {
	var fs []form
	add := func(f form) { fs = append(fs, f) }
	name := func(o ops, s string) string { return fmt.Sprintf("%s/w%d", s, o.w) }

	// mov
	add(form{name: "mov r,r", widths: widths, build: func(o ops) tcase {
		return tcase{name(o, fmt.Sprintf("mov %s,%s", o.d.Name(o.w), o.s.Name(o.w))), func(a *Assembler) { a.MovRegReg(o.d, o.s, o.w) },
			x86asm.MOV, args{xreg(o.d, o.w), xreg(o.s, o.w)}, o.w, 0}
	}})
	add(form{name: "mov r,imm", widths: widths, imm: true, build: func(o ops) tcase {
		dw := o.w
		if o.w == 64 && o.imm >= 0 && o.imm < 1<<32 {
			dw = 32 // zero-extending short form
		}
		return tcase{name(o, fmt.Sprintf("mov %s,%#x", o.d.Name(o.w), o.imm)), func(a *Assembler) { a.MovRegImm(o.d, o.imm, o.w) },
			x86asm.MOV, args{xreg(o.d, dw), xi(o.imm)}, dw, 0}
	}})
	add(form{name: "mov r,[m]", widths: widths, mem: true, build: func(o ops) tcase {
		return tcase{name(o, fmt.Sprintf("mov %s,%s", o.d.Name(o.w), o.m)), func(a *Assembler) { a.MovRegMem(o.d, o.m, o.w) },
			x86asm.MOV, args{xreg(o.d, o.w), xmem(o.m)}, 0, o.w / 8}
	}})
	add(form{name: "mov [m],r", widths: widths, mem: true, build: func(o ops) tcase {
		return tcase{name(o, fmt.Sprintf("mov %s,%s", o.m, o.s.Name(o.w))), func(a *Assembler) { a.MovMemReg(o.m, o.s, o.w) },
			x86asm.MOV, args{xmem(o.m), xreg(o.s, o.w)}, 0, o.w / 8}
	}})
	add(form{name: "mov [m],imm", widths: widths, mem: true, imm: true, build: func(o ops) tcase {
		return tcase{name(o, fmt.Sprintf("mov %s,%#x", o.m, o.imm)), func(a *Assembler) { a.MovMemImm(o.m, o.imm, o.w) },
			x86asm.MOV, args{xmem(o.m), xi(o.imm)}, o.w, o.w / 8}
	}})
	for _, signed := range []bool{false, true} {
		op, nm := x86asm.MOVZX, "movzx"
		if signed {
			op, nm = x86asm.MOVSX, "movsx"
		}
		for _, sw := range []int{8, 16, 32} {
			if sw == 32 && !signed {
				continue
			}
			dws := []int{32, 64}
			xop := op
			if sw == 32 {
				dws, xop = []int{64}, x86asm.MOVSXD
			}
			add(form{name: fmt.Sprintf("%s r,r%d", nm, sw), widths: dws, build: func(o ops) tcase {
				return tcase{name(o, fmt.Sprintf("%s %s,%s", nm, o.d.Name(o.w), o.s.Name(sw))), func(a *Assembler) {
					if signed {
						a.Movsx(o.d, o.s, o.w, sw)
					} else {
						a.Movzx(o.d, o.s, o.w, sw)
					}
				}, xop, args{xreg(o.d, o.w), xreg(o.s, sw)}, 0, 0}
			}})
			add(form{name: fmt.Sprintf("%s r,m%d", nm, sw), widths: dws, mem: true, build: func(o ops) tcase {
				return tcase{name(o, fmt.Sprintf("%s %s,%s", nm, o.d.Name(o.w), o.m)), func(a *Assembler) {
					if signed {
						a.MovsxMem(o.d, o.m, o.w, sw)
					} else {
						a.MovzxMem(o.d, o.m, o.w, sw)
					}
				}, xop, args{xreg(o.d, o.w), xmem(o.m)}, 0, sw / 8}
			}})
		}
	}
	add(form{name: "lea", widths: widthsNo8, mem: true, build: func(o ops) tcase {
		return tcase{name(o, fmt.Sprintf("lea %s,%s", o.d.Name(o.w), o.m)), func(a *Assembler) { a.Lea(o.d, o.m, o.w) },
			x86asm.LEA, args{xreg(o.d, o.w), xmem(o.m)}, 0, 0}
	}})
	add(form{name: "push", widths: []int{64}, build: func(o ops) tcase {
		return tcase{"push " + o.d.String(), func(a *Assembler) { a.Push(o.d) }, x86asm.PUSH, args{xreg(o.d, 64)}, 0, 0}
	}})
	add(form{name: "pop", widths: []int{64}, build: func(o ops) tcase {
		return tcase{"pop " + o.d.String(), func(a *Assembler) { a.Pop(o.d) }, x86asm.POP, args{xreg(o.d, 64)}, 0, 0}
	}})

	// alu
	for op := Add; op <= Cmp; op++ {
		add(form{name: op.String() + " r,r", widths: widths, build: func(o ops) tcase {
			return tcase{name(o, fmt.Sprintf("%s %s,%s", op, o.d.Name(o.w), o.s.Name(o.w))), func(a *Assembler) { a.AluRegReg(op, o.d, o.s, o.w) },
				aluX[op], args{xreg(o.d, o.w), xreg(o.s, o.w)}, 0, 0}
		}})
		add(form{name: op.String() + " r,imm", widths: widths, imm: true, build: func(o ops) tcase {
			return tcase{name(o, fmt.Sprintf("%s %s,%#x", op, o.d.Name(o.w), o.imm)), func(a *Assembler) { a.AluRegImm(op, o.d, o.imm, o.w) },
				aluX[op], args{xreg(o.d, o.w), xi(o.imm)}, o.w, 0}
		}})
		add(form{name: op.String() + " r,[m]", widths: widths, mem: true, build: func(o ops) tcase {
			return tcase{name(o, fmt.Sprintf("%s %s,%s", op, o.d.Name(o.w), o.m)), func(a *Assembler) { a.AluRegMem(op, o.d, o.m, o.w) },
				aluX[op], args{xreg(o.d, o.w), xmem(o.m)}, 0, o.w / 8}
		}})
		add(form{name: op.String() + " [m],r", widths: widths, mem: true, build: func(o ops) tcase {
			return tcase{name(o, fmt.Sprintf("%s %s,%s", op, o.m, o.s.Name(o.w))), func(a *Assembler) { a.AluMemReg(op, o.m, o.s, o.w) },
				aluX[op], args{xmem(o.m), xreg(o.s, o.w)}, 0, o.w / 8}
		}})
		add(form{name: op.String() + " [m],imm", widths: widths, mem: true, imm: true, build: func(o ops) tcase {
			return tcase{name(o, fmt.Sprintf("%s %s,%#x", op, o.m, o.imm)), func(a *Assembler) { a.AluMemImm(op, o.m, o.imm, o.w) },
				aluX[op], args{xmem(o.m), xi(o.imm)}, o.w, o.w / 8}
		}})
	}
	add(form{name: "test r,r", widths: widths, build: func(o ops) tcase {
		return tcase{name(o, fmt.Sprintf("test %s,%s", o.d.Name(o.w), o.s.Name(o.w))), func(a *Assembler) { a.TestRegReg(o.d, o.s, o.w) },
			x86asm.TEST, args{xreg(o.d, o.w), xreg(o.s, o.w)}, 0, 0}
	}})
	add(form{name: "test r,imm", widths: widths, imm: true, build: func(o ops) tcase {
		return tcase{name(o, fmt.Sprintf("test %s,%#x", o.d.Name(o.w), o.imm)), func(a *Assembler) { a.TestRegImm(o.d, o.imm, o.w) },
			x86asm.TEST, args{xreg(o.d, o.w), xi(o.imm)}, o.w, 0}
	}})
	add(form{name: "test [m],r", widths: widths, mem: true, build: func(o ops) tcase {
		return tcase{name(o, fmt.Sprintf("test %s,%s", o.m, o.s.Name(o.w))), func(a *Assembler) { a.TestMemReg(o.m, o.s, o.w) },
			x86asm.TEST, args{xmem(o.m), xreg(o.s, o.w)}, 0, o.w / 8}
	}})
	add(form{name: "test [m],imm", widths: widths, mem: true, imm: true, build: func(o ops) tcase {
		return tcase{name(o, fmt.Sprintf("test %s,%#x", o.m, o.imm)), func(a *Assembler) { a.TestMemImm(o.m, o.imm, o.w) },
			x86asm.TEST, args{xmem(o.m), xi(o.imm)}, o.w, o.w / 8}
	}})

	// one-operand group
	for _, op := range []UnOp{Not, Neg, Mul, Imul1, Div, Idiv} {
		add(form{name: op.String() + " r", widths: widths, build: func(o ops) tcase {
			return tcase{name(o, fmt.Sprintf("%s %s", op, o.d.Name(o.w))), func(a *Assembler) { a.Unary(op, o.d, o.w) },
				unX[op], args{xreg(o.d, o.w)}, 0, 0}
		}})
		add(form{name: op.String() + " [m]", widths: widths, mem: true, build: func(o ops) tcase {
			return tcase{name(o, fmt.Sprintf("%s %s", op, o.m)), func(a *Assembler) { a.UnaryMem(op, o.m, o.w) },
				unX[op], args{xmem(o.m)}, 0, o.w / 8}
		}})
	}
	add(form{name: "imul r,r", widths: widthsNo8, build: func(o ops) tcase {
		return tcase{name(o, fmt.Sprintf("imul %s,%s", o.d.Name(o.w), o.s.Name(o.w))), func(a *Assembler) { a.ImulRegReg(o.d, o.s, o.w) },
			x86asm.IMUL, args{xreg(o.d, o.w), xreg(o.s, o.w)}, 0, 0}
	}})
	add(form{name: "imul r,[m]", widths: widthsNo8, mem: true, build: func(o ops) tcase {
		return tcase{name(o, fmt.Sprintf("imul %s,%s", o.d.Name(o.w), o.m)), func(a *Assembler) { a.ImulRegMem(o.d, o.m, o.w) },
			x86asm.IMUL, args{xreg(o.d, o.w), xmem(o.m)}, 0, o.w / 8}
	}})
	add(form{name: "imul r,r,imm", widths: widthsNo8, imm: true, build: func(o ops) tcase {
		return tcase{name(o, fmt.Sprintf("imul %s,%s,%#x", o.d.Name(o.w), o.s.Name(o.w), o.imm)), func(a *Assembler) { a.ImulRegRegImm(o.d, o.s, o.imm, o.w) },
			x86asm.IMUL, args{xreg(o.d, o.w), xreg(o.s, o.w), xi(o.imm)}, o.w, 0}
	}})

	// shifts
	for _, op := range []ShiftOp{Rol, Ror, Rcl, Rcr, Shl, Shr, Sar} {
		add(form{name: op.String() + " r,cl", widths: widths, build: func(o ops) tcase {
			return tcase{name(o, fmt.Sprintf("%s %s,cl", op, o.d.Name(o.w))), func(a *Assembler) { a.ShiftRegCL(op, o.d, o.w) },
				shiftX[op], args{xreg(o.d, o.w), x86asm.CL}, 0, 0}
		}})
		add(form{name: op.String() + " [m],cl", widths: widths, mem: true, build: func(o ops) tcase {
			return tcase{name(o, fmt.Sprintf("%s %s,cl", op, o.m)), func(a *Assembler) { a.ShiftMemCL(op, o.m, o.w) },
				shiftX[op], args{xmem(o.m), x86asm.CL}, 0, o.w / 8}
		}})
		add(form{name: op.String() + " r,n", widths: widths, count: true, build: func(o ops) tcase {
			return tcase{name(o, fmt.Sprintf("%s %s,%d", op, o.d.Name(o.w), o.n)), func(a *Assembler) { a.ShiftRegImm(op, o.d, o.n, o.w) },
				shiftX[op], args{xreg(o.d, o.w), xi(int64(o.n))}, 8, 0}
		}})
		add(form{name: op.String() + " [m],n", widths: widths, mem: true, count: true, build: func(o ops) tcase {
			return tcase{name(o, fmt.Sprintf("%s %s,%d", op, o.m, o.n)), func(a *Assembler) { a.ShiftMemImm(op, o.m, o.n, o.w) },
				shiftX[op], args{xmem(o.m), xi(int64(o.n))}, 8, o.w / 8}
		}})
	}
	add(form{name: "shld r,r,n", widths: widthsNo8, count: true, build: func(o ops) tcase {
		return tcase{name(o, fmt.Sprintf("shld %s,%s,%d", o.d.Name(o.w), o.s.Name(o.w), o.n)), func(a *Assembler) { a.ShldImm(o.d, o.s, o.n, o.w) },
			x86asm.SHLD, args{xreg(o.d, o.w), xreg(o.s, o.w), xi(int64(o.n))}, 8, 0}
	}})
	add(form{name: "shrd r,r,n", widths: widthsNo8, count: true, build: func(o ops) tcase {
		return tcase{name(o, fmt.Sprintf("shrd %s,%s,%d", o.d.Name(o.w), o.s.Name(o.w), o.n)), func(a *Assembler) { a.ShrdImm(o.d, o.s, o.n, o.w) },
			x86asm.SHRD, args{xreg(o.d, o.w), xreg(o.s, o.w), xi(int64(o.n))}, 8, 0}
	}})
	add(form{name: "shld r,r,cl", widths: widthsNo8, build: func(o ops) tcase {
		return tcase{name(o, fmt.Sprintf("shld %s,%s,cl", o.d.Name(o.w), o.s.Name(o.w))), func(a *Assembler) { a.ShldCL(o.d, o.s, o.w) },
			x86asm.SHLD, args{xreg(o.d, o.w), xreg(o.s, o.w), x86asm.CL}, 0, 0}
	}})
	add(form{name: "shrd r,r,cl", widths: widthsNo8, build: func(o ops) tcase {
		return tcase{name(o, fmt.Sprintf("shrd %s,%s,cl", o.d.Name(o.w), o.s.Name(o.w))), func(a *Assembler) { a.ShrdCL(o.d, o.s, o.w) },
			x86asm.SHRD, args{xreg(o.d, o.w), xreg(o.s, o.w), x86asm.CL}, 0, 0}
	}})
	add(form{name: "bt r,r", widths: widthsNo8, build: func(o ops) tcase {
		return tcase{name(o, fmt.Sprintf("bt %s,%s", o.d.Name(o.w), o.s.Name(o.w))), func(a *Assembler) { a.BtRegReg(o.d, o.s, o.w) },
			x86asm.BT, args{xreg(o.d, o.w), xreg(o.s, o.w)}, 0, 0}
	}})
	add(form{name: "bt r,n", widths: widthsNo8, count: true, build: func(o ops) tcase {
		return tcase{name(o, fmt.Sprintf("bt %s,%d", o.d.Name(o.w), o.n)), func(a *Assembler) { a.BtRegImm(o.d, o.n, o.w) },
			x86asm.BT, args{xreg(o.d, o.w), xi(int64(o.n))}, 8, 0}
	}})
	add(form{name: "bt [m],n", widths: widthsNo8, mem: true, count: true, build: func(o ops) tcase {
		return tcase{name(o, fmt.Sprintf("bt %s,%d", o.m, o.n)), func(a *Assembler) { a.BtMemImm(o.m, o.n, o.w) },
			x86asm.BT, args{xmem(o.m), xi(int64(o.n))}, 8, o.w / 8}
	}})
	for op := Popcnt; op <= Bsf; op++ {
		add(form{name: op.String(), widths: widthsNo8, build: func(o ops) tcase {
			return tcase{name(o, fmt.Sprintf("%s %s,%s", op, o.d.Name(o.w), o.s.Name(o.w))), func(a *Assembler) { a.Bits(op, o.d, o.s, o.w) },
				bitX[op], args{xreg(o.d, o.w), xreg(o.s, o.w)}, 0, 0}
		}})
	}

	// flag consumers
	for cc := range Cond(NumConds) {
		add(form{name: "set" + cc.String(), widths: []int{8}, build: func(o ops) tcase {
			return tcase{fmt.Sprintf("set%s %s", cc, o.d.Name(8)), func(a *Assembler) { a.Setcc(cc, o.d) },
				setX[cc], args{xreg(o.d, 8)}, 0, 0}
		}})
		add(form{name: "cmov" + cc.String() + " r,r", widths: widthsNo8, build: func(o ops) tcase {
			return tcase{name(o, fmt.Sprintf("cmov%s %s,%s", cc, o.d.Name(o.w), o.s.Name(o.w))), func(a *Assembler) { a.Cmov(cc, o.d, o.s, o.w) },
				cmovX[cc], args{xreg(o.d, o.w), xreg(o.s, o.w)}, 0, 0}
		}})
		add(form{name: "cmov" + cc.String() + " r,[m]", widths: widthsNo8, mem: true, build: func(o ops) tcase {
			return tcase{name(o, fmt.Sprintf("cmov%s %s,%s", cc, o.d.Name(o.w), o.m)), func(a *Assembler) { a.CmovMem(cc, o.d, o.m, o.w) },
				cmovX[cc], args{xreg(o.d, o.w), xmem(o.m)}, 0, o.w / 8}
		}})
	}
	add(form{name: "jmp r", widths: []int{64}, build: func(o ops) tcase {
		return tcase{"jmp " + o.d.String(), func(a *Assembler) { a.JmpReg(o.d) }, x86asm.JMP, args{xreg(o.d, 64)}, 0, 0}
	}})
	add(form{name: "call r", widths: []int{64}, build: func(o ops) tcase {
		return tcase{"call " + o.d.String(), func(a *Assembler) { a.CallReg(o.d) }, x86asm.CALL, args{xreg(o.d, 64)}, 0, 0}
	}})
	return fs
}

// counts returns the shift counts / bit indexes tried at width w.
func counts(w int) []uint8 {
	if w == 64 {
		return []uint8{0, 1, 2, 7, 31, 32, 63}
	}
	if w == 8 {
		return []uint8{0, 1, 2, 7, 31} // hardware masks to 5 bits even at width 8
	}
	return []uint8{0, 1, 2, 7, w2c(w)}
}

func w2c(w int) uint8 { return uint8(min(w, 32) - 1) }

// TestEncodeTable runs every form over all registers × widths, every
// addressing form, and immediate edge values.
func TestEncodeTable(t *testing.T) {
	ms := mems()
	if testing.Short() {
		ms = ms[:len(ms)/8]
	}
	total := 0
	for _, f := range forms() {
		for _, w := range f.widths {
			var cases []ops
			base := ops{w: w}
			switch {
			case f.mem:
				// every addressing form, the register rotating through all 16
				for i, m := range ms {
					o := base
					o.m, o.d, o.s = m, Reg(i%NumRegs), Reg((i*7+3)%NumRegs)
					cases = append(cases, o)
				}
			default:
				for _, d := range allRegs {
					for _, s := range allRegs {
						o := base
						o.d, o.s = d, s
						cases = append(cases, o)
					}
				}
			}
			cases = expand(cases, f, w)
			for _, o := range cases {
				total++
				if !check(t, f.build(o)) && t.Failed() && total > 50 {
					t.Fatalf("stopping after failures in %s", f.name)
				}
			}
		}
	}
	t.Logf("%d forms, %d encodings decoded and compared", len(forms()), total)
}

// expand multiplies cases by the immediates or counts the form takes
// (cycling through them rather than taking the full product).
func expand(cases []ops, f form, w int) []ops {
	switch {
	case f.imm:
		vals := imms(w)
		if w == 64 && f.name == "mov r,imm" {
			vals = append(vals, 0xffffffff, 0x100000000, -0x80000001, 0x123456789abcdef0, -1<<63)
		}
		var out []ops
		for i, o := range cases {
			if !f.mem && i%16 != 0 { // registers: all values for each destination
				continue
			}
			for j, v := range vals {
				if f.mem && j != i%len(vals) {
					continue
				}
				o.imm = v
				out = append(out, o)
			}
		}
		return out
	case f.count:
		cs := counts(w)
		for i := range cases {
			cases[i].n = cs[i%len(cs)]
		}
	}
	return cases
}

// TestEncodeRandom draws random forms and operands.
func TestEncodeRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	fs := forms()
	n := 50000
	if testing.Short() {
		n = 5000
	}
	for i := 0; i < n; i++ {
		f := fs[rng.IntN(len(fs))]
		w := f.widths[rng.IntN(len(f.widths))]
		o := ops{w: w, d: Reg(rng.IntN(NumRegs)), s: Reg(rng.IntN(NumRegs))}
		if f.mem {
			o.m = Mem{Base: Reg(rng.IntN(NumRegs)), Disp: randDisp(rng)}
			if rng.IntN(2) == 0 {
				o.m.Index = Reg(rng.IntN(NumRegs - 1))
				if o.m.Index >= RSP {
					o.m.Index++
				}
				o.m.Scale = []uint8{1, 2, 4, 8}[rng.IntN(4)]
			}
		}
		if f.imm {
			o.imm = randImm(rng, w, f.name == "mov r,imm")
		}
		if f.count {
			lim := 32
			if w == 64 {
				lim = 64
			}
			if strings.HasPrefix(f.name, "bt") {
				lim = w
			}
			o.n = uint8(rng.IntN(lim))
		}
		if !check(t, f.build(o)) && i > 100 {
			t.Fatal("stopping")
		}
	}
	t.Logf("%d random encodings decoded and compared", n)
}

func randDisp(rng *rand.Rand) int32 {
	switch rng.IntN(3) {
	case 0:
		return int32(int8(rng.Uint32()))
	case 1:
		return 0
	}
	return int32(rng.Uint32())
}

func randImm(rng *rand.Rand, w int, any64 bool) int64 {
	switch w {
	case 8:
		return int64(int8(rng.Uint32()))
	case 16:
		return int64(int16(rng.Uint32()))
	case 32:
		if rng.IntN(2) == 0 {
			return int64(rng.Uint32())
		}
		return int64(int32(rng.Uint32()))
	}
	if any64 && rng.IntN(2) == 0 {
		return int64(rng.Uint64())
	}
	if rng.IntN(2) == 0 {
		return int64(int8(rng.Uint32()))
	}
	return int64(int32(rng.Uint32()))
}

// TestKnownBytes pins a few encodings checked by hand against the Intel SDM.
func TestKnownBytes(t *testing.T) {
	for _, c := range []struct {
		want string
		emit func(a *Assembler)
	}{
		{"4889d8", func(a *Assembler) { a.MovRegReg(RAX, RBX, 64) }},               // mov rax, rbx
		{"89d8", func(a *Assembler) { a.MovRegReg(RAX, RBX, 32) }},                 // mov eax, ebx
		{"4088f0", func(a *Assembler) { a.MovRegReg(RAX, RSI, 8) }},                // mov al, sil (REX for sil)
		{"88d8", func(a *Assembler) { a.MovRegReg(RAX, RBX, 8) }},                  // mov al, bl (no REX)
		{"418b0424", func(a *Assembler) { a.MovRegMem(RAX, M(R12, 0), 32) }},       // mov eax, [r12]  (SIB)
		{"418b4500", func(a *Assembler) { a.MovRegMem(RAX, M(R13, 0), 32) }},       // mov eax, [r13]  (disp8 0)
		{"894d00", func(a *Assembler) { a.MovMemReg(M(RBP, 0), RCX, 32) }},         // mov [rbp], ecx
		{"4c8b442408", func(a *Assembler) { a.MovRegMem(R8, M(RSP, 8), 64) }},      // mov r8, [rsp+8]
		{"488d44cb10", func(a *Assembler) { a.Lea(RAX, MI(RBX, RCX, 8, 16), 64) }}, // lea rax, [rbx+rcx*8+16]
		{"4b8b04e5", nil}, // placeholder replaced below
		{"400fb6c6", func(a *Assembler) { a.Movzx(RAX, RSI, 32, 8) }},                    // movzx eax, sil
		{"400f95c7", func(a *Assembler) { a.Setcc(CondNE, RDI) }},                        // setne dil
		{"4883c001", func(a *Assembler) { a.AluRegImm(Add, RAX, 1, 64) }},                // add rax, 1
		{"4881c078563412", func(a *Assembler) { a.AluRegImm(Add, RAX, 0x12345678, 64) }}, // add rax, 0x12345678
		{"83f8ff", func(a *Assembler) { a.AluRegImm(Cmp, RAX, 0xffffffff, 32) }},         // cmp eax, -1
		{"f3480fb8c1", func(a *Assembler) { a.Bits(Popcnt, RAX, RCX, 64) }},              // popcnt rax, rcx
		{"48b88877665544332211", func(a *Assembler) { a.MovRegImm(RAX, 0x1122334455667788, 64) }},
		{"b807000000", func(a *Assembler) { a.MovRegImm(RAX, 7, 64) }},      // mov eax, 7
		{"48c7c0ffffffff", func(a *Assembler) { a.MovRegImm(RAX, -1, 64) }}, // mov rax, -1
		{"66b80100", func(a *Assembler) { a.MovRegImm(RAX, 1, 16) }},        // mov ax, 1
		{"48d3e0", func(a *Assembler) { a.ShiftRegCL(Shl, RAX, 64) }},       // shl rax, cl
		{"48d1f8", func(a *Assembler) { a.ShiftRegImm(Sar, RAX, 1, 64) }},   // sar rax, 1
		{"480facd005", func(a *Assembler) { a.ShrdImm(RAX, RDX, 5, 64) }},   // shrd rax, rdx, 5
		{"4899", func(a *Assembler) { a.Cqo() }},
		{"99", func(a *Assembler) { a.Cdq() }},
		{"c3", func(a *Assembler) { a.Ret() }},
		{"4154", func(a *Assembler) { a.Push(R12) }},
		{"415d", func(a *Assembler) { a.Pop(R13) }},
		{"49f7f0", func(a *Assembler) { a.Unary(Div, R8, 64) }},                // div r8
		{"480fafc1", func(a *Assembler) { a.ImulRegReg(RAX, RCX, 64) }},        // imul rax, rcx
		{"6bc00a", func(a *Assembler) { a.ImulRegRegImm(RAX, RAX, 10, 32) }},   // imul eax, eax, 10
		{"480f44c1", func(a *Assembler) { a.Cmov(CondE, RAX, RCX, 64) }},       // cmove rax, rcx
		{"c6430401", func(a *Assembler) { a.MovMemImm(M(RBX, 4), 1, 8) }},      // mov byte [rbx+4], 1
		{"66c743040100", func(a *Assembler) { a.MovMemImm(M(RBX, 4), 1, 16) }}, // mov word [rbx+4], 1
		{"4863c1", func(a *Assembler) { a.Movsx(RAX, RCX, 64, 32) }},           // movsxd rax, ecx
		{"0fa3c8", func(a *Assembler) { a.BtRegReg(RAX, RCX, 32) }},            // bt eax, ecx
		{"0f1f440000", func(a *Assembler) { a.Nop(5) }},
		{"ebfe", func(a *Assembler) { l := a.NewLabel(); a.Bind(l); a.Jmp(l) }},                 // jmp self
		{"0f8500000000", func(a *Assembler) { l := a.NewLabel(); a.Jcc(CondNE, l); a.Bind(l) }}, // jne next (forward: rel32)
		{"7500", func(a *Assembler) { l := a.NewLabel(); a.JccShort(CondNE, l); a.Bind(l) }},    // jne next, short
	} {
		if c.emit == nil {
			// mov rax, [r13+r12*8] : base r13 needs disp8 0, index r12 is fine
			c.want = "4b8b44e500"
			c.emit = func(a *Assembler) { a.MovRegMem(RAX, MI(R13, R12, 8, 0), 64) }
		}
		a := New()
		c.emit(a)
		code, err := a.Finish()
		if err != nil {
			t.Errorf("%s: %v", c.want, err)
			continue
		}
		want, _ := hex.DecodeString(c.want)
		if !bytes.Equal(code, want) {
			inst, _ := x86asm.Decode(want, 64)
			t.Errorf("%v: got % x, want % x", x86asm.IntelSyntax(inst, 0, nil), code, want)
		}
	}
}

// TestBranches checks label resolution: backward short and long, forward
// rel32, forced short, call, and that each decoded branch lands on its label.
func TestBranches(t *testing.T) {
	a := New()
	top := a.NewLabel()
	fwd := a.NewLabel()
	far := a.NewLabel()
	fn := a.NewLabel()
	a.Bind(top)
	a.Jcc(CondE, fwd) // forward: rel32
	a.JccShort(CondL, fwd)
	a.Jcc(CondB, top) // backward near: rel8
	a.Call(fn)
	a.Bind(fwd)
	a.Nop(300)
	a.Jmp(top)        // backward far: rel32
	a.Jcc(CondG, top) // backward far: rel32
	a.Jmp(far)
	a.Nop(200)
	a.Bind(far)
	a.Bind(fn)
	a.Ret()
	code, err := a.Finish()
	if err != nil {
		t.Fatal(err)
	}
	at := func(l Label) int { o, _ := a.Offset(l); return o }
	want := []struct {
		op     x86asm.Op
		target int
		len    int
	}{
		{x86asm.JE, at(fwd), 6}, {x86asm.JL, at(fwd), 2}, {x86asm.JB, at(top), 2}, {x86asm.CALL, at(fn), 5},
		{x86asm.JMP, at(top), 5}, {x86asm.JG, at(top), 6}, {x86asm.JMP, at(far), 5},
	}
	pc, k := 0, 0
	for pc < len(code) && k < len(want) {
		inst, err := x86asm.Decode(code[pc:], 64)
		if err != nil {
			t.Fatalf("decode at %#x: %v", pc, err)
		}
		if inst.Op != x86asm.NOP {
			w := want[k]
			rel, _ := inst.Args[0].(x86asm.Rel)
			if inst.Op != w.op || inst.Len != w.len || pc+inst.Len+int(rel) != w.target {
				t.Errorf("branch %d at %#x: %v len %d -> %#x; want %v len %d -> %#x", k, pc, inst.Op, inst.Len, pc+inst.Len+int(rel), w.op, w.len, w.target)
			}
			k++
		}
		pc += inst.Len
	}
	if k != len(want) {
		t.Errorf("found %d branches, want %d", k, len(want))
	}
	// every condition, both sizes
	for cc := range Cond(NumConds) {
		for _, short := range []bool{false, true} {
			a := New()
			l := a.NewLabel()
			if short {
				a.JccShort(cc, l)
			} else {
				a.Jcc(cc, l)
			}
			a.Nop(3)
			a.Bind(l)
			code, err := a.Finish()
			if err != nil {
				t.Fatal(err)
			}
			inst, err := x86asm.Decode(code, 64)
			if err != nil || inst.Op != jccX[cc] || int(inst.Args[0].(x86asm.Rel)) != 3 {
				t.Errorf("j%s short=%v: % x decodes as %v (%v)", cc, short, code, inst, err)
			}
		}
	}
}

func TestNopAlign(t *testing.T) {
	for n := 0; n <= 40; n++ {
		a := New()
		a.Nop(n)
		code, _ := a.Finish()
		if len(code) != n {
			t.Fatalf("Nop(%d) emitted %d bytes", n, len(code))
		}
		for pc := 0; pc < n; {
			inst, err := x86asm.Decode(code[pc:], 64)
			if err != nil || inst.Op != x86asm.NOP {
				t.Fatalf("Nop(%d): % x at %d: %v %v", n, code[pc:], pc, inst, err)
			}
			pc += inst.Len
		}
	}
	a := New()
	a.Ret()
	a.Align(16)
	if a.Len() != 16 {
		t.Errorf("Align(16) after 1 byte: len %d", a.Len())
	}
	a.Align(16)
	if a.Len() != 16 {
		t.Errorf("Align(16) when aligned: len %d", a.Len())
	}
}

func TestErrors(t *testing.T) {
	for _, c := range []struct {
		name string
		emit func(a *Assembler)
		want string
	}{
		{"rsp index", func(a *Assembler) { a.MovRegMem(RAX, MI(RAX, RSP, 1, 0), 64) }, "rsp cannot be an index"},
		{"scale", func(a *Assembler) { a.MovRegMem(RAX, MI(RAX, RCX, 3, 0), 64) }, "invalid scale"},
		{"width", func(a *Assembler) { a.MovRegReg(RAX, RCX, 12) }, "invalid width"},
		{"imul8", func(a *Assembler) { a.ImulRegReg(RAX, RCX, 8) }, "invalid width"},
		{"reg", func(a *Assembler) { a.MovRegReg(16, RCX, 64) }, "invalid register"},
		{"imm64", func(a *Assembler) { a.AluRegImm(Add, RAX, 1<<31, 64) }, "does not fit"},
		{"imm8", func(a *Assembler) { a.AluRegImm(Add, RAX, 256, 8) }, "does not fit"},
		{"memimm64", func(a *Assembler) { a.MovMemImm(M(RAX, 0), 1<<40, 64) }, "does not fit"},
		{"count", func(a *Assembler) { a.ShiftRegImm(Shl, RAX, 32, 32) }, "out of range"},
		{"bt", func(a *Assembler) { a.BtRegImm(RAX, 16, 16) }, "out of range"},
		{"movzx32", func(a *Assembler) { a.Movzx(RAX, RCX, 64, 32) }, "invalid widths"},
		{"bind twice", func(a *Assembler) { l := a.NewLabel(); a.Bind(l); a.Bind(l) }, "bound twice"},
		{"unknown label", func(a *Assembler) { a.Jmp(Label(5)) }, "unknown label"},
		{"unbound", func(a *Assembler) { a.Jmp(a.NewLabel()) }, "never bound"},
		{"short range", func(a *Assembler) { l := a.NewLabel(); a.JmpShort(l); a.Nop(200); a.Bind(l) }, "out of rel8 range"},
		{"align", func(a *Assembler) { a.Align(3) }, "power of two"},
	} {
		a := New()
		c.emit(a)
		a.Ret() // ignored once an error is recorded, harmless otherwise
		_, err := a.Finish()
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v, want %q", c.name, err, c.want)
		}
	}
	// errors are sticky
	a := New()
	a.MovRegReg(RAX, RCX, 7)
	n := a.Len()
	a.MovRegReg(RAX, RCX, 64)
	if a.Len() != n || a.Err() == nil {
		t.Error("assembler kept emitting after an error")
	}
	a.Reset()
	a.Ret()
	if code, err := a.Finish(); err != nil || len(code) != 1 {
		t.Errorf("after Reset: %x %v", code, err)
	}
}

func BenchmarkEncodeMixed(b *testing.B) {
	a := New()
	for b.Loop() {
		a.Reset()
		l := a.NewLabel()
		a.Bind(l)
		for range 16 {
			a.MovRegMem(RAX, M(RBX, 0x100), 64)
			a.AluRegImm(Add, RAX, 3, 64)
			a.MovMemReg(M(RBX, 0x108), RAX, 64)
			a.AluRegReg(Cmp, RAX, RCX, 64)
			a.Jcc(CondNE, l)
		}
		a.Ret()
		if _, err := a.Finish(); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(16*5+1), "insts/op")
}
