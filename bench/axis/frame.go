package axis

import (
	"fmt"
	"math/big"

	"github.com/weft-hdl/weft/bench"
	"github.com/weft-hdl/weft/bench/bus"
	"github.com/weft-hdl/weft/bench/stream"
	"github.com/weft-hdl/weft/dut"
)

// Frame is one AXI4-Stream packet (see the package doc for how it maps
// onto beats).
type Frame struct {
	// Data is the packet's bytes; Data[0] rides in tdata[7:0] of the
	// first beat.
	Data []byte
	// ID and Dest are the packet's tid and tdest (0 on a bus without
	// them).
	ID, Dest uint64
	// User is tuser, one value per beat. To a source, one value means
	// the same tuser on every beat and none means zero; from a sink it
	// has one value per beat received, or is nil on a bus without tuser.
	User []uint64
}

// String shows a frame the way a failure message needs it.
func (f Frame) String() string {
	return fmt.Sprintf("Frame{%d bytes % x, ID: %d, Dest: %d, User: %v}", len(f.Data), f.Data, f.ID, f.Dest, f.User)
}

// Options configure a Source, Sink, Monitor or Checker.
type Options struct {
	// Reset, while active, keeps the component idle: the source drives
	// tvalid low, the sink tready low, and a frame it cuts off is
	// dropped. nil: no reset.
	Reset *dut.Signal
	// ResetActiveLow says Reset is active at 0 (rst_n).
	ResetActiveLow bool
	// Pause is asked once per clock cycle: true makes the source skip
	// the cycle or the sink hold tready low (backpressure). nil: never.
	// stream.RandomPause(tb, p) pauses at random, replayably.
	Pause func() bool
}

// The payload signals, in the order the stream beats carry them.
const (
	sigData = iota
	sigLast
	sigKeep
	sigStrb
	sigID
	sigDest
	sigUser
	numSigs
)

var sigNames = [numSigs]string{"tdata", "tlast", "tkeep", "tstrb", "tid", "tdest", "tuser"}

// layout is what a component knows about its bus: which payload signals
// it has, where each sits in a stream.Beat, and the byte count.
type layout struct {
	tb     *bench.Bench
	prefix string
	bytes  int          // byte lanes of tdata
	pos    [numSigs]int // index in a stream.Beat, -1 when absent
	width  [numSigs]int // signal widths (0 when absent)
	names  []string     // stream.Config.Data
	ready  bool         // the bus has tready
	sigs   [numSigs]*dut.Signal
}

// bind binds the bus at prefix and checks its widths; nil after a
// failure (already reported).
func bind(tb *bench.Bench, prefix string) *layout {
	b := bus.Bind(tb, prefix, []string{"tdata", "tvalid"}, append([]string{"tready"}, sigNames[1:]...))
	if b == nil {
		return nil
	}
	l := &layout{tb: tb, prefix: prefix, ready: b.Has("tready")}
	for i, n := range sigNames {
		l.pos[i] = -1
		if s := b.Signal(n); s != nil {
			l.pos[i] = len(l.names)
			l.names = append(l.names, n)
			l.width[i] = s.Width()
			l.sigs[i] = s
		}
	}
	w := l.width[sigData]
	if w%8 != 0 {
		tb.Failf("axis %q: tdata is %d bits wide; AXI4-Stream needs a multiple of 8", prefix, w)
		return nil
	}
	l.bytes = w / 8
	for _, i := range []int{sigKeep, sigStrb} {
		if l.pos[i] >= 0 && l.width[i] != l.bytes {
			tb.Failf("axis %q: %s is %d bits wide; a %d-bit tdata needs %d (one per byte)", prefix, sigNames[i], l.width[i], w, l.bytes)
			return nil
		}
	}
	if l.pos[sigLast] >= 0 && l.width[sigLast] != 1 {
		tb.Failf("axis %q: tlast is %d bits wide; it must be 1", prefix, l.width[sigLast])
		return nil
	}
	return l
}

func (l *layout) has(i int) bool { return l.pos[i] >= 0 }

// config is the stream configuration of the bus.
func (l *layout) config(opts Options) stream.Config {
	cfg := stream.Config{
		Data:           l.names,
		Valid:          "tvalid",
		Ready:          "tready",
		Reset:          opts.Reset,
		ResetActiveLow: opts.ResetActiveLow,
		Pause:          opts.Pause,
	}
	if !l.ready {
		cfg.Ready = "-"
	}
	return cfg
}

// fits reports whether v fits the signal i (a wider-than-64-bit signal
// takes any uint64).
func (l *layout) fits(i int, v uint64) bool {
	w := l.width[i]
	return w >= 64 || v>>uint(w) == 0
}

