package jit

import "github.com/weft-hdl/weft/jit/amd64"

// The native calling convention. This comment is the one description of it;
// the trampoline (trampoline_amd64.s) and the code generator follow it.
//
// A native function is called as fn(state) -> status:
//
//   - On entry StateReg (RBX) holds the address of the state buffer. Every
//     home lives at a fixed offset from it, and so does the lane's spill
//     arena (after the state, one per lane): all memory a kernel touches is
//     [RBX + disp] or [RBX + index*scale + disp]. RBX was picked because it
//     is no instruction's implicit operand (unlike RAX, RCX, RDX, RSI, RDI)
//     and needs neither a REX prefix nor a SIB/disp8 quirk as a base
//     (unlike R8-R15, RSP/R12 and RBP/R13).
//   - On return StatusReg (EAX) holds the status, a uint32 with sir.Status
//     values (0 = OK). The upper half of RAX is ignored.
//   - The function may clobber every general-purpose register but RSP,
//     including RBX, RBP, R14 (Go's g register) and R15, and any XMM
//     register: the trampoline's frame restores RBP, and the compiler's
//     ABIInternal-to-ABI0 call sequence reloads R14 and re-zeroes X15 after
//     the trampoline returns. It must return with the direction flag clear
//     (never set it) and must not change MXCSR.
//   - Stack: RSP points at the return address into the trampoline, on the
//     goroutine stack. The function must not write to the stack at all: no
//     push, no call, no spill below RSP. The trampoline is NOSPLIT, so the
//     only stack guaranteed is the small nosplit reserve; spills go to the
//     lane arena instead.
//   - The function is a leaf: it never calls back into Go, never faults
//     (out-of-range indexes and division by zero are handled in line with
//     the defined results of ARCHITECTURE.md; a fault would kill the
//     process), and runs for a bounded, short time: the goroutine cannot be
//     preempted while inside it, so a long call delays garbage collection
//     for every goroutine.
//   - The state buffer holds no Go pointers (the GC does not see writes by
//     native code); sim allocates it with mmap.
const (
	StateReg  = amd64.RBX
	StatusReg = amd64.RAX
)
