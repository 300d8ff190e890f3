package program

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/weft-hdl/weft/ordering"
	"github.com/weft-hdl/weft/plan"
	"github.com/weft-hdl/weft/sir"
)

// Program is a compiled design as a simulator runs it. Nothing in it
// changes after Link (or Decode): simulators read it and keep what they
// derive to themselves, so several may share one.
type Program struct {
	// Top is Scopes[0] (set by Link); Scopes are the instances in preorder;
	// Signals are indexed by Signal.ID (signal i is layout object i).
	Top       *Scope `msgpack:"-"`
	Scopes    []*Scope
	Signals   []*Signal
	Functions []Function
	// Dump is the design's own $dumpfile/$dumpvars request (nil: none).
	Dump *Dump
	// Timescale is the finest `timescale precision as a power of ten of a
	// second; HasTimescale is false when the sources have no `timescale.
	Timescale    int
	HasTimescale bool

	Layout *Layout
	// Triggers are the bits whose edges fire events; Events the edges, in
	// trigger-byte order (Layout.TriggerByte).
	Triggers []Trigger
	Events   []Event
	// CombRead are the signals some comb logic reads: writing one makes
	// the next evaluation settle first.
	CombRead []int

	// Initial runs the initial processes once (nil when there are none),
	// after the initial values and Readmems; Settle evaluates the comb
	// logic to a fixpoint; Event evaluates and applies every trigger group
	// whose trigger byte is set.
	Initial, Settle, Event *sir.Unit
	// Ticks are the fused tick loops, one per clock input that has one.
	Ticks []Tick

	// Formats describe the runtime-event sites (sir.Event.Format indexes
	// them); Readmems the $readmemh/$readmemb calls to perform at time zero.
	Formats  []Format
	Readmems []Readmem
	// Loops are the comb loops (sir.StatusNoSettle's diag word indexes
	// them), LoopSites the procedural loops (sir.StatusLoopLimit's).
	Loops     []Loop
	LoopSites []LoopSite

	// Parallel holds the partitioned kernels (nil: none were asked for);
	// Plan describes the partitioning.
	Parallel *Parallel
	Plan     *plan.Plan
	// Warnings are the compiler's (lint and lowering), formatted.
	Warnings []string

	byPath      map[string]*Signal
	scopeByPath map[string]*Scope
}

// Trigger is one trigger bit: bit Bit of element Elem of signal Signal.
type Trigger struct {
	Name              string
	Signal, Elem, Bit int
	Derived           bool // the design writes it (a derived clock)
}

// Edge is which change of a trigger bit fires an event.
type Edge uint8

const (
	Posedge Edge = iota + 1
	Negedge
	AnyEdge
)

func (e Edge) String() string {
	switch e {
	case Posedge:
		return "posedge"
	case Negedge:
		return "negedge"
	case AnyEdge:
		return "edge"
	}
	return fmt.Sprintf("Edge(%d)", int(e))
}

// Event is one trigger event: an edge of a trigger bit, with its kernels.
type Event struct {
	Name    string
	Trigger int // index in Triggers
	Edge    Edge
	// Fused evaluates and applies the event's trigger groups, then
	// settles: the kernel of a step where it is the only event that fired
	// (otherwise Event runs, then Settle).
	Fused *sir.Unit
}

// Tick is the fused tick loop of one clock input (see the kernels
// package): Unit runs up to the u64 in object Count edges of the clock.
type Tick struct {
	Clock   int // signal
	Trigger int // index in Triggers
	// Rise and Fall are the events the edges fire (-1: none).
	Rise, Fall int
	Unit       *sir.Unit
	Count      sir.HomeID
	// Batch is how many edges one call should run.
	Batch int
}

// StatusTickEvents is what a tick loop returns when an edge left runtime
// events in the ring: the simulator drains them and goes on.
const StatusTickEvents = sir.StatusUser

// StatusTickDerived is what a tick loop returns when an edge changed a
// trigger bit the design writes: the simulator fires what it fires (the
// step loop's next round) and goes on.
const StatusTickDerived = sir.StatusUser + 1

// Format is one runtime-event site: a system task and its format string.
type Format struct {
	Task string // "$display", "$error", ...
	// Text is the format string; HasFormat is false when the task had no
	// leading string literal.
	Text      string
	HasFormat bool
	Scope     string // the instance's hierarchical name (for %m)
	Pos       Pos
}

// Readmem is one $readmemh / $readmemb to perform at time zero.
type Readmem struct {
	File   string // resolved against the source file that names it
	Signal int
	Hex    bool
	// Start and End are the optional address arguments (-1 when absent).
	Start, End int
	Pos        Pos
}

