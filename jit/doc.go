// Package jit is weft's native backend: it turns SIR units into x86-64
// machine code and runs them. The encoder lives in jit/amd64; this package
// owns the calling convention (abi.go), register allocation (regalloc.go:
// linear scan over live-range hulls, spilling to the kernel's arena),
// instruction selection (lower.go, with the bits each register always has
// clear from zeros.go), rolling of replicated code into loops (roll.go),
// vectorizing of such loops into SSE2/AVX2 code (vector.go), looping over
// the instances of a module (region.go), and, in units without such
// region loops, values reused across blocks (sir/opt's Reuse),
// executable memory (exec*.go), the profiler's symbols
// (perfmap.go) and the Go-assembly trampoline (trampoline_amd64.s) through
// which Go calls native code.
//
// The native backend runs on amd64 only. On other architectures NewCode
// returns ErrUnsupported and callers use the interpreter (sir/interp).
package jit
