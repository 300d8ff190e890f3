// Package compile runs weft's pipeline from SystemVerilog source to a
// running simulator: hdl (preprocess, parse) → elab → slt analysis and the
// lint checks on it → kernels (SIR lowering, sir/opt, statelayout) →
// kernels.Export (the runtime's program.Program) → sim.New. Program.Warnings
// are those weft lint prints; Suppress turns codes off.
//
// Between the compiler and sim.New sits the image cache (cache/): a build
// whose sources, options and weft binary match an earlier one decodes that
// build's program image instead of compiling (Program.FromCache; the
// compiler's Design and Kernels are nil then). Cache and NoCache choose the
// cache per build; the default is cache.FromEnv (WEFT_CACHE).
//
//	p, err := compile.NewBuilder().Files("top.sv", "alu.sv").Top("top").Build()
//	if err != nil { ... }            // front-end errors are a *hdl.ErrorList
//	defer p.Close()
//	d := p.DUT()
//
// Lanes(n) with n > 1 also builds partitioned alternatives of the settle
// and the event kernels (lanes/, ffsplit/, ordering/, a lane-segmented
// layout) and runs them on a lane pool: Partition(auto) lets a selector
// measure each against its sequential kernel and keep the faster one,
// Partition(always) runs them whenever the plan has them (and skips the
// plan's margin test), Partition(never) builds none. Program.Plan shows
// what was built. In auto mode the lane count is capped to the CPUs the
// process may use (NoLaneCap keeps it), and the planner charges a
// cross-lane wait what CalibrateSync measures on the machine (a lane
// hand-off over the backend's time per cost unit, measured on a reference
// design; cached for a day beside the images), so that what is built fits
// the machine; always mode charges a fixed default so that tests do not
// depend on it, and SyncCost sets the charge. Backend(native) runs what
// the JIT lowers natively and says in Notes what it does not.
package compile

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/weft-hdl/weft/cache"
	"github.com/weft-hdl/weft/design"
	"github.com/weft-hdl/weft/dut"
	"github.com/weft-hdl/weft/elab"
	"github.com/weft-hdl/weft/hdl"
	"github.com/weft-hdl/weft/internal/progress"
	"github.com/weft-hdl/weft/jit"
	"github.com/weft-hdl/weft/kernels"
	"github.com/weft-hdl/weft/lanepool"
	"github.com/weft-hdl/weft/lanes"
	"github.com/weft-hdl/weft/lint"
	"github.com/weft-hdl/weft/plan"
	"github.com/weft-hdl/weft/program"
	"github.com/weft-hdl/weft/sim"
	"github.com/weft-hdl/weft/sir"
	"github.com/weft-hdl/weft/slt"
	"github.com/weft-hdl/weft/statelayout"
)

// PartitionMode says when partitioned kernels are built and run; it is
// sim.PartitionMode, the one mode compiler and simulator share.
type PartitionMode = sim.PartitionMode

// The partition modes (sim.PartitionAuto, ...).
const (
	PartitionAuto   = sim.PartitionAuto
	PartitionAlways = sim.PartitionAlways
	PartitionNever  = sim.PartitionNever
)

// ParsePartition parses "auto", "always" or "never".
func ParsePartition(s string) (PartitionMode, error) {
	m, err := sim.ParsePartition(s)
	if err != nil {
		return 0, fmt.Errorf("compile: %w", err)
	}
	return m, nil
}

// DefaultBackend is what a Builder uses unless Backend says otherwise: the
// native backend on amd64 (it falls back to the interpreter kernel by
// kernel, and entirely off amd64).
const DefaultBackend = BackendNative

// BackendKind selects what executes the kernels.
type BackendKind int

const (
	// BackendInterp is sir/interp, the portable reference interpreter.
	BackendInterp BackendKind = iota
	// BackendNative is the amd64 JIT, with the interpreter for the kernels
	// it does not lower yet.
	BackendNative
)

