package uart_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/weft-hdl/weft/bench"
	"github.com/weft-hdl/weft/bench/uart"
)

// The tests in this file put a source and a sink on testdata/uart_line.sv
// (txd is rxd): no clock, only the components' timers.

const lineBaud = 1_000_000 // a bit is 1us

func newLine(t *testing.T) *env {
	return build(t, "uart_line", []string{"testdata/uart_line.sv"}, 10*bench.MS)
}

// Every frame format goes from source to sink, and a Write lasts exactly
// its frames: the source sends back to back, with the bit time of Baud,
// after one bit of idle line when it is new.
func TestSourceToSinkFormats(t *testing.T) {
	for _, cfg := range []uart.Config{
		{Baud: lineBaud},
		{Baud: lineBaud, DataBits: 5, Parity: uart.Odd, StopBits: 2},
		{Baud: lineBaud, DataBits: 6, Parity: uart.Mark},
		{Baud: lineBaud, DataBits: 7, Parity: uart.Even, StopBits: 2},
		{Baud: lineBaud, DataBits: 9, Parity: uart.Space},
		{Baud: 115200, DataBits: 8, Parity: uart.Even},
	} {
		t.Run(fmt.Sprintf("%d-%d%v%d", cfg.Baud, cfg.DataBits, cfg.Parity, cfg.StopBits), func(t *testing.T) {
			e := newLine(t)
			src := uart.NewSource(e.Bench, e.Signal("rxd"), cfg)
			snk := uart.NewSink(e.Bench, e.Signal("txd"), cfg)
			bits := cfg.DataBits
			if bits == 0 {
				bits = 8
			}
			msg := randomChars(e, 12, bits)
			frame := 1 + bits + max(cfg.StopBits, 1)
			if cfg.Parity != uart.None {
				frame++
			}
			bit := (bench.S + bench.Time(cfg.Baud)/2) / bench.Time(cfg.Baud)
			if !src.Idle() {
				t.Error("a new source is not idle")
			}
			start := e.Now()
			src.WriteWords(msg)
			// A bit of idle line first (the source was just made), then the frames.
			if got, want := e.Now()-start, bench.Time(1+len(msg)*frame)*bit; got != want {
				t.Errorf("Write took %v, want %v (a bit, then %d frames of %d bits)", got, want, len(msg), frame)
			}
			if !src.Idle() {
				t.Error("the source is not idle after Write")
			}
			if snk.Count() != len(msg) {
				t.Errorf("Count = %d, want %d", snk.Count(), len(msg))
			}
			if got := snk.ReadWords(len(msg)); !slices.Equal(got, msg) {
				t.Errorf("sink read %x, want %x", got, msg)
			}
			e.closeClean(t)
		})
	}
}

func TestWriteNowaitAndWaitIdle(t *testing.T) {
	e := newLine(t)
	cfg := uart.Config{Baud: lineBaud}
	src := uart.NewSource(e.Bench, e.Signal("rxd"), cfg)
	snk := uart.NewSink(e.Bench, e.Signal("txd"), cfg)
	src.WriteNowait([]byte("ab"))
	src.WriteNowait([]byte("c"))
	if e.Now() != 0 || src.Idle() {
		t.Errorf("WriteNowait waited (now %v) or left the source idle", e.Now())
	}
	if got := string(snk.Read(3)); got != "abc" {
		t.Errorf("Read(3) = %q", got)
	}
	src.WaitIdle()
	if e.Now() != 31*bench.US {
		t.Errorf("WaitIdle returned at %v, want 31us (a bit of idle line, three frames)", e.Now())
	}
	e.closeClean(t)
}

// A low pulse shorter than half a bit is a glitch: no character, no error.
func TestSinkIgnoresGlitch(t *testing.T) {
	e := newLine(t)
	rxd := e.Signal("rxd")
	snk := uart.NewSink(e.Bench, e.Signal("txd"), uart.Config{Baud: lineBaud})
	e.Set(rxd, 1)
	e.Timer(3 * bench.US)
	e.Set(rxd, 0)
	e.Timer(300 * bench.NS)
	e.Set(rxd, 1)
	e.Timer(20 * bench.US)
	if snk.Count() != 0 {
		t.Errorf("a glitch made %d characters", snk.Count())
	}
	uart.NewSource(e.Bench, rxd, uart.Config{Baud: lineBaud}).Write([]byte{0x5a})
	if got := snk.Read(1); !slices.Equal(got, []byte{0x5a}) {
		t.Errorf("after the glitch: %x", got)
	}
	e.closeClean(t)
}

// drive puts hand-made levels on line, one per bit time, then idles it.
func drive(e *env, bit bench.Time, levels ...int) {
	line := e.Signal("rxd")
	for _, l := range levels {
		e.Set(line, l)
		e.Timer(bit)
	}
	e.Set(line, 1)
	e.Timer(3 * bit)
}

func TestSinkFailsOnBadParity(t *testing.T) {
	e := newLine(t)
	e.Set(e.Signal("rxd"), 1)
	uart.NewSink(e.Bench, e.Signal("txd"), uart.Config{Baud: lineBaud, Parity: uart.Even})
	e.Timer(2 * bench.US)
	// 0x41 has two ones: even parity is 0; the frame says 1.
	drive(e, bench.US, 0, 1, 0, 0, 0, 0, 0, 1, 0, 1, 1)
	wantAll(t, e.closeFailing(t), "uart sink txd (1000000 8E1): character 0x41 starting at 2us: the parity bit is 1, want 0 (even parity)")
}

