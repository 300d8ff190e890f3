package sim

import (
	"encoding/binary"
	"errors"
	"io"
	"os"
	"runtime"
	"time"

	"github.com/weft-hdl/weft/lanepool"
	"github.com/weft-hdl/weft/ordering"
	"github.com/weft-hdl/weft/program"
	"github.com/weft-hdl/weft/selector"
	"github.com/weft-hdl/weft/sir"
)

// DefaultMaxRounds bounds the edge-detection rounds of one step.
const DefaultMaxRounds = 1000

// Options configure New.
type Options struct {
	// Output receives $display/$write/$error/... output in sequential order
	// (nil: os.Stdout; io.Discard drops it).
	Output io.Writer
	// Backend compiles the kernels (nil: Interp{}).
	Backend Backend
	// MaxRounds bounds the edge-detection rounds of one step: derived
	// clocks that keep firing past it are an *OscillationError
	// (0: DefaultMaxRounds).
	MaxRounds int
	// NoFused runs the generic Event kernel then Settle instead of the
	// fused kernel when a single event fires (the results are identical;
	// tests compare them).
	NoFused bool
	// Partition says when the program's partitioned kernels run (when it
	// has any).
	Partition PartitionMode
	// SelectorPolicy tunes the measured choice in PartitionAuto mode (nil:
	// selector.DefaultPolicy()).
	SelectorPolicy *selector.Policy
	// NoTick makes Tick run every edge through the step loop instead of
	// the program's fused tick loops (the results are identical; tests
	// compare them).
	NoTick bool
	// MaxMemFileBytes bounds the size of each $readmemh/$readmemb file
	// (0: DefaultMaxMemFileBytes).
	MaxMemFileBytes int64
	// AttachWait makes New compile the partitioned kernels before it
	// returns in PartitionAuto mode too. Otherwise, in that mode, they are
	// compiled in the background while the simulation starts on the
	// sequential kernels, and attached at the first step after they are
	// ready (WaitParallel waits for that): the alternatives never delay a
	// run. PartitionAlways always compiles them first.
	AttachWait bool
	// PinLanes pins the lane pool's worker threads to the CPUs the process
	// may use, lane L to the L-th (lane 0 runs on the caller's thread and
	// is not pinned). A pin that fails leaves the worker unpinned.
	PinLanes bool
}

// Simulator runs one design. Create it with New; Close it when done.
type Simulator struct {
	p    *program.Program
	lay  *program.Layout
	mem  []byte // the whole mapping
	st   []byte // mem[:StateSize]; nil once closed
	buf  []byte // what kernels run on: the state and any kernel's scratch after it
	out  io.Writer
	opts Options
	be   Backend

	initial, settle, event *kernel
	events                 []eventKernel // by program event index

	trig     []trigger
	all      []int32 // every trigger
	derived  []int32 // triggers the design writes
	trigOff  int     // first trigger byte
	fired    []int32 // scratch
	combRead []bool  // by home ID: some comb item reads it
	homeOff  []int   // by home ID
	homeESz  []int   // by home ID
	stageOff []int   // by home ID (-1: no staging copy)
	ringOff  int
	// rings are the offsets of the event ring (rings[0] = ringOff) and of
	// the rings of lanes 1.. (program Parallel.Rings): a partitioned call's
	// events are in all of them.
	rings   []int
	ringCap int
	timeOff int
	clocks  map[int]*clock // by signal ID

	dirty   bool   // a comb-read home was written since the last settle
	written bool   // some home was written since the last evaluation (Pending)
	preEdge func() // called before the first fired edge of a step (SetPreEdge)
	steps   uint64
	time    uint64
	nerrors int
	dropped int    // runtime events lost to ring overflows, in all
	kernel  string // the kernel being run (for errors)

	// Partitioned kernels (parallel.go).
	taskKernels map[*sir.Unit]Kernel
	waits       map[*program.Partitioned][][][]ordering.Wait // recomputed from the final code (compileParallel)
	pool        *lanepool.Pool
	laneStatus  []int // offsets of the lanes' status objects
	parErr      error // why the pool did not run (statusPoolError)
	// bg delivers the partitioned kernels compiled in the background
	// (nil: none pending); bgErr is why a background build was not
	// attached.
	bg      chan *parBuild
	bgErr   error
	parDiag int // diag word of the last failed partitioned run (-1: none)

	shadow *shadow // the references run in lock-step (Shadow)

	now func() time.Time // the clock measured calls are timed with (tests replace it)

	ticks      []*tickLoop // compiled kernels.TickKernels (tick.go)
	tickCalls  uint64
	tickInterp bool // run interpreted tick loops too (tests)

	finish     *FinishError // set once the run ended
	pendFinish *FinishError // first finish record of the current call
	fail       error        // sticky failure
	note       error        // first non-fatal problem of the current step
}

