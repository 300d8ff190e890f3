package axil

import (
	"fmt"
	"strings"

	"github.com/weft-hdl/weft/bench"
	"github.com/weft-hdl/weft/dut"
)

// Master drives an AXI4-Lite slave in the design (cocotbext-axi's
// AxiLiteMaster). Write and Read are blocking calls for the spec or a
// task; calls from several tasks are pipelined: their transfers queue on
// the AW, W and AR channels, go out back to back, and the responses,
// which AXI4-Lite returns in order, are matched to them in that order.
type Master struct {
	p    *port
	kick *bench.Event // new work: drive it now, not at the next edge

	// Beats waiting for (or being driven on) each request channel, and
	// beats waiting for their response, oldest first.
	aw, w, ar []*beat
	bq, rq    []*beat
	// The response channels' stability checks and readies.
	bHold, rHold   *hold
	bReady, rReady uint64
	timeout        int
	hasStrb        bool
	wstrbAll       uint64 // every byte lane
	awMax, arMax   uint64 // the highest addresses
}

// Request channel states of a beat.
const (
	queued   = iota // waiting behind other beats
	driving         // valid is high
	accepted        // the handshake happened
)

// beat is one bus-width transfer of a transaction.
type beat struct {
	t    *txn
	addr uint64 // aligned to the bus width
	data uint64
	strb uint64
	aw   int // request channel states (queued, driving, accepted)
	w    int
	ar   int
	done bool
	resp Resp
}

// txn is one Write or Read call.
type txn struct {
	write bool
	addr  uint64
	n     int
	beats []*beat
	left  int // beats without a response
	done  *bench.Event
}

// NewMaster binds the AXI4-Lite bus at prefix (prefix_awaddr, ...;
// awprot, arprot and wstrb are optional) on the rising edges of clk and
// starts the task that drives it.
func NewMaster(tb *bench.Bench, prefix string, clk *dut.Signal, opts Options) *Master {
	m := &Master{timeout: opts.Timeout}
	if m.timeout <= 0 {
		m.timeout = DefaultTimeout
	}
	m.p = bind(tb, "master", prefix, clk, opts)
	if m.p == nil {
		return m
	}
	p := m.p
	m.kick = tb.NewEvent(p.what + " work")
	m.bHold = newHold(p, "B", "bvalid", "bready", "bresp")
	m.rHold = newHold(p, "R", "rvalid", "rready", "rdata", "rresp")
	m.hasStrb = p.sig("wstrb") != nil
	m.wstrbAll = mask(p.lanes)
	m.awMax, m.arMax = mask(p.awBits), mask(p.arBits)
	for _, n := range []string{"awvalid", "wvalid", "arvalid", "bready", "rready", "awprot", "arprot"} {
		p.set(p.sig(n), 0)
	}
	tb.Fork(p.what, m.run)
	return m
}

// Write writes data at addr, in as many bus-width transfers as the bytes
// span: each goes to its word-aligned address with wstrb set for the
// bytes of data in it (a write that is not whole words needs wstrb on the
// bus). It returns OKAY, or the first other response of its transfers (a
// slave's error is an answer, not a failure). A write of no bytes does
// nothing.
func (m *Master) Write(addr uint64, data []byte) Resp {
	if len(data) == 0 || m.p == nil {
		return OKAY
	}
	t := m.newTxn(true, addr, len(data), m.awMax)
	if t == nil {
		return OKAY
	}
	lanes := uint64(m.p.lanes)
	for i, a := 0, addr; i < len(data); {
		b := &beat{t: t, addr: a &^ (lanes - 1)}
		for lane := a - b.addr; lane < lanes && i < len(data); lane++ {
			b.data |= uint64(data[i]) << (8 * lane)
			b.strb |= 1 << lane
			i++
			a++
		}
		if b.strb != m.wstrbAll && !m.hasStrb {
			m.p.failf("Write(%#x, %d bytes): the transfer at %#x writes only some byte lanes (wstrb %#b), but the bus has no wstrb",
				addr, len(data), b.addr, b.strb)
			return OKAY
		}
		t.beats = append(t.beats, b)
	}
	for _, b := range t.beats {
		m.aw, m.w, m.bq = append(m.aw, b), append(m.w, b), append(m.bq, b)
	}
	return m.finish(t)
}

