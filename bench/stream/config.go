package stream

import (
	"fmt"
	"math/big"
	"strings"

	"github.com/weft-hdl/weft/bench"
	"github.com/weft-hdl/weft/bench/bus"
	"github.com/weft-hdl/weft/dut"
)

// Config names a valid/ready bus's signals (after the prefix, bound with
// bench/bus) and their polarity. The zero value is a bus of
// prefix_data, prefix_valid and prefix_ready, all active high, without
// reset or pauses.
type Config struct {
	// Data are the payload signals, in Beat order; default {"data"}.
	Data []string
	// Valid and Ready name the handshake signals; default "valid" and
	// "ready". Ready "-" means the bus has no ready: the sink always
	// accepts, and every cycle with valid active is a beat.
	Valid, Ready                   string
	ValidActiveLow, ReadyActiveLow bool
	// Reset is optional; while it is active the source drives valid
	// inactive, the sink drives ready inactive, and no handshake counts.
	Reset          *dut.Signal
	ResetActiveLow bool
	// Pause is called once per clock cycle; true inserts an idle cycle
	// between beats (source) or holds ready inactive (sink). nil: never.
	// A source never drops a beat it offered (the rule the Checker
	// holds), so a pause only delays the next one; a Monitor or Checker
	// never calls Pause, so one Config may serve every component.
	Pause func() bool
}

// NoReady is the Config.Ready of a bus without ready.
const NoReady = "-"

// RandomPause returns a Pause that pauses with probability p, drawing
// from tb.Rand() (the bench's seeded source, so runs replay).
func RandomPause(tb *bench.Bench, p float64) func() bool {
	r := tb.Rand()
	return func() bool { return r.Float64() < p }
}

// Beat is one transfer: the value of each payload signal, in Config.Data
// order. Values are unsigned and fit their signal's width.
type Beat []*big.Int

// NewBeat is a beat of small values, one per payload signal.
func NewBeat(vs ...uint64) Beat {
	b := make(Beat, len(vs))
	for i, v := range vs {
		b[i] = new(big.Int).SetUint64(v)
	}
	return b
}

// Equal reports whether b and o carry the same values.
func (b Beat) Equal(o Beat) bool {
	if len(b) != len(o) {
		return false
	}
	for i := range b {
		if (b[i] == nil) != (o[i] == nil) || b[i] != nil && b[i].Cmp(o[i]) != 0 {
			return false
		}
	}
	return true
}

// Clone is a deep copy of b (the components keep their own copies, so a
// caller may reuse its big.Ints).
func (b Beat) Clone() Beat {
	if b == nil {
		return nil
	}
	c := make(Beat, len(b))
	for i, x := range b {
		if x != nil {
			c[i] = new(big.Int).Set(x)
		}
	}
	return c
}

// String shows the values in hex: {0x12, 0x3}.
func (b Beat) String() string {
	parts := make([]string, len(b))
	for i, x := range b {
		if x == nil {
			parts[i] = "nil"
		} else {
			parts[i] = "0x" + x.Text(16)
		}
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

// port is what every component shares: the bound signals, their
// polarity, and the pre-edge view it reads handshakes from.
type port struct {
	tb    *bench.Bench
	kind  string // "source", "sink", ... for messages
	name  string // kind and prefix, for messages: stream sink "out"
	task  string // the name of its task: stream sink out
	clk   *dut.Signal
	cfg   Config
	data  []*dut.Signal
	valid *dut.Signal
	ready *dut.Signal // nil: the bus has no ready
	reset *dut.Signal
	pre   *bench.Sampled
}

// bind binds the bus at prefix for a component of kind; nil when the
// spec failed (a missing signal, no clock).
func bind(tb *bench.Bench, kind, prefix string, clk *dut.Signal, cfg Config) *port {
	if len(cfg.Data) == 0 {
		cfg.Data = []string{"data"}
	}
	if cfg.Valid == "" {
		cfg.Valid = "valid"
	}
	if cfg.Ready == "" {
		cfg.Ready = "ready"
	}
	name := fmt.Sprintf("stream %s %q", kind, prefix)
	if clk == nil {
		tb.Failf("%s: no clock (clk is nil)", name)
		return nil
	}
	if cfg.Reset != nil && cfg.Reset.Width() != 1 {
		tb.Failf("%s: reset %s is %d bits; a reset is 1 bit", name, cfg.Reset.Name(), cfg.Reset.Width())
		return nil
	}
	required := append(append([]string(nil), cfg.Data...), cfg.Valid)
	if cfg.Ready != NoReady {
		required = append(required, cfg.Ready)
	}
	b := bus.Bind(tb, prefix, required, nil)
	if b == nil {
		return nil
	}
	task := "stream " + kind + " " + prefix
	if prefix == "" {
		task += "(no prefix)"
	}
	p := &port{tb: tb, kind: kind, name: name, task: task, clk: clk, cfg: cfg, valid: b.Signal(cfg.Valid), reset: cfg.Reset}
	for _, d := range cfg.Data {
		p.data = append(p.data, b.Signal(d))
	}
	if cfg.Ready != NoReady {
		p.ready = b.Signal(cfg.Ready)
	}
	sampled := append(append([]*dut.Signal(nil), p.data...), p.valid)
	if p.ready != nil {
		sampled = append(sampled, p.ready)
	}
	if p.reset != nil {
		sampled = append(sampled, p.reset)
	}
	p.pre = tb.PreEdge(sampled...)
	return p
}

// level is the value of a 1-bit signal that means active.
func level(activeLow bool, active bool) uint64 {
	if active != activeLow {
		return 1
	}
	return 0
}

// The pre-edge state: what the design registered at the latest edge.
func (p *port) validAt() bool { return p.pre.Get(p.valid) == level(p.cfg.ValidActiveLow, true) }

func (p *port) readyAt() bool {
	return p.ready == nil || p.pre.Get(p.ready) == level(p.cfg.ReadyActiveLow, true)
}

func (p *port) resetAt() bool {
	return p.reset != nil && p.pre.Get(p.reset) == level(p.cfg.ResetActiveLow, true)
}

// resetNow is the reset's value now, after the edge: what decides the
// values driven for the next cycle.
func (p *port) resetNow() bool {
	return p.reset != nil && p.reset.Get() == level(p.cfg.ResetActiveLow, true)
}

// dataAt is the pre-edge payload, a fresh Beat.
func (p *port) dataAt() Beat {
	b := make(Beat, len(p.data))
	for i, sig := range p.data {
		b[i] = p.pre.GetBig(sig)
	}
	return b
}

// pause asks Config.Pause for this cycle.
func (p *port) pause() bool { return p.cfg.Pause != nil && p.cfg.Pause() }

// stopped reports whether the bench stopped (a failure, $finish): every
// wait returns at once then, so loops must end.
func (p *port) stopped() bool { return p.tb.Err() != nil }

// payloadText names the payload signals with values, for messages.
func (p *port) payloadText(b Beat) string {
	parts := make([]string, len(p.data))
	for i, sig := range p.data {
		parts[i] = fmt.Sprintf("%s=0x%s", sig.Name(), b[i].Text(16))
	}
	return strings.Join(parts, " ")
}