var backendNames = [...]string{"interp", "native"}

func (k BackendKind) String() string {
	if k >= 0 && int(k) < len(backendNames) {
		return backendNames[k]
	}
	return fmt.Sprintf("BackendKind(%d)", int(k))
}

// ParseBackend parses "interp" or "native".
func ParseBackend(s string) (BackendKind, error) {
	for i, n := range backendNames {
		if s == n {
			return BackendKind(i), nil
		}
	}
	return 0, fmt.Errorf("compile: unknown backend %q (want interp or native)", s)
}

// ErrNotBuilt is wrapped by errors for options whose stage does not exist
// yet (the native backend).
var ErrNotBuilt = errors.New("not built yet")

// Builder collects the inputs and options of one compilation. Setters
// validate their argument; the first invalid one is reported by Build.
type Builder struct {
	inputs      []hdl.Input
	top         string
	defines     map[string]string
	params      map[string]string
	includeDirs []string
	lanes       int
	partition   PartitionMode
	backend     BackendKind
	output      io.Writer
	progress    io.Writer
	ringCap     int
	maxState    int64
	maxInsts    int
	simOpts     sim.Options
	suppress    []string
	maxSource   int64
	maxMemFile  int64
	elabLimits  elab.Limits
	cache       *cache.Cache
	cacheSet    bool // Cache was called (else cache.FromEnv)
	syncCost    int  // SyncCost's units (0: calibrated or default)
	noLaneCap   bool // NoLaneCap was called
	err         error
}

// NewBuilder returns a builder with the defaults: one thread, automatic
// partitioning, the interpreter, output to os.Stdout.
func NewBuilder() *Builder {
	return &Builder{defines: map[string]string{}, params: map[string]string{}, lanes: 1, backend: DefaultBackend}
}

// Clone returns an independent copy of b: the same sources and options,
// which the copy may change without affecting b (bench.Equivalent builds
// one design several ways).
func (b *Builder) Clone() *Builder {
	c := *b
	c.inputs = append([]hdl.Input(nil), b.inputs...)
	c.includeDirs = append([]string(nil), b.includeDirs...)
	c.defines = make(map[string]string, len(b.defines))
	for k, v := range b.defines {
		c.defines[k] = v
	}
	c.params = make(map[string]string, len(b.params))
	for k, v := range b.params {
		c.params[k] = v
	}
	return &c
}

func (b *Builder) fail(format string, args ...any) *Builder {
	if b.err == nil {
		b.err = fmt.Errorf("compile: "+format, args...)
	}
	return b
}

// Files adds source files, read from disk, in order (order matters:
// macros and packages carry across files of one compilation unit).
func (b *Builder) Files(paths ...string) *Builder {
	for _, p := range paths {
		if p == "" {
			return b.fail("Files: empty path")
		}
		b.inputs = append(b.inputs, hdl.Input{Name: p})
	}
	return b
}

// Source adds an in-memory source file named name (used in diagnostics).
func (b *Builder) Source(name, text string) *Builder {
	if name == "" {
		return b.fail("Source: empty name")
	}
	b.inputs = append(b.inputs, hdl.Input{Name: name, Src: []byte(text)})
	return b
}

// Top selects the top module (default: the single module no other module
// instantiates).
func (b *Builder) Top(name string) *Builder {
	b.top = name
	return b
}

// Define defines a preprocessor macro (`define NAME VALUE).
func (b *Builder) Define(name, value string) *Builder {
	if strings.TrimSpace(name) == "" {
		return b.fail("Define: empty macro name")
	}
	b.defines[name] = value
	return b
}

// Param overrides a parameter of the top module with a SystemVerilog
// literal ("8", "'h10", "\"file.hex\"").
func (b *Builder) Param(name, value string) *Builder {
	if strings.TrimSpace(name) == "" {
		return b.fail("Param: empty parameter name")
	}
	b.params[name] = value
	return b
}