func TestSinkFailsOnLowStopBit(t *testing.T) {
	e := newLine(t)
	e.Set(e.Signal("rxd"), 1)
	uart.NewSink(e.Bench, e.Signal("txd"), uart.Config{Baud: lineBaud, DataBits: 7, StopBits: 2})
	e.Timer(2 * bench.US)
	// 7 data bits of 0x15, one stop bit, and the line low where the
	// second should be.
	drive(e, bench.US, 0, 1, 0, 1, 0, 1, 0, 0, 1, 0)
	wantAll(t, e.closeFailing(t), "uart sink txd (1000000 7N2): character 0x15 starting at 2us: stop bit 2 of 2 is low at 11.5us (a framing error)")
}

// With CountErrors the sink keeps the bad frames in Errors and carries
// on: the good frame after them arrives.
func TestSinkCountsErrors(t *testing.T) {
	e := newLine(t)
	e.Set(e.Signal("rxd"), 1)
	cfg := uart.Config{Baud: lineBaud, Parity: uart.Odd, CountErrors: true}
	snk := uart.NewSink(e.Bench, e.Signal("txd"), cfg)
	e.Timer(2 * bench.US)
	drive(e, bench.US, 0, 1, 0, 0, 0, 0, 0, 1, 0, 0, 1) // 0x41: odd parity is 1
	drive(e, bench.US, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0) // 0xff, parity right, stop low
	uart.NewSource(e.Bench, e.Signal("rxd"), cfg).Write([]byte{0x41})
	if got := snk.Read(1); !slices.Equal(got, []byte{0x41}) {
		t.Errorf("the good frame: %x", got)
	}
	errs := snk.Errors()
	if len(errs) != 2 {
		t.Fatalf("Errors = %v, want 2", errs)
	}
	wantAll(t, errs[0].String(), "character 0x41 starting at 2us: the parity bit is 0, want 1 (odd parity)")
	wantAll(t, errs[1].String(), "character 0xff", "stop bit 1 of 1 is low")
	e.closeClean(t)
}

// While the reset is active the source holds the line high and drops
// what it was sending and what was queued (Write returns); the sink
// drops the frame the reset cut and ignores the line.
func TestReset(t *testing.T) {
	e := newLine(t)
	rst, rxd := e.Signal("rst_n"), e.Signal("rxd")
	e.Set(rst, 1)
	cfg := uart.Config{Baud: lineBaud, Reset: rst}
	src := uart.NewSource(e.Bench, rxd, cfg)
	snk := uart.NewSink(e.Bench, e.Signal("txd"), cfg)
	writer := e.Fork("writer", func() { src.Write([]byte("abcd")) })
	e.Timer(15 * bench.US) // in the second frame
	e.Set(rst, 0)
	e.Timer(bench.NS)
	if !writer.Done() || !src.Idle() {
		t.Errorf("a reset left the writer waiting (%v) or the source busy (idle %v)", writer.Done(), src.Idle())
	}
	if rxd.Get() != 1 {
		t.Error("the line is not idle in reset")
	}
	// A source without the reset sends in the sink's reset: ignored.
	other := uart.NewSource(e.Bench, rxd, uart.Config{Baud: lineBaud})
	other.Write([]byte("x"))
	e.Set(rst, 1)
	src.Write([]byte("e"))
	if got := string(snk.Read(2)); got != "ae" {
		t.Errorf("the sink read %q, want \"ae\"", got)
	}
	e.closeClean(t)
}

func TestReadWithin(t *testing.T) {
	e := newLine(t)
	cfg := uart.Config{Baud: lineBaud}
	src := uart.NewSource(e.Bench, e.Signal("rxd"), cfg)
	snk := uart.NewSink(e.Bench, e.Signal("txd"), cfg)
	src.WriteNowait([]byte("hi"))
	if got, ok := snk.ReadWithin(3, 50*bench.US); ok || got != nil || e.Now() != 50*bench.US {
		t.Errorf("ReadWithin(3) of 2 = %q, %v at %v; want nil, false at 50us", got, ok, e.Now())
	}
	if got, ok := snk.ReadWithin(2, bench.US); !ok || string(got) != "hi" {
		t.Errorf("ReadWithin(2) = %q, %v", got, ok)
	}
	e.closeClean(t)
}

func TestConfigChecks(t *testing.T) {
	for _, c := range []struct {
		cfg  uart.Config
		want string
	}{
		{uart.Config{}, "uart sink txd: Config.Baud is 0"},
		{uart.Config{Baud: 9600, DataBits: 10}, "uart sink txd: Config.DataBits is 10; a UART frame has 5 to 9"},
		{uart.Config{Baud: 9600, StopBits: 3}, "Config.StopBits is 3"},
		{uart.Config{Baud: 9600, Parity: 7}, "Config.Parity is Parity(7)"},
	} {
		e := newLine(t)
		uart.NewSink(e.Bench, e.Signal("txd"), c.cfg)
		wantAll(t, e.closeFailing(t), c.want)
	}

	e := newLine(t)
	uart.NewSource(e.Bench, e.Signal("rxd"), uart.Config{Baud: 9600, DataBits: 7}).WriteNowait([]byte{1, 0x80})
	wantAll(t, e.closeFailing(t), "uart source rxd: character 1, 0x80, does not fit 7 data bits (9600 7N1)")

	e = newLine(t)
	cfg := uart.Config{Baud: lineBaud, DataBits: 9}
	uart.NewSource(e.Bench, e.Signal("rxd"), cfg).WriteWordsNowait([]uint16{0x1ff})
	uart.NewSink(e.Bench, e.Signal("txd"), cfg).Read(1)
	wantAll(t, e.closeFailing(t), "uart sink txd: character 0x1ff does not fit a byte (1000000 9N1); read it with ReadWords")
}
