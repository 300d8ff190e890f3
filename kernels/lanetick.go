package kernels

import (
	"fmt"
	"slices"
	"strings"

	"github.com/weft-hdl/weft/lanes"
	"github.com/weft-hdl/weft/ordering"
	"github.com/weft-hdl/weft/program"
	"github.com/weft-hdl/weft/sir"
	"github.com/weft-hdl/weft/statelayout"
)

// tickParts is what the lane ticks (program.LaneTick) are built from:
// each event's flop processes and the comb nodes a batch of edges needs.
// The sinks are the comb nodes whose values nothing inside a batch reads
// (no flop, no trigger, no runtime event, no needed node): outputs such
// as a checksum over every core, and what only they read; they are
// settled after the batch.
type tickParts struct {
	procs    [][]tickProc // per event
	nodes    []int        // the needed comb nodes, ascending
	nodeFP   []sir.Footprint
	nodeCost []int
	// nodeLane is each node's lane in the settle's partition (-1: none),
	// which islands follow (with tickProc.lane), so that both kinds of
	// partitioned code write the same segments.
	nodeLane   []int
	sinks      int
	sinkWrites map[sir.HomeID][]sir.Range
}

// tickProc is one flop process of an event: its part, its measured cost
// and the bytes its evaluate and apply read and write.
type tickProc struct {
	part ffPart
	cost int
	fp   sir.Footprint
	lane int // in the event's partitioned kernel, -1: none
}

// homeRanges groups object-relative ranges by home.
func homeRanges(rs []sir.Range) map[sir.HomeID][]sir.Range {
	m := map[sir.HomeID][]sir.Range{}
	for _, r := range rs {
		m[r.Home] = append(m[r.Home], r)
	}
	return m
}

// rangesMeet reports whether a range of rs shares a byte with one of m.
func rangesMeet(rs []sir.Range, m map[sir.HomeID][]sir.Range) bool {
	for _, r := range rs {
		for _, s := range m[r.Home] {
			if r.Lo < s.Hi && s.Lo < r.Hi {
				return true
			}
		}
	}
	return false
}

// tickParts finds the needed comb nodes and the sinks, and keeps procs,
// each event's flop processes, for the lane ticks.
func (c *compiler) tickParts(procs [][]tickProc, nodeFP []sir.Footprint, work []lanes.Work) {
	par, s := c.par, c.s
	tp := &tickParts{procs: procs, nodeFP: nodeFP, sinkWrites: map[sir.HomeID][]sir.Range{}}
	par.tick = tp
	var ffReads []sir.Range
	for _, ps := range procs {
		for _, p := range ps {
			ffReads = append(ffReads, p.fp.Reads...)
		}
	}
	need := make([]bool, len(s.Nodes))
	read := homeRanges(ffReads)
	var stack []int
	for k := range s.Nodes {
		if work[k].Observer || work[k].Lane0 || rangesMeet(nodeFP[k].Writes, read) {
			need[k] = true
			stack = append(stack, k)
		}
	}
	for len(stack) > 0 {
		k := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, p := range s.NodePred(k) {
			if !need[p] {
				need[p] = true
				stack = append(stack, int(p))
			}
		}
	}
	tp.nodeCost, tp.nodeLane = make([]int, len(s.Nodes)), make([]int, len(s.Nodes))
	for k := range tp.nodeLane {
		tp.nodeLane[k] = -1
	}
	if par.Settle != nil {
		for _, t := range par.Comb.Candidates[par.Comb.Chosen].Tasks {
			for _, k := range t.Nodes {
				tp.nodeLane[k] = t.Lane
			}
		}
	}
	for k := range s.Nodes {
		tp.nodeCost[k] = work[k].Cost
		if need[k] {
			tp.nodes = append(tp.nodes, k)
			continue
		}
		tp.sinks++
		for _, r := range nodeFP[k].Writes {
			tp.sinkWrites[r.Home] = append(tp.sinkWrites[r.Home], r)
		}
	}
}

