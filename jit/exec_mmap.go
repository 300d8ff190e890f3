//go:build amd64 && (linux || darwin || freebsd || netbsd || openbsd)

package jit

import (
	"errors"
	"fmt"
	"os"
	"unsafe"

	"golang.org/x/sys/unix"
)

// Supported reports whether native code can run on this platform.
const Supported = true

// NewCode copies machine code into fresh executable memory. The pages are
// mapped read-write, filled (the tail with int3, so running off the end
// traps instead of executing zeros), then switched to read-execute.
func NewCode(machine []byte) (*Code, error) {
	if len(machine) == 0 {
		return nil, errors.New("jit: no machine code")
	}
	page := os.Getpagesize()
	size := (len(machine) + page - 1) &^ (page - 1)
	mem, err := unix.Mmap(-1, 0, size, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_PRIVATE|unix.MAP_ANON)
	if err != nil {
		return nil, fmt.Errorf("jit: mmap %d bytes: %w", size, err)
	}
	n := copy(mem, machine)
	for i := n; i < len(mem); i++ {
		mem[i] = 0xCC
	}
	if err := unix.Mprotect(mem, unix.PROT_READ|unix.PROT_EXEC); err != nil {
		_ = unix.Munmap(mem)
		return nil, fmt.Errorf("jit: mprotect read-execute: %w", err)
	}
	return &Code{mem: mem, size: len(machine)}, nil
}

// Close unmaps the code. It is safe to call twice; no Func from c may be
// running or called afterwards.
func (c *Code) Close() error {
	if c.mem == nil {
		return nil
	}
	mem := c.mem
	c.mem = nil
	if err := unix.Munmap(mem); err != nil {
		return fmt.Errorf("jit: munmap: %w", err)
	}
	return nil
}

func (c *Code) entry(off int) Func { return Func{fn: unsafe.Pointer(&c.mem[off]), code: c} }

// Func is the entry point of a native function (see abi.go for its
// calling convention).
type Func struct {
	fn   unsafe.Pointer // into the Code's mapping, outside the Go heap
	code *Code
}

// addr is where the function's code starts.
func (f Func) addr() unsafe.Pointer { return f.fn }

// Call runs the function on state (the address of the state buffer, which
// holds no Go pointers) and returns its status. Calling the zero Func, or a
// Func whose Code was closed, returns StatusNoCode instead of jumping into
// unmapped memory. (Closing the Code while a call runs on another goroutine
// is still the caller's error to avoid.)
func (f Func) Call(state unsafe.Pointer) uint32 {
	if f.code == nil || f.code.mem == nil {
		return StatusNoCode
	}
	return callNative(f.fn, state)
}
