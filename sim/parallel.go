package sim

import (
	"encoding/binary"
	"fmt"
	"io"
	"time"
	"unsafe"

	"github.com/weft-hdl/weft/lanepool"
	"github.com/weft-hdl/weft/ordering"
	"github.com/weft-hdl/weft/program"
	"github.com/weft-hdl/weft/selector"
	"github.com/weft-hdl/weft/sir"
)

// PartitionMode says when partitioned kernels are built and run: the one
// mode the compiler (compile.Builder.Partition: whether to build them,
// whether to skip the plan's margin test) and the simulator (which kernel
// a slot runs) share.
type PartitionMode int

const (
	// PartitionAuto builds partitioned kernels where the plan says they
	// pay, and lets a selector per kernel slot measure the sequential and
	// the partitioned kernel and keep the faster one.
	PartitionAuto PartitionMode = iota
	// PartitionAlways builds them wherever there is work for several lanes
	// and runs them whenever there is one (tests use it).
	PartitionAlways
	// PartitionNever builds none and runs the sequential kernels only.
	PartitionNever
)

var partitionNames = [...]string{"auto", "always", "never"}

func (m PartitionMode) String() string {
	if m >= 0 && int(m) < len(partitionNames) {
		return partitionNames[m]
	}
	return fmt.Sprintf("PartitionMode(%d)", int(m))
}

// ParsePartition parses "auto", "always" or "never".
func ParsePartition(s string) (PartitionMode, error) {
	for i, n := range partitionNames {
		if s == n {
			return PartitionMode(i), nil
		}
	}
	return 0, fmt.Errorf("unknown partition mode %q (want auto, always or never)", s)
}

// Footprinter is implemented by kernels that know every state byte their
// code may store (the native backend's, read off the generated code):
// absolute offsets, half-open ranges. The simulator recomputes the waits
// of partitioned kernels from it (program.Partitioned.WaitsFor) before it
// packs the task tables, so a code generator that widens a store never
// races another lane.
type Footprinter interface {
	Footprint() []ordering.Range
}

// ArenaBackend is implemented by backends whose kernels keep scratch memory
// after the state (the native register arena). Tasks of different lanes
// run at once, so each lane's tasks get their own arena: CompileAt places
// the kernel's scratch at arena (a byte offset at or after the state).
type ArenaBackend interface {
	CompileAt(u *sir.Unit, l sir.Layout, arena int) (Kernel, error)
}

// CompileAt implements ArenaBackend when the primary backend does.
func (f *Fallback) CompileAt(u *sir.Unit, l sir.Layout, arena int) (Kernel, error) {
	ab, ok := f.Primary.(ArenaBackend)
	if !ok {
		return f.Compile(u, l)
	}
	k, err := ab.CompileAt(u, l, arena)
	return f.orSecondary(k, err, u, l)
}

// ArenaUser is implemented by kernels that keep scratch after the state
// (the native register arena): its first byte and size. The simulator
// checks that every task's arena stays inside the room reserved for its
// lane.
type ArenaUser interface {
	ArenaOffset() int
	ArenaSize() int
}

// PtrRunner is what native kernels offer: a call on the state pointer,
// which lane tasks use instead of Run.
type PtrRunner interface {
	RunPtr(p unsafe.Pointer) sir.Status
}

var _ ArenaBackend = (*Fallback)(nil)

// parKernel is a partitioned alternative of one kernel slot.
type parKernel struct {
	p   *program.Partitioned
	k   *lanepool.Kernel
	sel *selector.Selector // nil: PartitionAlways
	// runs counts the calls that ran the partitioned kernel.
	runs  uint64
	calls uint64
	// lastCand and lastEnd are the candidate and end of the latest
	// measured call through runSlot.
	lastCand int
	lastEnd  time.Time
}

// arenaStride is the room each lane's scratch needs after the state: the
// largest register arena of any task unit (8 bytes per register), on a
// 128-byte boundary with a 128-byte gap so lanes never share a line.
func arenaStride(p *program.Program) int {
	m := 0
	for _, u := range p.TaskUnits() {
		m = max(m, 8*len(u.Regs))
	}
	return (m+127)&^127 + 128
}

