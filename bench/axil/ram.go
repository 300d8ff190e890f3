package axil

import (
	"github.com/weft-hdl/weft/bench"
	"github.com/weft-hdl/weft/dut"
)

// RAM is an AXI4-Lite slave in the bench (cocotbext-axi's AxiLiteRam):
// a byte-addressed memory of size bytes from address 0 that an AXI4-Lite
// master in the design reads and writes. Writes honour wstrb (all lanes
// when the bus has none); a transfer whose word lies wholly or partly at
// or past size answers DECERR (no slave decodes it) and a read of it
// returns zeros; awprot and arprot are ignored. AW and W are taken in
// either order, up to ramDepth of each ahead of the other, and
// responses come back in order.
type RAM struct {
	p   *port
	mem []byte

	aw    []uint64 // accepted addresses without their data
	w     []wbeat  // accepted data without its address
	b     []Resp   // write responses to send, oldest first
	r     []rbeat  // read responses to send
	bShow bool     // bvalid is high with b[0]
	rShow bool     // rvalid is high with r[0]
	holds []*hold  // the request channels' stability checks

	writes, reads int // transfers answered
}

type wbeat struct{ data, strb uint64 }

type rbeat struct {
	data uint64
	resp Resp
}

// ramDepth is how many requests of a channel the RAM holds before it
// drops that channel's ready: room for a master that sends AW well ahead
// of W (or the other way) or several reads before taking the data.
const ramDepth = 4

// NewRAM binds the AXI4-Lite bus at prefix (the design is the master)
// on the rising edges of clk, makes a zeroed memory of size bytes and
// starts the task that serves it.
func NewRAM(tb *bench.Bench, prefix string, clk *dut.Signal, size int, opts Options) *RAM {
	r := &RAM{}
	if size < 0 {
		tb.Failf("axil RAM %q: size %d", prefix, size)
		return r
	}
	r.mem = make([]byte, size)
	r.p = bind(tb, "RAM", prefix, clk, opts)
	if r.p == nil {
		return r
	}
	p := r.p
	r.holds = []*hold{
		newHold(p, "AW", "awvalid", "awready", "awaddr", "awprot"),
		newHold(p, "W", "wvalid", "wready", "wdata", "wstrb"),
		newHold(p, "AR", "arvalid", "arready", "araddr", "arprot"),
	}
	for _, n := range []string{"awready", "wready", "arready", "bvalid", "rvalid", "bresp", "rresp", "rdata"} {
		p.set(p.sig(n), 0)
	}
	tb.Fork(p.what, r.run)
	return r
}

// Mem is the memory itself: the spec may read and change it at any time
// (the bus sees changes at its next transfer).
func (r *RAM) Mem() []byte { return r.mem }

// Write stores data at addr directly (a preload; no bus activity).
func (r *RAM) Write(addr uint64, data []byte) {
	if r.inside("Write", addr, len(data)) {
		copy(r.mem[addr:], data)
	}
}

// Read returns a copy of n bytes at addr, directly (no bus activity).
func (r *RAM) Read(addr uint64, n int) []byte {
	if !r.inside("Read", addr, n) {
		return make([]byte, max(n, 0))
	}
	return append([]byte(nil), r.mem[addr:addr+uint64(n)]...)
}

// Transfers are the write and read transfers the RAM answered so far:
// those whose response handshake its task has taken, which for a spec
// woken by the same edge as the task is the state before that edge.
func (r *RAM) Transfers() (writes, reads int) { return r.writes, r.reads }

func (r *RAM) inside(call string, addr uint64, n int) bool {
	if n < 0 || addr > uint64(len(r.mem)) || uint64(n) > uint64(len(r.mem))-addr {
		if r.p != nil {
			r.p.failf("%s(%#x, %d bytes): outside the %d-byte memory", call, addr, n, len(r.mem))
		}
		return false
	}
	return true
}

