package kernels

import (
	"cmp"
	"fmt"
	"slices"
	"sort"

	"github.com/weft-hdl/weft/design"
	"github.com/weft-hdl/weft/internal/par"
	"github.com/weft-hdl/weft/sir"
	"github.com/weft-hdl/weft/sir/opt"
	"github.com/weft-hdl/weft/slt"
	"github.com/weft-hdl/weft/statelayout"
)

// Program is a design lowered to SIR kernels over a state layout: what a
// simulator (and the native backend) consumes.
type Program struct {
	Design   *design.Design
	Schedule *slt.Schedule
	// Layout places every object the units address; StateSize is its size.
	Layout    *statelayout.Layout
	StateSize int

	// Settle evaluates every comb item in the schedule's order, iterating
	// loop nodes to a fixpoint (sir.StatusNoSettle when one does not
	// settle within its bound).
	Settle *sir.Unit
	// Event evaluates every trigger group whose trigger byte(s) are set,
	// then applies them all. It works for any combination of fired events.
	Event *sir.Unit
	// Events has one kernel per trigger event (Layout.Space().Events, same
	// order): usable when that event is the only one that fired.
	Events []*EventKernel
	// Initial runs the initial processes once (nil when there are none):
	// after Layout.Init and Readmems, before the first Settle.
	Initial *sir.Unit

	// Formats are the runtime-event sites: an event's Format field indexes
	// this table (see Message).
	Formats []Format
	// Readmems are the $readmemh/$readmemb calls of initial processes, in
	// order: the simulator performs them after Layout.Init, before Initial.
	Readmems []Readmem
	// Loops are the comb loop nodes (Schedule.Loops): after
	// sir.StatusNoSettle, the u32 at Layout.Sys()+statelayout.SysDiag is
	// the index of the loop that did not settle.
	Loops []*slt.Loop
	// LoopSites are the procedural loops elaboration kept (design.Loop):
	// after sir.StatusLoopLimit, the diag word indexes this table.
	LoopSites []LoopSite
	// Warnings are lowering notes (constructs approximated).
	Warnings []string
	// Parallel holds the partitioned alternatives (Options.Partition.Lanes
	// > 1); nil otherwise.
	Parallel *Parallel
	// Ticks are the fused tick loops, one per clock input that can have
	// one (see TickKernel); none when Options.NoTick.
	Ticks []*TickKernel
}

// EventKernel is the specialised kernel of one trigger event.
type EventKernel struct {
	Event *statelayout.Event
	// Groups are the trigger groups the event fires (Schedule.FF indexes):
	// evaluated unconditionally, then applied.
	Groups []int
	// Fused evaluates and applies Groups, then settles. (Alone, or with
	// other events, an event runs through Program.Event and Settle.)
	Fused *sir.Unit
}

// Format is one runtime-event site: a system task and its format string.
type Format struct {
	Kind design.SysTaskKind
	// Text is the format string; HasFormat is false when the task had no
	// leading string literal (every argument is printed in its default
	// format, as $display(a, b) does).
	Text      string
	HasFormat bool
	// Scope is the hierarchical name of the instance (for %m).
	Scope string
	Pos   design.Pos
}

// Readmem is one $readmemh / $readmemb to perform at time zero.
type Readmem struct {
	File string // resolved against the source file that names it
	Home *design.Home
	Hex  bool
	// Start and End are the optional address arguments as written indexes
	// (-1 when absent).
	Start, End int
	Pos        design.Pos
}

// LoopSite is a procedural loop kept by elaboration.
type LoopSite struct {
	Pos     design.Pos
	MaxIter int
}