// parBuild is what compileParallel makes: every task unit's kernel and
// the waits the lane pool runs each partitioned kernel with.
type parBuild struct {
	taskKernels map[*sir.Unit]Kernel
	waits       map[*program.Partitioned][][][]ordering.Wait
	// laneTicks are the lane ticks whose compiled lanes touch nothing
	// another lane writes; tickErrs say why the others are left out.
	laneTicks []*program.LaneTick
	tickErrs  []error
	err       error
}

// close releases the kernels of a build that is not attached.
func (b *parBuild) close() {
	for _, k := range b.taskKernels {
		if c, ok := k.(io.Closer); ok {
			c.Close()
		}
	}
}

// wantsParallel reports whether the program's partitioned kernels are to
// run here at all.
func (s *Simulator) wantsParallel() bool {
	par := s.p.Parallel
	return par != nil && s.opts.Partition != PartitionNever &&
		(len(par.Kernels()) > 0 || !s.opts.NoTick && par.HasLaneTicks())
}

// parBufSize is the buffer the lanes' arenas need: lane L's arena is
// [base+L·stride, base+(L+1)·stride) (see compileParallel). It is known
// from the program alone, so the state can be mapped before the task
// units are compiled.
func (s *Simulator) parBufSize() int {
	if !s.wantsParallel() {
		return 0
	}
	base := (s.lay.StateSize() + 127) &^ 127
	return base + s.p.Parallel.Lanes*arenaStride(s.p)
}

// compileParallel compiles every task unit (each once) on workers
// goroutines (0: GOMAXPROCS) and recomputes the partitioned kernels'
// waits from the code; the lanepool kernels are made when the build is
// attached (attachParallel). It only reads the simulator's program,
// layout and backend, so it may run beside the stepping goroutine.
func (s *Simulator) compileParallel(workers int) *parBuild {
	par := s.p.Parallel
	base := (s.lay.StateSize() + 127) &^ 127
	stride := arenaStride(s.p)
	b := &parBuild{taskKernels: map[*sir.Unit]Kernel{}}
	var jobs []compileJob
	var tasks []*program.Task
	for _, lt := range par.Ticks {
		if lt == nil || s.opts.NoTick {
			continue
		}
		for l, u := range lt.Units {
			b.taskKernels[u] = nil
			jobs = append(jobs, compileJob{unit: u, arena: laneArena(s.lay.StateSize(), base, stride, l), lay: par.LaneLayout(s.lay, l)})
			tasks = append(tasks, &program.Task{Lane: l, Unit: u})
		}
	}
	for _, pk := range par.Kernels() {
		for _, ts := range pk.Lanes {
			for _, t := range ts {
				if _, ok := b.taskKernels[t.Unit]; ok {
					continue
				}
				b.taskKernels[t.Unit] = nil
				// Lane L's arena is [base+L·stride, base+(L+1)·stride); lane
				// 0 runs on the stepping goroutine, never at the same time as
				// the sequential kernels, so it shares their arena, which
				// starts at the end of the state.
				jobs = append(jobs, compileJob{unit: t.Unit, arena: laneArena(s.lay.StateSize(), base, stride, t.Lane), lay: par.LaneLayout(s.lay, t.Lane)})
				tasks = append(tasks, t)
			}
		}
	}
	ks, err := s.compileJobs(jobs, workers)
	if err != nil {
		return &parBuild{err: err}
	}
	for i, t := range tasks {
		k := ks[i]
		b.taskKernels[t.Unit] = k
		lo, hi := laneArena(s.lay.StateSize(), base, stride, t.Lane), base+(t.Lane+1)*stride
		if au, ok := k.(ArenaUser); ok && au.ArenaSize() > 0 && (au.ArenaOffset() < lo || au.ArenaOffset()+au.ArenaSize() > hi) {
			b.close()
			return &parBuild{err: fmt.Errorf("sim: %s backend: task %q of lane %d uses arena bytes [%d, %d), outside its lane's [%d, %d): the arena stride does not cover the code's slots",
				s.be.Name(), t.Unit.Name, t.Lane, au.ArenaOffset(), au.ArenaOffset()+au.ArenaSize(), lo, hi)}
		}
	}
	for _, lt := range par.Ticks {
		if lt == nil || s.opts.NoTick {
			continue
		}
		ks := make([]Kernel, len(lt.Units))
		for l, u := range lt.Units {
			ks[l] = b.taskKernels[u]
		}
		if err := lt.Interference(laneTickEffects(lt, ks), s.lay.NameAt); err != nil {
			b.tickErrs = append(b.tickErrs, fmt.Errorf("sim: %s backend: %w", s.be.Name(), err))
			continue
		}
		b.laneTicks = append(b.laneTicks, lt)
	}
	b.waits = map[*program.Partitioned][][][]ordering.Wait{}
	for _, pk := range par.Kernels() {
		w, err := pk.WaitsFor(func(t *program.Task) ([]ordering.Range, bool) {
			if f, ok := b.taskKernels[t.Unit].(Footprinter); ok {
				return f.Footprint(), true
			}
			return nil, false
		})
		if err != nil {
			b.close()
			return &parBuild{err: fmt.Errorf("sim: %w", err)}
		}
		b.waits[pk] = w
	}
	return b
}