// word is the memory offset of the bus word holding addr, and whether
// all of it lies inside the memory.
func (r *RAM) word(addr uint64) (uint64, bool) {
	lanes := uint64(r.p.lanes)
	base := addr &^ (lanes - 1)
	return base, base < uint64(len(r.mem)) && uint64(len(r.mem))-base >= lanes
}

// run is the slave task: after every rising edge it checks the master's
// handshakes against the AXI rules, takes the transfers the edge
// registered, answers them from memory, and drives the channels for the
// next edge.
func (r *RAM) run() {
	p := r.p
	for {
		r.drive()
		p.edge()
		if p.wasReset() {
			r.aw, r.w, r.b, r.r = r.aw[:0], r.w[:0], r.b[:0], r.r[:0]
			r.bShow, r.rShow = false, false
			for _, h := range r.holds {
				h.reset()
			}
			continue
		}
		for _, h := range r.holds {
			if !h.check(p) {
				return
			}
		}
		r.sample()
	}
}

func (r *RAM) sample() {
	p := r.p
	if p.fired("awvalid", "awready") {
		r.aw = append(r.aw, p.get("awaddr"))
	}
	if p.fired("wvalid", "wready") {
		strb := mask(r.p.lanes)
		if p.sig("wstrb") != nil {
			strb = p.get("wstrb")
		}
		r.w = append(r.w, wbeat{p.get("wdata"), strb})
	}
	if p.fired("bvalid", "bready") {
		r.b, r.bShow = r.b[1:], false
		r.writes++
	}
	if p.fired("rvalid", "rready") {
		r.r, r.rShow = r.r[1:], false
		r.reads++
	}
	for len(r.aw) > 0 && len(r.w) > 0 {
		r.b = append(r.b, r.store(r.aw[0], r.w[0]))
		r.aw, r.w = r.aw[1:], r.w[1:]
	}
	if p.fired("arvalid", "arready") {
		r.r = append(r.r, r.load(p.get("araddr")))
	}
}

func (r *RAM) store(addr uint64, w wbeat) Resp {
	base, ok := r.word(addr)
	if !ok {
		return DECERR
	}
	for lane := range uint64(r.p.lanes) {
		if w.strb>>lane&1 == 1 {
			r.mem[base+lane] = byte(w.data >> (8 * lane))
		}
	}
	return OKAY
}

func (r *RAM) load(addr uint64) rbeat {
	base, ok := r.word(addr)
	if !ok {
		return rbeat{resp: DECERR}
	}
	var v uint64
	for lane := range uint64(r.p.lanes) {
		v |= uint64(r.mem[base+lane]) << (8 * lane)
	}
	return rbeat{data: v}
}

// drive sets the readies (room and no pause) and offers the oldest
// responses (a shown one stays until taken; a new one may pause).
func (r *RAM) drive() {
	p := r.p
	if p.inReset() {
		for _, n := range []string{"awready", "wready", "arready", "bvalid", "rvalid"} {
			p.set(p.sig(n), 0)
		}
		return
	}
	ready := func(room bool) uint64 {
		if room && !p.pause() {
			return 1
		}
		return 0
	}
	p.set(p.sig("awready"), ready(len(r.aw) < ramDepth && len(r.b) < ramDepth))
	p.set(p.sig("wready"), ready(len(r.w) < ramDepth && len(r.b) < ramDepth))
	p.set(p.sig("arready"), ready(len(r.r) < ramDepth))
	if !r.bShow && len(r.b) > 0 && !p.pause() {
		r.bShow = true
		p.set(p.sig("bresp"), uint64(r.b[0]))
	}
	p.set(p.sig("bvalid"), b2u(r.bShow))
	if !r.rShow && len(r.r) > 0 && !p.pause() {
		r.rShow = true
		p.set(p.sig("rdata"), r.r[0].data)
		p.set(p.sig("rresp"), uint64(r.r[0].resp))
	}
	p.set(p.sig("rvalid"), b2u(r.rShow))
}

func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}
