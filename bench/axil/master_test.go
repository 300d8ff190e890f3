package axil_test

import (
	"bytes"
	"io"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/weft-hdl/weft/bench"
	"github.com/weft-hdl/weft/bench/axil"
	"github.com/weft-hdl/weft/bench/stream"
	"github.com/weft-hdl/weft/compile"
	"github.com/weft-hdl/weft/dut"
)

// regModel is testdata/regfile.sv in Go: what each transfer answers and
// does to the registers.
type regModel struct{ regs [16]uint32 }

const regWords = 64 // the 8-bit address space in 32-bit words

func (r *regModel) write(word int, data, strb uint32) axil.Resp {
	switch {
	case word >= 16:
		return axil.DECERR
	case word < 2:
		return axil.SLVERR
	}
	for lane := range 4 {
		if strb>>lane&1 == 1 {
			m := uint32(0xff) << (8 * lane)
			r.regs[word] = r.regs[word]&^m | data&m
		}
	}
	return axil.OKAY
}

func (r *regModel) read(word int) (uint32, axil.Resp) {
	switch {
	case word >= 16:
		return 0, axil.DECERR
	case word == 0:
		return 0xa11e0010, axil.OKAY
	case word == 1:
		return ^r.regs[2], axil.OKAY
	}
	return r.regs[word], axil.OKAY
}

type regTB struct {
	*bench.Bench
	clk   *dut.Signal
	rst   *dut.Signal
	m     *axil.Master
	model regModel
	ops   int
}

func newRegTB(file string, opts bench.Options) *regTB {
	r := &regTB{}
	r.Bench = bench.New(build(file, "axil_regfile"), opts)
	r.clk = r.Clock(r.Signal("clk"), 10*bench.NS).Signal()
	r.rst = r.Signal("rst_n")
	r.Reset(r.rst, bench.Inferred, 3)
	return r
}

// traffic issues n random writes and reads of 1 to 8 bytes at random
// addresses in words lo..hi, and checks every answer against the model.
// Two of these run at once on disjoint words, so their transfers
// pipeline on the bus while the model stays exact.
func (r *regTB) traffic(lo, hi, n int) {
	rng := r.Rand()
	for range n {
		if r.Err() != nil {
			return
		}
		size := 1 + rng.IntN(8)
		first, last := uint64(lo*4), uint64((hi+1)*4-size)
		addr := first + rng.Uint64N(last-first+1)
		if rng.IntN(2) == 0 {
			data := make([]byte, size)
			for i := range data {
				data[i] = byte(rng.Uint32())
			}
			want := r.modelWrite(addr, data)
			if got := r.m.Write(addr, data); got != want && r.Err() == nil {
				r.Failf("regfile: Write(%#x, % x) answered %s, the model says %s", addr, data, got, want)
			}
		} else {
			wantData, want := r.modelRead(addr, size)
			got, resp := r.m.Read(addr, size)
			if (resp != want || !bytes.Equal(got, wantData)) && r.Err() == nil {
				r.Failf("regfile: Read(%#x, %d) = % x %s, the model says % x %s", addr, size, got, resp, wantData, want)
			}
		}
		r.ops++
	}
}

// modelWrite applies a Write the way the master splits it: one transfer
// per word, the first non-OKAY answer wins.
func (r *regTB) modelWrite(addr uint64, data []byte) axil.Resp {
	resp := axil.OKAY
	for i := 0; i < len(data); {
		word := int(addr / 4)
		var v, strb uint32
		for lane := addr % 4; lane < 4 && i < len(data); lane++ {
			v |= uint32(data[i]) << (8 * lane)
			strb |= 1 << lane
			i++
			addr++
		}
		if got := r.model.write(word, v, strb); resp == axil.OKAY {
			resp = got
		}
	}
	return resp
}

func (r *regTB) modelRead(addr uint64, n int) ([]byte, axil.Resp) {
	resp := axil.OKAY
	out := make([]byte, n)
	for w := addr / 4; w <= (addr+uint64(n)-1)/4; w++ {
		v, got := r.model.read(int(w))
		if resp == axil.OKAY {
			resp = got
		}
		for lane := range uint64(4) {
			if a := w*4 + lane; a >= addr && a < addr+uint64(n) {
				out[a-addr] = byte(v >> (8 * lane))
			}
		}
	}
	return out, resp
}

// run starts the two traffic tasks (words 0..8 with the read-only ones,
// and 9..63 with the unmapped ones) and waits for both.
func (r *regTB) run(n int) {
	a := r.Fork("traffic 0..8", func() { r.traffic(0, 8, n) })
	b := r.Fork("traffic 9..63", func() { r.traffic(9, regWords-1, n) })
	r.Await(bench.Combine(a.Join(), b.Join()))
}