// IncludeDir adds directories to the `include search path.
func (b *Builder) IncludeDir(dirs ...string) *Builder {
	b.includeDirs = append(b.includeDirs, dirs...)
	return b
}

// Lanes sets how many lanes (threads) a step may use; n >= 1 (at most
// 64). With n > 1 the builder partitions the hot kernels for n lanes; in
// PartitionAuto mode at most for the CPUs the process may use (NoLaneCap).
func (b *Builder) Lanes(n int) *Builder {
	if n < 1 || n > 64 {
		return b.fail("Lanes(%d): need 1 to 64", n)
	}
	b.lanes = n
	return b
}

// SyncCost sets what the planner charges per cross-lane wait, in cost
// units (SIR instructions before optimization; package lanes). Without
// it, builds in PartitionAuto mode charge what CalibrateSync measures on this machine
// and PartitionAlways builds charge the backend's default
// (lanes.SyncCostNative, lanes.SyncCostInterp), so that what a test
// builds does not depend on the machine.
func (b *Builder) SyncCost(units int) *Builder {
	if units < lanes.MinSyncCost || units > lanes.MaxSyncCost {
		return b.fail("SyncCost(%d): need %d to %d", units, lanes.MinSyncCost, lanes.MaxSyncCost)
	}
	b.syncCost = units
	return b
}

// NoLaneCap keeps the lane count of Lanes in PartitionAuto mode even when
// it exceeds the CPUs the process may use (lanepool.UsableCPUs); without
// it such a build runs on that many lanes, with a note.
func (b *Builder) NoLaneCap() *Builder {
	b.noLaneCap = true
	return b
}

// Partition sets when partitioned kernels are used.
func (b *Builder) Partition(m PartitionMode) *Builder {
	if m < PartitionAuto || m > PartitionNever {
		return b.fail("Partition: unknown mode %d", int(m))
	}
	b.partition = m
	return b
}

// Backend selects what executes the kernels. BackendNative compiles every
// kernel it can to amd64 code and runs the rest (today: kernels with
// runtime events, and every kernel off amd64) on the interpreter;
// Program.Notes lists those.
func (b *Builder) Backend(k BackendKind) *Builder {
	if k < BackendInterp || k > BackendNative {
		return b.fail("Backend: unknown backend %d", int(k))
	}
	b.backend = k
	return b
}

// Output sets where $display and friends write (default os.Stdout).
func (b *Builder) Output(w io.Writer) *Builder {
	b.output = w
	return b
}

// Progress sets where a compile that runs longer than a second draws its
// status line (the stage running and the time so far, redrawn in place
// and erased at the end); nil, the default, draws none. Give it a
// terminal: the line is made of carriage returns and an erase sequence.
func (b *Builder) Progress(w io.Writer) *Builder {
	b.progress = w
	return b
}

// RingCap sets the runtime-event ring's record space in bytes (0:
// statelayout.DefaultRingCap, 64 KiB; at most statelayout.MaxRingCap, 1
// GiB). Events beyond it within one kernel call are lost (reported); a
// system task whose one record cannot fit is a build error.
func (b *Builder) RingCap(n int) *Builder {
	if n < 0 || n > statelayout.MaxRingCap {
		return b.fail("RingCap(%d): want 0 (the default) to %d bytes", n, statelayout.MaxRingCap)
	}
	b.ringCap = n
	return b
}

// MaxInsts bounds the SIR instructions the design's kernels may hold (0:
// kernels.DefaultMaxInsts, 2Mi); a design past it is a build error, found
// in bounded memory.
func (b *Builder) MaxInsts(n int) *Builder {
	if n < 0 {
		return b.fail("MaxInsts(%d): negative", n)
	}
	b.maxInsts = n
	return b
}

// MaxStateBytes bounds the simulation state (0:
// statelayout.DefaultMaxStateBytes, 1 GiB); a design that needs more is a
// build error naming its largest memories.
func (b *Builder) MaxStateBytes(n int64) *Builder {
	if n < 0 {
		return b.fail("MaxStateBytes(%d): negative", n)
	}
	b.maxState = n
	return b
}

