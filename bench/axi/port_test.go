package axi_test

import (
	"fmt"
	"io"
	"slices"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/weft-hdl/weft/bench"
	"github.com/weft-hdl/weft/bench/axi"
	"github.com/weft-hdl/weft/compile"
	"github.com/weft-hdl/weft/dut"
)

// Burst types, as on the bus.
const (
	fixed = 0
	incr  = 1
	wrap  = 2
)

// master plays an AXI4 master from Go on testdata/axi_port.sv, whose
// signals are all inputs: it drives the master's signals and reads the
// RAM's through a pre-edge view, one step at a time, so a spec can break
// the protocol on purpose. Every wait is bounded by maxWait cycles.
type master struct {
	tb    *bench.Bench
	clk   *dut.Signal
	pre   *bench.Sampled
	bytes int
	sigs  map[string]*dut.Signal
}

const maxWait = 200

// sig is the bus signal name; one handle per name, as the pre-edge view
// knows signals by handle.
func (m *master) sig(name string) *dut.Signal {
	s, ok := m.sigs[name]
	if !ok {
		s = m.tb.Signal("s_axi_" + name)
		m.sigs[name] = s
	}
	return s
}

// newPort builds axi_port with a dataW-bit bus, a RAM of size bytes on
// it (its reset is rst_n; options from opts, nil: the zero Options) and a
// master. fail receives the bench's failures (nil: the spec fails).
func newPort(dataW, size int, opts func(*bench.Bench) axi.Options, fail func(string, ...int)) (*bench.Bench, *axi.RAM, *master) {
	p, err := compile.NewBuilder().Files("testdata/axi_port.sv").Top("axi_port").
		Param("DATA_W", fmt.Sprint(dataW)).Output(io.Discard).Build()
	Expect(err).NotTo(HaveOccurred())
	DeferCleanup(p.Close)
	tb := bench.New(p, bench.Options{Fail: fail, Output: GinkgoWriter})
	clk := tb.Clock(tb.Signal("clk"), 10*bench.NS)
	m := &master{tb: tb, clk: clk.Signal(), bytes: dataW / 8, sigs: map[string]*dut.Signal{}}
	var o axi.Options
	if opts != nil {
		o = opts(tb)
	}
	o.Reset, o.ResetActiveLow = tb.Signal("rst_n"), true
	ram := axi.NewRAM(tb, "s_axi", clk.Signal(), size, o)
	var sampled []*dut.Signal
	for _, n := range []string{"awready", "wready", "bvalid", "bready", "bid", "bresp", "arready",
		"rvalid", "rready", "rid", "rdata", "rresp", "rlast"} {
		sampled = append(sampled, m.sig(n))
	}
	m.pre = tb.PreEdge(sampled...)
	for _, n := range []string{"awvalid", "wvalid", "bready", "arvalid", "rready", "wlast"} {
		tb.Set(m.sig(n), 0)
	}
	tb.Reset(tb.Signal("rst_n"), bench.ActiveLow, 2)
	return tb, ram, m
}

// handshake waits for the rising edge at which valid and ready were both
// high, within maxWait cycles.
func (m *master) handshake(valid, ready string) bool {
	for range maxWait {
		m.tb.RisingEdge(m.clk)
		if m.tb.Err() != nil {
			return false
		}
		if m.pre.Get(m.sig(ready)) == 1 && (valid == "" || m.sig(valid).Get() == 1) {
			return true
		}
	}
	m.tb.Failf("master: no %s handshake within %d cycles", ready, maxWait)
	return false
}

// addr issues an address on ch ("aw" or "ar") and waits for it to be taken.
func (m *master) addr(ch string, id, addr uint64, beats, size, kind int) bool {
	m.tb.Set(m.sig(ch+"id"), id)
	m.tb.Set(m.sig(ch+"addr"), addr)
	m.tb.Set(m.sig(ch+"len"), beats-1)
	m.tb.Set(m.sig(ch+"size"), sizeCode(size))
	m.tb.Set(m.sig(ch+"burst"), kind)
	m.tb.Set(m.sig(ch+"valid"), 1)
	ok := m.handshake(ch+"valid", ch+"ready")
	m.tb.Set(m.sig(ch+"valid"), 0)
	return ok
}