// Read reads n bytes at addr, in as many bus-width transfers as they
// span (each at its word-aligned address), and returns them with OKAY or
// the first other response of its transfers.
func (m *Master) Read(addr uint64, n int) ([]byte, Resp) {
	if n <= 0 || m.p == nil {
		return nil, OKAY
	}
	t := m.newTxn(false, addr, n, m.arMax)
	if t == nil {
		return make([]byte, n), OKAY
	}
	lanes := uint64(m.p.lanes)
	last := (addr + uint64(n) - 1) &^ (lanes - 1) // newTxn saw that it does not wrap
	for a := addr &^ (lanes - 1); ; a += lanes {
		t.beats = append(t.beats, &beat{t: t, addr: a})
		if a == last {
			break
		}
	}
	m.ar = append(m.ar, t.beats...)
	m.rq = append(m.rq, t.beats...)
	resp := m.finish(t)
	out := make([]byte, n)
	for i := range out {
		a := addr + uint64(i)
		b := t.beats[(a-t.beats[0].addr)/lanes]
		out[i] = byte(b.data >> (8 * (a - b.addr)))
	}
	return out, resp
}

// WriteWord writes the bus-width word v at addr, little-endian (one
// transfer when addr is aligned).
func (m *Master) WriteWord(addr, v uint64) Resp {
	if m.p == nil {
		return OKAY
	}
	data := make([]byte, m.p.lanes)
	for i := range data {
		data[i] = byte(v >> (8 * i))
	}
	return m.Write(addr, data)
}

// ReadWord reads the bus-width word at addr, little-endian.
func (m *Master) ReadWord(addr uint64) (uint64, Resp) {
	if m.p == nil {
		return 0, OKAY
	}
	data, resp := m.Read(addr, m.p.lanes)
	var v uint64
	for i, x := range data {
		v |= uint64(x) << (8 * i)
	}
	return v, resp
}

// Idle reports whether no transaction is queued or in flight.
func (m *Master) Idle() bool {
	return len(m.aw)+len(m.w)+len(m.ar)+len(m.bq)+len(m.rq) == 0
}

func (m *Master) newTxn(write bool, addr uint64, n int, maxAddr uint64) *txn {
	if last := addr + uint64(n) - 1; last < addr || last > maxAddr {
		bits := m.p.arBits
		if write {
			bits = m.p.awBits
		}
		m.p.failf("%s(%#x, %d bytes): past the end of the %d-bit address space", kindOf(write), addr, n, bits)
		return nil
	}
	return &txn{write: write, addr: addr, n: n, done: m.p.tb.NewEvent(fmt.Sprintf("%s %s %#x", m.p.what, kindOf(write), addr))}
}

func kindOf(write bool) string {
	if write {
		return "Write"
	}
	return "Read"
}

// finish hands t to the bus task and waits for its responses, at most
// Options.Timeout cycles.
func (m *Master) finish(t *txn) Resp {
	t.left = len(t.beats)
	m.kick.Set()
	tb := m.p.tb
	if f := tb.First(t.done.Wait(), bench.ClockCycles(m.p.clk, m.timeout)); !f.Has(0) {
		if tb.Err() == nil {
			m.p.failf("%s(%#x, %d bytes) not done after %d cycles: %s", kindOf(t.write), t.addr, t.n, m.timeout, m.stuck(t))
		}
		return OKAY
	}
	for _, b := range t.beats {
		if b.resp != OKAY {
			return b.resp
		}
	}
	return OKAY
}

// stuck says where t waits, for the timeout message.
func (m *Master) stuck(t *txn) string {
	for i, b := range t.beats {
		if b.done {
			continue
		}
		where := fmt.Sprintf("transfer %d of %d at %#x: ", i+1, len(t.beats), b.addr)
		var parts []string
		if t.write {
			parts = append(parts, m.chanState("AW", b.aw, "awready"), m.chanState("W", b.w, "wready"))
			if b.aw == accepted && b.w == accepted {
				parts = append(parts, "waiting for bvalid")
			}
		} else {
			parts = append(parts, m.chanState("AR", b.ar, "arready"))
			if b.ar == accepted {
				parts = append(parts, "waiting for rvalid")
			}
		}
		return where + strings.Join(parts, ", ")
	}
	return "every transfer answered"
}

func (m *Master) chanState(ch string, s int, ready string) string {
	switch s {
	case queued:
		return ch + " queued behind earlier transfers"
	case driving:
		return ch + " valid, waiting for " + m.p.sig(ready).Name()
	}
	return ch + " accepted"
}

// run is the bus task: after every rising edge it takes the handshakes
// the edge registered (the pre-edge samples), then drives the channels
// for the next edge. A Write or Read between edges wakes it too, so a
// transfer starts in the cycle it is asked for.
func (m *Master) run() {
	p := m.p
	edge := bench.RisingEdge(p.clk)
	for {
		m.drive()
		f := p.tb.First(edge, m.kick.Wait())
		m.kick.Clear()
		if f.Index() < 0 {
			return
		}
		if !f.Has(0) {
			continue // only new work: drive it
		}
		if p.wasReset() {
			if !m.resetIdle() {
				return
			}
			continue
		}
		if !m.sample() {
			return
		}
		m.rollReady()
	}
}