// Options configure Build.
type Options struct {
	// Slt configures the comb analysis.
	Slt slt.Options
	// RingCap is the runtime-event ring's record space in bytes (0: the
	// statelayout default). A runtime event whose record cannot fit in it
	// is a build error.
	RingCap int
	// MaxStateBytes bounds state memory (0: statelayout's default); a
	// design past it is a build error naming its largest memories.
	MaxStateBytes int64
	// MaxInsts bounds the SIR instructions of all the units built
	// (0: DefaultMaxInsts); past it the build fails, in bounded memory.
	MaxInsts int
	// NoTick builds no fused tick loops (Program.Ticks).
	NoTick bool
	// KeepCopies keeps every continuous copy a process; otherwise Build
	// first merges the storage of copies (design.ShareCopies).
	KeepCopies bool
	// NoOpt skips sir/opt (the units are still checked).
	NoOpt bool
	// NoMerge lowers every process of a trigger group alone, never a run
	// of processes sharing their if condition as one if (merge.go).
	NoMerge bool
	// NoMustWrite copies every staged bit home → staging before evaluate,
	// also the bits evaluate assigns on every path.
	NoMustWrite bool
	// OptDump, when set, sees every unit after every optimizer pass.
	OptDump func(pass string, u *sir.Unit)
	// MaxInline bounds nested function inlining (0: 64).
	MaxInline int
	// Partition builds partitioned alternatives of the settle and the
	// event kernels when Partition.Lanes > 1 (see Parallel).
	Partition PartitionOptions
	// LargeMinInsts: a program is built for size when its settle and
	// largest event, lowered, hold at least this many SIR instructions
	// together (0: DefaultLargeMinInsts; negative: always): sir/opt turns
	// its short ifs into muxed stores, and its Fused units (and the
	// generic Event of a single-event design) are assembled from the
	// optimized event and settle units instead of being lowered and
	// optimized again.
	LargeMinInsts int
	// Progress, when set, is told each stage as it starts ("lowering
	// tick top.clk", "optimizing 5 units"), on the building goroutine.
	Progress func(stage string)
}

// DefaultLargeMinInsts is the default of Options.LargeMinInsts. Below it
// the kernels' code fits the instruction cache, their branches (mostly a
// reset or an enable that rarely changes) predict well, and optimizing a
// fused kernel in one piece pays: the bundled UART, about 4,000
// instructions, ran 5% slower with its ifs converted and 2-3% slower with
// an assembled fused kernel. Above it fetching code is what costs and
// compile time grows with every copy of the design's body optimized:
// 31,250 generated counters (10^6 flop bits) ran 4.6x faster converted,
// and a chain of 7,812 pipeline instances compiled in 3.7 s instead of
// 4.9 s assembled.
const DefaultLargeMinInsts = 16384

// DefaultMaxInsts is the default of Options.MaxInsts. Every SIR
// instruction costs a few hundred bytes while a program is built (the
// optimizer's and the native backend's tables included), so the bound
// keeps a build under about a gigabyte; the bundled RV32I SoC needs
// 14,000. Values of millions of bits are what reach it: every operation
// on one costs instructions per 64-bit word.
const DefaultMaxInsts = 1 << 21

// Build removes d's continuous copies (design.ShareCopies, unless
// opts.KeepCopies; Program.Design is then the edited design), analyzes
// the design (slt), lowers it to SIR units, optimizes and checks them, and
// places the state.
func Build(d *design.Design, opts Options) (*Program, error) {
	if d == nil {
		return nil, fmt.Errorf("kernels: nil design")
	}
	if !opts.KeepCopies {
		d = design.ShareCopies(d)
	}
	s, err := slt.Analyze(d, opts.Slt)
	if err != nil {
		return nil, err
	}
	return BuildSchedule(d, s, opts)
}

