package jit

import (
	"fmt"

	"github.com/weft-hdl/weft/sir"
)

// Backend compiles units to native code for the simulator (it satisfies
// sim.Backend without importing sim). Units it cannot lower yet fail with
// an *UnsupportedError, so the simulator pairs it with the interpreter in a
// sim.Fallback.
type Backend struct {
	// MaxBackEdges bounds the loop iterations of one call (0: the default).
	MaxBackEdges int64
}

// Name implements sim.Backend.
func (Backend) Name() string { return "native" }

// stateSizer is what Backend needs from the layout beyond sir.Layout: where
// the state ends, so the arena can follow it.
type stateSizer interface{ StateSize() int }

// Compile implements sim.Backend. The returned *Kernel reports its buffer
// size (state and arena) through Size, which the simulator maps.
func (b Backend) Compile(u *sir.Unit, l sir.Layout) (*Kernel, error) {
	ss, ok := l.(stateSizer)
	if !ok {
		return nil, fmt.Errorf("jit: layout %T does not report its state size", l)
	}
	return Compile(u, l, Options{StateSize: ss.StateSize(), MaxBackEdges: b.MaxBackEdges})
}

// CompileAt is Compile with the register arena at byte offset arena (at or
// after the end of the state): partitioned kernels give each lane's tasks
// their own arena, since lanes run at once.
func (b Backend) CompileAt(u *sir.Unit, l sir.Layout, arena int) (*Kernel, error) {
	ss, ok := l.(stateSizer)
	if !ok {
		return nil, fmt.Errorf("jit: layout %T does not report its state size", l)
	}
	return Compile(u, l, Options{StateSize: ss.StateSize(), ArenaOffset: (arena + 7) &^ 7, MaxBackEdges: b.MaxBackEdges})
}
