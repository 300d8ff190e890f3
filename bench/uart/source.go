package uart

import (
	"fmt"

	"github.com/weft-hdl/weft/bench"
	"github.com/weft-hdl/weft/dut"
)

// Source drives UART frames onto a line: the serial input of a design
// (its rxd). Characters are queued by Write and WriteNowait and sent one
// frame after the other, back to back, by a task NewSource forks.
type Source struct {
	tb   *bench.Bench
	line *dut.Signal
	f    frame
	name string

	queue  []uint16
	busy   bool       // a frame is on the line
	ready  bench.Time // no frame before: the line has been idle a bit
	queued uint64     // characters ever queued
	done   uint64     // characters sent (or dropped by a reset)

	more *bench.Event // set when the queue gets characters
	sent *bench.Event // set when a character was sent or dropped
	task *bench.Task
}

// NewSource returns a source driving line (a top-level input) with the
// frames of cfg, and forks its task. The line is driven high (idle) at
// once.
func NewSource(tb *bench.Bench, line *dut.Signal, cfg Config) *Source {
	s := &Source{tb: tb, line: line, name: "uart source " + sigName(line)}
	f, ok := check(tb, s.name, cfg)
	if !ok {
		return s
	}
	s.f = f
	s.more = tb.NewEvent(s.name + ": data queued")
	s.sent = tb.NewEvent(s.name + ": frame sent")
	// A receiver finds a start bit by its falling edge, so the line must
	// be seen high first: the first frame waits a bit time after this
	// Set (a line that starts low would hide it).
	tb.Set(line, 1)
	s.ready = tb.Now() + f.bit
	s.task = tb.Fork(s.name, s.run)
	return s
}

// sigName names a signal in messages.
func sigName(sig *dut.Signal) string {
	if sig == nil {
		return "<nil>"
	}
	return sig.Name()
}

// Write queues data and waits until the last of it was sent (its stop
// bits are over). Bytes must fit DataBits.
func (s *Source) Write(data []byte) {
	s.WriteNowait(data)
	s.waitSent(s.queued)
}

// WriteNowait queues data to be sent after what is queued already and
// returns at once.
func (s *Source) WriteNowait(data []byte) {
	words := make([]uint16, len(data))
	for i, b := range data {
		words[i] = uint16(b)
	}
	s.WriteWordsNowait(words)
}

// WriteWords is Write for characters of 9 data bits.
func (s *Source) WriteWords(chars []uint16) {
	s.WriteWordsNowait(chars)
	s.waitSent(s.queued)
}

// WriteWordsNowait is WriteNowait for characters of 9 data bits.
func (s *Source) WriteWordsNowait(chars []uint16) {
	if s.task == nil { // NewSource failed
		return
	}
	for i, c := range chars {
		if c>>s.f.DataBits != 0 {
			s.tb.Failf("%s: character %d, %#x, does not fit %d data bits (%v)", s.name, i, c, s.f.DataBits, s.f)
			return
		}
	}
	s.queue = append(s.queue, chars...)
	s.queued += uint64(len(chars))
	if len(chars) > 0 {
		s.more.Set()
	}
}

// Idle reports whether nothing is queued and no frame is on the line.
func (s *Source) Idle() bool { return len(s.queue) == 0 && !s.busy }

// WaitIdle waits until the source is idle: everything queued was sent.
// From the spec the wait is bounded by the bench's timeout, like any.
func (s *Source) WaitIdle() { s.waitSent(s.queued) }

// waitSent waits until n characters were sent since the start.
func (s *Source) waitSent(n uint64) {
	for s.task != nil && s.done < n && s.tb.Err() == nil {
		s.sent.Clear()
		s.tb.Await(s.sent.Wait())
	}
}

// run is the source's task: it sends the queue's characters, one frame
// after another, and holds the line high in between and during reset.
func (s *Source) run() {
	tb, f := s.tb, s.f
	for {
		if f.inReset() {
			s.drop()
			tb.Set(s.line, 1)
			f.waitOutOfReset(tb)
			s.ready = tb.Now() + f.bit // idle a bit after the reset, too
			continue
		}
		if len(s.queue) == 0 {
			s.more.Clear()
			if f.Reset == nil {
				tb.Await(s.more.Wait())
			} else {
				tb.First(s.more.Wait(), bench.Edge(f.Reset))
			}
			continue
		}
		c := s.queue[0]
		s.queue = s.queue[1:]
		s.busy = true
		ok := tb.Now() >= s.ready || f.hold(tb, s.ready-tb.Now())
		ok = ok && s.send(c)
		s.busy = false
		s.done++
		s.sent.Set()
		if !ok {
			tb.Logger().Info(fmt.Sprintf("%s: reset: dropped the frame of %#x and %d queued", s.name, c, len(s.queue)))
		}
	}
}

// send drives the frame of c; false when a reset cut it short.
func (s *Source) send(c uint16) bool {
	tb, f := s.tb, s.f
	tb.Set(s.line, 0) // start bit
	if !f.hold(tb, f.bit) {
		return false
	}
	for _, b := range f.frameBits(c) {
		tb.Set(s.line, b)
		if !f.hold(tb, f.bit) {
			return false
		}
	}
	return true
}

// drop forgets the queue (a reset), so that writers waiting on it return.
func (s *Source) drop() {
	if len(s.queue) == 0 {
		return
	}
	s.done += uint64(len(s.queue))
	s.queue = s.queue[:0]
	s.sent.Set()
}