// laneArena is where lane's arena starts: base+lane·stride, or, for lane
// 0, the end of the state (see compileParallel).
func laneArena(stateSize, base, stride, lane int) int {
	if lane == 0 {
		return stateSize
	}
	return base + lane*stride
}

// attachParallel takes build b: it starts the lane pool and gives the
// settle and each fused slot its partitioned alternative.
func (s *Simulator) attachParallel(b *parBuild) error {
	if b.err != nil {
		return b.err
	}
	par := s.p.Parallel
	s.taskKernels, s.waits = b.taskKernels, b.waits
	var popts []lanepool.Option
	if s.opts.PinLanes {
		popts = append(popts, lanepool.WithPinning(lanepool.AllowedCPUs()))
	}
	pool, err := lanepool.New(par.Lanes, popts...)
	if err != nil {
		return err
	}
	s.pool = pool
	for _, off := range par.Status {
		s.laneStatus = append(s.laneStatus, s.lay.Offset(off))
	}
	mk := func(pk *program.Partitioned) (*parKernel, error) {
		if pk == nil {
			return nil, nil
		}
		waits := s.waits[pk]
		table := make([][]lanepool.Task, len(pk.Lanes))
		for l, ts := range pk.Lanes {
			for i, t := range ts {
				table[l] = append(table[l], lanepool.Task{Fn: s.taskFunc(s.taskKernels[t.Unit]), Index: t.Index, Waits: poolWaits(waits[l][i])})
			}
		}
		k, err := pool.NewKernel(table)
		if err != nil {
			return nil, fmt.Errorf("sim: %s: %w", pk.Name, err)
		}
		pkr := &parKernel{p: pk, k: k}
		pkr.sel, err = s.newSelector()
		return pkr, err
	}
	if s.settle.par, err = mk(par.Settle); err != nil {
		return err
	}
	for i, pk := range par.Fused {
		if i >= len(s.events) {
			break
		}
		if s.events[i].fused.par, err = mk(pk); err != nil {
			return err
		}
	}
	return s.attachLaneTicks(b)
}

// newSelector is a partitioned alternative's selector: nil unless in
// PartitionAuto mode.
func (s *Simulator) newSelector() (*selector.Selector, error) {
	if s.opts.Partition != PartitionAuto {
		return nil, nil
	}
	pol := selector.DefaultPolicy()
	if s.opts.SelectorPolicy != nil {
		pol = *s.opts.SelectorPolicy
	}
	return selector.New(pol, nil, 2)
}

// pollParallel attaches the background build of partitioned kernels when
// it is ready; the step loop and Tick call it while one is pending. A
// build that fails leaves the sequential kernels running, which compute
// the same; ParallelErr says why.
func (s *Simulator) pollParallel() {
	select {
	case b := <-s.bg:
		s.bg = nil
		s.attach(b)
	default:
	}
}