func sizeCode(size int) int {
	n := 0
	for 1<<n < size {
		n++
	}
	return n
}

// wbeat is one W beat.
type wbeat struct {
	data []byte // one byte per lane
	strb uint64
	last bool
}

// write sends W beats, each once taken.
func (m *master) write(beats []wbeat) bool {
	for _, b := range beats {
		m.tb.Set(m.sig("wdata"), b.data)
		m.tb.Set(m.sig("wstrb"), b.strb)
		m.tb.Set(m.sig("wlast"), b.last)
		m.tb.Set(m.sig("wvalid"), 1)
		if !m.handshake("wvalid", "wready") {
			return false
		}
	}
	m.tb.Set(m.sig("wvalid"), 0)
	return true
}

// bresp takes one B response.
func (m *master) bresp() (id, resp uint64) {
	m.tb.Set(m.sig("bready"), 1)
	m.handshakeValid("bvalid")
	m.tb.Set(m.sig("bready"), 0)
	return m.pre.Get(m.sig("bid")), m.pre.Get(m.sig("bresp"))
}

// handshakeValid waits for an edge with the RAM's valid high (the
// master's ready is already high).
func (m *master) handshakeValid(valid string) {
	for range maxWait {
		m.tb.RisingEdge(m.clk)
		if m.tb.Err() != nil || m.pre.Get(m.sig(valid)) == 1 {
			return
		}
	}
	m.tb.Failf("master: no %s within %d cycles", valid, maxWait)
}

// rbeat is one R beat as the master took it.
type rbeat struct {
	id, resp uint64
	last     bool
	data     []byte
}

// read takes n R beats.
func (m *master) read(n int) []rbeat {
	var out []rbeat
	m.tb.Set(m.sig("rready"), 1)
	for range n {
		m.handshakeValid("rvalid")
		if m.tb.Err() != nil {
			break
		}
		data := make([]byte, m.bytes)
		m.pre.GetBig(m.sig("rdata")).FillBytes(data)
		slices.Reverse(data)
		out = append(out, rbeat{m.pre.Get(m.sig("rid")), m.pre.Get(m.sig("rresp")), m.pre.Get(m.sig("rlast")) == 1, data})
	}
	m.tb.Set(m.sig("rready"), 0)
	return out
}

// beatAddr and beatSpan are AXI4's beat addresses (A3.4.1), written out
// again for the reference model of the random specs.
func beatAddr(addr uint64, beats, size, kind, n int) uint64 {
	nb := uint64(size)
	switch kind {
	case fixed:
		return addr
	case wrap:
		span := nb * uint64(beats)
		lo := addr / span * span
		return lo + (addr+uint64(n)*nb-lo)%span
	}
	if n == 0 {
		return addr
	}
	return addr/nb*nb + uint64(n)*nb
}

// randomTiming pauses a ready one cycle in three and delays responses
// by up to 4 cycles, from the spec's seeded source.
func randomTiming(tb *bench.Bench) axi.Options {
	rng := tb.Rand()
	return axi.Options{
		Pause:     func() bool { return rng.IntN(3) == 0 },
		RespDelay: func() int { return rng.IntN(5) },
	}
}