var _ = Describe("Master on an AXI4-Lite register file", func() {
	It("matches the register model under random traffic and pauses", func() {
		r := newRegTB("regfile.sv", bench.Options{})
		r.m = axil.NewMaster(r.Bench, "s_axil", r.clk, axil.Options{
			Reset: r.rst, ResetActiveLow: true, Pause: stream.RandomPause(r.Bench, 0.3),
		})
		start := r.Now()
		r.run(150)
		Expect(r.ops).To(Equal(300))
		Expect(r.m.Idle()).To(BeTrue())
		GinkgoWriter.Printf("300 transactions in %d cycles\n", (r.Now()-start)/(10*bench.NS))
	})

	It("pipelines calls from several tasks back to back when nobody pauses", func() {
		r := newRegTB("regfile.sv", bench.Options{})
		r.m = axil.NewMaster(r.Bench, "s_axil", r.clk, axil.Options{})
		start := r.Now()
		r.run(100)
		cycles := int((r.Now() - start) / (10 * bench.NS))
		GinkgoWriter.Printf("200 transactions in %d cycles without pauses\n", cycles)
		Expect(r.ops).To(Equal(200))
	})

	It("returns SLVERR and DECERR as answers", func() {
		r := newRegTB("regfile.sv", bench.Options{})
		r.m = axil.NewMaster(r.Bench, "s_axil", r.clk, axil.Options{})
		Expect(r.m.WriteWord(0x00, 1)).To(Equal(axil.SLVERR))
		Expect(r.m.WriteWord(0x40, 1)).To(Equal(axil.DECERR))
		Expect(r.m.WriteWord(0x08, 0x5a5a)).To(Equal(axil.OKAY))
		v, resp := r.m.ReadWord(0x04)
		Expect(resp).To(Equal(axil.OKAY))
		Expect(v).To(Equal(uint64(^uint32(0x5a5a))))
		_, resp = r.m.ReadWord(0xfc)
		Expect(resp).To(Equal(axil.DECERR))
		// A write across the end of the map: the mapped word is written,
		// the answer is the unmapped one's.
		Expect(r.m.Write(0x3e, []byte{1, 2, 3, 4})).To(Equal(axil.DECERR))
		v, _ = r.m.ReadWord(0x3c)
		Expect(v).To(Equal(uint64(0x0201_0000)))
	})

	It("keeps its valids low while the reset is active and starts a Write asked for then after it", func() {
		r := newRegTB("regfile.sv", bench.Options{})
		r.m = axil.NewMaster(r.Bench, "s_axil", r.clk, axil.Options{Reset: r.rst, ResetActiveLow: true})
		Expect(r.m.WriteWord(0x08, 7)).To(Equal(axil.OKAY))
		r.Set(r.rst, 0)
		var released bench.Time
		r.Fork("reset", func() {
			r.ClockCycles(r.clk, 8)
			r.Set(r.rst, 1)
			released = r.Now()
		})
		r.Fork("watch", func() {
			valids := []*dut.Signal{r.Signal("s_axil_awvalid"), r.Signal("s_axil_wvalid"), r.Signal("s_axil_arvalid")}
			pre := r.PreEdge(append(valids, r.rst)...)
			for {
				r.RisingEdge(r.clk)
				for _, v := range valids {
					if pre.Get(r.rst) == 0 {
						Expect(pre.Get(v)).To(BeZero(), "%s during reset", v.Name())
					}
				}
			}
		})
		r.ClockCycles(r.clk, 1)
		Expect(r.m.WriteWord(0x0c, 9)).To(Equal(axil.OKAY))
		Expect(released).NotTo(BeZero())
		Expect(r.Now()).To(BeNumerically(">", released))
		v, _ := r.m.ReadWord(0x08)
		Expect(v).To(BeZero(), "the reset cleared register 2")
		v, _ = r.m.ReadWord(0x0c)
		Expect(v).To(Equal(uint64(9)))
	})

	Context("when something goes wrong", func() {
		var fails *failures
		BeforeEach(func() { fails = &failures{} })

		It("fails a Write that a reset cuts short", func() {
			r := newRegTB("regfile.sv", bench.Options{Fail: fails.fail})
			r.m = axil.NewMaster(r.Bench, "s_axil", r.clk, axil.Options{Reset: r.rst, ResetActiveLow: true})
			r.Fork("reset", func() {
				r.RisingEdge(r.clk)
				r.Set(r.rst, 0)
			})
			r.m.WriteWord(0x08, 1)
			Expect(fails.msgs).To(HaveLen(1))
			Expect(fails.msgs[0]).To(ContainSubstring(`axil master "s_axil": reset while Write(0x8, 4 bytes) was on the bus`))
		})

		It("fails a Write that gets no answer within Options.Timeout cycles, naming the channel", func() {
			r := newRegTB("regfile.sv", bench.Options{Fail: fails.fail})
			r.Set(r.rst, 0) // the register file takes AW and W and forgets them
			m := axil.NewMaster(r.Bench, "s_axil", r.clk, axil.Options{Timeout: 40})
			m.WriteWord(0x08, 1)
			Expect(fails.msgs).To(HaveLen(1))
			Expect(fails.msgs[0]).To(ContainSubstring(
				`axil master "s_axil": Write(0x8, 4 bytes) not done after 40 cycles: transfer 1 of 1 at 0x8: AW accepted, W accepted, waiting for bvalid`))
		})

		It("fails a slave that answers a write before taking its data", func() {
			p, err := compile.NewBuilder().Source("early_b.sv", earlyB).Top("early_b").Output(io.Discard).Build()
			Expect(err).NotTo(HaveOccurred())
			DeferCleanup(p.Close)
			tb := bench.New(p, bench.Options{Fail: fails.fail})
			clk := tb.Clock(tb.Signal("clk"), 10*bench.NS).Signal()
			m := axil.NewMaster(tb, "s_axil", clk, axil.Options{})
			m.WriteWord(0x08, 1)
			Expect(fails.msgs).To(HaveLen(1))
			Expect(fails.msgs[0]).To(ContainSubstring(
				`axil master "s_axil": B channel: a response (bresp OKAY) to the write at 0x8 before its W handshake`))
		})

		It("fails a partial Write on a bus without wstrb", func() {
			p, err := compile.NewBuilder().Source("early_b.sv", earlyB).Top("early_b").Output(io.Discard).Build()
			Expect(err).NotTo(HaveOccurred())
			DeferCleanup(p.Close)
			tb := bench.New(p, bench.Options{Fail: fails.fail})
			clk := tb.Clock(tb.Signal("clk"), 10*bench.NS).Signal()
			m := axil.NewMaster(tb, "s_axil", clk, axil.Options{})
			m.Write(0x09, []byte{1})
			Expect(fails.msgs).To(HaveLen(1))
			Expect(fails.msgs[0]).To(ContainSubstring(
				`axil master "s_axil": Write(0x9, 1 bytes): the transfer at 0x8 writes only some byte lanes (wstrb 0b10), but the bus has no wstrb`))
		})
	})
})

