// Package uart owns weft's UART verification components, the ones
// cocotbext-uart users know: a Source that drives serial frames onto a
// line (a design's rxd) and a Sink that decodes the frames on a line (a
// design's txd). Both run as bench tasks that their constructor forks,
// and both time bits with bench timers, not clock cycles, so they work
// with any clock, or none.
//
// A frame is what Config says: the line idles high; a start bit (low),
// DataBits data bits LSB first, the parity bit if any, StopBits stop
// bits (high). A bit lasts 1e12/Baud picoseconds of bench time (rounded
// to the nearest picosecond).
//
//	cfg := uart.Config{Baud: 115200, DataBits: 7, Parity: uart.Even, StopBits: 2}
//	src := uart.NewSource(tb, tb.Signal("rxd"), cfg)
//	snk := uart.NewSink(tb, tb.Signal("txd"), cfg)
//	src.Write([]byte("hello"))      // returns once the frames are on the line
//	Expect(snk.Read(5)).To(Equal([]byte("hello")))
//
// The sink samples each bit in its middle, timed from the start bit's
// falling edge; a start bit that is high again by its middle is a glitch
// and ignored. A parity bit that is wrong or a stop bit that is low fails
// the spec through tb.Failf, naming the line, the character, when its
// frame started and what was wrong; with Config.CountErrors the sink
// counts such frames instead (Errors), for specs that provoke them.
//
// With Config.Reset set, both stay idle while the reset is active: the
// source holds the line high and drops what it was sending and what was
// queued, the sink drops a frame cut by the reset.
package uart

import (
	"fmt"
	"math/bits"

	"github.com/weft-hdl/weft/bench"
	"github.com/weft-hdl/weft/dut"
)

// Parity is the parity bit of a frame.
type Parity int

const (
	None  Parity = iota // no parity bit
	Even                // the ones of the data and the parity bit are even
	Odd                 // the ones of the data and the parity bit are odd
	Mark                // the parity bit is always 1
	Space               // the parity bit is always 0
)

func (p Parity) String() string {
	switch p {
	case None:
		return "no parity"
	case Even:
		return "even parity"
	case Odd:
		return "odd parity"
	case Mark:
		return "mark parity"
	case Space:
		return "space parity"
	}
	return fmt.Sprintf("Parity(%d)", int(p))
}

// bit is the parity bit of the character c (0 or 1).
func (p Parity) bit(c uint16) uint64 {
	ones := uint64(bits.OnesCount16(c) & 1)
	switch p {
	case Even:
		return ones
	case Odd:
		return ones ^ 1
	case Mark:
		return 1
	}
	return 0
}

// Config is a line's frame format and speed, and the options of the
// components on it. Zero fields take the defaults 8N1; Baud is required.
type Config struct {
	Baud     int    // bits per second
	DataBits int    // 5 to 9; 0 means 8
	Parity   Parity // None (the default), Even, Odd, Mark, Space
	StopBits int    // 1 or 2; 0 means 1

	// Reset, when set, holds the component idle while it is active
	// (ResetPolarity: bench.Inferred takes "rst_n" as active low).
	Reset         *dut.Signal
	ResetPolarity bench.Polarity

	// CountErrors makes a Sink count frames with a parity or framing
	// error (Sink.Errors) instead of failing the spec: for specs that
	// send bad frames on purpose. Either way a rejected character is not
	// kept for Read.
	CountErrors bool
}

// frame is a checked Config, with the bit time worked out.
type frame struct {
	Config
	bit      bench.Time
	activeLo bool // the reset is active low
}

// check fills in the defaults and fails the spec (naming who) when cfg
// cannot describe a line; ok is false then.
func check(tb *bench.Bench, who string, cfg Config) (f frame, ok bool) {
	if cfg.DataBits == 0 {
		cfg.DataBits = 8
	}
	if cfg.StopBits == 0 {
		cfg.StopBits = 1
	}
	f.Config = cfg
	switch {
	case cfg.Baud <= 0:
		tb.Failf("%s: Config.Baud is %d; set the line's bits per second", who, cfg.Baud)
		return f, false
	case cfg.Baud > int(bench.S/2):
		tb.Failf("%s: Config.Baud %d makes a bit shorter than 2ps, the bench's resolution", who, cfg.Baud)
		return f, false
	case cfg.DataBits < 5 || cfg.DataBits > 9:
		tb.Failf("%s: Config.DataBits is %d; a UART frame has 5 to 9", who, cfg.DataBits)
		return f, false
	case cfg.Parity < None || cfg.Parity > Space:
		tb.Failf("%s: Config.Parity is %v; use None, Even, Odd, Mark or Space", who, cfg.Parity)
		return f, false
	case cfg.StopBits != 1 && cfg.StopBits != 2:
		tb.Failf("%s: Config.StopBits is %d; a UART frame has 1 or 2", who, cfg.StopBits)
		return f, false
	}
	// Rounded, not truncated: 115200 baud is 8680555.6ps, and a bit time
	// that is short by a fraction adds up over a long run.
	f.bit = (bench.S + bench.Time(cfg.Baud)/2) / bench.Time(cfg.Baud)
	if cfg.Reset != nil {
		f.activeLo = cfg.ResetPolarity == bench.ActiveLow ||
			cfg.ResetPolarity == bench.Inferred && endsInN(cfg.Reset.Name())
	}
	return f, true
}

// endsInN is bench.Inferred's rule: a reset named like "rst_n" or
// "resetn" is active low.
func endsInN(name string) bool {
	return len(name) > 0 && (name[len(name)-1] == 'n' || name[len(name)-1] == 'N')
}

// String is the format as people write it: "115200 8N1", "9600 7E2".
func (f frame) String() string {
	return fmt.Sprintf("%d %d%c%d", f.Baud, f.DataBits, "NEOMS"[f.Parity], f.StopBits)
}

// inReset reports whether the reset is active now.
func (f frame) inReset() bool {
	if f.Reset == nil {
		return false
	}
	return (f.Reset.Get() == 0) == f.activeLo
}

// hold waits d, or until the reset becomes active; it reports whether
// the whole of d passed outside reset.
func (f frame) hold(tb *bench.Bench, d bench.Time) bool {
	if f.Reset == nil {
		tb.Timer(d)
		return true
	}
	end := tb.Now() + d
	for tb.Now() < end {
		if f.inReset() {
			return false
		}
		tb.First(bench.Timer(end-tb.Now()), bench.Edge(f.Reset))
	}
	return !f.inReset()
}

// waitOutOfReset waits while the reset is active.
func (f frame) waitOutOfReset(tb *bench.Bench) {
	for f.inReset() {
		tb.Edge(f.Reset)
	}
}

// frameBits is the level of every bit of c's frame after the start
// bit: data LSB first, parity, stop bits.
func (f frame) frameBits(c uint16) []uint64 {
	out := make([]uint64, 0, f.DataBits+3)
	for i := range f.DataBits {
		out = append(out, uint64(c>>i&1))
	}
	if f.Parity != None {
		out = append(out, f.Parity.bit(c))
	}
	for range f.StopBits {
		out = append(out, 1)
	}
	return out
}