func (s *Simulator) attach(b *parBuild) {
	if err := s.attachParallel(b); err != nil {
		b.close()
		s.taskKernels, s.waits = nil, nil
		s.settle.par = nil
		for _, tl := range s.ticks {
			tl.lanes = nil
		}
		for i := range s.events {
			if s.events[i].fused != nil {
				s.events[i].fused.par = nil
			}
		}
		if s.pool != nil {
			s.pool.Close()
			s.pool = nil
		}
		s.bgErr = err
	}
}

// WaitParallel waits until the partitioned kernels compiled in the
// background (Options.AttachWait) are attached, and returns why they were
// not when they could not be (ParallelErr). It returns at once when none
// are pending.
func (s *Simulator) WaitParallel() error {
	if s.bg != nil && s.mem != nil {
		b := <-s.bg
		s.bg = nil
		s.attach(b)
	}
	return s.bgErr
}

// ParallelErr is why the partitioned kernels compiled in the background
// do not run (nil when they do, are pending or there are none): the
// simulator keeps running the sequential kernels.
func (s *Simulator) ParallelErr() error { return s.bgErr }

// taskFunc adapts a compiled task to lanepool: native kernels take the
// state pointer; others run on the simulator's buffer.
func (s *Simulator) taskFunc(k Kernel) lanepool.TaskFunc {
	if r, ok := k.(PtrRunner); ok {
		return func(p unsafe.Pointer) lanepool.Status { return lanepool.Status(r.RunPtr(p)) }
	}
	return func(unsafe.Pointer) lanepool.Status { return lanepool.Status(k.Run(s.buf)) }
}

// runSlot runs a kernel slot: its partitioned alternative when the mode
// or the selector says so, its sequential kernel otherwise. It returns the
// status the sequential kernel would return.
func (s *Simulator) runSlot(k *kernel) sir.Status {
	pk := k.par
	if pk == nil {
		return k.k.Run(s.buf)
	}
	pk.calls++
	if pk.sel == nil {
		return s.runPar(k)
	}
	cand, measured := pk.sel.Pick()
	if !measured {
		if cand == 1 {
			return s.runPar(k)
		}
		return k.k.Run(s.buf)
	}
	t0 := s.now()
	var st sir.Status
	if cand == 1 {
		st = s.runPar(k)
	} else {
		st = k.k.Run(s.buf)
	}
	end := s.now()
	if st == sir.StatusOK {
		// From the end of the slot's previous measured call of the same
		// candidate: the whole step (the step loop's own work, the other
		// edge) counts, as it does for the sequential kernel timed in
		// tick-loop batches; timing the call alone would favour the
		// candidate that runs through the step loop. The first call
		// after a switch, a warm-up call, has only the call itself.
		elapsed := end.Sub(t0)
		if gap := t0.Sub(pk.lastEnd); pk.lastCand == cand && !pk.lastEnd.IsZero() && gap < stepGap {
			elapsed += gap
		}
		pk.sel.Done(cand, elapsed)
		pk.lastCand, pk.lastEnd = cand, end
	}
	return st
}

// stepGap bounds the time between two measured calls that counts as the
// later call's: a test bench that pauses between steps (its own work, a
// breakpoint) must not make the running candidate look slow.
const stepGap = 200 * time.Microsecond

// runPar runs the partitioned kernel of slot k on the lane pool.
func (s *Simulator) runPar(k *kernel) sir.Status {
	pk := k.par
	pk.runs++
	res, err := s.pool.Run(pk.k, unsafe.Pointer(&s.buf[0]))
	if err != nil {
		s.parErr = err
		return statusPoolError
	}
	le := binary.LittleEndian
	if res.Status != lanepool.OK {
		st := sir.Status(res.Status)
		if off := s.laneStatus[res.Lane] + program.LaneDiag; st == sir.StatusNoSettle || st == sir.StatusLoopLimit {
			s.parDiag = int(le.Uint32(s.st[off:]))
		}
		s.clearLaneStatus()
		return st
	}
	// The first finishing status: lanes in order (only lane 0 runs
	// runtime events, so at most it has one).
	st := sir.StatusOK
	for _, off := range s.laneStatus {
		if v := le.Uint32(s.st[off+program.LaneStatus:]); v != 0 && st == sir.StatusOK {
			st = sir.Status(v)
		}
	}
	if st != sir.StatusOK {
		s.clearLaneStatus()
	}
	return st
}

