package uart

import (
	"fmt"
	"strings"

	"github.com/weft-hdl/weft/bench"
	"github.com/weft-hdl/weft/dut"
)

// Sink decodes the UART frames on a line (a design's txd) with a task
// NewSink forks, and keeps the characters until Read takes them.
type Sink struct {
	tb   *bench.Bench
	line *dut.Signal
	f    frame
	name string

	buf     []uint16     // received, not read yet
	errs    []FrameError // with CountErrors
	arrived *bench.Event // set when a character arrives
	task    *bench.Task
}

// FrameError is a frame the sink rejected: a wrong parity bit or a low
// stop bit (a framing error).
type FrameError struct {
	At   bench.Time // when the frame's start bit began
	Data uint16     // the data bits as sampled
	What string     // what was wrong
}

func (e FrameError) String() string {
	return fmt.Sprintf("character %#x starting at %s: %s", e.Data, e.At, e.What)
}

// NewSink returns a sink decoding the frames of cfg on line, and forks
// its task.
func NewSink(tb *bench.Bench, line *dut.Signal, cfg Config) *Sink {
	s := &Sink{tb: tb, line: line, name: "uart sink " + sigName(line)}
	f, ok := check(tb, s.name, cfg)
	if !ok {
		return s
	}
	s.f = f
	s.arrived = tb.NewEvent(s.name + ": character received")
	s.task = tb.Fork(s.name, s.run)
	return s
}

// Read waits until n characters arrived and returns them (as bytes:
// with 9 data bits use ReadWords). From the spec the wait is bounded by
// the bench's timeout; ReadWithin has its own. It returns nil when the
// bench stopped.
func (s *Sink) Read(n int) []byte {
	words := s.ReadWords(n)
	if words == nil {
		return nil
	}
	return s.bytes(words)
}

// ReadWithin is Read with a timeout: the characters and true when n
// arrived within d, else nil and false (the characters that did arrive
// stay for the next read).
func (s *Sink) ReadWithin(n int, d bench.Time) ([]byte, bool) {
	if s.task == nil {
		return nil, false
	}
	end := s.tb.Now() + d
	for len(s.buf) < n {
		left := end - s.tb.Now()
		if left <= 0 || s.tb.Err() != nil {
			return nil, false
		}
		s.arrived.Clear()
		s.tb.AwaitWithin(s.arrived.Wait(), left)
	}
	return s.bytes(s.take(n)), true
}

// ReadWords is Read for characters of 9 data bits.
func (s *Sink) ReadWords(n int) []uint16 {
	if s.task == nil {
		return nil
	}
	for len(s.buf) < n {
		if s.tb.Err() != nil {
			return nil
		}
		s.arrived.Clear()
		s.tb.Await(s.arrived.Wait())
	}
	return s.take(n)
}

// Count is how many characters arrived that were not read yet.
func (s *Sink) Count() int { return len(s.buf) }

// Errors are the frames rejected so far (with Config.CountErrors; without
// it the first one fails the spec).
func (s *Sink) Errors() []FrameError { return s.errs }

func (s *Sink) take(n int) []uint16 {
	out := append([]uint16(nil), s.buf[:n]...)
	s.buf = append(s.buf[:0], s.buf[n:]...)
	return out
}

// bytes narrows characters to bytes; one of 9 bits that does not fit
// fails the spec rather than lose its top bit.
func (s *Sink) bytes(words []uint16) []byte {
	out := make([]byte, len(words))
	for i, w := range words {
		if w > 0xff {
			s.tb.Failf("%s: character %#x does not fit a byte (%v); read it with ReadWords", s.name, w, s.f)
			return nil
		}
		out[i] = byte(w)
	}
	return out
}

// run is the sink's task: it waits for a start bit, samples every bit in
// its middle and keeps or rejects the character.
func (s *Sink) run() {
	tb, f := s.tb, s.f
	for {
		if f.inReset() {
			f.waitOutOfReset(tb)
			continue
		}
		// A falling edge (not a low level): after a framing error the line
		// must go high before a new start bit counts.
		if f.Reset == nil {
			tb.FallingEdge(s.line)
		} else if tb.First(bench.FallingEdge(s.line), bench.Edge(f.Reset)).Index() != 0 {
			continue
		}
		s.frame(tb.Now())
	}
}

// frame decodes the frame whose start bit began at t0.
func (s *Sink) frame(t0 bench.Time) {
	tb, f := s.tb, s.f
	if !f.hold(tb, f.bit/2) {
		return
	}
	if s.line.Get() != 0 {
		return // a glitch, not a start bit
	}
	var c uint16
	for i := range f.DataBits {
		if !f.hold(tb, f.bit) {
			return
		}
		c |= uint16(s.line.Get()&1) << i
	}
	var wrong []string
	if f.Parity != None {
		if !f.hold(tb, f.bit) {
			return
		}
		if got, want := s.line.Get()&1, f.Parity.bit(c); got != want {
			wrong = append(wrong, fmt.Sprintf("the parity bit is %d, want %d (%v)", got, want, f.Parity))
		}
	}
	for i := range f.StopBits {
		if !f.hold(tb, f.bit) {
			return
		}
		if s.line.Get()&1 != 1 {
			wrong = append(wrong, fmt.Sprintf("stop bit %d of %d is low at %s (a framing error)", i+1, f.StopBits, tb.Now()))
			break // the line may be the next start bit already; stop here
		}
	}
	if len(wrong) > 0 {
		e := FrameError{At: t0, Data: c, What: strings.Join(wrong, "; ")}
		if f.CountErrors {
			s.errs = append(s.errs, e)
			return
		}
		tb.Failf("%s (%v): %v", s.name, f, e)
		return
	}
	s.buf = append(s.buf, c)
	s.arrived.Set()
}
