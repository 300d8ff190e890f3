package axi

import (
	"encoding/binary"
	"fmt"
	"slices"

	"github.com/weft-hdl/weft/bench"
	"github.com/weft-hdl/weft/bench/bus"
	"github.com/weft-hdl/weft/dut"
)

// Options configure a RAM. The zero value is a RAM without reset, always
// ready, answering as soon as it can, with 8 outstanding transactions.
type Options struct {
	// Reset, when set, is the reset signal: while it is active the RAM
	// drives its outputs idle and ignores the bus.
	Reset          *dut.Signal
	ResetActiveLow bool
	// Pause, called once a cycle for each of awready, wready and arready
	// and before each R beat, says whether to hold that signal low this
	// cycle (draw it from tb.Rand() so a failure replays). nil: never.
	Pause func() bool
	// RespDelay is the number of extra cycles before each B response and
	// before the first R beat of each read burst. nil: none.
	RespDelay func() int
	// MaxOutstanding bounds the AWs accepted and not yet answered in B,
	// and the ARs accepted and not yet fully answered in R (0: 8).
	MaxOutstanding int
}

// Stats count what a RAM served.
type Stats struct {
	Reads  int // read bursts whose last R beat was taken
	Writes int // write bursts whose B response was taken
	Beats  int // W and R beats taken
	Errors int // B responses and R beats that were not OKAY
}

// AXI encodings.
const (
	burstFixed = 0
	burstIncr  = 1
	burstWrap  = 2

	respOkay   = 0
	respDecErr = 3
)

var burstNames = [4]string{"FIXED", "INCR", "WRAP", "reserved burst type 3"}

// RAM is an AXI4 slave memory of size bytes at address 0, serving an RTL
// master through the bench (see the package doc for what it does and
// what it checks).
type RAM struct {
	tb    *bench.Bench
	name  string // "axi ram \"prefix\"", for messages
	clk   *dut.Signal
	opts  Options
	mem   []byte
	stats Stats
	pre   *bench.Sampled
	bytes int // data bus width in bytes

	// The bus.
	awid, awaddr, awlen, awsize, awburst, awvalid, awready *dut.Signal
	wdata, wstrb, wlast, wvalid, wready                    *dut.Signal
	bid, bresp, bvalid, bready                             *dut.Signal
	arid, araddr, arlen, arsize, arburst, arvalid, arready *dut.Signal
	rid, rdata, rresp, rlast, rvalid, rready               *dut.Signal

	cycle  int
	writes []*burst // accepted AWs whose data is not complete; W fills writes[0]
	resps  []*burst // write bursts waiting for their B response, in AW order
	reads  []*burst // accepted ARs; R answers reads[0]

	// What the RAM drives now, so that it writes only changes.
	driven map[*dut.Signal]uint64
	bOn    bool // bvalid is high
	rOn    bool // rvalid is high

	// The payload of a valid not yet taken at the last edge, which the
	// master must hold (nil: none pending).
	awHeld, wHeld, arHeld []uint64

	word, zero []byte // scratch: one bus word
}

// burst is one accepted AW or AR.
type burst struct {
	ch    string // "AW" or "AR"
	id    uint64
	addr  uint64
	beats int
	size  int // bytes per beat
	kind  int
	beat  int // beats done
	resp  int // the B response so far
	ready int // the cycle from which its response may start
}

func (b *burst) String() string {
	return fmt.Sprintf("%s burst at %#x (id %d, %d beats of %d bytes, %s)", b.ch, b.addr, b.id, b.beats, b.size, burstNames[b.kind])
}

// addrOf is the address of beat n, as AXI4 A3.4.1 defines it.
func (b *burst) addrOf(n int) uint64 {
	nb := uint64(b.size)
	switch b.kind {
	case burstFixed:
		return b.addr
	case burstWrap:
		span := nb * uint64(b.beats)
		lo := b.addr &^ (span - 1)
		return lo + (b.addr-lo+uint64(n)*nb)%span
	}
	if n == 0 {
		return b.addr
	}
	return b.addr&^(nb-1) + uint64(n)*nb
}