// drive sets the request channels from the head of each queue and the
// response readies as rolled.
func (m *Master) drive() {
	p := m.p
	if p.inReset() {
		for _, n := range []string{"awvalid", "wvalid", "arvalid", "bready", "rready"} {
			p.set(p.sig(n), 0)
		}
		return
	}
	if b := head(m.aw); b != nil && (b.aw == driving || !p.pause()) {
		b.aw = driving
		p.set(p.sig("awaddr"), b.addr)
		p.set(p.sig("awvalid"), 1)
	} else {
		p.set(p.sig("awvalid"), 0)
	}
	if b := head(m.w); b != nil && (b.w == driving || !p.pause()) {
		b.w = driving
		p.set(p.sig("wdata"), b.data)
		p.set(p.sig("wstrb"), b.strb)
		p.set(p.sig("wvalid"), 1)
	} else {
		p.set(p.sig("wvalid"), 0)
	}
	if b := head(m.ar); b != nil && (b.ar == driving || !p.pause()) {
		b.ar = driving
		p.set(p.sig("araddr"), b.addr)
		p.set(p.sig("arvalid"), 1)
	} else {
		p.set(p.sig("arvalid"), 0)
	}
	p.set(p.sig("bready"), m.bReady)
	p.set(p.sig("rready"), m.rReady)
}

// rollReady decides bready and rready for the next cycle (cocotbext's
// pause generator on the response channels).
func (m *Master) rollReady() {
	m.bReady, m.rReady = 1, 1
	if m.p.pause() {
		m.bReady = 0
	}
	if m.p.pause() {
		m.rReady = 0
	}
}

func head(q []*beat) *beat {
	if len(q) == 0 {
		return nil
	}
	return q[0]
}

// resetIdle handles an edge in reset: the design forgot every transfer,
// so one on the bus then cannot complete; Write and Read would wait in
// vain, and the spec fails instead. Transfers not yet started wait for
// the reset to end.
func (m *Master) resetIdle() bool {
	m.bHold.reset()
	m.rHold.reset()
	m.bReady, m.rReady = 0, 0
	for _, q := range [][]*beat{m.bq, m.rq} {
		for _, b := range q {
			if b.aw != queued || b.w != queued || b.ar != queued {
				m.p.failf("reset while %s(%#x, %d bytes) was on the bus (%s); its response will never come",
					kindOf(b.t.write), b.t.addr, b.t.n, m.stuck(b.t))
				return false
			}
		}
	}
	return true
}

// sample takes the handshakes of the latest edge: requests first, so a
// response in the same cycle as its request's handshake counts.
func (m *Master) sample() bool {
	p := m.p
	if p.fired("awvalid", "awready") {
		m.aw[0].aw = accepted
		m.aw = m.aw[1:]
	}
	if p.fired("wvalid", "wready") {
		m.w[0].w = accepted
		m.w = m.w[1:]
	}
	if p.fired("arvalid", "arready") {
		m.ar[0].ar = accepted
		m.ar = m.ar[1:]
	}
	if !m.bHold.check(p) || !m.rHold.check(p) {
		return false
	}
	if p.fired("bvalid", "bready") {
		b := head(m.bq)
		switch {
		case b == nil:
			p.failf("B channel: a response (bresp %s) with no write outstanding", Resp(p.get("bresp")))
			return false
		case b.aw != accepted || b.w != accepted:
			p.failf("B channel: a response (bresp %s) to the write at %#x before its %s handshake; a slave answers a write after taking both its address and its data",
				Resp(p.get("bresp")), b.addr, map[bool]string{true: "W", false: "AW"}[b.aw == accepted])
			return false
		}
		m.bq = m.bq[1:]
		b.resp = Resp(p.get("bresp"))
		m.answered(b)
	}
	if p.fired("rvalid", "rready") {
		b := head(m.rq)
		switch {
		case b == nil:
			p.failf("R channel: read data %#x (rresp %s) with no read outstanding", p.get("rdata"), Resp(p.get("rresp")))
			return false
		case b.ar != accepted:
			p.failf("R channel: read data for %#x before its AR handshake", b.addr)
			return false
		}
		m.rq = m.rq[1:]
		b.data = p.get("rdata")
		b.resp = Resp(p.get("rresp"))
		m.answered(b)
	}
	return true
}

func (m *Master) answered(b *beat) {
	b.done = true
	if b.t.left--; b.t.left == 0 {
		b.t.done.Set()
	}
}