// Task names the system task ("$readmemh").
func (r Readmem) Task() string {
	if r.Hex {
		return "$readmemh"
	}
	return "$readmemb"
}

// Loop is a comb loop: the signals it iterates over and its bound.
type Loop struct {
	Pos     Pos
	MaxIter int
	Signals []string
}

// LoopSite is a procedural loop and its iteration bound.
type LoopSite struct {
	Pos     Pos
	MaxIter int
}

// NoSettleError is a comb loop that did not settle within its bound.
type NoSettleError struct {
	Loop Loop
}

func (e *NoSettleError) Error() string {
	return fmt.Sprintf("%s: comb loop did not settle after %d iterations: %s", e.Loop.Pos, e.Loop.MaxIter, strings.Join(e.Loop.Signals, ", "))
}

// ErrorDiag describes a unit's non-OK status as an error (nil for
// StatusOK), diag being the detail word (the system block's SysDiag, or a
// lane's LaneDiag): the comb loop that did not settle or the procedural
// loop that reached its bound.
func (p *Program) ErrorDiag(st sir.Status, diag int) error {
	switch st {
	case sir.StatusOK:
		return nil
	case sir.StatusNoSettle:
		if diag >= 0 && diag < len(p.Loops) {
			return &NoSettleError{Loop: p.Loops[diag]}
		}
	case sir.StatusLoopLimit:
		if diag >= 0 && diag < len(p.LoopSites) {
			ls := p.LoopSites[diag]
			return fmt.Errorf("%s: loop exceeded %d iterations", ls.Pos, ls.MaxIter)
		}
	}
	return fmt.Errorf("kernel status %s", st)
}

// Parallel holds the partitioned alternatives of the settle and of each
// event's fused kernel. Running a partitioned kernel's tasks one after
// another in Index order equals its sequential kernel.
type Parallel struct {
	Lanes int
	// Status has one object per lane (LaneStatus, LaneDiag); none, like
	// Rings, when no kernel is partitioned (the state is then laid out as
	// the sequential build's).
	Status []sir.HomeID
	// Rings has the runtime-event ring of each lane's tasks: sir.RingHome
	// (the sequential kernels' ring) for lane 0, a ring object of the
	// same capacity for every other lane, so that lanes never share event
	// bytes. Each record carries its sir.Event.Seq; the simulator merges
	// the rings of one call by it (MergeRecords). Nil: every lane writes
	// sir.RingHome (an image of an older builder).
	Rings []sir.HomeID
	// Settle is the partitioned settle (nil: the sequential one only);
	// Fused has one entry per Events entry (nil entries likewise).
	Settle *Partitioned
	Fused  []*Partitioned
	// Reasons say, per kernel, why it is or is not partitioned.
	Reasons []string
	// Ticks has, per Program.Ticks entry, the tick loop's free-running
	// lanes (nil entries, or a shorter list: none).
	Ticks []*LaneTick
}

// Partitioned is a partitioned kernel: per lane, its ordered tasks.
type Partitioned struct {
	Name                 string
	SingleCost, Makespan int
	Lanes                [][]*Task
}

// Task is one task of a partitioned kernel: one unit run on one lane.
type Task struct {
	Index int // position in the kernel's sequential order
	Lane  int
	Label string
	Cost  int
	Unit  *sir.Unit
	// Waits are what the task waits for, computed from Effects; Effects
	// are the state bytes its SIR reads, writes and may store.
	Waits   []ordering.Wait
	Effects ordering.Effects
}

// Tasks lists every task by Index.
func (k *Partitioned) Tasks() []*Task {
	var ts []*Task
	for _, l := range k.Lanes {
		ts = append(ts, l...)
	}
	slices.SortFunc(ts, func(a, b *Task) int { return a.Index - b.Index })
	return ts
}

// Kernels lists the partitioned kernels that exist (settle first).
func (par *Parallel) Kernels() []*Partitioned {
	if par == nil {
		return nil
	}
	var ks []*Partitioned
	if par.Settle != nil {
		ks = append(ks, par.Settle)
	}
	for _, k := range par.Fused {
		if k != nil {
			ks = append(ks, k)
		}
	}
	return ks
}

// Units lists every sequential unit: Initial (when present), Settle,
// Event, each event's Fused, then the tick loops.
func (p *Program) Units() []*sir.Unit {
	var us []*sir.Unit
	if p.Initial != nil {
		us = append(us, p.Initial)
	}
	us = append(us, p.Settle, p.Event)
	for _, ev := range p.Events {
		us = append(us, ev.Fused)
	}
	for _, tk := range p.Ticks {
		us = append(us, tk.Unit)
	}
	return us
}

