#include "textflag.h"

// func callNative(fn, state unsafe.Pointer) uint32
//
// The one place Go enters native code. It loads the state address into RBX
// (jit.StateReg), calls fn, and returns EAX (jit.StatusReg); abi.go is the
// full convention. Why this is safe:
//
//   - NOSPLIT with a zero-size frame: no stack-growth check can run between
//     loading the arguments and the call, and the only goroutine-stack use
//     below our frame is the 8-byte return address pushed by CALL, well
//     inside the nosplit reserve. The native code is a leaf that never
//     writes the stack beyond that return address, so the goroutine stack
//     cannot overflow and is never moved while we are inside.
//   - The frame pointer: because this function contains a CALL, the
//     assembler saves BP in the prologue and restores it in the epilogue
//     from SP, so native code may clobber RBP. Everything else Go needs
//     back (R14 = g, X15 = 0) is restored by the compiler after any ABI0
//     call; ABI0 callees may clobber all other registers.
//   - Asynchronous preemption and profiling signals that land in native
//     code see a PC outside any Go function: preemption declines (not an
//     async safe point) and the profiler books the sample as external
//     code; neither touches the native frame. Signals run on the signal
//     stack and reload g from TLS.
//   - The GC cannot stop this goroutine while it is inside, which is why
//     calls must be short; state holds no Go pointers, so nothing the
//     native code writes can hide a live object from the GC.
TEXT ·callNative(SB), NOSPLIT, $0-20
	MOVQ fn+0(FP), AX
	MOVQ state+8(FP), BX
	CALL AX
	MOVL AX, ret+16(FP)
	RET
