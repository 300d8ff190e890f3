package axil

import (
	"fmt"

	"github.com/weft-hdl/weft/bench"
	"github.com/weft-hdl/weft/bench/bus"
	"github.com/weft-hdl/weft/dut"
)

// Resp is an AXI response code (bresp, rresp).
type Resp int

// The AXI response codes, with the spec's names (cocotbext-axi's
// AxiResp). EXOKAY does not occur on AXI4-Lite but is decoded.
const (
	OKAY   Resp = 0
	EXOKAY Resp = 1
	SLVERR Resp = 2
	DECERR Resp = 3
)

func (r Resp) String() string {
	switch r {
	case OKAY:
		return "OKAY"
	case EXOKAY:
		return "EXOKAY"
	case SLVERR:
		return "SLVERR"
	case DECERR:
		return "DECERR"
	}
	return fmt.Sprintf("Resp(%d)", int(r))
}

// Options configure a Master or a RAM. The zero value has no reset and
// no pauses.
type Options struct {
	// Reset, when set, is the design's reset: while it is active the
	// component drives its valid and ready outputs low and ignores the
	// bus. Active high unless ResetActiveLow.
	Reset          *dut.Signal
	ResetActiveLow bool
	// Pause is asked once per clock cycle and channel: true holds back
	// the component's next valid (a request or a response) or drops its
	// ready for that cycle. Give it randomness from tb.Rand
	// (stream.RandomPause) for backpressure and handshake delays. nil: never pause.
	Pause func() bool
	// Timeout is how many clock cycles a Master's Write or Read may take
	// before it fails naming the channel it is stuck on (0:
	// DefaultTimeout). The RAM has no waits of its own to bound.
	Timeout int
}

// DefaultTimeout is the Master's bound on one Write or Read, in clock
// cycles, when Options.Timeout is 0: long enough for a queue of
// transactions under heavy pauses, short enough that a slave that never
// answers fails a spec in well under a second.
const DefaultTimeout = 10000

// The AXI4-Lite signal names, without the prefix.
var (
	required = []string{
		"awaddr", "awvalid", "awready", "wdata", "wvalid", "wready", "bresp", "bvalid", "bready",
		"araddr", "arvalid", "arready", "rdata", "rresp", "rvalid", "rready",
	}
	optional = []string{"awprot", "wstrb", "arprot"}
)

// port is what the master and the RAM share: the bound bus, its clock,
// the pre-edge samples of every bus signal (and the reset), and the bus
// geometry.
type port struct {
	tb     *bench.Bench
	what   string // "axil master \"s_axil\"", for messages
	clk    *dut.Signal
	opts   Options
	b      *bus.Bus
	pre    *bench.Sampled
	lanes  int // data bus width in bytes
	awBits int // address widths
	arBits int
	driven map[*dut.Signal]uint64 // last value written, to skip rewriting it
}

// bind binds the bus at prefix and checks its geometry; nil when the bus
// is unusable (the spec has failed).
func bind(tb *bench.Bench, kind, prefix string, clk *dut.Signal, opts Options) *port {
	p := &port{tb: tb, what: fmt.Sprintf("axil %s %q", kind, prefix), clk: clk, opts: opts,
		driven: map[*dut.Signal]uint64{}}
	if clk == nil {
		tb.Failf("%s: no clock signal", p.what)
		return nil
	}
	p.b = bus.Bind(tb, prefix, required, optional)
	if p.b == nil {
		return nil
	}
	w, r := p.sig("wdata").Width(), p.sig("rdata").Width()
	switch {
	case w != r:
		tb.Failf("%s: wdata is %d bits but rdata is %d; AXI4-Lite has one data width", p.what, w, r)
		return nil
	case w != 8 && w != 16 && w != 32 && w != 64:
		// AXI4-Lite is 32 or 64 bits; narrower powers of two cost
		// nothing, wider ones would not fit the uint64 a beat is.
		tb.Failf("%s: wdata is %d bits; want 32 or 64 (or 8, 16)", p.what, w)
		return nil
	}
	p.lanes = w / 8
	if s := p.b.Signal("wstrb"); s != nil && s.Width() != p.lanes {
		tb.Failf("%s: wstrb is %d bits; a %d-bit data bus has %d byte lanes", p.what, s.Width(), w, p.lanes)
		return nil
	}
	p.awBits, p.arBits = p.sig("awaddr").Width(), p.sig("araddr").Width()
	if p.awBits > 64 || p.arBits > 64 {
		tb.Failf("%s: addresses wider than 64 bits (awaddr %d, araddr %d)", p.what, p.awBits, p.arBits)
		return nil
	}
	sampled := []*dut.Signal{}
	for _, n := range append(append([]string{}, required...), optional...) {
		if s := p.b.Signal(n); s != nil {
			sampled = append(sampled, s)
		}
	}
	if opts.Reset != nil {
		sampled = append(sampled, opts.Reset)
	}
	// One sampler for every task of the component: all of them look at
	// the same edge.
	p.pre = tb.PreEdge(sampled...)
	return p
}

func (p *port) sig(name string) *dut.Signal { return p.b.Signal(name) }

// set drives sig unless it already holds v (each write costs a delta
// evaluation; idle channels rewrite nothing).
func (p *port) set(sig *dut.Signal, v uint64) {
	if sig == nil {
		return
	}
	if old, ok := p.driven[sig]; ok && old == v {
		return
	}
	p.driven[sig] = v
	p.tb.Set(sig, v)
}

// fired reports whether the handshake of valid and ready happened at
// the latest rising edge.
func (p *port) fired(valid, ready string) bool {
	return p.pre.Get(p.sig(valid)) == 1 && p.pre.Get(p.sig(ready)) == 1
}

func (p *port) get(name string) uint64 { return p.pre.Get(p.sig(name)) }

// inReset reports whether the reset is active now.
func (p *port) inReset() bool {
	return p.opts.Reset != nil && p.active(p.opts.Reset.Get())
}

// wasReset reports whether the reset was active at the latest edge: the
// design ignored the bus then, and so does the component.
func (p *port) wasReset() bool {
	return p.opts.Reset != nil && p.active(p.pre.Get(p.opts.Reset))
}

func (p *port) active(v uint64) bool { return (v == 0) == p.opts.ResetActiveLow }

func (p *port) pause() bool { return p.opts.Pause != nil && p.opts.Pause() }

// edge waits for the next rising edge of the bus clock.
func (p *port) edge() { p.tb.RisingEdge(p.clk) }

func (p *port) failf(format string, args ...any) {
	p.tb.Failf("%s: %s", p.what, fmt.Sprintf(format, args...))
}

// mask is the all-ones value of a width-bit signal.
func mask(bits int) uint64 {
	if bits >= 64 {
		return ^uint64(0)
	}
	return 1<<bits - 1
}