// LaneLayout is the layout lane's task units run against: l with the
// event ring at the lane's own ring (Rings). The compiler's layout and the
// program's both place the rings, so both sides call it.
func (par *Parallel) LaneLayout(l interface {
	sir.Layout
	sir.Sizer
}, lane int) sir.Layout {
	if par == nil || lane <= 0 || lane >= len(par.Rings) || par.Rings[lane] == sir.RingHome {
		return l
	}
	return sir.RingAt(l, l.Offset(par.Rings[lane]), l.Size(par.Rings[lane]))
}

// MergeRecords returns the records of several rings drained after one
// kernel call in the order one sequential run would have written them:
// sorted by Seq, stably, so that one ring's records (and one process's)
// keep their order.
func MergeRecords(rings [][]sir.Record) []sir.Record {
	var all []sir.Record
	for _, r := range rings {
		all = append(all, r...)
	}
	if len(rings) > 1 {
		slices.SortStableFunc(all, func(a, b sir.Record) int { return cmp.Compare(a.Seq, b.Seq) })
	}
	return all
}

// TaskUnits lists the units of the partitioned kernels, each once (fused
// kernels share the settle's), then those of the lane ticks.
func (p *Program) TaskUnits() []*sir.Unit {
	seen := map[*sir.Unit]bool{}
	var us []*sir.Unit
	for _, k := range p.Parallel.Kernels() {
		for _, ts := range k.Lanes {
			for _, t := range ts {
				if !seen[t.Unit] {
					seen[t.Unit] = true
					us = append(us, t.Unit)
				}
			}
		}
	}
	if p.Parallel != nil {
		us = append(us, p.Parallel.laneTickUnits()...)
	}
	return us
}

// Link checks a program's tables and indexes and builds its lookups. A
// builder calls it once; Decode does it for a decoded image. It reports
// the first inconsistency (an index out of range, an object outside the
// state, an invalid unit) as an error.
func (p *Program) Link() error { return p.linkTables(true) }

// LinkBuilt is Link for a program a builder just made from units it has
// checked itself (kernels runs sir.Check on every unit it emits): the
// tables are checked and linked the same, the units not again. Decode
// uses Link.
func (p *Program) LinkBuilt() error { return p.linkTables(false) }