// islands places the work of one edge of event ev for free-running
// lanes: flop processes and needed comb nodes that share a written cache
// line (one writes in the line what the other reads or writes) form an
// island. Islands go to the lanes the partitioned kernels give their
// elements when those place every island and fill every lane (the state
// segments then fit both kinds of code); otherwise the islands, in order,
// are cut into one run of about equal cost per lane. It returns each
// lane's processes (in sequential order), its comb nodes (ascending) and
// its estimated cost, and the number of islands.
func (tp *tickParts) islands(ev, nLanes int) (parts [][]ffPart, nodes [][]int, load []int, n int) {
	procs := tp.procs[ev]
	// Elements: the processes, then the needed nodes.
	nElem := len(procs) + len(tp.nodes)
	uf := make([]int, nElem)
	for i := range uf {
		uf[i] = i
	}
	find := func(i int) int {
		for uf[i] != i {
			uf[i] = uf[uf[i]]
			i = uf[i]
		}
		return i
	}
	type access struct {
		lo, hi, elem int
		write        bool
	}
	byHome := map[sir.HomeID][]access{}
	add := func(elem int, fp sir.Footprint) {
		for _, r := range fp.Reads {
			byHome[r.Home] = append(byHome[r.Home], access{r.Lo, r.Hi, elem, false})
		}
		// A write covers its whole cache lines (a home several lanes
		// write gets a segment of its own, on a line boundary): lanes
		// that wrote neighbouring bytes of one line would pass the line
		// back and forth on every edge.
		for _, r := range fp.Writes {
			byHome[r.Home] = append(byHome[r.Home], access{r.Lo &^ (cacheLine - 1), (r.Hi + cacheLine - 1) &^ (cacheLine - 1), elem, true})
		}
	}
	cost, hint := make([]int, nElem), make([]int, nElem)
	for i, p := range procs {
		add(i, p.fp)
		cost[i], hint[i] = p.cost, p.lane
	}
	for j, k := range tp.nodes {
		add(len(procs)+j, tp.nodeFP[k])
		cost[len(procs)+j], hint[len(procs)+j] = tp.nodeCost[k], tp.nodeLane[k]
	}
	// Per home, runs of overlapping accesses: a run with a write joins
	// every element in it (a run of reads only shares nothing).
	homes := make([]sir.HomeID, 0, len(byHome))
	for h := range byHome {
		homes = append(homes, h)
	}
	slices.Sort(homes)
	for _, h := range homes {
		as := byHome[h]
		slices.SortFunc(as, func(a, b access) int { return a.lo - b.lo })
		for i := 0; i < len(as); {
			j, hi, write := i+1, as[i].hi, as[i].write
			for j < len(as) && as[j].lo < hi {
				hi, write = max(hi, as[j].hi), write || as[j].write
				j++
			}
			if write {
				for _, a := range as[i+1 : j] {
					uf[find(a.elem)] = find(as[i].elem)
				}
			}
			i = j
		}
	}
	islandCost := make([]int, nElem)
	for e := range nElem {
		islandCost[find(e)] += cost[e]
	}
	// Islands go where the partitioned kernels put them, or else, in
	// order of their first element, are cut into runs of about equal
	// cost: neighbouring instances (their state lies together) stay on
	// one lane.
	var roots []int
	seen := make([]bool, nElem)
	for e := range nElem {
		if r := find(e); !seen[r] {
			seen[r] = true
			roots = append(roots, r)
		}
	}
	lane := make([]int, nElem)
	load = make([]int, nLanes)
	if !tp.followHints(roots, find, cost, hint, islandCost, lane, load) {
		clear(load)
		costs := make([]int, len(roots))
		for i, r := range roots {
			costs[i] = islandCost[r]
		}
		for i, l := range lanes.CutInOrder(costs, load) {
			lane[roots[i]] = l
		}
	}
	parts, nodes = make([][]ffPart, nLanes), make([][]int, nLanes)
	for i, p := range procs {
		l := lane[find(i)]
		parts[l] = append(parts[l], p.part)
	}
	for j, k := range tp.nodes {
		l := lane[find(len(procs)+j)]
		nodes[l] = append(nodes[l], k)
	}
	return parts, nodes, load, len(roots)
}

// cacheLine is the unit of memory two cores pass between them.
const cacheLine = 64

