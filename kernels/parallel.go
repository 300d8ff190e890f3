package kernels

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/weft-hdl/weft/design"
	"github.com/weft-hdl/weft/ffsplit"
	"github.com/weft-hdl/weft/lanes"
	"github.com/weft-hdl/weft/ordering"
	"github.com/weft-hdl/weft/program"
	"github.com/weft-hdl/weft/sir"
	"github.com/weft-hdl/weft/slt"
	"github.com/weft-hdl/weft/statelayout"
)

// Offsets in a lane's status object (Parallel.Status): the runtime's
// definition (program.LaneStatus, program.LaneDiag).
const (
	LaneStatus = program.LaneStatus
	LaneDiag   = program.LaneDiag
)

// Parallel holds the partitioned alternatives of a program's hot kernels
// (Options.Lanes > 1): the comb settle and each event's fused kernel, as
// the runtime runs them (program.Parallel: Lanes, Status, Settle, Fused,
// Reasons), and how the partitioner got there. The sequential kernels are
// built unchanged; running a partitioned kernel's tasks one after another
// in Index order equals its sequential kernel.
type Parallel struct {
	program.Parallel
	SyncCost int
	// Comb is the settle's partition plan; FF the evaluate/apply placement
	// of each event (nil for an event whose kernel is not partitioned).
	Comb *lanes.Plan
	FF   []*ffsplit.Plan
	// EventSingle is, per Program.Events entry, the estimated cost of its
	// sequential fused kernel (partitioned or not).
	EventSingle []int
	// TickReasons say, per Program.Ticks entry, whether it has
	// free-running lanes (program.LaneTick), or why not.
	TickReasons []string
	// tick is what the lane ticks are built from (nil: nothing to build).
	tick *tickParts
}

// Partitioned is a partitioned kernel (program.Partitioned); Task one of
// its tasks (program.Task: Waits and Effects are computed from the final
// units over the finished layout).
type (
	Partitioned = program.Partitioned
	Task        = program.Task
)

// PartitionOptions configure the partitioned kernels (Options.Partition).
type PartitionOptions struct {
	// Lanes > 1 builds partitioned alternatives for that many lanes.
	Lanes int
	// Always skips the margin test (every kernel with work for several
	// lanes is partitioned): for tests.
	Always bool
	// SyncCost is the cost of one cross-lane wait in cost units
	// (0: lanes.DefaultSyncCost).
	SyncCost int
	// Margin is lanes.Options.Margin (0: its default).
	Margin float64
}

// spaceLayout addresses every object at offset 0: sir.Effects over it
// gives object-relative byte ranges, which is what lanes/ and ffsplit/
// compare before the layout exists.
type spaceLayout struct{ sp *statelayout.Space }

func (spaceLayout) Offset(sir.HomeID) int { return 0 }

func (l spaceLayout) Size(h sir.HomeID) int {
	if o := l.sp.Object(h); o != nil {
		return o.Size()
	}
	return 0
}

// unitCost is a unit's cost estimate: its instructions (every SIR value is
// at most one 64-bit word; wider values are already several instructions).
func unitCost(u *sir.Unit) int {
	n := 0
	for _, b := range u.Blocks {
		n += len(b.Insts)
	}
	return max(n, 1)
}

// measure lowers body into a throwaway unit and returns its cost and its
// object-relative footprint.
func (c *compiler) measure(body func(u *ub)) (int, sir.Footprint) {
	u := newUB(c, "measure")
	u.task, u.lane = true, -1
	body(u)
	u.end()
	c.checkInsts(u) // a measured unit is thrown away: it only may not pass the bound
	return unitCost(u.b.U), sir.Effects(u.b.U, spaceLayout{c.sp})
}

// taskUnit lowers one task for lane.
func (c *compiler) taskUnit(name string, lane int, body func(u *ub)) (*sir.Unit, error) {
	return c.unit(name, func(u *ub) {
		u.task, u.lane = true, lane
		body(u)
	})
}

