package sim

import (
	"encoding/binary"

	"github.com/weft-hdl/weft/kernels"
	"github.com/weft-hdl/weft/sir"
)

// tickLoop is a compiled kernels.TickKernel.
type tickLoop struct {
	tk       *kernels.TickKernel
	k        *kernel
	countOff int
	// native is set when the loop runs as machine code. Interpreted, a
	// loop costs about what the step loop costs per edge (more on a tiny
	// design), so the interpreter keeps the step loop unless tests force
	// the loop (tickInterp).
	native bool
}

// compileTicks compiles the program's tick loops (Options.NoTick: none).
func (s *Simulator) compileTicks(compileUnit func(*sir.Unit) *kernel) {
	if s.opts.NoTick {
		return
	}
	for _, tk := range s.p.Ticks {
		k := compileUnit(tk.Unit)
		if k == nil {
			return
		}
		_, native := k.k.(ptrRunner)
		s.ticks = append(s.ticks, &tickLoop{tk: tk, k: k, countOff: s.lay.Offset(tk.Count), native: native})
	}
}

// tickFor is the tick loop of clock input c, nil when it has none.
func (s *Simulator) tickFor(home int) *tickLoop {
	for _, tl := range s.ticks {
		if tl.tk.Clock.ID == home {
			return tl
		}
	}
	return nil
}

// tickReady reports whether tl may run the next cycles instead of the
// step loop: only when the step loop would do exactly what it does, that
// is nothing is pending but the clock (no input written since the last
// settle, every trigger bit equal to its previous value), the sequential
// fused kernels of its edges would run (not NoFused; a partitioned
// alternative only when its selector has decided against it), and no
// shadow needs each edge mirrored.
func (s *Simulator) tickReady(tl *tickLoop) bool {
	if s.shadow != nil || s.dirty || s.opts.NoFused || !tl.native && !s.tickInterp {
		return false
	}
	if s.tickBudget(tl) == 0 {
		return false
	}
	for i := range s.trig {
		tr := &s.trig[i]
		if s.st[tr.off]>>tr.sh&1 != s.st[tr.prev] {
			return false
		}
	}
	return true
}

// tickBudget is how many edges tl may run now: unbounded (-1) unless a
// kernel of its edges has a partitioned alternative, in which case only
// while that slot's selector has decided for the sequential kernel, and
// only as many calls as the decision has left before its re-check (the
// selector measures through the step loop). 0: not now.
func (s *Simulator) tickBudget(tl *tickLoop) int64 {
	budget := int64(-1)
	for _, ev := range []int{tl.tk.Rise, tl.tk.Fall} {
		if ev < 0 || s.events[ev].fused.par == nil {
			continue
		}
		sel := s.events[ev].fused.par.sel
		if sel == nil {
			return 0 // ParallelAlways: the partitioned kernel runs
		}
		cand, left := sel.Decided()
		if cand != 0 || left < 2 {
			return 0
		}
		// Each slot sees every other edge.
		if budget < 0 || 2*left < budget {
			budget = 2 * left
		}
	}
	return budget
}

// skipSelectors reports edges run by a tick loop to the selectors of its
// edges' slots as calls of the sequential kernel.
func (s *Simulator) skipSelectors(tl *tickLoop, edges int) {
	for _, ev := range []int{tl.tk.Rise, tl.tk.Fall} {
		if ev >= 0 && s.events[ev].fused.par != nil && s.events[ev].fused.par.sel != nil {
			n := int64(edges+1) / 2
			s.events[ev].fused.par.calls += uint64(n)
			s.events[ev].fused.par.sel.Skip(n)
		}
	}
}

// runTick runs up to edges clock edges in tl and returns the edges it
// completed (each a step, as Tick counts them) and the outcome of the last
// one, mapped as call maps a kernel's.
func (s *Simulator) runTick(tl *tickLoop, edges int) (int, error) {
	le := binary.LittleEndian
	if b := s.tickBudget(tl); b > 0 && int64(edges) > b {
		edges = int(b)
	}
	le.PutUint64(s.st[tl.countOff:], uint64(min(edges, tl.tk.Batch)))
	t0 := s.time
	s.tickCalls++
	st := tl.k.k.Run(s.buf)
	s.time = le.Uint64(s.st[s.timeOff:])
	edges = int(s.time - t0)
	s.steps += uint64(edges)
	s.skipSelectors(tl, edges)
	// Errors name the kernel the step loop would have been running.
	k := s.settle
	if ev := [2]int{tl.tk.Fall, tl.tk.Rise}[s.st[s.trig[tl.tk.Trigger].off]&1]; ev >= 0 {
		k = s.events[ev].fused
	}
	if le.Uint32(s.st[s.ringOff:]) != 0 || le.Uint32(s.st[s.ringOff+12:]) != 0 {
		if err := s.drain(k); err != nil {
			return edges, err
		}
	}
	if st != sir.StatusOK && st != kernels.StatusTickEvents {
		return edges, s.status(k, st)
	}
	return edges, s.takeNote()
}

// DisableTick makes Tick use the step loop from now on (Options.NoTick).
func (s *Simulator) DisableTick() { s.opts.NoTick = true; s.ticks = nil; clear(s.clocks) }

// TickCalls is how many times Tick ran a fused tick loop (each call runs
// up to a batch of edges without returning to Go).
func (s *Simulator) TickCalls() uint64 { return s.tickCalls }