type kernel struct {
	name string
	k    Kernel
	par  *parKernel // the partitioned alternative, if any
}

type eventKernel struct{ fused *kernel }

// trigger is one trigger bit (program.Trigger) as the step loop sees it.
type trigger struct {
	name string
	off  int        // byte holding the bit
	sh   uint       // its shift
	prev int        // its previous-value byte
	on   [2][]int32 // events fired when the bit becomes 0 / 1
}

// bit is the trigger bit's current value.
func (s *Simulator) bit(tr *trigger) byte { return s.st[tr.off] >> tr.sh & 1 }

type clock struct {
	off      int
	sh       uint
	combRead bool
	tick     *tickLoop // its fused tick loop, if any
}

// New builds a simulator for p: compiles its units with the backend, maps
// the state memory and writes the time-zero state (see the package
// documentation). Output printed by initial blocks appears before New
// returns. When an initial block ends the run ($finish), New succeeds and
// Finished reports true.
func New(p *program.Program, opts Options) (*Simulator, error) {
	if p == nil || p.Layout == nil || p.Settle == nil || p.Event == nil || p.Top == nil {
		return nil, errors.New("sim: incomplete program (need a linked program with Layout, Settle and Event)")
	}
	if opts.Output == nil {
		opts.Output = os.Stdout
	}
	if opts.Backend == nil {
		opts.Backend = Interp{}
	}
	if opts.MaxRounds <= 0 {
		opts.MaxRounds = DefaultMaxRounds
	}
	s := &Simulator{p: p, lay: p.Layout, out: opts.Output, opts: opts, be: opts.Backend, clocks: map[int]*clock{}, parDiag: -1, now: time.Now}
	seq := []*sir.Unit{p.Initial, p.Settle, p.Event}
	for _, ek := range p.Events {
		seq = append(seq, ek.Fused)
	}
	if !opts.NoTick {
		for _, tk := range p.Ticks {
			seq = append(seq, tk.Unit)
		}
	}
	compiled, err := s.compileUnits(seq)
	compileUnit := func(u *sir.Unit) *kernel {
		if err != nil || u == nil {
			return nil
		}
		return &kernel{name: u.Name, k: compiled[u]}
	}
	s.initial = compileUnit(p.Initial)
	s.settle = compileUnit(p.Settle)
	s.event = compileUnit(p.Event)
	for _, ek := range p.Events {
		s.events = append(s.events, eventKernel{fused: compileUnit(ek.Fused)})
	}
	s.compileTicks(compileUnit)
	var build *parBuild
	if err == nil && s.wantsParallel() {
		if opts.Partition == PartitionAuto && !opts.AttachWait {
			// One compiling goroutine fewer than Ps, so the background
			// build leaves the stepping goroutine a core where there are
			// several.
			s.bg = make(chan *parBuild, 1)
			go func() { s.bg <- s.compileParallel(max(1, runtime.GOMAXPROCS(0)-1)) }()
		} else if build = s.compileParallel(0); build.err != nil {
			err = build.err
		}
	}
	if err != nil {
		s.closeKernels()
		return nil, err
	}
	s.index()

	size := s.lay.StateSize()
	bufSize := size
	for _, k := range s.kernels() {
		if bs, ok := k.k.(BufferSizer); ok {
			bufSize = max(bufSize, bs.Size())
		}
	}
	bufSize = max(bufSize, s.parBufSize())
	if s.mem, err = mapState(bufSize); err != nil {
		if build != nil {
			build.close()
		}
		s.closeKernels()
		return nil, err
	}
	s.st, s.buf = s.mem[:size], s.mem[:bufSize]
	if build != nil {
		// attachParallel has made build's kernels the simulator's, which
		// Close releases.
		if err := s.attachParallel(build); err != nil {
			s.Close()
			return nil, err
		}
	}
	if err := s.timeZero(); err != nil && !errors.Is(err, ErrFinished) {
		s.Close()
		return nil, err
	}
	return s, nil
}