// span is the bytes [first, last] beat n moves: from its address to the
// end of its AxSIZE unit (a narrower first beat when the start address is
// unaligned).
func (b *burst) span(n int) (first, last uint64) {
	a := b.addrOf(n)
	return a, a&^uint64(b.size-1) + uint64(b.size) - 1
}

// NewRAM binds the AXI4 slave signals at prefix (awaddr, awlen, ...; see
// bench/bus for the names tried), drives them idle and starts the RAM's
// task, which serves the bus on the rising edges of clk. size is the
// memory in bytes, at address 0.
func NewRAM(tb *bench.Bench, prefix string, clk *dut.Signal, size int, opts Options) *RAM {
	b := bus.Bind(tb, prefix,
		[]string{"awaddr", "awlen", "awsize", "awburst", "awvalid", "awready",
			"wdata", "wstrb", "wlast", "wvalid", "wready",
			"bresp", "bvalid", "bready",
			"araddr", "arlen", "arsize", "arburst", "arvalid", "arready",
			"rdata", "rresp", "rlast", "rvalid", "rready"},
		[]string{"awid", "awlock", "awcache", "awprot", "awqos", "bid",
			"arid", "arlock", "arcache", "arprot", "arqos", "rid"})
	if b == nil {
		return nil
	}
	if opts.MaxOutstanding <= 0 {
		opts.MaxOutstanding = 8
	}
	r := &RAM{
		tb: tb, name: fmt.Sprintf("axi ram %q", prefix), clk: clk, opts: opts,
		mem: make([]byte, size), driven: map[*dut.Signal]uint64{},
		awid: b.Signal("awid"), awaddr: b.Signal("awaddr"), awlen: b.Signal("awlen"), awsize: b.Signal("awsize"),
		awburst: b.Signal("awburst"), awvalid: b.Signal("awvalid"), awready: b.Signal("awready"),
		wdata: b.Signal("wdata"), wstrb: b.Signal("wstrb"), wlast: b.Signal("wlast"),
		wvalid: b.Signal("wvalid"), wready: b.Signal("wready"),
		bid: b.Signal("bid"), bresp: b.Signal("bresp"), bvalid: b.Signal("bvalid"), bready: b.Signal("bready"),
		arid: b.Signal("arid"), araddr: b.Signal("araddr"), arlen: b.Signal("arlen"), arsize: b.Signal("arsize"),
		arburst: b.Signal("arburst"), arvalid: b.Signal("arvalid"), arready: b.Signal("arready"),
		rid: b.Signal("rid"), rdata: b.Signal("rdata"), rresp: b.Signal("rresp"), rlast: b.Signal("rlast"),
		rvalid: b.Signal("rvalid"), rready: b.Signal("rready"),
	}
	w := r.wdata.Width()
	if w%8 != 0 || w != r.rdata.Width() || r.wstrb.Width() != w/8 {
		tb.Failf("%s: wdata is %d bits, rdata %d, wstrb %d; the RAM needs equal data buses of whole bytes and one strobe per byte",
			r.name, w, r.rdata.Width(), r.wstrb.Width())
		return nil
	}
	r.bytes = w / 8
	r.word, r.zero = make([]byte, r.bytes), make([]byte, r.bytes)
	sampled := []*dut.Signal{
		r.awaddr, r.awlen, r.awsize, r.awburst, r.awvalid, r.awready,
		r.wdata, r.wstrb, r.wlast, r.wvalid, r.wready, r.bvalid, r.bready,
		r.araddr, r.arlen, r.arsize, r.arburst, r.arvalid, r.arready, r.rvalid, r.rready,
	}
	for _, s := range []*dut.Signal{r.awid, r.arid, opts.Reset} {
		if s != nil {
			sampled = append(sampled, s)
		}
	}
	r.pre = tb.PreEdge(sampled...)
	r.idle()
	tb.Fork(r.name, r.run)
	return r
}