// The mutation check: the register file that ignores wstrb must fail
// the same random traffic the right one passes.
var _ = Describe("the register file mutation check", func() {
	It("catches regfile_broken.sv, which writes every byte lane whatever wstrb says", func() {
		fails := &failures{}
		r := newRegTB("regfile_broken.sv", bench.Options{Fail: fails.fail})
		r.m = axil.NewMaster(r.Bench, "s_axil", r.clk, axil.Options{Pause: stream.RandomPause(r.Bench, 0.3)})
		r.run(150)
		Expect(fails.msgs).To(HaveLen(1))
		Expect(fails.msgs[0]).To(MatchRegexp(`regfile: Read\(0x[0-9a-f]+, \d\) = .*, the model says`))
		GinkgoWriter.Println(fails.msgs[0])
	})
})

// earlyB is a broken slave for the master's own checks: it answers a
// write as soon as it takes the address, and never takes the data (and
// its bus has no wstrb).
const earlyB = `module early_b (
    input  logic clk,
    input  logic [7:0] s_axil_awaddr, input logic s_axil_awvalid, output logic s_axil_awready,
    input  logic [31:0] s_axil_wdata, input logic s_axil_wvalid, output logic s_axil_wready,
    output logic [1:0] s_axil_bresp, output logic s_axil_bvalid, input logic s_axil_bready,
    input  logic [7:0] s_axil_araddr, input logic s_axil_arvalid, output logic s_axil_arready,
    output logic [31:0] s_axil_rdata, output logic [1:0] s_axil_rresp, output logic s_axil_rvalid,
    input  logic s_axil_rready);
  assign s_axil_awready = 1'b1;
  assign s_axil_wready = 1'b0;
  assign s_axil_bresp = 2'd0;
  assign s_axil_arready = 1'b0;
  assign s_axil_rdata = '0;
  assign s_axil_rresp = 2'd0;
  assign s_axil_rvalid = 1'b0;
  always_ff @(posedge clk) s_axil_bvalid <= s_axil_awvalid;
endmodule`