// index precomputes the tables the step loop and the accessors use.
func (s *Simulator) index() {
	n := len(s.p.Signals)
	s.homeOff, s.homeESz, s.stageOff = make([]int, n), make([]int, n), make([]int, n)
	s.combRead = make([]bool, n)
	for i := range s.p.Signals {
		o := s.lay.Signal(i)
		s.homeOff[i], s.homeESz[i] = o.Offset, o.ElemSize
		s.stageOff[i] = -1
		if st, ok := s.lay.StagingOf(i); ok {
			s.stageOff[i] = st.Offset
		}
	}
	for _, id := range s.p.CombRead {
		s.combRead[id] = true
	}
	for ti, t := range s.p.Triggers {
		off, sh := s.lay.Bit(t.Signal, t.Elem, t.Bit)
		tr := trigger{name: t.Name, off: off, sh: sh, prev: s.lay.PrevByte(ti)}
		s.trig = append(s.trig, tr)
		s.all = append(s.all, int32(ti))
		if t.Derived {
			s.derived = append(s.derived, int32(ti))
		}
	}
	for i, ev := range s.p.Events {
		tr := &s.trig[ev.Trigger]
		switch ev.Edge {
		case program.Posedge:
			tr.on[1] = append(tr.on[1], int32(i))
		case program.Negedge:
			tr.on[0] = append(tr.on[0], int32(i))
		default:
			tr.on[0] = append(tr.on[0], int32(i))
			tr.on[1] = append(tr.on[1], int32(i))
		}
	}
	s.fired = make([]int32, 0, len(s.p.Events))
	s.trigOff = s.lay.Offset(s.lay.Triggers)
	s.ringOff, s.ringCap = s.lay.Ring.Offset, s.lay.RingCap
	s.rings = []int{s.ringOff}
	if par := s.p.Parallel; par != nil {
		for _, id := range par.Rings[min(1, len(par.Rings)):] {
			s.rings = append(s.rings, s.lay.Offset(id))
		}
	}
	s.timeOff = s.lay.SysOffset() + program.SysTime
}

// diag is the detail word of the last error status of a sequential
// kernel.
func (s *Simulator) diag() int {
	return int(binary.LittleEndian.Uint32(s.st[s.lay.SysOffset()+program.SysDiag:]))
}

// timeZero writes the initial state: Init, $readmem, Initial, Settle.
func (s *Simulator) timeZero() error {
	s.lay.InitState(s.st)
	for _, off := range s.rings[1:] {
		sir.InitRing(s.st[off:], s.ringCap)
	}
	for _, r := range s.p.Readmems {
		if err := s.readmem(r); err != nil {
			s.fail = &Error{Kernel: r.Task(), Err: err}
			return s.fail
		}
	}
	s.lay.SyncStaging(s.st)
	if s.initial != nil {
		if err := s.call(s.initial); err != nil {
			return err
		}
	}
	if err := s.call(s.settle); err != nil {
		return err
	}
	for i := range s.trig {
		tr := &s.trig[i]
		s.st[tr.prev] = s.bit(tr)
	}
	// A non-fatal problem (ring overflow) stays pending: the first Step
	// returns it.
	return nil
}