// Mem is the RAM's memory itself, not a copy: a spec preloads it and
// checks what the master wrote in it.
func (r *RAM) Mem() []byte { return r.mem }

// Stats are the counts so far. The RAM's task counts a handshake when
// it wakes at the edge that registered it: bench code woken by the same
// edge sees it counted after a ReadOnly wait (or at the next edge).
func (r *RAM) Stats() Stats { return r.stats }

// run serves the bus, one rising edge at a time: first the handshakes the
// edge registered (pre-edge values), then the outputs for the next cycle.
func (r *RAM) run() {
	for {
		r.tb.RisingEdge(r.clk)
		if r.tb.Err() != nil {
			return
		}
		r.cycle++
		if r.inReset() {
			r.idle()
			continue
		}
		if !r.checkHeld() {
			return
		}
		if !r.sampleWrite() || !r.sampleRead() {
			return
		}
		r.driveWrite()
		r.driveRead()
	}
}

func (r *RAM) inReset() bool {
	if r.opts.Reset == nil {
		return false
	}
	return (r.pre.Get(r.opts.Reset) != 0) != r.opts.ResetActiveLow
}

// idle drives every output low and forgets the transactions in flight.
func (r *RAM) idle() {
	for _, s := range []*dut.Signal{r.awready, r.wready, r.bvalid, r.bresp, r.arready, r.rvalid, r.rresp, r.rlast} {
		r.drive(s, 0)
	}
	if r.bid != nil {
		r.drive(r.bid, 0)
	}
	if r.rid != nil {
		r.drive(r.rid, 0)
	}
	r.tb.Set(r.rdata, r.zero)
	r.writes, r.resps, r.reads = nil, nil, nil
	r.bOn, r.rOn = false, false
	r.awHeld, r.wHeld, r.arHeld = nil, nil, nil
}

// drive sets an output the RAM owns when its value changes.
func (r *RAM) drive(s *dut.Signal, v uint64) {
	if old, ok := r.driven[s]; ok && old == v {
		return
	}
	r.driven[s] = v
	r.tb.Set(s, v)
}

func (r *RAM) pause() bool { return r.opts.Pause != nil && r.opts.Pause() }

func (r *RAM) delay() int {
	if r.opts.RespDelay == nil {
		return 0
	}
	return max(r.opts.RespDelay(), 0)
}

func (r *RAM) get(s *dut.Signal) uint64 {
	if s == nil {
		return 0
	}
	return r.pre.Get(s)
}

// data reads a pre-edge data bus into r.word, little-endian (byte k is
// lane k).
func (r *RAM) data(s *dut.Signal) []byte {
	if r.bytes <= 8 {
		var b [8]byte
		binary.LittleEndian.PutUint64(b[:], r.pre.Get(s))
		copy(r.word, b[:])
		return r.word
	}
	r.pre.GetBig(s).FillBytes(r.word) // big-endian
	slices.Reverse(r.word)
	return r.word
}

// payload is what the master must hold on a channel while valid waits.
func (r *RAM) payload(sigs ...*dut.Signal) []uint64 {
	var p []uint64
	for _, s := range sigs {
		if s == nil {
			continue
		}
		if s.Width() > 64 {
			for _, w := range r.pre.GetBig(s).Bits() {
				p = append(p, uint64(w))
			}
			p = append(p, ^uint64(0)) // a separator: Bits drops high zero words
			continue
		}
		p = append(p, r.pre.Get(s))
	}
	return p
}