func (s *Simulator) clearLaneStatus() {
	for _, off := range s.laneStatus {
		binary.LittleEndian.PutUint32(s.st[off+program.LaneStatus:], 0)
	}
}

// statusPoolError marks a lane pool that could not run a kernel (closed).
const statusPoolError sir.Status = 0xffff_fff0

// ParallelStats says, per kernel slot with a partitioned alternative, how
// often it ran and what the selector decided.
type ParallelStats struct {
	Kernel   string
	Calls    uint64 // calls of the slot
	Parallel uint64 // calls that ran the partitioned kernel
	Selector string // the selector's state ("" in PartitionAlways mode)
	// Choice is the selector's latest decision (0: the sequential kernel,
	// 1: the partitioned one) and Medians its latest measurement, per
	// candidate (nil before the first decision and in PartitionAlways
	// mode).
	Choice  int
	Medians []time.Duration
}

// ParallelStats lists the slots that have a partitioned alternative.
func (s *Simulator) ParallelStats() []ParallelStats {
	var out []ParallelStats
	for _, k := range s.kernels() {
		if k.par == nil {
			continue
		}
		ps := ParallelStats{Kernel: k.name, Calls: k.par.calls, Parallel: k.par.runs}
		if sel := k.par.sel; sel != nil {
			st := sel.Stats()
			ps.Selector, ps.Choice, ps.Medians = st.String(), st.Choice, st.Medians
		}
		out = append(out, ps)
	}
	return out
}

// PoolStats is the lane pool's account so far (zero while no pool runs):
// runs, waits, yields, parks and wake-ups, for benchmarks to print per
// cycle.
func (s *Simulator) PoolStats() lanepool.Stats {
	if s.pool == nil {
		return lanepool.Stats{}
	}
	return s.pool.Stats()
}

// PinErr says which lane threads Options.PinLanes could not pin (they run
// unpinned); nil when all were or none was asked for.
func (s *Simulator) PinErr() error {
	if s.pool == nil {
		return nil
	}
	return s.pool.PinErr()
}

// Lanes is the number of lanes partitioned kernels run on (1 when none
// does).
func (s *Simulator) Lanes() int {
	if s.bg != nil {
		return s.p.Parallel.Lanes
	}
	if s.pool == nil {
		return 1
	}
	return s.pool.Lanes()
}

// poolWaits converts ordering's waits to the pool's (the same fields).
func poolWaits(ws []ordering.Wait) []lanepool.Wait {
	out := make([]lanepool.Wait, len(ws))
	for i, w := range ws {
		out[i] = lanepool.Wait(w)
	}
	return out
}

// TaskWaits are the waits the lane pool runs partitioned kernel k with
// (shaped like k.Lanes): k's own, recomputed from the backend's store
// footprints where it reports them (Footprinter). Nil when k does not
// run here (PartitionNever, or not one of the program's kernels).
// It waits for a background build (WaitParallel).
func (s *Simulator) TaskWaits(k *program.Partitioned) [][][]ordering.Wait {
	s.WaitParallel()
	return s.waits[k]
}

// TaskFootprint is the store footprint the backend reports for task t's
// code (absolute state bytes); ok is false when it reports none, and
// t.Effects.Footprint holds. It waits for a background build
// (WaitParallel).
func (s *Simulator) TaskFootprint(t *program.Task) (fp []ordering.Range, ok bool) {
	s.WaitParallel()
	if f, is := s.taskKernels[t.Unit].(Footprinter); is {
		return f.Footprint(), true
	}
	return nil, false
}