// MaxSourceBytes bounds the size of each source and `include file (0:
// hdl.DefaultMaxFileBytes, 64 MiB); a larger file is an error naming it.
func (b *Builder) MaxSourceBytes(n int64) *Builder {
	if n < 0 {
		return b.fail("MaxSourceBytes(%d): negative", n)
	}
	b.maxSource = n
	return b
}

// ElabLimits bounds the elaboration's work (elab.Limits; a zero field
// keeps its default): the steps and bits of constant evaluation, the
// generate loop iterations and the instances.
func (b *Builder) ElabLimits(l elab.Limits) *Builder {
	if l.ConstSteps < 0 || l.ConstBits < 0 || l.GenerateIterations < 0 || l.Instances < 0 {
		return b.fail("ElabLimits(%+v): negative", l)
	}
	b.elabLimits = l
	return b
}

// MaxMemFileBytes bounds the size of each $readmemh/$readmemb file (0:
// sim.DefaultMaxMemFileBytes, 256 MiB); a larger file is an error naming it
// and the $readmem call. It overrides SimOptions' MaxMemFileBytes when set.
func (b *Builder) MaxMemFileBytes(n int64) *Builder {
	if n < 0 {
		return b.fail("MaxMemFileBytes(%d): negative", n)
	}
	b.maxMemFile = n
	return b
}

// SimOptions sets the simulator options. Output is replaced by what
// Output says; a Backend set here replaces the one Backend selects (tests
// wrap the interpreter this way).
func (b *Builder) SimOptions(o sim.Options) *Builder {
	b.simOpts = o
	return b
}

// Program is a compiled design with its simulator.
type Program struct {
	Sim *sim.Simulator
	// Program is what the simulator runs (shared, read-only).
	Program *program.Program
	// Design and Kernels are the compiler's view of the design: the
	// elaborated design and its SIR kernels. They are nil when the program
	// came from the cache (FromCache); Builder.NoCache builds with them.
	Design    *design.Design
	Kernels   *kernels.Program
	FromCache bool

	// Lanes is the number of lanes partitioned kernels run on (1 when
	// there are none); RequestedLanes what Builder.Lanes asked for.
	Lanes, RequestedLanes int
	Partition             PartitionMode
	Backend               BackendKind
	// Notes say where the result differs from what was asked (lanes).
	Notes []string
	// Warnings are front-end diagnostics of warning severity (formatted)
	// and lowering notes.
	Warnings []string
	// Phases are the compile phases and their durations; CompileTime
	// their sum.
	Phases      []Phase
	CompileTime time.Duration
	// Plan describes the partitioning (nil unless Lanes > 1 was asked).
	Plan *plan.Plan
	// SyncCost is what the planner charged per cross-lane wait (cost
	// units; 0 when no partition was planned: one lane, PartitionNever,
	// or a lane cap of one), and Sync the calibration it
	// came from in PartitionAuto mode (nil: Builder.SyncCost or the
	// backend's default).
	SyncCost int
	Sync     *SyncCalibration

	builder *Builder // a copy of what built the program (Rebuild)

	dut *dut.DUT
}

// Phase is one timed compile stage.
type Phase struct {
	Name string
	Time time.Duration
}

// DUT returns handles on the design (one DUT per program).
func (p *Program) DUT() *dut.DUT {
	if p.dut == nil {
		p.dut = dut.New(p.Sim)
	}
	return p.dut
}

// Rebuild builds the program's source again with the same options, after
// edit (when non-nil) changed a copy of its builder: another thread count
// or backend for an equivalence check.
func (p *Program) Rebuild(edit func(*Builder)) (*Program, error) {
	if p.builder == nil {
		return nil, errors.New("compile: Rebuild: the program was not made by Builder.Build")
	}
	b := p.builder.Clone()
	if edit != nil {
		edit(b)
	}
	return b.Build()
}