// batchHandOffs is about what a lane tick's batch (at least
// program.LaneTickBatch edges) costs besides its edges, in cross-lane
// hand-offs: the lanes' start, the wait for their end, and the settle and
// bookkeeping after it. A design whose edges take a few nanoseconds does
// not win them back.
const batchHandOffs = 3

// followHints places each island on the lane where the partitioned
// kernels put most of its cost (hint per element, -1: none), and reports
// whether every island had such a lane and every lane got an island.
func (tp *tickParts) followHints(roots []int, find func(int) int, cost, hint, islandCost, lane, load []int) bool {
	byLane := map[[2]int]int{} // (island, lane) -> hinted cost
	for e, h := range hint {
		if h >= 0 {
			byLane[[2]int{find(e), h}] += cost[e] + 1
		}
	}
	for _, r := range roots {
		best, bestCost := -1, 0
		for l := range load {
			if c := byLane[[2]int{r, l}]; c > bestCost {
				best, bestCost = l, c
			}
		}
		if best < 0 {
			return false
		}
		lane[r] = best
		load[best] += islandCost[r]
	}
	return !slices.Contains(load, 0)
}

// laneTick builds the free-running lanes of tick loop tk (index ti), or
// says why it has none. Each lane's edge is one unit: its islands' flop
// processes' evaluate and apply, then their needed comb nodes.
func (c *compiler) laneTick(ti int, tk *TickKernel, combRead, derived bool) (*program.LaneTick, string, error) {
	par := c.par
	ev := max(tk.Rise, tk.Fall)
	tp := par.tick
	switch {
	case tk.Rise >= 0 && tk.Fall >= 0:
		return nil, "both edges fire events", nil
	case ev < 0:
		return nil, "no edge fires an event", nil
	case combRead:
		return nil, "comb logic reads the clock", nil
	case derived:
		return nil, "the design has derived triggers, which the step loop fires", nil
	case tp == nil:
		return nil, "nothing to place", nil
	}
	for _, p := range tp.procs[ev] {
		if writesHome(p.fp.Writes, sir.RingHome) {
			return nil, "its flops emit runtime events ($display, $finish, ...), which the step loop prints edge by edge", nil
		}
	}
	for _, k := range tp.nodes {
		if writesHome(tp.nodeFP[k].Writes, sir.RingHome) {
			return nil, "comb logic emits runtime events ($display, ...), which the step loop prints edge by edge", nil
		}
	}
	parts, nodes, load, n := tp.islands(ev, par.Lanes)
	if slices.Contains(load, 0) {
		return nil, fmt.Sprintf("%d independent islands of logic for %d lanes", n, par.Lanes), nil
	}
	edges := make([]*sir.Unit, par.Lanes)
	span := 0
	for l := range par.Lanes {
		u, err := c.taskUnit(fmt.Sprintf("%s lane %d edge", tk, l), l, func(u *ub) {
			if len(parts[l]) > 0 {
				u.mode = modeEval
				u.stage(parts[l], true)
				ctx := u.evalParts(parts[l])
				u.mode = modeComb
				u.applyParts(parts[l], ctx)
			}
			u.mode = modeComb
			for _, k := range nodes[l] {
				u.node(c.s.Nodes[k])
			}
		})
		if err != nil {
			return nil, "", err
		}
		edges[l] = u
		span = max(span, unitCost(u))
	}
	// The busiest lane's edge, with its share of a batch's fixed cost,
	// against the sequential one's, by the margin.
	single := par.EventSingle[ev]
	perEdge := (batchHandOffs*par.SyncCost + program.LaneTickBatch - 1) / program.LaneTickBatch
	if po := c.opts.Partition; !po.Always && !lanes.Worth(span, perEdge, single, po.Margin) {
		return nil, fmt.Sprintf("%d islands, busiest lane %d per edge (+%d for the batch's hand-offs) against the sequential %d: not worth it", n, span, perEdge, single), nil
	}
	if err := optimize(edges, c.opts, c.large); err != nil {
		return nil, "", err
	}
	if c.laneTickArg == nil {
		c.laneTickArg = c.sp.AddScratch("$lanetick.arg", 8, program.LaneTickArgSize/8)
	}
	lt := &program.LaneTick{Tick: ti, Name: tk.String() + " lanes", Arg: c.laneTickArg.ID, Units: make([]*sir.Unit, par.Lanes)}
	forbidden := map[sir.HomeID]bool{sir.HomeID(tk.Clock.ID): true, c.sp.Sys().ID: true, c.sp.Prev().ID: true, sir.RingHome: true}
	for _, id := range par.Status {
		forbidden[id] = true
	}
	for _, id := range par.Rings {
		forbidden[id] = true
	}
	for l, e := range edges {
		u, err := c.assembled(laneTickUnit(fmt.Sprintf("%s lane %d", tk, l), tk.Rise >= 0, lt.Arg, e))
		if err != nil {
			return nil, "", err
		}
		if emitsEvents(u) {
			return nil, fmt.Sprintf("lane %d emits runtime events", l), nil
		}
		for _, b := range u.Blocks {
			if b.Term.Kind == sir.TermReturn && b.Term.Status != sir.StatusOK {
				return nil, fmt.Sprintf("lane %d may stop an edge early (status %s)", l, b.Term.Status), nil
			}
		}
		fp := sir.Effects(u, spaceLayout{c.sp})
		if rangesMeet(fp.Reads, tp.sinkWrites) {
			return nil, fmt.Sprintf("lane %d reads comb logic left out of the batch", l), nil
		}
		for _, r := range append(fp.Reads, fp.Writes...) {
			switch {
			case r.Home == sir.HomeID(tk.Clock.ID):
				return nil, fmt.Sprintf("its logic reads the clock %s (an asynchronous reset, a clock used as data)", tk.Clock.Path), nil
			case forbidden[r.Home]:
				return nil, fmt.Sprintf("lane %d touches %s", l, c.sp.Object(r.Home).Name), nil
			}
		}
		lt.Units[l] = u
	}
	return lt, fmt.Sprintf("free-running lanes: %d islands, busiest lane %d per edge, sequential %d; %d comb nodes settled after each batch", n, span, single, tp.sinks), nil
}

