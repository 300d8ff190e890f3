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
// settle, every trigger bit equal to its previous value), the fused
// kernels of its edges would run (not NoFused, no partitioned
// alternative), and no shadow needs each edge mirrored.
func (s *Simulator) tickReady(tl *tickLoop) bool {
	if s.shadow != nil || s.dirty || s.opts.NoFused || !tl.native && !s.tickInterp {
		return false
	}
	for _, ev := range []int{tl.tk.Rise, tl.tk.Fall} {
		if ev >= 0 && s.events[ev].fused.par != nil {
			return false
		}
	}
	for i := range s.trig {
		tr := &s.trig[i]
		if s.st[tr.off]>>tr.sh&1 != s.st[tr.prev] {
			return false
		}
	}
	return true
}

// runTick runs up to edges clock edges in tl and returns the edges it
// completed (each a step, as Tick counts them) and the outcome of the last
// one, mapped as call maps a kernel's.
func (s *Simulator) runTick(tl *tickLoop, edges int) (int, error) {
	le := binary.LittleEndian
	le.PutUint64(s.st[tl.countOff:], uint64(min(edges, tl.tk.Batch)))
	t0 := s.time
	s.tickCalls++
	st := tl.k.k.Run(s.buf)
	s.time = le.Uint64(s.st[s.timeOff:])
	edges = int(s.time - t0)
	s.steps += uint64(edges)
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