// Close releases the simulator's state memory.
func (p *Program) Close() error { return p.Sim.Close() }

// Dump writes the state layout, the format table and the SIR of every
// kernel.
func (p *Program) Dump(w io.Writer) error { return p.Program.WriteSIR(w) }

// SIR is Dump as a string.
func (p *Program) SIR() string {
	var b bytes.Buffer
	p.Dump(&b)
	return b.String()
}

// Suppress turns warnings with the given codes off (hdl's Code constants,
// or "all"), as weft lint -Wno-CODE does; lint_off comments in the sources
// work without it.
func (b *Builder) Suppress(codes ...string) *Builder {
	for _, c := range codes {
		if !hdl.KnownCode(c) {
			return b.fail("unknown warning code %q (known: %s, all)", c, hdl.CodeList())
		}
	}
	b.suppress = append(b.suppress, codes...)
	return b
}

// Build runs the pipeline. Front-end errors are returned as the
// *hdl.ErrorList (every diagnostic with file:line:col and a caret line);
// later stages return errors naming the stage. With a cache (the default:
// WEFT_CACHE, see Cache), a design built before with the same sources and
// options is decoded from its image instead of compiled: the program's
// Design and Kernels are nil then, and FromCache is set.
func (b *Builder) Build() (*Program, error) {
	if b.err != nil {
		return nil, b.err
	}
	if len(b.inputs) == 0 {
		return nil, errors.New("compile: no source files (use Files or Source)")
	}
	p := &Program{Lanes: 1, RequestedLanes: b.lanes, Partition: b.partition, Backend: b.backend, builder: b.Clone()}
	if b.partition == PartitionAlways && b.lanes == 1 {
		p.Notes = append(p.Notes, "partition=always with 1 lane: nothing to partition; running the sequential kernels")
	}
	if b.partition == PartitionAuto && b.lanes > 1 && !b.noLaneCap {
		// More lanes than CPUs only ever wait for each other; in auto mode
		// the lanes are for speed, so cap them (always mode keeps what was
		// asked: tests run many lanes on few CPUs on purpose).
		if n, note := lanepool.CapLanes(b.lanes); note != "" {
			p.Notes = append(p.Notes, note)
			b = b.Clone()
			b.lanes = n
		}
	}
	start := time.Now()
	what := "compiling"
	if b.top != "" {
		what += " " + b.top
	}
	status := progress.Start(b.progress, what, "parsing")
	defer status.Stop()
	c, err := b.cacheDir()
	if err != nil {
		return nil, err
	}
	if b.lanes > 1 && b.partition != PartitionNever {
		b.chargeSync(p, c)
	}
	var ce *cacheEntry
	if c != nil {
		t0 := time.Now()
		ce = b.newCacheEntry(c, p.SyncCost)
		prog, warn := ce.load()
		if warn != "" {
			p.Warnings = append(p.Warnings, warn)
		}
		p.Phases = append(p.Phases, Phase{"cache", time.Since(t0)})
		if prog != nil {
			p.Program, p.FromCache = prog, true
			p.Warnings = append(p.Warnings, prog.Warnings...)
			return b.start(p, start, status)
		}
	}
	fs, err := b.compile(p, status)
	if err != nil {
		return nil, err
	}
	if ce != nil {
		status.Set("storing the image in the cache")
		t0 := time.Now()
		if warn := ce.store(p.Program, fs); warn != "" {
			p.Warnings = append(p.Warnings, warn)
		}
		p.Phases = append(p.Phases, Phase{"cache store", time.Since(t0)})
	}
	return b.start(p, start, status)
}

