package sim

import (
	"encoding/binary"
	"time"

	"github.com/weft-hdl/weft/program"
	"github.com/weft-hdl/weft/selector"
	"github.com/weft-hdl/weft/sir"
)

// tickLoop is a compiled program.Tick.
type tickLoop struct {
	tk       *program.Tick
	k        *kernel
	countOff int
	// native is set when the loop runs as machine code. Interpreted, a
	// loop costs about what the step loop costs per edge (more on a tiny
	// design), so the interpreter keeps the step loop unless tests force
	// the loop (tickInterp).
	native bool
	// batch is the edges one call runs: the program's Batch (sized from
	// the unit's static instruction count) at first, then doubled or
	// halved, never below Batch, so that a call takes about tickCallTime
	// (adaptBatch). The floor keeps a slow host (valgrind, a descheduled
	// thread) from shrinking calls to an edge each.
	batch int
	// lanes are the loop's free-running lanes (nil: none attached), the
	// partitioned candidate of its event's slot; laneBatch is their batch,
	// adapted the same way from program.LaneTickBatch (a hand-off per batch
	// of the sequential loop's size would lose the first measurements).
	lanes     *laneTick
	laneBatch int
}

// tickCallTime is how long one tick-loop call should run: long enough
// that the call's own cost (two clock reads, the selector and ring checks)
// is lost in it, short enough not to hold up the garbage collector (native
// code cannot be preempted).
const tickCallTime = 100 * time.Microsecond

// maxTickCallEdges bounds the batch adaptBatch grows: native code's
// backward-jump budget per call (jit.DefaultMaxBackEdges, 2^28) then
// still allows 8,192 loop iterations per edge should a design's edges
// turn costly all at once after a cheap phase (a batch grows only while
// calls are short, so a steadily costly design never gets near it).
const maxTickCallEdges = 1 << 15

// adaptBatch resizes tl's batch after a call that ran the whole batch in
// elapsed. A static instruction count overestimates a call's cost many
// times over when most of the unit's blocks are skipped on a given edge
// (the arms of a CPU's decoder): the SoC's loop ran 25 cycles per call
// and spent 3-4% of its time between calls.
func (tl *tickLoop) adaptBatch(batch *int, ran int, elapsed time.Duration) {
	if ran < *batch {
		return // cut short by the caller's count, an event or $finish
	}
	switch {
	case elapsed < tickCallTime/2 && *batch < maxTickCallEdges:
		*batch *= 2
	case elapsed > 2*tickCallTime && *batch/2 >= tl.tk.Batch:
		*batch /= 2
	}
}

// compileTicks compiles the program's tick loops (Options.NoTick: none).
func (s *Simulator) compileTicks(compileUnit func(*sir.Unit) *kernel) {
	if s.opts.NoTick {
		return
	}
	for i := range s.p.Ticks {
		tk := &s.p.Ticks[i]
		k := compileUnit(tk.Unit)
		if k == nil {
			return
		}
		_, native := k.k.(PtrRunner)
		s.ticks = append(s.ticks, &tickLoop{tk: tk, k: k, countOff: s.lay.Offset(tk.Count), native: native, batch: tk.Batch, laneBatch: max(tk.Batch, program.LaneTickBatch)})
	}
}

// tickFor is the tick loop of clock input c, nil when it has none.
func (s *Simulator) tickFor(home int) *tickLoop {
	for _, tl := range s.ticks {
		if tl.tk.Clock == home {
			return tl
		}
	}
	return nil
}

// tickReady returns how many edges tl may run instead of the step loop
// now (tickBudget; -1: any number), 0 when it may not, and which
// candidate runs them (0: the sequential tick loop, 1: its free-running
// lanes): it may only when the step loop would do exactly what it does,
// that is nothing is pending but the clock (no input written since the
// last settle, every trigger bit equal to its previous value), the fused
// kernels of its edges would run (not NoFused; see tickBudget for
// partitioned alternatives), and no shadow needs each edge mirrored.
func (s *Simulator) tickReady(tl *tickLoop) (int64, int) {
	if s.shadow != nil || s.dirty || s.opts.NoFused || !tl.native && !s.tickInterp {
		return 0, 0
	}
	for i := range s.trig {
		if tr := &s.trig[i]; s.bit(tr) != s.st[tr.prev] {
			return 0, 0
		}
	}
	return s.tickBudget(tl)
}

// tickBudget is how many edges tl may run now, and with which candidate:
// unbounded (-1) on the sequential loop unless a kernel of its edges has a
// partitioned alternative. Then the loop runs while that slot's selector
// has decided for the sequential kernel, as many calls as the decision
// has left before its re-check, and while the selector measures the
// sequential kernel, the rest of that block: the sequential kernel
// competes as the tick loop runs it (the seed's fused sequential function
// keeping the native tick loop when it wins). The free-running lanes, when
// attached, stand for the partitioned kernel the same way (always, under
// PartitionAlways). 0: not now.
func (s *Simulator) tickBudget(tl *tickLoop) (int64, int) {
	if lk := tl.lanes; lk != nil {
		if lk.sel == nil {
			return -1, 1
		}
		if cand, left := lk.sel.Decided(); left > 0 {
			return left * laneTickUnit, cand
		}
		cand, n, _ := lk.sel.MeasuringBlock()
		return int64(max(n, 1)) * laneTickUnit, cand
	}
	budget := int64(-1)
	for _, ev := range []int{tl.tk.Rise, tl.tk.Fall} {
		if ev < 0 || s.events[ev].fused.par == nil {
			continue
		}
		sel := s.events[ev].fused.par.sel
		if sel == nil {
			return 0, 0 // PartitionAlways: the partitioned kernel runs
		}
		var calls int64
		cand, left := sel.Decided()
		if left > 0 {
			calls = left
		} else {
			c, n, _ := sel.MeasuringBlock()
			cand, calls = c, int64(n)
		}
		if calls < 1 || cand != 0 {
			return 0, 0
		}
		// Each slot sees every other edge.
		if budget < 0 || 2*calls < budget {
			budget = 2 * calls
		}
	}
	return budget, 0
}

