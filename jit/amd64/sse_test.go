package amd64

import (
	"testing"

	"golang.org/x/arch/x86/x86asm"
)

func xx(x XReg) x86asm.Reg { return x86asm.X0 + x86asm.Reg(x) }

// TestEncodeSSE checks every SSE form lowering uses, for every register
// and the memory operands of the GPR tests, against x86asm.
func TestEncodeSSE(t *testing.T) {
	packed := []struct {
		op   PackedOp
		lane Lane
		want x86asm.Op
	}{
		{PAdd, 1, x86asm.PADDB}, {PAdd, 2, x86asm.PADDW}, {PAdd, 4, x86asm.PADDD}, {PAdd, 8, x86asm.PADDQ},
		{PSub, 1, x86asm.PSUBB}, {PSub, 2, x86asm.PSUBW}, {PSub, 4, x86asm.PSUBD}, {PSub, 8, x86asm.PSUBQ},
		{PAnd, 4, x86asm.PAND}, {PAndN, 4, x86asm.PANDN}, {POr, 8, x86asm.POR}, {PXor, 2, x86asm.PXOR},
		{PCmpEq, 1, x86asm.PCMPEQB}, {PCmpEq, 2, x86asm.PCMPEQW}, {PCmpEq, 4, x86asm.PCMPEQD},
	}
	mems := []Mem{M(RBX, 0), M(R15, 0x10), M(R14, -8), M(R13, 0), M(R12, 0x12345), MI(RBX, RCX, 4, 8), MI(R15, R9, 8, -0x100)}
	n := 0
	for x := X0; x <= X15; x++ {
		y := X15 - x
		for _, p := range packed {
			n++
			check(t, tcase{name: p.want.String(), emit: func(a *Assembler) { a.Packed(p.op, p.lane, x, y) }, op: p.want, args: []x86asm.Arg{xx(x), xx(y)}})
		}
		check(t, tcase{name: "movdqa", emit: func(a *Assembler) { a.Movdqa(x, y) }, op: x86asm.MOVDQA, args: []x86asm.Arg{xx(x), xx(y)}})
		check(t, tcase{name: "pshufd", emit: func(a *Assembler) { a.Pshufd(x, y, 0x1b) }, op: x86asm.PSHUFD, args: []x86asm.Arg{xx(x), xx(y), x86asm.Imm(0x1b)}})
		check(t, tcase{name: "punpcklqdq", emit: func(a *Assembler) { a.Punpcklqdq(x, y) }, op: x86asm.PUNPCKLQDQ, args: []x86asm.Arg{xx(x), xx(y)}})
		for _, r := range allRegs {
			check(t, tcase{name: "movq", emit: func(a *Assembler) { a.MovqXR(x, r) }, op: x86asm.MOVQ, args: []x86asm.Arg{xx(x), xreg(r, 64)}})
		}
		for _, m := range mems {
			check(t, tcase{name: "movdqu load", emit: func(a *Assembler) { a.MovdquLoad(x, m) }, op: x86asm.MOVDQU, args: []x86asm.Arg{xx(x), xmem(m)}, memBytes: 16})
			check(t, tcase{name: "movdqu store", emit: func(a *Assembler) { a.MovdquStore(m, x) }, op: x86asm.MOVDQU, args: []x86asm.Arg{xmem(m), xx(x)}, memBytes: 16})
		}
	}
	if n == 0 {
		t.Fatal("no cases")
	}
	// Forms that do not exist fail the assembler.
	a := New()
	a.Packed(PCmpEq, 8, X0, X1)
	if _, err := a.Finish(); err == nil {
		t.Fatal("pcmpeqq (SSE4.1) accepted")
	}
	a = New()
	a.Packed(PAdd, 3, X0, X1)
	if _, err := a.Finish(); err == nil {
		t.Fatal("3-byte lanes accepted")
	}
}