// checkHeld fails the spec when the master dropped a valid, or changed
// the payload beside it, before the handshake (AXI4 A3.2.1), and records
// the valids pending at this edge for the next.
func (r *RAM) checkHeld() bool {
	type channel struct {
		name         string
		valid, ready *dut.Signal
		held         *[]uint64
		sigs         []*dut.Signal
		names        string
	}
	for _, c := range []channel{
		{"AW", r.awvalid, r.awready, &r.awHeld, []*dut.Signal{r.awaddr, r.awlen, r.awsize, r.awburst, r.awid}, "awaddr, awlen, awsize, awburst, awid"},
		{"W", r.wvalid, r.wready, &r.wHeld, []*dut.Signal{r.wdata, r.wstrb, r.wlast}, "wdata, wstrb, wlast"},
		{"AR", r.arvalid, r.arready, &r.arHeld, []*dut.Signal{r.araddr, r.arlen, r.arsize, r.arburst, r.arid}, "araddr, arlen, arsize, arburst, arid"},
	} {
		valid := r.pre.Get(c.valid) == 1
		var now []uint64
		if valid {
			now = r.payload(c.sigs...)
		}
		if *c.held != nil {
			if !valid {
				r.tb.Failf("%s: %s dropped %s before %s took it: a valid must stay high until its handshake (AXI4 A3.2.1)",
					r.name, c.valid.Name(), c.name, c.ready.Name())
				return false
			}
			if !slices.Equal(now, *c.held) {
				r.tb.Failf("%s: the %s payload (%s) changed while %s waited for %s: it must stay stable until the handshake (AXI4 A3.2.1)",
					r.name, c.name, c.names, c.valid.Name(), c.ready.Name())
				return false
			}
		}
		*c.held = nil
		if valid && r.pre.Get(c.ready) == 0 {
			*c.held = now
		}
	}
	return true
}

// sampleWrite takes the B, W and AW handshakes of the edge.
func (r *RAM) sampleWrite() bool {
	if r.pre.Get(r.bvalid) == 1 && r.pre.Get(r.bready) == 1 && r.bOn {
		b := r.resps[0]
		r.resps = r.resps[1:]
		r.bOn = false
		r.stats.Writes++
		if b.resp != respOkay {
			r.stats.Errors++
		}
	}
	if r.pre.Get(r.wvalid) == 1 && r.pre.Get(r.wready) == 1 && len(r.writes) > 0 {
		b := r.writes[0]
		last := r.pre.Get(r.wlast) == 1
		if last != (b.beat == b.beats-1) {
			r.tb.Failf("%s: W beat %d of the %d-beat %s has wlast=%d; wlast must be high on beat %d only",
				r.name, b.beat+1, b.beats, b, r.pre.Get(r.wlast), b.beats)
			return false
		}
		r.writeBeat(b, r.data(r.wdata), r.pre.Get(r.wstrb))
		r.stats.Beats++
		b.beat++
		if last {
			r.writes = r.writes[1:]
			b.ready = r.cycle + r.delay()
			r.resps = append(r.resps, b)
		}
	}
	if r.pre.Get(r.awvalid) == 1 && r.pre.Get(r.awready) == 1 {
		b := r.accept("AW", r.awid, r.awaddr, r.awlen, r.awsize, r.awburst)
		if b == nil {
			return false
		}
		r.writes = append(r.writes, b)
	}
	return true
}

// sampleRead takes the R and AR handshakes of the edge.
func (r *RAM) sampleRead() bool {
	if r.pre.Get(r.rvalid) == 1 && r.pre.Get(r.rready) == 1 && r.rOn {
		b := r.reads[0]
		r.rOn = false
		r.stats.Beats++
		if r.outside(b, b.beat) {
			r.stats.Errors++
		}
		b.beat++
		if b.beat == b.beats {
			r.reads = r.reads[1:]
			r.stats.Reads++
		}
	}
	if r.pre.Get(r.arvalid) == 1 && r.pre.Get(r.arready) == 1 {
		b := r.accept("AR", r.arid, r.araddr, r.arlen, r.arsize, r.arburst)
		if b == nil {
			return false
		}
		b.ready = r.cycle + r.delay()
		r.reads = append(r.reads, b)
	}
	return true
}