// beats splits f into the stream beats of the bus, or fails the spec
// (naming the bus, the frame and the rule) and returns nil.
func (l *layout) beats(f Frame) []stream.Beat {
	n := len(f.Data)
	var count int
	switch {
	case n == 0 && l.has(sigKeep):
		count = 1 // one beat of null bytes carries the empty packet's tlast
	case n == 0:
		l.tb.Failf("axis %q: cannot send an empty frame on a bus without tkeep (it has no null bytes)", l.prefix)
		return nil
	default:
		count = (n + l.bytes - 1) / l.bytes
	}
	if !l.has(sigKeep) && n%l.bytes != 0 {
		l.tb.Failf("axis %q: a frame of %d bytes does not fill whole %d-byte beats, and the bus has no tkeep to mark the rest", l.prefix, n, l.bytes)
		return nil
	}
	for _, c := range []struct {
		i int
		v uint64
		f string
	}{{sigID, f.ID, "ID"}, {sigDest, f.Dest, "Dest"}} {
		if !l.has(c.i) && c.v != 0 {
			l.tb.Failf("axis %q: Frame.%s is %d but the bus has no %s", l.prefix, c.f, c.v, sigNames[c.i])
			return nil
		}
		if l.has(c.i) && !l.fits(c.i, c.v) {
			l.tb.Failf("axis %q: Frame.%s %#x does not fit the %d-bit %s", l.prefix, c.f, c.v, l.width[c.i], sigNames[c.i])
			return nil
		}
	}
	if len(f.User) > 1 && len(f.User) != count {
		l.tb.Failf("axis %q: Frame.User has %d values for a frame of %d beats (give one per beat, one for all, or none)", l.prefix, len(f.User), count)
		return nil
	}
	for _, u := range f.User {
		if !l.has(sigUser) && u != 0 {
			l.tb.Failf("axis %q: Frame.User is %v but the bus has no tuser", l.prefix, f.User)
			return nil
		}
		if l.has(sigUser) && !l.fits(sigUser, u) {
			l.tb.Failf("axis %q: Frame.User value %#x does not fit the %d-bit tuser", l.prefix, u, l.width[sigUser])
			return nil
		}
	}

	out := make([]stream.Beat, count)
	lanes := make([]byte, l.bytes) // big-endian tdata bytes
	for k := range out {
		chunk := f.Data[min(k*l.bytes, n):min((k+1)*l.bytes, n)]
		clear(lanes)
		for j, b := range chunk {
			lanes[l.bytes-1-j] = b
		}
		b := make(stream.Beat, len(l.names))
		b[l.pos[sigData]] = new(big.Int).SetBytes(lanes)
		last := k == count-1
		if l.has(sigLast) {
			b[l.pos[sigLast]] = big.NewInt(boolBit(last))
		}
		// The kept lanes are the low len(chunk) ones: Data fills a beat
		// from byte lane 0 up.
		keep := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), uint(len(chunk))), big.NewInt(1))
		if l.has(sigKeep) {
			b[l.pos[sigKeep]] = keep
		}
		if l.has(sigStrb) {
			b[l.pos[sigStrb]] = new(big.Int).Set(keep)
		}
		if l.has(sigID) {
			b[l.pos[sigID]] = new(big.Int).SetUint64(f.ID)
		}
		if l.has(sigDest) {
			b[l.pos[sigDest]] = new(big.Int).SetUint64(f.Dest)
		}
		if l.has(sigUser) {
			var u uint64
			switch len(f.User) {
			case 0:
			case 1:
				u = f.User[0]
			default:
				u = f.User[k]
			}
			b[l.pos[sigUser]] = new(big.Int).SetUint64(u)
		}
		out[k] = b
	}
	return out
}

func boolBit(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// lanes returns the bytes of tdata in lane order (lane 0 first).
func (l *layout) lanes(tdata *big.Int) []byte {
	be := tdata.FillBytes(make([]byte, l.bytes))
	out := make([]byte, l.bytes)
	for j := range out {
		out[j] = be[l.bytes-1-j]
	}
	return out
}

// mask is a tkeep/tstrb value, or all ones for an absent signal i (the
// AXI4-Stream default for tkeep; tstrb defaults to tkeep, handled by the
// caller).
func (l *layout) mask(b stream.Beat, i int) *big.Int {
	if !l.has(i) {
		return new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), uint(l.bytes)), big.NewInt(1))
	}
	return b[l.pos[i]]
}

// low64 is the value of signal i in b, 0 when the bus lacks it.
func (l *layout) low64(b stream.Beat, i int) uint64 {
	if !l.has(i) {
		return 0
	}
	v := b[l.pos[i]]
	if v.BitLen() > 64 {
		return new(big.Int).And(v, new(big.Int).SetUint64(^uint64(0))).Uint64()
	}
	return v.Uint64()
}

// NewChecker starts bench/stream's protocol checker on the AXI4-Stream
// bus at prefix, with every payload signal the bus has (tdata, tlast,
// tkeep, tstrb, tid, tdest, tuser) held stable from tvalid to the
// handshake. Options.Pause does not apply to a checker.
func NewChecker(tb *bench.Bench, prefix string, clk *dut.Signal, opts Options) *stream.Checker {
	l := bind(tb, prefix)
	if l == nil {
		return nil
	}
	opts.Pause = nil
	return stream.NewChecker(tb, prefix, clk, l.config(opts))
}