// BuildSchedule is Build with an existing schedule of d.
func BuildSchedule(d *design.Design, s *slt.Schedule, opts Options) (*Program, error) {
	if opts.MaxInline <= 0 {
		opts.MaxInline = 64
	}
	if opts.MaxInsts <= 0 {
		opts.MaxInsts = DefaultMaxInsts
	}
	c := &compiler{d: d, s: s, opts: opts, formatOf: map[*design.SysTask]int{},
		loopSiteOf: map[*design.Loop]int{}, funcScratch: map[*design.Home]*statelayout.Object{},
		slots: map[[2]int]*statelayout.Object{}, snap: map[[2]int]*statelayout.Object{}, siteBase: map[[2]int]int{}}
	c.sparse = make([]map[*design.Home]bool, len(s.FF))
	c.inPlace = map[*design.Home]bool{}
	c.mustNB = map[*design.Process][]design.Access{}
	for _, g := range s.FF {
		for _, a := range g.InPlace {
			c.inPlace[a.Home] = true
		}
	}
	extra := c.scanSparse()
	sp, err := statelayout.NewSpace(d, s, statelayout.Options{RingCap: opts.RingCap, MaxStateBytes: opts.MaxStateBytes, Stage: extra})
	if err != nil {
		return nil, err
	}
	c.sp = sp
	p := &Program{Design: d, Schedule: s, Loops: s.Loops}
	c.p = p

	if p.Initial, err = c.unit("initial", func(u *ub) { u.initial() }); err != nil {
		return nil, err
	}
	if len(d.Initial) == 0 {
		p.Initial = nil
	}
	if p.Settle, err = c.unit("settle", func(u *ub) { u.settle() }); err != nil {
		return nil, err
	}
	evUnits := make([]*sir.Unit, len(sp.Events)) // evaluate and apply: Fused's first part
	biggest := 0
	for i, ev := range sp.Events {
		p.Events = append(p.Events, &EventKernel{Event: ev, Groups: ev.Groups})
		if evUnits[i], err = c.unit("event "+ev.String(), func(u *ub) { u.event(ev.Groups) }); err != nil {
			return nil, err
		}
		biggest = max(biggest, evUnits[i].NumInsts())
	}
	large := opts.LargeMinInsts < 0 || p.Settle.NumInsts()+biggest >= cmp.Or(opts.LargeMinInsts, DefaultLargeMinInsts)
	// A large single-event design's generic Event is a guarded copy of
	// its event's unit, built after optimizing.
	single := large && len(sp.Events) == 1
	if !single {
		if p.Event, err = c.unit("event", func(u *ub) { u.event(nil) }); err != nil {
			return nil, err
		}
	}
	if !large {
		for i, ek := range p.Events {
			ev := ek.Event
			if ek.Fused, err = c.unit("fused "+ev.String(), func(u *ub) { u.event(ev.Groups); u.settle() }); err != nil {
				return nil, err
			}
			evUnits[i] = nil
		}
	}
	if c.err != nil {
		return nil, c.err
	}
	if opts.Partition.Lanes > 1 {
		if err := c.partition(); err != nil {
			return nil, err
		}
		if c.err != nil {
			return nil, c.err
		}
	}
	var units []*sir.Unit
	for _, u := range append(p.Units(), evUnits...) {
		if u != nil {
			units = append(units, u)
		}
	}
	units = append(units, c.par.taskUnits()...)
	if opts.Progress != nil {
		opts.Progress(fmt.Sprintf("optimizing %d units", len(units)))
	}
	if err := optimize(units, opts, large); err != nil {
		return nil, err
	}
	for i, ek := range p.Events {
		if evUnits[i] == nil {
			continue
		}
		if ek.Fused, err = c.fuse("fused "+ek.Event.String(), evUnits[i], p.Settle); err != nil {
			return nil, err
		}
	}
	if single {
		if p.Event, err = c.guardedEvent(evUnits[0], sp.Events[0].Index); err != nil {
			return nil, err
		}
	}
	c.large = large
	if !opts.NoTick {
		if err := c.ticks(); err != nil {
			return nil, err
		}
	}
	if c.par != nil {
		c.par.dropIfUnused(c.sp)
	}
	if p.Layout, err = c.layout(); err != nil {
		return nil, err
	}
	p.StateSize = p.Layout.StateSize()
	if err := c.sp.CheckSize(int64(p.StateSize)); err != nil {
		return nil, err
	}
	if c.par != nil {
		if err := c.par.order(p.Layout); err != nil {
			return nil, err
		}
		c.par.orderTicks(p.Layout)
	}
	return p, nil
}