// partition builds Program.Parallel: the comb partition (lanes/), then per
// event the evaluate/apply placement (ffsplit/) followed by the settle
// tasks. Waits and the layout come later (finishParallel), from the final
// units.
func (c *compiler) partition() error {
	po := c.opts.Partition
	n := po.Lanes
	if n > 64 {
		return fmt.Errorf("kernels: %d lanes: at most 64 are supported", n)
	}
	sync := po.SyncCost
	if sync <= 0 {
		sync = lanes.DefaultSyncCost
	}
	par := &Parallel{Parallel: program.Parallel{Lanes: n}, SyncCost: sync}
	c.par = par
	c.p.Parallel = par
	for l := 0; l < n; l++ {
		par.Status = append(par.Status, c.sp.AddScratch(fmt.Sprintf("$lane%d.status", l), 4, program.LaneStatusSize/4).ID)
	}
	// Each lane writes its runtime events to its own ring (lane 0 to the
	// sequential kernels' one), so printing never ties work to one lane;
	// the simulator merges the rings by event key (eventseq.go).
	par.Rings = []sir.HomeID{sir.RingHome}
	for l := 1; l < n; l++ {
		par.Rings = append(par.Rings, c.sp.AddScratch(fmt.Sprintf("$lane%d.ring", l), sir.RingHeaderSize+c.sp.RingCap(), 1).ID)
	}
	s := c.s

	// ---- comb settle ----
	nodeFP := make([]sir.Footprint, len(s.Nodes))
	work := make([]lanes.Work, len(s.Nodes))
	procKey := map[*design.Process]int{}
	for k, nd := range s.Nodes {
		cost, fp := c.measure(func(u *ub) { u.mode = modeComb; u.node(nd) })
		nodeFP[k] = fp
		w := lanes.Work{Preds: s.NodePred(k), Cost: cost, Inst: nd.Items[0].Proc.Inst, Writes: laneWrites(fp.Writes)}
		for _, it := range nd.Items {
			if it.Effects {
				// Events go to the lane's own ring; only a shared
				// system-block write ($random's seed) orders the node.
				w.Observer = true
				if writesHome(fp.Writes, c.sp.Sys().ID) {
					w.Lane0, w.Ordered = true, true
				}
			}
			if it.WritesTrigger {
				w.Lane0 = true
			}
			if it.Split == slt.SplitConcat {
				key, ok := procKey[it.Proc]
				if !ok {
					key = len(procKey)
					procKey[it.Proc] = key
				}
				w.Shared = append(w.Shared, lanes.Shared{Key: key, Cost: cost})
			}
		}
		work[k] = w
	}
	costCache := map[string]int{}
	in := lanes.Input{Work: work, Top: c.d.Top, SingleCost: unitCost(c.p.Settle),
		Cost: func(nodes []int) int {
			if len(nodes) == 1 {
				return work[nodes[0]].Cost
			}
			key := fmt.Sprint(nodes)
			if v, ok := costCache[key]; ok {
				return v
			}
			v, _ := c.measure(func(u *ub) {
				u.mode = modeComb
				for _, k := range nodes {
					u.node(s.Nodes[k])
				}
			})
			costCache[key] = v
			return v
		}}
	var settleTasks [][]*Task // the chosen comb partition's tasks, per lane
	settleSingle := in.SingleCost
	settleSpan := settleSingle
	if len(s.Nodes) > 0 {
		plan, err := lanes.Partition(in, lanes.Options{Lanes: n, SyncCost: sync, Always: po.Always, Margin: po.Margin})
		if err != nil {
			return fmt.Errorf("kernels: partitioning the settle: %w", err)
		}
		par.Comb = plan
		par.Reasons = append(par.Reasons, "settle: "+plan.Reason)
		if plan.Chosen >= 0 {
			cand := plan.Candidates[plan.Chosen]
			settleTasks = make([][]*Task, n)
			for _, t := range cand.Tasks {
				nodes := t.Nodes
				u, err := c.taskUnit(fmt.Sprintf("settle lane %d task %d", t.Lane, t.Index), t.Lane, func(u *ub) {
					u.mode = modeComb
					for _, k := range nodes {
						u.node(s.Nodes[k])
					}
				})
				if err != nil {
					return err
				}
				settleTasks[t.Lane] = append(settleTasks[t.Lane], &Task{Index: t.Index, Lane: t.Lane, Label: nodesLabel(nodes), Cost: t.Cost, Unit: u})
			}
			for l := range settleTasks {
				sort.Slice(settleTasks[l], func(i, j int) bool { return settleTasks[l][i].Index < settleTasks[l][j].Index })
			}
			par.Settle = &Partitioned{Name: "settle", SingleCost: settleSingle, Makespan: cand.Makespan, Lanes: settleTasks}
			settleSpan = cand.Makespan
		}
	} else {
		par.Reasons = append(par.Reasons, "settle: no comb logic")
	}
	// A settle task for fused kernels whose settle is not partitioned.
	var wholeSettle *Task
	if settleTasks == nil && len(s.Nodes) > 0 {
		u, err := c.taskUnit("settle task", 0, func(u *ub) { u.settle() })
		if err != nil {
			return err
		}
		wholeSettle = &Task{Lane: 0, Label: "settle", Cost: settleSingle, Unit: u}
	}

	// Per lane, the object-relative bytes its comb tasks touch (ffsplit
	// affinity).
	laneAccess := make([][]sir.Range, n)
	if par.Comb != nil && par.Comb.Chosen >= 0 {
		for _, t := range par.Comb.Candidates[par.Comb.Chosen].Tasks {
			for _, k := range t.Nodes {
				laneAccess[t.Lane] = append(laneAccess[t.Lane], nodeFP[k].Reads...)
				laneAccess[t.Lane] = append(laneAccess[t.Lane], nodeFP[k].Writes...)
			}
		}
	}

	// ---- each event: evaluate/apply parts, then the settle ----
	// The scopes of the comb nodes and processes as ffsplit's instance
	// tree, so that a core's registers follow its comb logic.
	insts := newFFInsts()
	laneInst := insts.laneInsts(s, n, par.Comb, work)

	par.Fused = make([]*Partitioned, len(c.sp.Events))
	par.FF = make([]*ffsplit.Plan, len(c.sp.Events))
	tickProcs := make([][]tickProc, len(c.sp.Events)) // per event, for the lane ticks
	par.EventSingle = make([]int, len(c.sp.Events))
	for ei, ev := range c.sp.Events {
		var procs []ffsplit.Proc
		var ref []ffPart // the single-process part of each proc
		ffSingle := 0
		for _, gi := range ev.Groups {
			for k := range s.FF[gi].Evaluate {
				part := ffPart{group: gi, lo: k, hi: k + 1}
				var ctx *groupCtx
				cost, fp := c.measure(func(u *ub) {
					u.mode = modeEval
					u.stage([]ffPart{part}, true)
					ctx = u.evalPart(part)
					u.mode = modeComb
					u.applyParts([]ffPart{part}, []*groupCtx{ctx})
				})
				ffSingle += cost
				tickProcs[ei] = append(tickProcs[ei], tickProc{part: part, cost: cost, fp: fp, lane: -1})
				pr := ffsplit.Proc{Group: gi, Cost: cost, Writes: laneWrites(fp.Writes), Inst: insts.of(s.FF[gi].Evaluate[k].Proc)}
				pr.Accesses = append(append(pr.Accesses, fp.Reads...), fp.Writes...)
				pr.Lane0 = writesHome(fp.Writes, c.sp.Sys().ID)
				procs = append(procs, pr)
				ref = append(ref, part)
			}
		}
		name := "fused " + ev.String()
		if len(procs) == 0 && settleTasks == nil {
			par.Reasons = append(par.Reasons, name+": nothing to partition")
			continue
		}
		fp, err := ffsplit.Split(ffsplit.Input{Procs: procs, Lanes: n, LaneAccess: laneAccess, InstParent: insts.parent, LaneInst: laneInst}, ffsplit.Options{})
		if err != nil {
			return fmt.Errorf("kernels: placing %s: %w", name, err)
		}
		single := ffSingle + settleSingle
		par.EventSingle[ei] = single
		partsOf := make([][]ffPart, n)
		for l := 0; l < n; l++ {
			for _, pi := range fp.Lanes[l] {
				pt := fp.Parts[pi]
				partsOf[l] = append(partsOf[l], ffPart{group: pt.Group, lo: ref[pt.Procs[0]].lo, hi: ref[pt.Procs[len(pt.Procs)-1]].hi})
			}
		}
		// The evaluate parts, the apply tasks (as costed below), then, when
		// there is comb logic, one wait and the settle.
		span := fp.Makespan
		applySpan := 0
		for _, ld := range fp.Loads {
			if ld > 0 {
				applySpan = max(applySpan, 1+ld/8)
			}
		}
		span += applySpan
		if len(s.Nodes) > 0 {
			span += sync + settleSpan
		}
		ffUseful := len(fp.Parts) > 1 && usedLanes(fp.Lanes) > 1
		if !po.Always && !lanes.Worth(span, sync, single, po.Margin) {
			margin := po.Margin
			if margin <= 0 {
				margin = lanes.DefaultMargin
			}
			par.Reasons = append(par.Reasons, fmt.Sprintf("%s: estimated %d+%d does not beat the sequential %d by the margin (×%.2f); sequential kernel kept", name, span, sync, single, margin))
			continue
		}
		if !ffUseful && settleTasks == nil {
			par.Reasons = append(par.Reasons, name+": one lane's work; sequential kernel kept")
			continue
		}
		par.FF[ei] = fp
		for pi, pt := range fp.Parts {
			for _, i := range pt.Procs {
				tickProcs[ei][i].lane = fp.Lane[pi]
			}
		}
		k := &Partitioned{Name: name, SingleCost: single, Makespan: span, Lanes: make([][]*Task, n)}
		index := 0
		evalCtx := make([][]*groupCtx, n)
		for l := 0; l < n; l++ {
			if len(partsOf[l]) == 0 {
				continue
			}
			parts := partsOf[l]
			u, err := c.taskUnit(fmt.Sprintf("%s eval lane %d", name, l), l, func(u *ub) {
				u.mode = modeEval
				u.stage(parts, true)
				evalCtx[l] = u.evalParts(parts)
				u.mode = modeComb
			})
			if err != nil {
				return err
			}
			k.Lanes[l] = append(k.Lanes[l], &Task{Index: index, Lane: l, Label: "eval " + partsLabel(s, parts), Cost: fp.Loads[l], Unit: u})
			index++
		}
		for l := 0; l < n; l++ {
			if len(partsOf[l]) == 0 {
				continue
			}
			parts, ctxs := partsOf[l], evalCtx[l]
			u, err := c.taskUnit(fmt.Sprintf("%s apply lane %d", name, l), l, func(u *ub) {
				u.mode = modeComb
				u.applyParts(parts, ctxs)
			})
			if err != nil {
				return err
			}
			k.Lanes[l] = append(k.Lanes[l], &Task{Index: index, Lane: l, Label: "apply " + partsLabel(s, parts), Cost: 1 + fp.Loads[l]/8, Unit: u})
			index++
		}
		switch {
		case settleTasks != nil:
			for l, ts := range settleTasks {
				for _, t := range ts {
					t2 := *t
					t2.Index += index
					k.Lanes[l] = append(k.Lanes[l], &t2)
				}
			}
		case wholeSettle != nil:
			t2 := *wholeSettle
			t2.Index = index
			k.Lanes[0] = append(k.Lanes[0], &t2)
		}
		par.Fused[ei] = k
		par.Reasons = append(par.Reasons, fmt.Sprintf("%s: %d parts on %d lanes, estimated %d vs sequential %d", name, len(fp.Parts), usedLanes(fp.Lanes), span, single))
	}
	c.tickParts(tickProcs, nodeFP, work)
	return nil
}

