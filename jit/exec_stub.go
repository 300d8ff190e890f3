//go:build !(amd64 && (linux || darwin || freebsd || netbsd || openbsd))

package jit

import "unsafe"

// Supported reports whether native code can run on this platform.
const Supported = false

// NewCode returns ErrUnsupported: the native backend is amd64-only.
func NewCode(machine []byte) (*Code, error) { return nil, ErrUnsupported }

// Close does nothing: no Code exists on this platform.
func (c *Code) Close() error { return nil }

func (c *Code) entry(off int) Func { return Func{} }

// Func is the entry point of a native function; none exist on this platform.
type Func struct{}

// Call panics: no native function can exist on this platform.
func (f Func) Call(state unsafe.Pointer) uint32 { panic(ErrUnsupported) }

// addr is nil: no native function can exist on this platform.
func (f Func) addr() unsafe.Pointer { return nil }