// compile runs the compiler: parse, elaborate, lint, lower, export. It
// fills p's Design, Kernels, Program, Warnings and phases, and returns the
// files it read.
func (b *Builder) compile(p *Program, status *progress.Line) (*hdl.FileSet, error) {
	phase := func(name string, t0 time.Time) {
		p.Phases = append(p.Phases, Phase{name, time.Since(t0)})
	}
	t0 := time.Now()
	fs := hdl.NewFileSet()
	diags := hdl.NewDiagnostics(fs)
	if err := diags.Suppress(b.suppress...); err != nil {
		return nil, err
	}
	st := hdl.Load(fs, b.inputs, hdl.PreprocessOptions{IncludeDirs: b.includeDirs, Defines: b.defines, MaxFileBytes: b.maxSource}, diags)
	phase("parse", t0)
	if err := diags.Err(); err != nil {
		return nil, err
	}
	t0 = time.Now()
	status.Set("elaborating")
	d := elab.Elaborate(st, fs, elab.Options{Top: b.top, Params: b.params, Limits: b.elabLimits}, diags)
	phase("elab", t0)
	if err := diags.Err(); err != nil {
		return nil, err
	}
	if d == nil {
		return nil, errors.New("compile: elaboration produced no design")
	}
	p.Design = d

	t0 = time.Now()
	status.Set("scheduling")
	kopts := kernels.Options{RingCap: b.ringCap, MaxStateBytes: b.maxState, MaxInsts: b.maxInsts}
	if status != nil {
		kopts.Progress = status.Set
	}
	if b.lanes > 1 && b.partition != PartitionNever {
		kopts.Partition = kernels.PartitionOptions{Lanes: b.lanes, Always: b.partition == PartitionAlways, SyncCost: p.SyncCost}
	}
	// The driver checks see the design as written; then continuous copies
	// share storage, and the schedule is made here, not in kernels.Build,
	// so that the lint checks read the same comb loops the kernels run
	// (removing a copy from a flop or another copy cuts no loop).
	lint.InputWrites(d, diags)
	lint.MultiDriven(d, diags)
	d = design.ShareCopies(d)
	sched, err := slt.Analyze(d, kopts.Slt)
	if err != nil {
		return nil, fmt.Errorf("compile: lowering %s: %w", d.Top.Module, err)
	}
	lint.CombLoops(sched, diags)
	var warnings []string
	for _, w := range diags.Warnings() {
		warnings = append(warnings, w.Error())
	}
	kp, err := kernels.BuildSchedule(d, sched, kopts)
	phase("kernels", t0)
	if err != nil {
		return nil, fmt.Errorf("compile: lowering %s: %w", d.Top.Module, err)
	}
	p.Kernels = kp
	warnings = append(warnings, kp.Warnings...)
	p.Warnings = append(p.Warnings, warnings...)

	t0 = time.Now()
	status.Set("exporting")
	exp, err := kp.Export()
	if err != nil {
		return nil, fmt.Errorf("compile: %w", err)
	}
	exp.Warnings = warnings
	if kp.Parallel != nil {
		if exp.Plan, err = NewPlan(kp); err != nil {
			return nil, err
		}
	}
	p.Program = exp
	phase("export", t0)
	return fs, nil
}

// start makes p's simulator from p.Program and says where the result
// differs from what was asked.
func (b *Builder) start(p *Program, start time.Time, status *progress.Line) (*Program, error) {
	status.Set("making the simulator (" + b.backend.String() + ")")
	t0 := time.Now()
	prog := p.Program
	opts := b.simOpts
	opts.Output = b.output
	if b.maxMemFile > 0 {
		opts.MaxMemFileBytes = b.maxMemFile
	}
	opts.Partition = b.partition
	var fallback *sim.Fallback
	if opts.Backend == nil {
		opts.Backend = SimBackend(b.backend)
		fallback, _ = opts.Backend.(*sim.Fallback)
	}
	s, err := sim.New(prog, opts)
	p.Phases = append(p.Phases, Phase{"sim", time.Since(t0)})
	if err != nil {
		return nil, err
	}
	if fallback != nil {
		if fell, reasons := fallback.Fell(); len(fell) > 0 {
			p.Notes = append(p.Notes, fmt.Sprintf("native backend: %d of %d kernels run on the interpreter (%s; first reason: %v)",
				len(fell), len(prog.Units()), strings.Join(fell, ", "), reasons[0]))
		}
	}
	p.Sim = s
	p.Lanes = s.Lanes()
	if par := prog.Parallel; par != nil {
		p.Plan = prog.Plan
		if len(par.Kernels()) == 0 && !par.HasLaneTicks() {
			p.Notes = append(p.Notes, fmt.Sprintf("lanes=%d: no kernel is worth partitioning (%s); running the sequential kernels", b.lanes, strings.Join(par.Reasons, "; ")))
		}
	}
	p.CompileTime = time.Since(start)
	return p, nil
}