func usedLanes(ls [][]int) int {
	n := 0
	for _, l := range ls {
		if len(l) > 0 {
			n++
		}
	}
	return n
}

func nodesLabel(nodes []int) string {
	if len(nodes) == 1 {
		return fmt.Sprintf("n%d", nodes[0])
	}
	return fmt.Sprintf("n%d..n%d (%d nodes)", nodes[0], nodes[len(nodes)-1], len(nodes))
}

func partsLabel(s *slt.Schedule, parts []ffPart) string {
	var b strings.Builder
	for i, p := range parts {
		if i == 3 {
			fmt.Fprintf(&b, " +%d", len(parts)-3)
			break
		}
		if i > 0 {
			b.WriteString(" ")
		}
		if p.lo == 0 && p.hi == len(s.FF[p.group].Evaluate) {
			fmt.Fprintf(&b, "g%d", p.group)
		} else {
			fmt.Fprintf(&b, "g%d[%d:%d]", p.group, p.lo, p.hi)
		}
	}
	return b.String()
}

// taskUnits lists the units of every partitioned kernel (each once; fused
// kernels share the settle's).
func (par *Parallel) taskUnits() []*sir.Unit {
	if par == nil {
		return nil
	}
	seen := map[*sir.Unit]bool{}
	var us []*sir.Unit
	for _, k := range par.Kernels() {
		for _, t := range k.Tasks() {
			if !seen[t.Unit] {
				seen[t.Unit] = true
				us = append(us, t.Unit)
			}
		}
	}
	return us
}

