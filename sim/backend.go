package sim

import (
	"fmt"
	"io"
	"slices"
	"sync"

	"github.com/weft-hdl/weft/internal/par"
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
// compiled, sorted by name whatever order parallel compiles ended in, and
// Reasons Primary's error for each.
type Fallback struct {
	Primary, Secondary Backend
	FellBack           []string
	Reasons            []error

	mu sync.Mutex // guards FellBack and Reasons
}

// Fell returns copies of FellBack and Reasons, safe to call while units
// still compile (a simulator compiles partitioned kernels in the
// background).
func (f *Fallback) Fell() (units []string, reasons []error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.FellBack), slices.Clone(f.Reasons)
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
	f.mu.Lock()
	defer f.mu.Unlock()
	i, _ := slices.BinarySearch(f.FellBack, u.Name)
	f.FellBack = slices.Insert(f.FellBack, i, u.Name)
	f.Reasons = slices.Insert(f.Reasons, i, err)
	return k, nil
}

// ConcurrentBackend is implemented by backends whose Compile (and
// CompileAt) may run on several goroutines at once. The simulator then
// compiles a program's units in parallel; other backends (a test's
// wrapper that counts calls, say) get one call at a time.
type ConcurrentBackend interface {
	Backend
	CompilesConcurrently() bool
}

// CompilesConcurrently implements ConcurrentBackend: interp.Compile only
// reads the unit.
func (Interp) CompilesConcurrently() bool { return true }

// CompilesConcurrently implements ConcurrentBackend when both backends do.
func (f *Fallback) CompilesConcurrently() bool {
	return concurrent(f.Primary) && concurrent(f.Secondary)
}

func concurrent(b Backend) bool {
	cb, ok := b.(ConcurrentBackend)
	return ok && cb.CompilesConcurrently()
}

// compileJob is one unit to compile: at arena offset arena (ArenaBackend)
// when arena >= 0.
type compileJob struct {
	unit  *sir.Unit
	arena int
	lay   sir.Layout // nil: the program's layout
}

// compileJobs compiles each job's unit (nil units are skipped), in
// parallel on up to workers goroutines (0: GOMAXPROCS) and the largest
// first when the backend allows it. The kernels
// are the same whatever the scheduling: each job compiles alone. On an
// error every kernel compiled is closed and the error is the one of the
// first failing job in the given order.
func (s *Simulator) compileJobs(jobs []compileJob, workers int) ([]Kernel, error) {
	out := make([]Kernel, len(jobs))
	order := make([]int, 0, len(jobs))
	size := make([]int, len(jobs))
	for i, j := range jobs {
		if j.unit != nil {
			order = append(order, i)
			size[i] = j.unit.NumInsts()
		}
	}
	slices.SortStableFunc(order, func(a, b int) int { return size[b] - size[a] })
	if !concurrent(s.be) {
		workers = 1
	}
	errs := make([]error, len(jobs))
	_ = par.Do(len(order), workers, func(n int) error {
		i := order[n]
		j := jobs[i]
		var lay sir.Layout = s.lay
		if j.lay != nil {
			lay = j.lay
		}
		if ab, ok := s.be.(ArenaBackend); ok && j.arena >= 0 {
			out[i], errs[i] = ab.CompileAt(j.unit, lay, j.arena)
		} else {
			out[i], errs[i] = s.be.Compile(j.unit, lay)
		}
		if errs[i] != nil {
			errs[i] = fmt.Errorf("sim: %s backend: unit %q: %w", s.be.Name(), j.unit.Name, errs[i])
		}
		return errs[i]
	})
	for _, err := range errs {
		if err != nil {
			for _, k := range out {
				if c, ok := k.(io.Closer); ok {
					c.Close()
				}
			}
			return nil, err
		}
	}
	return out, nil
}

// compileUnits compiles the distinct units of us (nil ones are skipped).
func (s *Simulator) compileUnits(us []*sir.Unit) (map[*sir.Unit]Kernel, error) {
	var jobs []compileJob
	seen := map[*sir.Unit]bool{}
	for _, u := range us {
		if u != nil && !seen[u] {
			seen[u] = true
			jobs = append(jobs, compileJob{unit: u, arena: -1})
		}
	}
	ks, err := s.compileJobs(jobs, 0)
	if err != nil {
		return nil, err
	}
	m := make(map[*sir.Unit]Kernel, len(jobs))
	for i, j := range jobs {
		m[j.unit] = ks[i]
	}
	return m, nil
}
