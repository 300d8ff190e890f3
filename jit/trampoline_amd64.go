package jit

import "unsafe"

// callNative calls the machine code at fn with state in RBX and returns
// EAX. See trampoline_amd64.s for why this is safe and abi.go for the
// convention fn follows.
//
//go:noescape
func callNative(fn, state unsafe.Pointer) uint32