func (p *Program) linkTables(checkUnits bool) error {
	if p.Layout == nil || p.Settle == nil || p.Event == nil {
		return errors.New("program: incomplete (need Layout, Settle and Event)")
	}
	if err := p.link(); err != nil {
		return err
	}
	l := p.Layout
	if err := l.check(len(p.Signals)); err != nil {
		return err
	}
	l.link()
	for i, sig := range p.Signals {
		if o := l.Signal(i); o.Elems != sig.Elems() || o.ElemSize != ElemSize(sig.Width) {
			return fmt.Errorf("program: signal %s (%d bits × %d) has an object of %d × %d bytes", sig.Path, sig.Width, sig.Elems(), o.Elems, o.ElemSize)
		}
	}
	sigOK := func(id int) bool { return id >= 0 && id < len(p.Signals) }
	for i, t := range p.Triggers {
		if !sigOK(t.Signal) || t.Elem < 0 || t.Elem >= p.Signals[t.Signal].Elems() || t.Bit < 0 || t.Bit >= p.Signals[t.Signal].Width {
			return fmt.Errorf("program: trigger %d out of range", i)
		}
	}
	if n := l.Object(l.Triggers).Size(); n < len(p.Events) {
		return fmt.Errorf("program: %d trigger bytes for %d events", n, len(p.Events))
	}
	if n := l.Object(l.Prev).Size(); n < len(p.Triggers) {
		return fmt.Errorf("program: %d previous-value bytes for %d triggers", n, len(p.Triggers))
	}
	for i, ev := range p.Events {
		if ev.Trigger < 0 || ev.Trigger >= len(p.Triggers) || ev.Edge < Posedge || ev.Edge > AnyEdge || ev.Fused == nil {
			return fmt.Errorf("program: event %d invalid", i)
		}
	}
	for _, id := range p.CombRead {
		if !sigOK(id) {
			return fmt.Errorf("program: comb-read signal %d out of range", id)
		}
	}
	for i, tk := range p.Ticks {
		if !sigOK(tk.Clock) || tk.Trigger < 0 || tk.Trigger >= len(p.Triggers) || tk.Rise < -1 || tk.Rise >= len(p.Events) ||
			tk.Fall < -1 || tk.Fall >= len(p.Events) || tk.Unit == nil || l.Object(tk.Count).Size() < 8 || tk.Batch < 1 {
			return fmt.Errorf("program: tick loop %d invalid", i)
		}
	}
	for i, r := range p.Readmems {
		if !sigOK(r.Signal) {
			return fmt.Errorf("program: readmem %d: signal out of range", i)
		}
	}
	if par := p.Parallel; par != nil {
		// A plan that partitioned nothing keeps no status words or rings.
		unused := len(par.Kernels()) == 0 && len(par.Status) == 0 && len(par.Rings) == 0
		if par.Lanes < 1 || par.Lanes > 64 || len(par.Status) != par.Lanes && !unused || len(par.Fused) > len(p.Events) {
			return fmt.Errorf("program: parallel tables for %d lanes invalid", par.Lanes)
		}
		for _, id := range par.Status {
			if l.Object(id).Size() < LaneStatusSize {
				return fmt.Errorf("program: lane status object %d invalid", id)
			}
		}
		if par.Rings != nil && len(par.Rings) != par.Lanes {
			return fmt.Errorf("program: %d lane rings for %d lanes", len(par.Rings), par.Lanes)
		}
		for i, id := range par.Rings {
			if (i == 0) != (id == sir.RingHome) || l.Object(id).Offset < 0 || l.Object(id).Size() != l.Ring.Size() {
				return fmt.Errorf("program: lane %d's event ring (object %d) invalid", i, id)
			}
		}
		if len(par.Ticks) > len(p.Ticks) {
			return fmt.Errorf("program: %d lane ticks for %d tick loops", len(par.Ticks), len(p.Ticks))
		}
		for i, lt := range par.Ticks {
			if lt == nil {
				continue
			}
			if lt.Tick != i || len(lt.Units) != par.Lanes || len(lt.Effects) != par.Lanes || slices.Contains(lt.Units, nil) ||
				l.Object(lt.Arg).Size() < LaneTickArgSize || p.Ticks[i].Rise >= 0 == (p.Ticks[i].Fall >= 0) {
				return fmt.Errorf("program: lane tick %d invalid", i)
			}
		}
		for _, k := range par.Kernels() {
			if len(k.Lanes) != par.Lanes {
				return fmt.Errorf("program: %s has %d lanes of %d", k.Name, len(k.Lanes), par.Lanes)
			}
			for li, ts := range k.Lanes {
				for _, t := range ts {
					if t == nil || t.Unit == nil || t.Lane != li {
						return fmt.Errorf("program: %s: lane %d: invalid task", k.Name, li)
					}
				}
			}
		}
	}
	for _, u := range append(p.Units(), p.TaskUnits()...) {
		if u == nil {
			return errors.New("program: missing unit")
		}
		if err := checkAddrs(u, l); err != nil {
			return err
		}
		if !checkUnits {
			continue
		}
		if err := sir.Check(u); err != nil {
			return fmt.Errorf("program: %w", err)
		}
	}
	return nil
}

// ElemSize is the bytes one element of a width-bit value takes: 1, 2, 4
// or 8 up to 64 bits, then whole 64-bit words.
func ElemSize(width int) int {
	switch {
	case width <= 8:
		return 1
	case width <= 16:
		return 2
	case width <= 32:
		return 4
	}
	return 8 * ((width + 63) / 64)
}

// checkAddrs reports a unit addressing an object the layout lacks, or a
// runtime event whose format is unknown.
func checkAddrs(u *sir.Unit, l *Layout) error {
	for _, b := range u.Blocks {
		for i := range b.Insts {
			in := &b.Insts[i]
			switch in.Op {
			case sir.OpLoad, sir.OpStore, sir.OpLoadBits, sir.OpStoreBits:
				if l.Offset(in.Addr.Home) < 0 {
					return fmt.Errorf("program: unit %q addresses object %d, which the layout lacks", u.Name, in.Addr.Home)
				}
			}
		}
	}
	return nil
}

// WriteSIR writes the layout, the format table and every unit's SIR.
func (p *Program) WriteSIR(w io.Writer) error {
	if err := p.Layout.Dump(w); err != nil {
		return err
	}
	for i, f := range p.Formats {
		fmt.Fprintf(w, "format %d: %s %q (%s)\n", i, f.Task, f.Text, f.Pos)
	}
	for _, r := range p.Readmems {
		fmt.Fprintf(w, "readmem %s %q hex=%v [%d:%d]\n", p.Signals[r.Signal].Path, r.File, r.Hex, r.Start, r.End)
	}
	for _, u := range append(p.Units(), p.TaskUnits()...) {
		if err := sir.Fprint(w, u); err != nil {
			return err
		}
	}
	return nil
}