// Close unmaps the state memory. It is required (there is no finalizer)
// and idempotent; every later call on s returns ErrClosed.
func (s *Simulator) Close() error {
	if s.mem == nil {
		return nil
	}
	mem := s.mem
	s.mem, s.st, s.buf = nil, nil, nil
	s.closeKernels()
	if s.shadow != nil {
		for _, ref := range s.shadow.refs {
			ref.Close()
		}
	}
	return unmapState(mem)
}

// kernels lists every compiled kernel.
func (s *Simulator) kernels() []*kernel {
	ks := []*kernel{s.initial, s.settle, s.event}
	for _, ek := range s.events {
		ks = append(ks, ek.fused)
	}
	for _, tl := range s.ticks {
		ks = append(ks, tl.k)
	}
	out := ks[:0]
	for _, k := range ks {
		if k != nil {
			out = append(out, k)
		}
	}
	return out
}

// closeKernels releases kernels that hold resources (native code) and the
// lane pool, once a background build of partitioned kernels has ended.
func (s *Simulator) closeKernels() {
	if s.bg != nil {
		(<-s.bg).close()
		s.bg = nil
	}
	for _, k := range s.kernels() {
		if c, ok := k.k.(io.Closer); ok {
			c.Close()
		}
	}
	for _, k := range s.taskKernels {
		if c, ok := k.(io.Closer); ok {
			c.Close()
		}
	}
	s.taskKernels = nil
	if s.pool != nil {
		s.pool.Close()
		s.pool = nil
	}
}

// Closed reports whether Close was called.
func (s *Simulator) Closed() bool { return s.st == nil }

// Program is the program the simulator runs (shared, read-only).
func (s *Simulator) Program() *program.Program { return s.p }

// Backend names the backend running the kernels.
func (s *Simulator) Backend() string { return s.be.Name() }

// SetOutput redirects runtime-event output (nil: discard).
func (s *Simulator) SetOutput(w io.Writer) {
	if w == nil {
		w = io.Discard
	}
	if s.shadow != nil {
		s.shadow.out = w
		return
	}
	s.out = w
}

// Finished reports whether $finish, $stop or $fatal ended the run.
func (s *Simulator) Finished() bool { return s.finish != nil }

// Finish returns how the run ended, or nil while it goes on.
func (s *Simulator) Finish() *FinishError { return s.finish }

// Errors counts the $error (and $fatal) messages output so far.
func (s *Simulator) Errors() int { return s.nerrors }

// DroppedEvents counts the runtime events ($display, ...) lost so far
// because a kernel call produced more than the event ring holds. A step
// that loses some returns a *RingOverflowError, unless the same step ended
// the run: then the count is the only trace.
func (s *Simulator) DroppedEvents() int { return s.dropped }

// RingCap is the event ring's record space in bytes.
func (s *Simulator) RingCap() int { return s.ringCap }

// Steps counts evaluations: Step calls and Tick edges.
func (s *Simulator) Steps() uint64 { return s.steps }

// Time is the simulation time $time reads.
func (s *Simulator) Time() uint64 { return s.time }

// SetTime sets the simulation time $time reads.
func (s *Simulator) SetTime(t uint64) error {
	if s.st == nil {
		return ErrClosed
	}
	s.time = t
	binary.LittleEndian.PutUint64(s.st[s.timeOff:], t)
	if s.shadow != nil {
		for _, ref := range s.shadow.refs {
			if err := ref.SetTime(t); err != nil {
				return err
			}
		}
	}
	return nil
}

// usable is the check every operation starts with.
func (s *Simulator) usable() error {
	switch {
	case s.st == nil:
		return ErrClosed
	case s.fail != nil:
		return s.fail
	case s.finish != nil:
		return s.finish
	}
	return nil
}