var _ = Describe("RAM driven by a master in Go", func() {
	var f failures
	BeforeEach(func() { f = nil })

	DescribeTable("keeps random bursts, narrow ones and strobes, like a byte-array model",
		func(dataW int) {
			const size = 8 << 10
			tb, ram, m := newPort(dataW, size, randomTiming, nil)
			rng := tb.Rand()
			model := make([]byte, size)
			bus := dataW / 8
			for i := range 24 {
				kind := rng.IntN(3)
				sz := 1 << rng.IntN(sizeCode(bus)+1)
				beats := 1 + rng.IntN(16)
				switch kind {
				case wrap:
					beats = []int{2, 4, 8, 16}[rng.IntN(4)]
				case incr:
					beats = 1 + rng.IntN(40)
				}
				// An address whose burst stays in its 4 KiB page and in
				// the RAM; WRAP starts aligned.
				page := uint64(rng.IntN(size>>12) << 12)
				addr := page + uint64(rng.IntN(4096-beats*sz))
				if kind == wrap {
					addr &^= uint64(sz - 1)
				}
				id := uint64(rng.IntN(16))
				Expect(m.addr("aw", id, addr, beats, sz, kind)).To(BeTrue())
				var ws []wbeat
				for n := range beats {
					data := make([]byte, bus)
					for k := range data {
						data[k] = byte(rng.Uint32())
					}
					strb := rng.Uint64() & (1<<bus - 1)
					a := beatAddr(addr, beats, sz, kind, n)
					for x := a; x < a/uint64(sz)*uint64(sz)+uint64(sz); x++ {
						if lane := x % uint64(bus); strb>>lane&1 == 1 {
							model[x] = data[lane]
						}
					}
					ws = append(ws, wbeat{data, strb, n == beats-1})
				}
				Expect(m.write(ws)).To(BeTrue())
				gotID, resp := m.bresp()
				Expect([]uint64{gotID, resp}).To(Equal([]uint64{id, 0}), "B of burst %d", i)

				Expect(m.addr("ar", id, addr, beats, sz, kind)).To(BeTrue())
				rs := m.read(beats)
				for n, r := range rs {
					a := beatAddr(addr, beats, sz, kind, n)
					Expect(r.id).To(Equal(id))
					Expect(r.resp).To(BeZero())
					Expect(r.last).To(Equal(n == beats-1), "rlast of beat %d", n)
					for x := a; x < a/uint64(sz)*uint64(sz)+uint64(sz); x++ {
						Expect(r.data[x%uint64(bus)]).To(Equal(model[x]), "burst %d beat %d byte %#x", i, n, x)
					}
				}
			}
			Expect(ram.Mem()).To(Equal(model))
		},
		Entry("on a 32-bit bus", 32),
		Entry("on a 128-bit bus", 128),
	)

	It("answers DECERR beyond its size, writing nothing there and reading zero", func() {
		tb, ram, m := newPort(32, 256, nil, nil)
		ws := make([]wbeat, 4)
		for n := range ws {
			ws[n] = wbeat{[]byte{byte(4 * n), byte(4*n + 1), byte(4*n + 2), byte(4*n + 3)}, 0xf, n == 3}
		}
		Expect(m.addr("aw", 5, 0xf8, 4, 4, incr)).To(BeTrue())
		Expect(m.write(ws)).To(BeTrue())
		id, resp := m.bresp()
		Expect(id).To(Equal(uint64(5)))
		Expect(resp).To(Equal(uint64(3)), "DECERR")
		Expect(ram.Mem()[0xf8:]).To(Equal([]byte{0, 1, 2, 3, 4, 5, 6, 7}))

		Expect(m.addr("ar", 6, 0xf8, 4, 4, incr)).To(BeTrue())
		rs := m.read(4)
		Expect(rs).To(HaveLen(4))
		Expect([]uint64{rs[0].resp, rs[1].resp, rs[2].resp, rs[3].resp}).To(Equal([]uint64{0, 0, 3, 3}))
		Expect(rs[1].data).To(Equal([]byte{4, 5, 6, 7}))
		Expect(rs[2].data).To(Equal([]byte{0, 0, 0, 0}))
		tb.ReadOnly()
		Expect(ram.Stats()).To(Equal(axi.Stats{Reads: 1, Writes: 1, Beats: 8, Errors: 3}))
	})

	It("accepts at most MaxOutstanding AWs until it answers one", func() {
		tb, _, m := newPort(32, 4096, func(*bench.Bench) axi.Options { return axi.Options{MaxOutstanding: 2} }, nil)
		Expect(m.addr("aw", 1, 0x10, 1, 4, incr)).To(BeTrue())
		Expect(m.addr("aw", 2, 0x20, 1, 4, incr)).To(BeTrue())
		tb.Set(m.sig("awvalid"), 1)
		for range 10 {
			tb.RisingEdge(m.clk)
			Expect(m.pre.Get(m.sig("awready"))).To(BeZero(), "a third AW while two wait")
		}
		Expect(m.write([]wbeat{{[]byte{1, 2, 3, 4}, 0xf, true}})).To(BeTrue())
		Expect(m.bresp()).To(Equal(uint64(1)))
		Expect(m.handshake("awvalid", "awready")).To(BeTrue(), "the third AW once B of the first went")
	})

	It("answers B in AW order whatever the IDs and delays", func() {
		_, _, m := newPort(32, 4096, randomTiming, nil)
		ids := []uint64{3, 9, 1, 3}
		for i, id := range ids {
			Expect(m.addr("aw", id, uint64(0x40*i), 2, 4, incr)).To(BeTrue())
		}
		for range ids {
			Expect(m.write([]wbeat{{[]byte{1, 2, 3, 4}, 0xf, false}, {[]byte{5, 6, 7, 8}, 0xf, true}})).To(BeTrue())
		}
		for i, id := range ids {
			got, resp := m.bresp()
			Expect(got).To(Equal(id), "B %d", i)
			Expect(resp).To(BeZero())
		}
	})

	It("stays idle and ignores the bus during reset", func() {
		tb, ram, m := newPort(32, 4096, nil, nil)
		rstN := tb.Signal("rst_n")
		Expect(m.addr("aw", 1, 0x10, 2, 4, incr)).To(BeTrue())
		tb.Set(rstN, 0)
		tb.Set(m.sig("awvalid"), 1)
		tb.Set(m.sig("arvalid"), 1)
		tb.Set(m.sig("wvalid"), 1)
		tb.RisingEdge(m.clk) // the RAM sees the reset at this edge and idles after it
		for range 5 {
			tb.RisingEdge(m.clk)
			for _, n := range []string{"awready", "wready", "arready", "bvalid", "rvalid"} {
				Expect(m.pre.Get(m.sig(n))).To(BeZero(), "%s in reset", n)
			}
		}
		tb.Set(m.sig("arvalid"), 0)
		tb.Set(m.sig("wvalid"), 0)
		tb.Set(rstN, 1)
		// The AW taken before the reset is gone: the next AW's data is
		// the first W the RAM takes.
		Expect(m.handshake("awvalid", "awready")).To(BeTrue())
		tb.Set(m.sig("awvalid"), 0)
		Expect(m.write([]wbeat{{[]byte{1, 2, 3, 4}, 0xf, false}, {[]byte{5, 6, 7, 8}, 0xf, true}})).To(BeTrue())
		Expect(m.bresp()).To(Equal(uint64(1)))
		Expect(ram.Mem()[0x10:0x18]).To(Equal([]byte{1, 2, 3, 4, 5, 6, 7, 8}))
	})

	It("wraps WRAP bursts with random pauses and response delays", func() {
		_, ram, m := newPort(32, 4096, randomTiming, nil)
		Expect(m.addr("aw", 2, 0x100, 8, 4, wrap)).To(BeTrue())
		var ws []wbeat
		for n := range 8 {
			ws = append(ws, wbeat{[]byte{byte(n), byte(n), byte(n), byte(n)}, 0xf, n == 7})
		}
		Expect(m.write(ws)).To(BeTrue())
		Expect(m.bresp()).To(Equal(uint64(2)))
		Expect(m.addr("ar", 2, 0x110, 4, 4, wrap)).To(BeTrue()) // wraps at 0x110..0x11f
		rs := m.read(4)
		var got []byte
		for _, r := range rs {
			got = append(got, r.data[0])
		}
		Expect(got).To(Equal([]byte{4, 5, 6, 7}))
		Expect(ram.Mem()[0x100]).To(Equal(byte(0)))
	})

	It("fails the spec when awvalid drops before awready", func() {
		never := func(*bench.Bench) axi.Options { return axi.Options{Pause: func() bool { return true }} }
		tb, _, m := newPort(32, 4096, never, f.fail)
		tb.Set(m.sig("awvalid"), 1)
		tb.RisingEdge(m.clk) // awready is low: paused
		tb.Set(m.sig("awvalid"), 0)
		tb.ClockCycles(m.clk, 3)
		Expect(f).To(HaveLen(1))
		Expect(f[0]).To(ContainSubstring(`axi ram "s_axi": s_axi_awvalid dropped AW before s_axi_awready took it`))
	})

	// Protocol errors by the master fail the spec, naming the bus, the
	// burst and the rule.
	DescribeTable("fails the spec on a protocol error by the master",
		func(act func(m *master), want string) {
			tb, _, m := newPort(32, 8192, nil, f.fail)
			act(m)
			tb.ClockCycles(m.clk, 2) // the RAM's task takes the edge after the master
			Expect(tb.Err()).To(HaveOccurred())
			Expect(f).To(HaveLen(1))
			Expect(f[0]).To(ContainSubstring(`axi ram "s_axi"`))
			Expect(f[0]).To(ContainSubstring(want))
		},
		Entry("a WRAP burst of 3 beats", func(m *master) { m.addr("aw", 0, 0x100, 3, 4, wrap) },
			"AW burst at 0x100 (id 0, 3 beats of 4 bytes, WRAP): a WRAP burst must be 2, 4, 8 or 16 beats long"),
		Entry("an unaligned WRAP burst", func(m *master) { m.addr("ar", 0, 0x102, 4, 4, wrap) },
			"AR burst at 0x102 (id 0, 4 beats of 4 bytes, WRAP): a WRAP burst must start at an address aligned"),
		Entry("an INCR burst across 4 KiB", func(m *master) { m.addr("aw", 1, 0xff0, 8, 4, incr) },
			"crosses the 4 KiB boundary at 0x1000"),
		Entry("the reserved burst type", func(m *master) { m.addr("ar", 0, 0x0, 1, 4, 3) },
			"AxBURST 3 is reserved"),
		Entry("a size wider than the bus", func(m *master) { m.addr("aw", 0, 0x0, 1, 8, incr) },
			"AxSIZE 3 (8 bytes) is wider than the 4-byte data bus"),
		Entry("a FIXED burst of 17 beats", func(m *master) { m.addr("aw", 0, 0x0, 17, 4, fixed) },
			"a FIXED burst is at most 16 beats long"),
		Entry("wlast early", func(m *master) {
			m.addr("aw", 0, 0x0, 4, 4, incr)
			m.write([]wbeat{{make([]byte, 4), 0xf, false}, {make([]byte, 4), 0xf, true}})
		}, "W beat 2 of the 4-beat AW burst at 0x0 (id 0, 4 beats of 4 bytes, INCR) has wlast=1; wlast must be high on beat 4 only"),
		Entry("wlast missing", func(m *master) {
			m.addr("aw", 0, 0x0, 2, 4, incr)
			m.write([]wbeat{{make([]byte, 4), 0xf, false}, {make([]byte, 4), 0xf, false}})
		}, "W beat 2 of the 2-beat AW burst at 0x0 (id 0, 2 beats of 4 bytes, INCR) has wlast=0"),
		Entry("wvalid dropped before wready", func(m *master) {
			m.tb.Set(m.sig("wvalid"), 1)
			m.tb.RisingEdge(m.clk) // no AW waits, so wready is low
			m.tb.Set(m.sig("wvalid"), 0)
			m.tb.ClockCycles(m.clk, 3)
		}, "s_axi_wvalid dropped W before s_axi_wready took it"),
		Entry("the W payload changed while wvalid waited", func(m *master) {
			m.tb.Set(m.sig("wvalid"), 1)
			m.tb.RisingEdge(m.clk)
			m.tb.Set(m.sig("wdata"), 0x1234)
			m.tb.ClockCycles(m.clk, 3)
		}, "the W payload (wdata, wstrb, wlast) changed while s_axi_wvalid waited"),
	)
})
