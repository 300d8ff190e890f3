package axis

import (
	"github.com/weft-hdl/weft/bench"
	"github.com/weft-hdl/weft/bench/stream"
	"github.com/weft-hdl/weft/dut"
)

// Source drives frames onto an AXI4-Stream bus (cocotbext-axi's
// AxiStreamSource): Send queues a frame and waits until its last beat
// was transferred, SendNowait only queues it. Frames go out in the order
// they were queued, back to back unless Options.Pause pauses.
type Source struct {
	l *layout
	s *stream.Source
	// ends holds, for every frame queued and not yet counted, the beat
	// count of the stream source after its last beat, so that Count can
	// tell finished frames from the stream's beat count.
	ends   []uint64
	queued uint64 // beats queued so far
	done   uint64 // frames transferred, counted from ends
}

// NewSource binds the bus at prefix (see the package doc) and starts
// driving it on the rising edges of clk: tvalid stays low until a frame
// is queued.
func NewSource(tb *bench.Bench, prefix string, clk *dut.Signal, opts Options) *Source {
	l := bind(tb, prefix)
	if l == nil {
		return &Source{}
	}
	return &Source{l: l, s: stream.NewSource(tb, prefix, clk, l.config(opts))}
}

// queue hands f's beats to the stream source; the last one is returned
// for Send to wait on (nil when f was refused).
func (s *Source) queue(f Frame) stream.Beat {
	if s.s == nil {
		return nil
	}
	beats := s.l.beats(f)
	if beats == nil {
		return nil
	}
	// Nothing yields between these calls, so the beats of one frame are
	// queued together even when several tasks send at once.
	for _, b := range beats[:len(beats)-1] {
		s.s.SendNowait(b)
	}
	s.queued += uint64(len(beats))
	s.ends = append(s.ends, s.queued)
	return beats[len(beats)-1]
}

// Send queues f and waits until its last beat was transferred.
func (s *Source) Send(f Frame) {
	if last := s.queue(f); last != nil {
		s.s.Send(last)
	}
}

// SendNowait queues f and returns at once.
func (s *Source) SendNowait(f Frame) {
	if last := s.queue(f); last != nil {
		s.s.SendNowait(last)
	}
}

// Idle reports whether every queued frame was transferred.
func (s *Source) Idle() bool { return s.s == nil || s.s.Idle() }

// WaitIdle waits until Idle.
func (s *Source) WaitIdle() {
	if s.s != nil {
		s.s.WaitIdle()
	}
}

// Count is the number of frames transferred so far.
func (s *Source) Count() uint64 {
	if s.s == nil {
		return 0
	}
	beats := s.s.Count()
	for len(s.ends) > 0 && s.ends[0] <= beats {
		s.ends = s.ends[1:]
		s.done++
	}
	return s.done
}