// accept reads an address handshake and checks the burst against AXI4's
// rules (A3.4.1), failing the spec for a burst the master may not issue.
func (r *RAM) accept(ch string, id, addr, length, size, kind *dut.Signal) *burst {
	b := &burst{ch: ch, id: r.get(id), addr: r.get(addr), beats: int(r.get(length)) + 1,
		size: 1 << r.get(size), kind: int(r.get(kind))}
	var bad string
	switch {
	case b.kind == 3:
		bad = "AxBURST 3 is reserved"
	case b.size > r.bytes:
		bad = fmt.Sprintf("AxSIZE %d (%d bytes) is wider than the %d-byte data bus", r.get(size), b.size, r.bytes)
	case b.kind == burstWrap && b.beats != 2 && b.beats != 4 && b.beats != 8 && b.beats != 16:
		bad = "a WRAP burst must be 2, 4, 8 or 16 beats long"
	case b.kind == burstWrap && b.addr%uint64(b.size) != 0:
		bad = "a WRAP burst must start at an address aligned to its size"
	case b.kind == burstFixed && b.beats > 16:
		bad = "a FIXED burst is at most 16 beats long"
	case b.kind == burstIncr && b.addr>>12 != (b.addr&^uint64(b.size-1)+uint64(b.beats*b.size)-1)>>12:
		bad = fmt.Sprintf("it crosses the 4 KiB boundary at %#x; a burst must stay within one 4 KiB page",
			(b.addr>>12+1)<<12)
	}
	if bad != "" {
		r.tb.Failf("%s: protocol error by the master: %s: %s (AXI4 A3.4.1)", r.name, b, bad)
		return nil
	}
	return b
}

// outside reports whether beat n of b touches bytes beyond the memory.
func (r *RAM) outside(b *burst, n int) bool {
	_, last := b.span(n)
	return last >= uint64(len(r.mem))
}

// writeBeat stores the strobed lanes of beat b.beat.
func (r *RAM) writeBeat(b *burst, data []byte, strb uint64) {
	if r.outside(b, b.beat) {
		b.resp = respDecErr
		return
	}
	first, last := b.span(b.beat)
	for a := first; a <= last; a++ {
		lane := int(a % uint64(r.bytes))
		if strb>>lane&1 == 1 {
			r.mem[a] = data[lane]
		}
	}
}

// driveWrite drives awready, wready and the B channel for the next cycle.
func (r *RAM) driveWrite() {
	r.drive(r.awready, b2u(len(r.writes)+len(r.resps) < r.opts.MaxOutstanding && !r.pause()))
	r.drive(r.wready, b2u(len(r.writes) > 0 && !r.pause()))
	if !r.bOn && len(r.resps) > 0 && r.resps[0].ready <= r.cycle {
		b := r.resps[0]
		if r.bid != nil {
			r.drive(r.bid, b.id)
		}
		r.drive(r.bresp, uint64(b.resp))
		r.bOn = true
	}
	r.drive(r.bvalid, b2u(r.bOn))
}

// driveRead drives arready and the R channel for the next cycle.
func (r *RAM) driveRead() {
	r.drive(r.arready, b2u(len(r.reads) < r.opts.MaxOutstanding && !r.pause()))
	if !r.rOn && len(r.reads) > 0 && r.reads[0].ready <= r.cycle && !r.pause() {
		b := r.reads[0]
		if r.rid != nil {
			r.drive(r.rid, b.id)
		}
		resp := uint64(respOkay)
		word := r.zero
		if r.outside(b, b.beat) {
			resp = respDecErr
		} else {
			// The whole bus word around the beat's address, zero past
			// the end of the memory.
			base := b.addrOf(b.beat) &^ uint64(r.bytes-1)
			clear(r.word)
			copy(r.word, r.mem[min(base, uint64(len(r.mem))):])
			word = r.word
		}
		r.tb.Set(r.rdata, word)
		r.drive(r.rresp, resp)
		r.drive(r.rlast, b2u(b.beat == b.beats-1))
		r.rOn = true
	}
	r.drive(r.rvalid, b2u(r.rOn))
}

func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}