// dropIfUnused gives back the lanes' status words and rings when no
// kernel is partitioned: the program is then the sequential build's, byte
// for byte, so asking for lanes costs nothing where they do not pay (the
// generated code's speed depends on where its arena falls against the
// state, so even a larger state can cost). The reasons stay for the plan.
func (par *Parallel) dropIfUnused(sp *statelayout.Space) {
	if len(par.Kernels()) > 0 {
		return
	}
	// Lane ticks use neither (laneTick checks).
	for _, id := range par.Status {
		sp.Discard(id)
	}
	for _, id := range par.Rings[min(1, len(par.Rings)):] {
		sp.Discard(id)
	}
	par.Status, par.Rings = nil, nil
}

// layout places the state: lane-segmented when some kernel is
// partitioned or some tick loop has free-running lanes, packed otherwise.
func (c *compiler) layout() (*statelayout.Layout, error) {
	par := c.par
	if par == nil || len(par.Kernels()) == 0 && !par.HasLaneTicks() {
		return statelayout.Packed(c.sp), nil
	}
	writers := map[sir.HomeID]uint64{}
	for _, lt := range par.Ticks {
		if lt == nil {
			continue
		}
		for l, u := range lt.Units {
			for _, r := range sir.Effects(u, spaceLayout{c.sp}).Writes {
				writers[r.Home] |= 1 << uint(l)
			}
		}
	}
	for _, k := range par.Kernels() {
		for _, t := range k.Tasks() {
			for _, r := range sir.Effects(t.Unit, spaceLayout{c.sp}).Writes {
				h := r.Home
				if h == sir.RingHome {
					h = par.Rings[t.Lane]
				}
				writers[h] |= 1 << uint(t.Lane)
			}
		}
	}
	return statelayout.Segmented(c.sp, par.Lanes, func(h sir.HomeID) uint64 { return writers[h] })
}

