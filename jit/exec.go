package jit

import (
	"errors"
	"fmt"
)

// ErrUnsupported is returned by NewCode where the native backend does not
// run; callers fall back to the interpreter.
var ErrUnsupported = errors.New("jit: the native backend is amd64-only (linux, darwin, freebsd, netbsd, openbsd); use the interpreter backend")

// StatusNoCode is what Func.Call returns for a function whose code is gone
// (closed, or the zero Func): a status no kernel produces.
const StatusNoCode uint32 = 0xffff_ffff

// Code is machine code in executable memory: mapped read-write, filled,
// then made read-execute (never writable and executable at once). Close
// unmaps it; Funcs taken from it must not be called after that.
type Code struct {
	mem  []byte // the whole mapping, page-rounded; nil once closed
	size int    // bytes of machine code at the start of mem
}

// Len returns the number of bytes of machine code.
func (c *Code) Len() int { return c.size }

// Func returns the function whose entry point is at byte offset off.
func (c *Code) Func(off int) (Func, error) {
	if c.mem == nil {
		return Func{}, errors.New("jit: Func on closed code")
	}
	if off < 0 || off >= c.size {
		return Func{}, fmt.Errorf("jit: entry offset %d outside code of %d bytes", off, c.size)
	}
	return c.entry(off), nil
}
