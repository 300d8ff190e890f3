// Package amd64 is weft's x86-64 machine-code encoder: the instruction forms
// the native backend emits, with labels and branch fix-ups. It knows nothing
// about SIR or layout; instruction selection and register allocation sit
// above it.
//
// An Assembler appends instructions to a byte buffer:
//
//	a := amd64.New()
//	a.MovRegMem(amd64.RAX, amd64.M(amd64.RBX, 8), 64) // mov rax, [rbx+8]
//	a.AluRegImm(amd64.Add, amd64.RAX, 1, 64)          // add rax, 1
//	l := a.NewLabel()
//	a.Jcc(amd64.CondNE, l)
//	a.Bind(l)
//	code, err := a.Finish()
//
// Conventions: the destination comes first, the operand width in bits (8,
// 16, 32 or 64) last. A 32-bit write zero-extends into the whole register, as
// the hardware does. Registers are named by their 64-bit names; the width
// picks AL/AX/EAX/RAX. The byte registers of RSP, RBP, RSI and RDI are SPL,
// BPL, SIL and DIL (a REX prefix is emitted for them); AH..BH are never
// produced. Memory operands are [base + index*scale + disp32] (Mem; Scale 0
// means no index); RIP-relative and absolute addresses are not offered.
//
// Errors are sticky: the first invalid operand (bad width, RSP as an index,
// an immediate that does not fit, a label bound twice, a short branch out of
// range) is remembered, later calls do nothing, and Finish returns it. The
// assembler never panics on bad input.
//
// Every form is checked in tests by decoding it back with
// golang.org/x/arch/x86/x86asm and comparing the op and operands.
package amd64