// laneTickUnit is one lane of a LaneTick: the u64 at arg times, flip the
// clock level (byte 8 of arg, then a register) and, on the edge that fires
// the event (rise: the level became 1), run parts in order.
func laneTickUnit(name string, rise bool, arg sir.HomeID, parts ...*sir.Unit) *sir.Unit {
	b := sir.NewBuilder(name)
	lvl := b.Reg(1)
	b.CopyTo(lvl, b.Load(1, 1, sir.Addr{Home: arg, Offset: program.LaneTickLevel}))
	loop := newCountedLoop(b, sir.Addr{Home: arg})
	edge := b.NewBlock()
	b.OpTo(lvl, sir.OpXor, lvl, b.Const(1, 1), sir.NoReg)
	if rise {
		b.Branch(lvl, edge, loop.latch)
	} else {
		b.Branch(lvl, loop.latch, edge)
	}
	b.SetBlock(edge)
	for _, p := range parts {
		next := b.NewBlock()
		spliceOK(b, p, next)
		b.SetBlock(next)
	}
	b.Jump(loop.latch)
	b.SetBlock(loop.latch)
	loop.close()
	return b.U
}

// orderTicks computes the lane ticks' effects over the finished layout
// and drops those whose lanes share state.
func (par *Parallel) orderTicks(l *statelayout.Layout) {
	for i, lt := range par.Ticks {
		if lt == nil {
			continue
		}
		lt.Effects = make([]ordering.Effects, len(lt.Units))
		for lane, u := range lt.Units {
			lt.Effects[lane] = ordering.FromUnits(par.LaneLayout(l, lane), u)
		}
		name := func(off int) string {
			for _, o := range l.Space().Objects() {
				if lo := l.Offset(o.ID); off >= lo && off < lo+l.Size(o.ID) {
					return o.Name
				}
			}
			return "the ring"
		}
		if err := lt.Interference(lt.Effects, name); err != nil {
			par.Ticks[i] = nil
			par.TickReasons[i], _, _ = strings.Cut(par.TickReasons[i], ": ")
			par.TickReasons[i] += ": " + err.Error()
		}
	}
	par.Reasons = append(par.Reasons, par.TickReasons...)
}
