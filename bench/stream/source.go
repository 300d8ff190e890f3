package stream

import (
	"fmt"

	"github.com/weft-hdl/weft/bench"
	"github.com/weft-hdl/weft/dut"
)

// Source drives beats onto a valid/ready bus, cocotbext-axi's
// AxiStreamSource without the framing: Send queues a beat, the source's
// task puts it on the bus after a rising edge (payload and valid active)
// and holds it until a handshake, then drives the next beat or idles
// (valid inactive; the payload keeps its last value).
type Source struct {
	tb    *bench.Bench
	p     *port
	queue []*pending
	cur   *pending // the beat on the bus or, during a reset, owed to it
	on    bool     // valid driven active
	count uint64
	idle  []*bench.Event // WaitIdle waiters
}

// pending is a queued beat; done is set at its handshake (Send waits).
type pending struct {
	beat Beat
	done *bench.Event
}

// NewSource binds the bus at prefix, drives valid inactive, and starts
// the source's task on the rising edges of clk.
func NewSource(tb *bench.Bench, prefix string, clk *dut.Signal, cfg Config) *Source {
	s := &Source{tb: tb, p: bind(tb, "source", prefix, clk, cfg)}
	if s.p == nil {
		return s
	}
	s.p.drive(s.p.valid, s.p.cfg.ValidActiveLow, false)
	tb.Fork(s.p.task, s.run)
	return s
}

// Send queues b and waits until it has been transferred (its handshake).
func (s *Source) Send(b Beat) {
	if e := s.push(b, true); e != nil {
		s.tb.Await(e.Wait())
	}
}

// SendNowait queues b and returns at once.
func (s *Source) SendNowait(b Beat) { s.push(b, false) }

// Idle reports that nothing is queued and nothing is in flight.
func (s *Source) Idle() bool { return len(s.queue) == 0 && s.cur == nil }

// WaitIdle waits until Idle: every queued beat was transferred.
func (s *Source) WaitIdle() {
	if s.Idle() || s.p == nil || s.tb.Err() != nil {
		return
	}
	e := s.tb.NewEvent(s.p.name + " idle")
	s.idle = append(s.idle, e)
	s.tb.Await(e.Wait())
}

// Count is the number of beats transferred.
func (s *Source) Count() uint64 { return s.count }

// push copies b onto the queue, with an event for Send.
func (s *Source) push(b Beat, wait bool) *bench.Event {
	if s.p == nil || s.tb.Err() != nil || !s.p.fits(b) {
		return nil
	}
	x := &pending{beat: b.Clone()}
	if wait {
		x.done = s.tb.NewEvent(fmt.Sprintf("%s beat %d", s.p.name, s.count+uint64(len(s.queue))+1))
	}
	s.queue = append(s.queue, x)
	return x.done
}

// run is the source's task: at each rising edge, see whether the beat on
// the bus was taken, then drive what the next cycle carries.
func (s *Source) run() {
	p := s.p
	for {
		p.tb.RisingEdge(p.clk)
		if p.stopped() {
			return
		}
		pause := p.pause() // once per cycle, whatever the state
		if s.cur != nil && s.on && !p.resetAt() && p.validAt() && p.readyAt() {
			s.count++
			if s.cur.done != nil {
				s.cur.done.Set()
			}
			s.cur = nil
		}
		switch {
		case p.resetNow():
			s.setValid(false) // the owed beat (cur) waits for the reset's end
		case s.cur != nil && s.on:
			// Stalled: hold valid and the payload until the handshake.
		case pause:
			s.setValid(false)
		case s.cur != nil: // after a reset
			p.driveBeat(s.cur.beat)
			s.setValid(true)
		case len(s.queue) > 0:
			s.cur = s.queue[0]
			s.queue[0] = nil
			s.queue = s.queue[1:]
			p.driveBeat(s.cur.beat)
			s.setValid(true)
		default:
			s.setValid(false)
		}
		if s.Idle() && len(s.idle) > 0 {
			ws := s.idle
			s.idle = nil
			for _, e := range ws {
				e.Set()
			}
		}
	}
}

// setValid drives valid when it changes (writes cost an evaluation).
func (s *Source) setValid(on bool) {
	if on != s.on {
		s.p.drive(s.p.valid, s.p.cfg.ValidActiveLow, on)
		s.on = on
	}
}

// drive writes a 1-bit handshake signal at its active or idle level.
func (p *port) drive(sig *dut.Signal, activeLow, active bool) {
	p.tb.Set(sig, level(activeLow, active))
}

// driveBeat writes the payload signals.
func (p *port) driveBeat(b Beat) {
	for i, sig := range p.data {
		p.tb.Set(sig, b[i])
	}
}

// fits checks a beat against the payload signals before it is queued, so
// that a wrong beat fails at the caller's line rather than in the task.
func (p *port) fits(b Beat) bool {
	if len(b) != len(p.data) {
		p.tb.Failf("%s: beat %v has %d values; the bus has %d payload signals (%s)", p.name, b, len(b), len(p.data), p.dataNames())
		return false
	}
	for i, x := range b {
		switch {
		case x == nil:
			p.tb.Failf("%s: beat %v: no value for %s", p.name, b, p.data[i].Name())
			return false
		case x.Sign() < 0 || x.BitLen() > p.data[i].Width():
			p.tb.Failf("%s: beat %v: %s is %d bits (unsigned); 0x%s does not fit", p.name, b, p.data[i].Name(), p.data[i].Width(), x.Text(16))
			return false
		}
	}
	return true
}

func (p *port) dataNames() string {
	s := ""
	for i, sig := range p.data {
		if i > 0 {
			s += ", "
		}
		s += sig.Name()
	}
	return s
}