// chargeSync sets p.SyncCost: Builder.SyncCost's, the calibration's
// (PartitionAuto; stored in c), or the backend's default.
func (b *Builder) chargeSync(p *Program, c *cache.Cache) {
	switch {
	case b.syncCost > 0:
		p.SyncCost = b.syncCost
	case b.partition == PartitionAuto:
		cal, err := CalibrateSync(c, b.lanes, b.backend)
		if err != nil {
			p.SyncCost = syncCost(b.backend)
			p.Notes = append(p.Notes, fmt.Sprintf("could not measure the cross-lane hand-off (%v); charging the default %d units", err, p.SyncCost))
			return
		}
		p.Sync, p.SyncCost = &cal, cal.Units()
	default:
		p.SyncCost = syncCost(b.backend)
	}
}

// syncCost is the cost of one cross-lane wait on backend k
// (lanes.SyncCostNative, lanes.SyncCostInterp: the figures are there).
func syncCost(k BackendKind) int {
	if k == BackendInterp {
		return lanes.SyncCostInterp
	}
	return lanes.SyncCostNative
}

// SimBackend is a new sim.Backend of kind k: sim.Interp, or for
// BackendNative the JIT falling back to the interpreter kernel by kernel
// (a *sim.Fallback, which records what fell back: one per simulator).
func SimBackend(k BackendKind) sim.Backend {
	if k == BackendNative {
		return &sim.Fallback{Primary: nativeBackend{}, Secondary: sim.Interp{}}
	}
	return sim.Interp{}
}

// nativeBackend adapts jit.Backend, whose Compile returns its own kernel
// type, to sim.Backend.
type nativeBackend struct{ jit.Backend }

// The simulator finds what native kernels offer by type assertion; these
// make a rename that would silently drop one (and with it a correctness
// guard: the footprint the waits come from, the arena check) a build
// error.
var (
	_ sim.ArenaBackend      = nativeBackend{}
	_ sim.ConcurrentBackend = nativeBackend{}
	_ sim.ConcurrentBackend = (*sim.Fallback)(nil)
	_ sim.Footprinter       = (*jit.Kernel)(nil)
	_ sim.BufferSizer       = (*jit.Kernel)(nil)
	_ sim.PtrRunner         = (*jit.Kernel)(nil)
	_ sim.ArenaUser         = (*jit.Kernel)(nil)
	_ io.Closer             = (*jit.Kernel)(nil)
)

// CompilesConcurrently implements sim.ConcurrentBackend: jit.Compile
// shares nothing between calls.
func (nativeBackend) CompilesConcurrently() bool { return true }

func (b nativeBackend) Compile(u *sir.Unit, l sir.Layout) (sim.Kernel, error) {
	k, err := b.Backend.Compile(u, l)
	if err != nil {
		return nil, err
	}
	return k, nil
}

// CompileAt implements sim.ArenaBackend: the tasks of each lane get their
// own register arena.
func (b nativeBackend) CompileAt(u *sir.Unit, l sir.Layout, arena int) (sim.Kernel, error) {
	k, err := b.Backend.CompileAt(u, l, arena)
	if err != nil {
		return nil, err
	}
	return k, nil
}