// order computes every task's effects from its final unit over the
// finished layout, then its waits from them.
func (par *Parallel) order(l *statelayout.Layout) error {
	for _, k := range par.Kernels() {
		for _, ts := range k.Lanes {
			for _, t := range ts {
				t.Effects = ordering.FromUnits(par.LaneLayout(l, t.Lane), t.Unit)
			}
		}
	}
	for _, k := range par.Kernels() {
		table := make([][]ordering.Task, len(k.Lanes))
		for li, ts := range k.Lanes {
			for _, t := range ts {
				table[li] = append(table[li], ordering.Task{Index: t.Index, Effects: t.Effects})
			}
		}
		waits, err := ordering.Waits(table)
		if err != nil {
			return fmt.Errorf("kernels: ordering %s: %w", k.Name, err)
		}
		for li, ts := range k.Lanes {
			for i, t := range ts {
				t.Waits = waits[li][i]
			}
		}
	}
	return nil
}

// laneWrites are the writes that tie work to one lane: ws without the
// event ring, since each lane writes its own.
func laneWrites(ws []sir.Range) []sir.Range {
	return slices.DeleteFunc(slices.Clone(ws), func(r sir.Range) bool { return r.Home == sir.RingHome })
}

// writesHome reports whether ws holds a range of home h.
func writesHome(ws []sir.Range, h sir.HomeID) bool {
	for _, r := range ws {
		if r.Home == h {
			return true
		}
	}
	return false
}
