package sim

import (
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/weft-hdl/weft/program"
	"github.com/weft-hdl/weft/sir"
)

// Step evaluates the design after the test bench wrote inputs: input
// settle when needed, edge detection, the fired groups, settle, and more
// rounds while derived clocks fire (see the package documentation). It
// returns a *FinishError when the run ends, a *Error on failure.
func (s *Simulator) Step() error {
	if err := s.usable(); err != nil {
		return err
	}
	s.steps++
	if s.shadow != nil {
		return s.shadowEval(s.eval(), func(ref *Simulator, _ int) error {
			ref.steps++
			return ref.eval()
		})
	}
	return s.eval()
}

// Pending reports whether a home was written (SetInput, Deposit, ...)
// since the last evaluation: whether a Step now could change anything.
func (s *Simulator) Pending() bool { return s.written }

// SetPreEdge makes every later Step call fn once, before the kernels of its
// first fired edge run: after the input settle, when the state is what the
// flops of that edge sample (nil: no call). Tick's fused loops do not call
// it, so a caller that needs it on every edge must step edge by edge.
func (s *Simulator) SetPreEdge(fn func()) { s.preEdge = fn }

// Eval is Step (Verilator's name for it).
func (s *Simulator) Eval() error { return s.Step() }

// eval is one step; usable() has been checked.
func (s *Simulator) eval() error {
	if s.bg != nil {
		s.pollParallel()
	}
	s.written = false
	if s.dirty {
		s.dirty = false
		if err := s.call(s.settle); err != nil {
			return err
		}
	}
	return s.rounds(s.all, 0)
}

// rounds fires what the triggers in scan fire, then what the derived
// triggers fire, until nothing changes: the step loop from round round on.
func (s *Simulator) rounds(scan []int32, round int) error {
	for ; ; round++ {
		fired := s.fired[:0]
		for _, ti := range scan {
			tr := &s.trig[ti]
			cur := s.bit(tr)
			if cur != s.st[tr.prev] {
				s.st[tr.prev] = cur
				fired = append(fired, tr.on[cur]...)
			}
		}
		s.fired = fired
		if len(fired) == 0 {
			return s.takeNote()
		}
		if round >= s.opts.MaxRounds {
			return s.oscillation(fired)
		}
		if round == 0 && s.preEdge != nil {
			s.preEdge()
		}
		if err := s.fire(fired); err != nil {
			return err
		}
		// Only bits the design writes can change from here on.
		scan = s.derived
	}
}

// fire runs the kernels for the fired events: the one event's Fused kernel,
// or (several events, or NoFused) the generic Event kernel with the fired
// trigger bytes set, then Settle. After $finish
// in the event kernel the settle still runs, as the Fused kernels complete
// theirs, so every path leaves the same state and reports the finish.
func (s *Simulator) fire(fired []int32) error {
	if len(fired) == 1 && !s.opts.NoFused {
		return s.call(s.events[fired[0]].fused)
	}
	for _, e := range fired {
		s.st[s.trigOff+int(e)] = 1
	}
	err := s.call(s.event)
	for _, e := range fired {
		s.st[s.trigOff+int(e)] = 0
	}
	if err != nil && !errors.Is(err, ErrFinished) {
		return err
	}
	if err2 := s.call(s.settle); err2 != nil && err == nil {
		return err2
	}
	return err
}

// oscillation builds the error for a derived-clock loop.
func (s *Simulator) oscillation(fired []int32) error {
	var names []string
	seen := map[int]bool{}
	for _, e := range fired {
		ti := s.p.Events[e].Trigger
		if !seen[ti] {
			seen[ti] = true
			names = append(names, s.trig[ti].name)
		}
	}
	s.fail = &Error{Step: s.steps, Kernel: "edge detection", Err: &OscillationError{Rounds: s.opts.MaxRounds, Signals: names}}
	return s.fail
}

// call runs one kernel, drains its events and maps its status. A returned
// *FinishError or failure is final; non-fatal problems (ring overflow,
// output errors) are kept in s.note for the end of the step.
func (s *Simulator) call(k *kernel) error { return s.called(k, s.runSlot(k)) }

// called drains the events of a call of k that returned st and maps st.
func (s *Simulator) called(k *kernel, st sir.Status) error {
	if s.ringsPending(k) {
		if err := s.drain(k); err != nil {
			return err
		}
	}
	if st == sir.StatusOK {
		return nil
	}
	return s.status(k, st)
}