// optimize runs the optimizer on each unit and checks it. Units are
// independent, so they are optimized in parallel, the largest first, and
// the result is the same whatever the scheduling; a dump of the passes
// (OptDump) keeps them sequential so that it reads in order. Only a large
// program's units are if-converted (Options.LargeMinInsts).
func optimize(units []*sir.Unit, opts Options, large bool) error {
	seen := map[*sir.Unit]bool{}
	var todo []*sir.Unit
	for _, u := range units {
		if !seen[u] {
			seen[u] = true
			todo = append(todo, u)
		}
	}
	size := make(map[*sir.Unit]int, len(todo))
	for _, u := range todo {
		size[u] = u.NumInsts()
	}
	var skip map[string]bool
	if !large { // see Options.LargeMinInsts
		skip = map[string]bool{"ifconvert": true}
	}
	slices.SortStableFunc(todo, func(a, b *sir.Unit) int { return size[b] - size[a] })
	workers := 0
	if opts.OptDump != nil {
		workers = 1
	}
	return par.Do(len(todo), workers, func(i int) error {
		u := todo[i]
		if !opts.NoOpt {
			if err := opt.Run(u, opt.Options{Dump: opts.OptDump, Skip: skip}); err != nil {
				return fmt.Errorf("kernels: %s: %w", u.Name, err)
			}
		}
		if err := sir.Check(u); err != nil {
			return fmt.Errorf("kernels: %w", err)
		}
		return nil
	})
}

// Units lists every unit but the tick loops: Initial (when present),
// Settle, Event, then each event kernel's Fused.
func (p *Program) Units() []*sir.Unit {
	var us []*sir.Unit
	if p.Initial != nil {
		us = append(us, p.Initial)
	}
	us = append(us, p.Settle, p.Event)
	for _, ek := range p.Events {
		us = append(us, ek.Fused)
	}
	return us
}

// compiler holds what is shared by every unit of one program.
type compiler struct {
	d    *design.Design
	s    *slt.Schedule
	sp   *statelayout.Space
	opts Options
	p    *Program
	err  error

	formatOf    map[*design.SysTask]int
	formatKey   map[Format]int
	loopSiteOf  map[*design.Loop]int
	funcScratch map[*design.Home]*statelayout.Object
	// sparse[g] are group g's homes whose non-blocking writes go through
	// per-site slots (slt Sparse homes without a staging copy).
	sparse []map[*design.Home]bool
	// inPlace are the homes of slt's InPlace targets: evaluate writes them
	// directly, never through a staging copy (even one Options.Stage made).
	inPlace     map[*design.Home]bool
	mustNB      map[*design.Process][]design.Access // design.MustWriteNB of each process
	slots       map[[2]int]*statelayout.Object      // (group, site ordinal) → slot
	snap        map[[2]int]*statelayout.Object      // (loop, span) → snapshot scratch
	siteBase    map[[2]int]int                      // (group, process) → ordinal of its first write site
	readmemSeen map[*design.SysTask]bool
	insts       int // SIR instructions of the units built (Options.MaxInsts)
	// wideScratch is the wide-arithmetic scratch of the sequential kernels
	// (key -1) and of each lane's tasks (ub.wideScratch).
	wideScratch map[int]*statelayout.Object
	par         *Parallel // nil unless partitioning
	// laneTickArg is the argument object of the lane ticks (made with the
	// first one).
	laneTickArg *statelayout.Object
	large       bool // Options.LargeMinInsts reached: optimize if-converts
	// ffBase numbers the processes of each trigger group for the event
	// keys (eventseq.go).
	ffBase []int
}

func (c *compiler) fail(format string, args ...any) {
	if c.err == nil {
		c.err = fmt.Errorf("kernels: "+format, args...)
	}
}

// PosError is a build error at one place in the source (a system task the
// runtime could never carry out): a front end prints it as a diagnostic.
type PosError struct {
	Pos design.Pos
	Msg string
}

func (e *PosError) Error() string { return fmt.Sprintf("kernels: %s: %s", e.Pos, e.Msg) }

// failAt records a PosError (the first failure wins).
func (c *compiler) failAt(pos design.Pos, format string, args ...any) {
	if c.err == nil {
		c.err = &PosError{Pos: pos, Msg: fmt.Sprintf(format, args...)}
	}
}

// instBudget is what a new unit may hold: the program's instruction
// bound less what the units built so far hold.
func (c *compiler) instBudget() int { return max(c.opts.MaxInsts-c.insts, 1) }

