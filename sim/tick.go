package sim

import (
	"encoding/binary"
	"time"

	"github.com/weft-hdl/weft/program"
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
func (tl *tickLoop) adaptBatch(ran int, elapsed time.Duration) {
	if ran < tl.batch {
		return // cut short by the caller's count, an event or $finish
	}
	switch {
	case elapsed < tickCallTime/2 && tl.batch < maxTickCallEdges:
		tl.batch *= 2
	case elapsed > 2*tickCallTime && tl.batch/2 >= tl.tk.Batch:
		tl.batch /= 2
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
		s.ticks = append(s.ticks, &tickLoop{tk: tk, k: k, countOff: s.lay.Offset(tk.Count), native: native, batch: tk.Batch})
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
// now (tickBudget; -1: any number), 0 when it may not: it may only when the
// step loop would do exactly what it does, that is nothing is pending but
// the clock (no input written since the last settle, every trigger bit
// equal to its previous value), the sequential fused kernels of its edges
// would run (not NoFused; see tickBudget for partitioned alternatives), and
// no shadow needs each edge mirrored.
func (s *Simulator) tickReady(tl *tickLoop) int64 {
	if s.shadow != nil || s.dirty || s.opts.NoFused || !tl.native && !s.tickInterp {
		return 0
	}
	for i := range s.trig {
		if tr := &s.trig[i]; s.bit(tr) != s.st[tr.prev] {
			return 0
		}
	}
	return s.tickBudget(tl)
}

// tickBudget is how many edges tl may run now: unbounded (-1) unless a
// kernel of its edges has a partitioned alternative. Then the loop runs
// while that slot's selector has decided for the sequential kernel, as
// many calls as the decision has left before its re-check, and while the
// selector measures the sequential kernel, the rest of that block: the
// sequential kernel competes as the tick loop runs it (the seed's fused
// sequential function keeping the native tick loop when it wins). 0: not
// now.
func (s *Simulator) tickBudget(tl *tickLoop) int64 {
	budget := int64(-1)
	for _, ev := range []int{tl.tk.Rise, tl.tk.Fall} {
		if ev < 0 || s.events[ev].fused.par == nil {
			continue
		}
		sel := s.events[ev].fused.par.sel
		if sel == nil {
			return 0 // PartitionAlways: the partitioned kernel runs
		}
		var calls int64
		switch cand, left := sel.Decided(); {
		case left > 0 && cand == 0:
			calls = left
		case left > 0:
			return 0
		default:
			c, n, _ := sel.MeasuringBlock()
			if c != 0 {
				return 0
			}
			calls = int64(n)
		}
		if calls < 1 {
			return 0
		}
		// Each slot sees every other edge.
		if budget < 0 || 2*calls < budget {
			budget = 2 * calls
		}
	}
	return budget
}

// reportSelectors tells the selectors of tl's slots about the calls a tick
// loop made: edges edges from clock level level0, taking elapsed. Decided
// selectors count them (Skip); measuring ones record them as a batch of
// the sequential kernel, sharing elapsed among the measured slots' calls.
func (s *Simulator) reportSelectors(tl *tickLoop, edges int, level0 byte, elapsed time.Duration) {
	var pks [2]*parKernel
	var calls [2]int
	total := 0
	for i, ev := range []int{tl.tk.Rise, tl.tk.Fall} {
		if ev < 0 || s.events[ev].fused.par == nil || s.events[ev].fused.par.sel == nil {
			continue
		}
		first := byte(1 - i) // a rise comes first from level 0
		n := edges / 2
		if edges%2 == 1 && level0 != first {
			n++
		}
		pks[i], calls[i] = s.events[ev].fused.par, n
		total += n
	}
	for i, pk := range pks {
		if pk == nil || calls[i] == 0 {
			continue
		}
		pk.calls += uint64(calls[i])
		if _, left := pk.sel.Decided(); left > 0 {
			pk.sel.Skip(int64(calls[i]))
		} else {
			pk.sel.DoneBatch(0, calls[i], elapsed*time.Duration(calls[i])/time.Duration(total))
		}
	}
}

// runTick runs up to edges clock edges in tl, at most budget (from
// tickReady; -1: no bound), and returns the edges it completed (each a
// step, as Tick counts them) and the outcome of the last one, mapped as
// call maps a kernel's.
func (s *Simulator) runTick(tl *tickLoop, edges int, budget int64) (int, error) {
	le := binary.LittleEndian
	if budget > 0 && int64(edges) > budget {
		edges = int(budget)
	}
	le.PutUint64(s.st[tl.countOff:], uint64(min(edges, tl.batch)))
	t0 := s.time
	s.tickCalls++
	clk := &s.trig[tl.tk.Trigger]
	level0 := s.bit(clk)
	start := time.Now()
	st := tl.k.k.Run(s.buf)
	elapsed := time.Since(start)
	s.time = le.Uint64(s.st[s.timeOff:])
	edges = int(s.time - t0)
	s.steps += uint64(edges)
	tl.adaptBatch(edges, elapsed)
	s.reportSelectors(tl, edges, level0, elapsed)
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