// status maps a non-OK kernel status to the run's outcome.
func (s *Simulator) status(k *kernel, st sir.Status) error {
	switch st {
	case sir.StatusFinish, sir.StatusStop, sir.StatusFatal:
		fe := s.pendFinish
		s.pendFinish = nil
		if fe == nil { // its record was dropped by a ring overflow
			task := map[sir.Status]sir.EventKind{sir.StatusFinish: sir.EvFinish, sir.StatusStop: sir.EvStop, sir.StatusFatal: sir.EvFatal}[st]
			fe = &FinishError{Task: task}
		}
		fe.Step, fe.Kernel = s.steps, k.name
		if s.finish == nil {
			s.finish = fe
		}
		return s.finish
	case sir.StatusRingFull:
		if s.note != nil {
			return nil // drain reported it
		}
		s.fail = &Error{Step: s.steps, Kernel: k.name, Err: errors.New("kernel reports a full event ring, but the ring shows no dropped event")}
	case sir.StatusNoSettle, sir.StatusLoopLimit:
		if s.parDiag >= 0 {
			s.fail = &Error{Step: s.steps, Kernel: k.name + " (partitioned)", Err: s.p.ErrorDiag(st, s.parDiag)}
			s.parDiag = -1
			break
		}
		s.fail = &Error{Step: s.steps, Kernel: k.name, Err: s.p.ErrorDiag(st, s.diag())}
	case statusPoolError:
		s.fail = &Error{Step: s.steps, Kernel: k.name, Err: fmt.Errorf("lane pool: %w", s.parErr)}
	case sir.StatusStepLimit:
		s.fail = &Error{Step: s.steps, Kernel: k.name, Err: fmt.Errorf("the %s backend's instruction budget ran out in one call (a runaway loop, or arithmetic on values of hundreds of thousands of bits: a multiply or divide costs steps quadratic in the width)", s.be.Name())}
	default:
		s.fail = &Error{Step: s.steps, Kernel: k.name, Err: fmt.Errorf("kernel returned status %s", st)}
	}
	return s.fail
}

// takeNote returns (and clears) the step's non-fatal problem.
func (s *Simulator) takeNote() error {
	err := s.note
	s.note = nil
	return err
}

// Tick toggles the 1-bit input clk through both edges n times, each edge
// a step (time advances by 1 per edge). It returns the number of cycles
// begun: n, or fewer when an edge returned an error (a *FinishError when
// the design ended the run).
func (s *Simulator) Tick(clk *program.Signal, n int) (int, error) {
	if err := s.usable(); err != nil {
		return 0, err
	}
	c, err := s.clock(clk)
	if err != nil {
		return 0, err
	}
	var rcs []*clock
	if s.shadow != nil {
		for _, ref := range s.shadow.refs {
			rc, err := ref.clock(ref.p.Signals[clk.ID])
			if err != nil {
				return 0, err
			}
			rcs = append(rcs, rc)
		}
	}
	// Edges go to the clock's fused tick loop when it may run them, through
	// the step loop otherwise. A failure at edge k (0-based) is in cycle
	// k/2, and cycles up to it were begun.
	for edges, target := 0, 2*n; edges < target; {
		if s.bg != nil {
			s.pollParallel()
		}
		if tl := c.tick; tl != nil {
			if budget, cand := s.tickReady(tl); budget != 0 {
				e, err := s.runTick(tl, target-edges, budget, cand)
				edges += e
				if err != nil {
					return (edges + 1) / 2, err
				}
				if e > 0 {
					continue
				}
			}
		}
		err := s.edge(c)
		if s.shadow != nil {
			err = s.shadowEval(err, func(ref *Simulator, k int) error { return ref.edge(rcs[k]) })
		}
		edges++
		if err != nil {
			return (edges + 1) / 2, err
		}
	}
	return n, nil
}

// edge toggles a clock input and evaluates: one Tick edge.
func (s *Simulator) edge(c *clock) error {
	s.st[c.off] ^= 1 << c.sh
	s.time++
	binary.LittleEndian.PutUint64(s.st[s.timeOff:], s.time)
	s.steps++
	if c.combRead {
		s.dirty = true
	}
	return s.eval()
}

// clock returns (and caches) the tick plan of a clock input.
func (s *Simulator) clock(h *program.Signal) (*clock, error) {
	if err := s.checkHome(h); err != nil {
		return nil, err
	}
	if c, ok := s.clocks[h.ID]; ok {
		return c, nil
	}
	if !s.isTopInput(h) {
		return nil, fmt.Errorf("sim: Tick: %s is not a top-level input", h.Path)
	}
	if h.Width != 1 || h.IsArray() {
		return nil, fmt.Errorf("sim: Tick: clock %s must be a 1-bit scalar, it is %d bits x %d elements", h.Path, h.Width, h.Elems())
	}
	c := &clock{off: s.homeOff[h.ID], combRead: s.combRead[h.ID]}
	c.tick = s.tickFor(h.ID)
	s.clocks[h.ID] = c
	return c, nil
}