// checkInsts fails the build once u or the program passed the instruction
// bound, naming the widest variable when a wide one is the likely cause.
func (c *compiler) checkInsts(u *ub) {
	if !u.b.Over() && c.insts <= c.opts.MaxInsts {
		return
	}
	var widest *design.Home
	for _, h := range c.d.Homes {
		if widest == nil || h.Width > widest.Width {
			widest = h
		}
	}
	hint := ""
	if widest != nil && widest.Width > 4096 {
		hint = fmt.Sprintf("; its widest variable, %s at %s, is %d bits wide, and each operation on it costs instructions per 64-bit word",
			widest.Path, widest.Pos, widest.Width)
	}
	c.fail("the design needs more than %d SIR instructions (the limit, reached building %s)%s; raise the limit with --max-insts (weft run) or compile.Builder.MaxInsts (Go)",
		c.opts.MaxInsts, u.b.U.Name, hint)
}

func (c *compiler) warn(format string, args ...any) {
	c.p.Warnings = append(c.p.Warnings, fmt.Sprintf(format, args...))
}

// unit builds one unit with body and ends it with the status dispatch.
func (c *compiler) unit(name string, body func(u *ub)) (*sir.Unit, error) {
	if c.opts.Progress != nil {
		c.opts.Progress("lowering " + name)
	}
	u := newUB(c, name)
	body(u)
	u.end()
	c.insts += u.b.Emitted()
	c.checkInsts(u)
	if c.err != nil {
		return nil, c.err
	}
	if err := sir.Check(u.b.U); err != nil {
		return nil, fmt.Errorf("kernels: lowering produced an invalid unit: %w", err)
	}
	return u.b.U, nil
}

// scanSparse decides how each group's dynamically indexed non-blocking
// targets (slt Sparse) are staged: per-site slots, or a whole staging copy
// when some write to the home sits inside a procedural loop (a site could
// run many times). It returns the homes needing a staging copy.
func (c *compiler) scanSparse() []*design.Home {
	var extra []*design.Home
	seen := map[*design.Home]bool{}
	for gi, g := range c.s.FF {
		sp := map[*design.Home]bool{}
		for _, a := range g.Sparse {
			sp[a.Home] = true
		}
		looped := map[*design.Home]bool{}
		for _, fp := range g.Evaluate {
			scanLoopNBA(fp.Proc.Body, 0, sp, looped, map[*design.Function]bool{})
		}
		for h := range sp {
			if looped[h] {
				delete(sp, h)
				if !seen[h] {
					seen[h] = true
					extra = append(extra, h)
				}
			}
		}
		c.sparse[gi] = sp
	}
	sort.Slice(extra, func(i, j int) bool { return extra[i].ID < extra[j].ID })
	return extra
}

// scanLoopNBA marks the homes of sp written by a non-blocking assignment
// inside a loop (depth > 0), looking into called tasks.
func scanLoopNBA(s design.Stmt, depth int, sp, looped map[*design.Home]bool, visiting map[*design.Function]bool) {
	switch s := s.(type) {
	case nil:
	case *design.Block:
		if s == nil {
			return
		}
		for _, st := range s.Stmts {
			scanLoopNBA(st, depth, sp, looped, visiting)
		}
	case *design.Assign:
		if s.NonBlocking && depth > 0 {
			for _, h := range lvalueHomes(s.LHS, nil) {
				if sp[h] {
					looped[h] = true
				}
			}
		}
	case *design.If:
		scanLoopNBA(s.Then, depth, sp, looped, visiting)
		scanLoopNBA(s.Else, depth, sp, looped, visiting)
	case *design.Case:
		for _, it := range s.Items {
			scanLoopNBA(it.Body, depth, sp, looped, visiting)
		}
		scanLoopNBA(s.Default, depth, sp, looped, visiting)
	case *design.Loop:
		scanLoopNBA(s.Body, depth+1, sp, looped, visiting)
		scanLoopNBA(s.Step, depth+1, sp, looped, visiting)
	case *design.TaskCall:
		if !visiting[s.Func] {
			visiting[s.Func] = true
			scanLoopNBA(s.Func.Body, depth, sp, looped, visiting)
			delete(visiting, s.Func)
		}
	}
}

func lvalueHomes(lv design.Expr, out []*design.Home) []*design.Home {
	switch e := lv.(type) {
	case *design.HomeRef:
		return append(out, e.Home)
	case *design.ElemRef:
		return append(out, e.Home)
	case *design.Slice:
		return lvalueHomes(e.X, out)
	case *design.Concat:
		for _, p := range e.Parts {
			out = lvalueHomes(p, out)
		}
	}
	return out
}
