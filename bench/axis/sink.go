package axis

import (
	"github.com/weft-hdl/weft/bench"
	"github.com/weft-hdl/weft/bench/stream"
	"github.com/weft-hdl/weft/dut"
)

// Sink takes frames off an AXI4-Stream bus (cocotbext-axi's
// AxiStreamSink): it drives tready (low while Options.Pause pauses or
// Options.Reset is active), reassembles the beats it accepts into frames
// and keeps them, in order, for Recv.
type Sink struct {
	r *receiver
	s *stream.Sink
}

// NewSink binds the bus at prefix (see the package doc) and starts
// accepting beats on the rising edges of clk.
func NewSink(tb *bench.Bench, prefix string, clk *dut.Signal, opts Options) *Sink {
	l := bind(tb, prefix)
	if l == nil {
		return &Sink{}
	}
	s := stream.NewSink(tb, prefix, clk, l.config(opts))
	return &Sink{s: s, r: newReceiver(l, "sink", s, opts)}
}

// Recv waits for the next frame (a spec's wait, bounded by the bench's
// Timeout).
func (s *Sink) Recv() Frame { return s.r.recv() }

// RecvWithin waits at most d for the next frame; false when none came.
func (s *Sink) RecvWithin(d bench.Time) (Frame, bool) { return s.r.recvWithin(d) }

// Count is the number of frames received so far (taken by Recv or not).
func (s *Sink) Count() uint64 { return s.r.countFrames() }

// Empty reports whether no received frame waits for Recv.
func (s *Sink) Empty() bool { return s.r.empty() }

// Monitor watches an AXI4-Stream bus without driving anything
// (cocotbext-axi's AxiStreamMonitor): every handshake is a beat, and the
// frames they make are kept, in order, for Recv.
type Monitor struct {
	r *receiver
	m *stream.Monitor
}

// NewMonitor binds the bus at prefix (see the package doc) and starts
// recording its handshakes at the rising edges of clk. Options.Pause
// does not apply to a monitor; Options.Reset makes it drop a frame that
// a reset cuts off.
func NewMonitor(tb *bench.Bench, prefix string, clk *dut.Signal, opts Options) *Monitor {
	l := bind(tb, prefix)
	if l == nil {
		return &Monitor{}
	}
	opts.Pause = nil
	m := stream.NewMonitor(tb, prefix, clk, l.config(opts))
	return &Monitor{m: m, r: newReceiver(l, "monitor", m, opts)}
}

// Recv waits for the next frame (a spec's wait, bounded by the bench's
// Timeout).
func (m *Monitor) Recv() Frame { return m.r.recv() }

// RecvWithin waits at most d for the next frame; false when none came.
func (m *Monitor) RecvWithin(d bench.Time) (Frame, bool) { return m.r.recvWithin(d) }

// Count is the number of frames seen so far (taken by Recv or not).
func (m *Monitor) Count() uint64 { return m.r.countFrames() }

// Empty reports whether no frame seen waits for Recv.
func (m *Monitor) Empty() bool { return m.r.empty() }

// beatReceiver is what a stream.Sink and a stream.Monitor share.
type beatReceiver interface {
	Recv() stream.Beat
}

// receiver turns the beats of a stream sink or monitor into frames, in a
// task of its own, and queues them.
type receiver struct {
	tb     *bench.Bench
	l      *layout
	kind   string // "sink" or "monitor", for messages
	frames *bench.Queue[Frame]
	count  uint64

	cur   Frame // the frame being assembled
	beats int   // beats of cur so far (0: no frame open)
}

func newReceiver(l *layout, kind string, src beatReceiver, opts Options) *receiver {
	tb := l.tb
	name := "axis " + kind + " " + l.prefix
	r := &receiver{tb: tb, l: l, kind: kind, frames: bench.NewQueue[Frame](tb, name, 0)}
	tb.Fork(name, func() {
		for {
			b := src.Recv()
			if tb.Err() != nil || len(b) != len(l.names) {
				return // the bench stopped
			}
			r.take(b)
		}
	})
	if opts.Reset != nil {
		tb.Fork(name+" reset", func() { r.watchReset(opts.Reset, opts.ResetActiveLow) })
	}
	return r
}

// watchReset drops the open frame whenever the reset becomes active: its
// remaining beats will never come, and the next beat starts a new frame.
func (r *receiver) watchReset(rst *dut.Signal, activeLow bool) {
	active := uint64(1)
	if activeLow {
		active = 0
	}
	for r.tb.Err() == nil {
		r.tb.Edge(rst)
		if rst.Get() == active && r.beats > 0 {
			r.tb.Logger().Info("reset drops a partial frame", "bus", r.l.prefix, "component", r.kind, "beats", r.beats, "bytes", len(r.cur.Data))
			r.cur, r.beats = Frame{}, 0
		}
	}
}

// take adds one beat to the open frame, reading each byte lane by its
// tkeep and tstrb bits, and queues the frame at tlast.
func (r *receiver) take(b stream.Beat) {
	l := r.l
	lanes := l.lanes(b[l.pos[sigData]])
	keep := l.mask(b, sigKeep)
	strb := keep
	if l.has(sigStrb) {
		strb = b[l.pos[sigStrb]]
	}
	id, dest := l.low64(b, sigID), l.low64(b, sigDest)
	if r.beats == 0 {
		r.cur = Frame{ID: id, Dest: dest}
	} else if id != r.cur.ID || dest != r.cur.Dest {
		r.tb.Failf("axis %s %q: beat %d of a frame has tid=%d tdest=%d, but the frame started with tid=%d tdest=%d (a packet keeps its tid and tdest; interleaved streams are not reassembled)",
			r.kind, l.prefix, r.beats, id, dest, r.cur.ID, r.cur.Dest)
		return
	}
	for j, v := range lanes {
		k, s := keep.Bit(j) == 1, strb.Bit(j) == 1
		switch {
		case k: // a data byte, or a position byte when !s
			r.cur.Data = append(r.cur.Data, v)
		case s:
			r.tb.Failf("axis %s %q: beat %d of a frame has byte lane %d with tkeep=0 and tstrb=1 (reserved in AXI4-Stream); tkeep=%#x tstrb=%#x",
				r.kind, l.prefix, r.beats, j, keep, strb)
			return
		}
		// tkeep=0, tstrb=0: a null byte, not part of the stream.
	}
	if l.has(sigUser) {
		r.cur.User = append(r.cur.User, l.low64(b, sigUser))
	}
	r.beats++
	if !l.has(sigLast) || b[l.pos[sigLast]].Sign() != 0 {
		f := r.cur
		r.cur, r.beats = Frame{}, 0
		r.count++
		r.frames.Put(f) // unbounded: never waits
	}
}

func (r *receiver) recv() Frame {
	if r == nil {
		return Frame{}
	}
	return r.frames.Get()
}

func (r *receiver) recvWithin(d bench.Time) (Frame, bool) {
	if r == nil {
		return Frame{}, false
	}
	return r.frames.GetWithin(d)
}

func (r *receiver) countFrames() uint64 {
	if r == nil {
		return 0
	}
	return r.count
}

func (r *receiver) empty() bool { return r == nil || r.frames.Len() == 0 }
