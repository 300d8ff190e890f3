package sim

import (
	"fmt"

	"github.com/weft-hdl/weft/sir"
	"github.com/weft-hdl/weft/sir/interp"
)

// Kernel is one compiled unit: it runs on the whole state memory and
// returns the unit's status. It must not retain the slice. A kernel that
// holds resources (native code) implements io.Closer; the simulator closes
// it with itself.
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

// BufferSizer is implemented by kernels that need scratch memory after the
// state (the native backend's register arena): Size is the length of the
// buffer they run on, state included. The simulator maps the largest such
// size and passes every kernel that whole buffer.
type BufferSizer interface {
	Size() int
}

// Fallback compiles each unit with Primary and, when Primary cannot compile
// it (an op the native backend does not lower yet, or a platform without
// it), with Secondary. Both must agree on the state layout, which they do
// since the layout is the program's. FellBack lists the units Secondary
// compiled and Reasons Primary's error for each.
type Fallback struct {
	Primary, Secondary Backend
	FellBack           []string
	Reasons            []error
}

// Name implements Backend: "native+interp" and the like.
func (f *Fallback) Name() string { return f.Primary.Name() + "+" + f.Secondary.Name() }

// Compile implements Backend.
func (f *Fallback) Compile(u *sir.Unit, l sir.Layout) (Kernel, error) {
	k, err := f.Primary.Compile(u, l)
	return f.orSecondary(k, err, u, l)
}

// orSecondary returns the primary's kernel k, or, when the primary failed
// with err, the secondary's, recording the fallback.
func (f *Fallback) orSecondary(k Kernel, err error, u *sir.Unit, l sir.Layout) (Kernel, error) {
	if err == nil {
		return k, nil
	}
	k, err2 := f.Secondary.Compile(u, l)
	if err2 != nil {
		return nil, fmt.Errorf("%s: %v; %s: %w", f.Primary.Name(), err, f.Secondary.Name(), err2)
	}
	f.FellBack = append(f.FellBack, u.Name)
	f.Reasons = append(f.Reasons, err)
	return k, nil
}
