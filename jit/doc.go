// Package jit is weft's native backend: it turns SIR units into x86-64
// machine code and runs them. The encoder lives in jit/amd64; this package
// owns the calling convention (abi.go), register allocation (regalloc.go:
// linear scan over live-range hulls, spilling to the kernel's arena),
// instruction selection (lower.go), rolling of replicated code into loops
// (roll.go) and vectorizing of such loops into SSE2 code (vector.go),
// executable memory (exec*.go), the profiler's symbols
// (perfmap.go) and the Go-assembly trampoline (trampoline_amd64.s) through
// which Go calls native code.
//
// The native backend runs on amd64 only. On other architectures NewCode
// returns ErrUnsupported and callers use the interpreter (sir/interp).
package jit