// reportSelectors tells the selectors of tl's slots about the calls a tick
// loop or its lanes (cand) made: edges edges from clock level level0,
// taking elapsed. Each slot counts its calls (and, for the lanes, its
// partitioned ones). Decided selectors count them (Skip); measuring ones
// record them as a batch of cand, sharing elapsed among the measured
// slots' calls. While lanes are attached, their selector decides for the
// loop instead of the slots'.
func (s *Simulator) reportSelectors(tl *tickLoop, cand, edges int, level0 byte, elapsed time.Duration) {
	var pks [2]*parKernel
	var calls [2]int
	total := 0
	for i, ev := range []int{tl.tk.Rise, tl.tk.Fall} {
		if ev < 0 || s.events[ev].fused.par == nil {
			continue
		}
		first := byte(1 - i) // a rise comes first from level 0
		n := edges / 2
		if edges%2 == 1 && level0 != first {
			n++
		}
		pks[i], calls[i] = s.events[ev].fused.par, n
		total += n
		pks[i].calls += uint64(n)
		if cand == 1 {
			pks[i].runs += uint64(n)
		}
	}
	report := func(sel *selector.Selector, n int, elapsed time.Duration) {
		switch _, left := sel.Decided(); {
		case left > 0:
			sel.Skip(int64(n))
		case n > 0:
			sel.DoneBatch(cand, n, elapsed)
		}
	}
	if lk := tl.lanes; lk != nil {
		if lk.sel == nil {
			return
		}
		// In calls of laneTickUnit edges: edges and time add up until
		// they make whole calls (the sequential loop's first batches
		// are shorter than one).
		if lk.restCand != cand {
			lk.rest, lk.restTime, lk.restCand = 0, 0, cand
		}
		lk.rest += edges
		lk.restTime += elapsed
		n := lk.rest / laneTickUnit
		if n == 0 {
			return
		}
		share := lk.restTime * time.Duration(n*laneTickUnit) / time.Duration(lk.rest)
		report(lk.sel, n, share)
		lk.restTime -= share
		lk.rest -= n * laneTickUnit
		return
	}
	for i, pk := range pks {
		if pk != nil && pk.sel != nil && calls[i] > 0 {
			report(pk.sel, calls[i], elapsed*time.Duration(calls[i])/time.Duration(total))
		}
	}
}

// runTick runs up to edges clock edges in tl (cand 0) or its
// free-running lanes (cand 1), at most budget (from tickReady; -1: no
// bound), and returns the edges it completed (each a step, as Tick counts
// them) and the outcome of the last one, mapped as call maps a kernel's.
func (s *Simulator) runTick(tl *tickLoop, edges int, budget int64, cand int) (int, error) {
	le := binary.LittleEndian
	if budget > 0 && int64(edges) > budget {
		edges = int(budget)
	}
	s.tickCalls++
	clk := &s.trig[tl.tk.Trigger]
	level0 := s.bit(clk)
	if cand == 1 {
		e, elapsed, err := s.runLaneTick(tl, min(edges, tl.laneBatch))
		tl.adaptBatch(&tl.laneBatch, e, elapsed)
		s.reportSelectors(tl, 1, e, level0, elapsed)
		return e, err
	}
	le.PutUint64(s.st[tl.countOff:], uint64(min(edges, tl.batch)))
	t0 := s.time
	start := time.Now()
	st := tl.k.k.Run(s.buf)
	elapsed := time.Since(start)
	s.time = le.Uint64(s.st[s.timeOff:])
	edges = int(s.time - t0)
	s.steps += uint64(edges)
	tl.adaptBatch(&tl.batch, edges, elapsed)
	s.reportSelectors(tl, 0, edges, level0, elapsed)
	// Errors name the kernel the step loop would have been running.
	k := s.settle
	if ev := [2]int{tl.tk.Fall, tl.tk.Rise}[s.bit(clk)]; ev >= 0 {
		k = s.events[ev].fused
	}
	if sir.RingPending(s.st[s.ringOff:]) { // tick loops are sequential: one ring
		if err := s.drain(k); err != nil {
			return edges, err
		}
	}
	if st != sir.StatusOK && st != program.StatusTickEvents && st != program.StatusTickDerived {
		return edges, s.status(k, st)
	}
	// A derived trigger the last edge changed fires now, as the step
	// loop's next round would.
	return edges, s.rounds(s.derived, 1)
}

// DisableTick makes Tick use the step loop from now on (Options.NoTick).
func (s *Simulator) DisableTick() { s.opts.NoTick = true; s.ticks = nil; clear(s.clocks) }

// TickCalls is how many times Tick ran a fused tick loop (each call runs
// up to a batch of edges without returning to Go).
func (s *Simulator) TickCalls() uint64 { return s.tickCalls }
