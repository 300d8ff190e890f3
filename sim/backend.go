package sim

import (
	"github.com/weft-hdl/weft/sir"
	"github.com/weft-hdl/weft/sir/interp"
)

// Kernel is one compiled unit: it runs on the whole state memory and
// returns the unit's status. It must not retain the slice.
type Kernel interface {
	Name() string
	Run(state []byte) sir.Status
}

// Backend compiles units for execution. It is the seam where the native
// backend plugs in next to the interpreter.
type Backend interface {
	// Name says which backend this is ("interp", "native").
	Name() string
	// Compile prepares u to run on state memory laid out by l.
	Compile(u *sir.Unit, l sir.Layout) (Kernel, error)
}

// Interp is the portable backend: sir/interp, the reference interpreter.
type Interp struct {
	// MaxSteps bounds the instructions of one kernel call
	// (0: interp.DefaultMaxSteps); reaching it is an error.
	MaxSteps int64
}

// Name implements Backend.
func (Interp) Name() string { return "interp" }

// Compile implements Backend.
func (b Interp) Compile(u *sir.Unit, l sir.Layout) (Kernel, error) {
	return interp.Compile(u, l, interp.Options{MaxSteps: b.MaxSteps})
}
