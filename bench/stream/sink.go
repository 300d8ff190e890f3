package stream

import (
	"github.com/weft-hdl/weft/bench"
	"github.com/weft-hdl/weft/dut"
)

// Sink takes beats from a valid/ready bus, cocotbext-axi's AxiStreamSink
// without the framing: its task drives ready (inactive during Pause
// cycles and reset) and records a beat at each handshake, for Recv.
type Sink struct {
	tb    *bench.Bench
	p     *port
	q     *bench.Queue[Beat]
	on    bool // ready driven active
	count uint64
}

// NewSink binds the bus at prefix, drives ready inactive, and starts the
// sink's task on the rising edges of clk; ready goes active after the
// first edge unless Pause or the reset hold it.
func NewSink(tb *bench.Bench, prefix string, clk *dut.Signal, cfg Config) *Sink {
	s := &Sink{tb: tb, p: bind(tb, "sink", prefix, clk, cfg)}
	s.q = bench.NewQueue[Beat](tb, "sink "+prefix, 0)
	if s.p == nil {
		return s
	}
	if s.p.ready != nil {
		s.p.drive(s.p.ready, s.p.cfg.ReadyActiveLow, false)
	}
	tb.Fork(s.p.task, s.run)
	return s
}

// Recv waits for the next received beat (nil once the bench stopped).
func (s *Sink) Recv() Beat { return s.q.Get() }

// RecvWithin waits at most d for the next beat; false without one.
func (s *Sink) RecvWithin(d bench.Time) (Beat, bool) { return s.q.GetWithin(d) }

// Count is the number of beats received (taken by Recv or not).
func (s *Sink) Count() uint64 { return s.count }

// Empty reports that no received beat waits for Recv.
func (s *Sink) Empty() bool { return s.q.Len() == 0 }

func (s *Sink) run() {
	p := s.p
	for {
		p.tb.RisingEdge(p.clk)
		if p.stopped() {
			return
		}
		pause := p.pause() // once per cycle, whatever the state
		if !p.resetAt() && p.validAt() && p.readyAt() {
			s.count++
			s.q.TryPut(p.dataAt()) // unbounded: never full
		}
		if p.ready != nil {
			if on := !pause && !p.resetNow(); on != s.on {
				p.drive(p.ready, p.cfg.ReadyActiveLow, on)
				s.on = on
			}
		}
	}
}

// Monitor watches a valid/ready bus without driving it and records every
// handshake (valid and ready active at a rising edge, outside reset).
type Monitor struct {
	tb    *bench.Bench
	p     *port
	q     *bench.Queue[Beat]
	count uint64
}

// NewMonitor binds the bus at prefix and starts the monitor's task.
func NewMonitor(tb *bench.Bench, prefix string, clk *dut.Signal, cfg Config) *Monitor {
	m := &Monitor{tb: tb, p: bind(tb, "monitor", prefix, clk, cfg)}
	m.q = bench.NewQueue[Beat](tb, "monitor "+prefix, 0)
	if m.p == nil {
		return m
	}
	tb.Fork(m.p.task, m.run)
	return m
}

// Recv waits for the next beat seen (nil once the bench stopped).
func (m *Monitor) Recv() Beat { return m.q.Get() }

// RecvWithin waits at most d for the next beat seen; false without one.
func (m *Monitor) RecvWithin(d bench.Time) (Beat, bool) { return m.q.GetWithin(d) }

// Count is the number of handshakes seen.
func (m *Monitor) Count() uint64 { return m.count }

func (m *Monitor) run() {
	p := m.p
	for {
		p.tb.RisingEdge(p.clk)
		if p.stopped() {
			return
		}
		if !p.resetAt() && p.validAt() && p.readyAt() {
			m.count++
			m.q.TryPut(p.dataAt()) // unbounded: never full
		}
	}
}
