package axil_test

import (
	"bytes"
	"fmt"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/weft-hdl/weft/bench"
	"github.com/weft-hdl/weft/bench/axil"
	"github.com/weft-hdl/weft/bench/stream"
	"github.com/weft-hdl/weft/dut"
)

const ramSize = 1024

// copyTB is testdata/copier.sv (an AXI4-Lite master) on a bench RAM.
type copyTB struct {
	*bench.Bench
	clk, rst                    *dut.Signal
	start, src, dst, n, done, e *dut.Signal
	ram                         *axil.RAM
	copies                      int
}

func newCopyTB(file string, opts bench.Options, pause float64) *copyTB {
	c := &copyTB{Bench: bench.New(build(file, "axil_copier"), opts)}
	c.clk = c.Clock(c.Signal("clk"), 10*bench.NS).Signal()
	c.rst = c.Signal("rst_n")
	for sig, name := range map[**dut.Signal]string{&c.start: "start", &c.src: "src", &c.dst: "dst", &c.n: "n", &c.done: "done", &c.e: "err"} {
		*sig = c.Signal(name)
	}
	c.ram = axil.NewRAM(c.Bench, "m_axil", c.clk, ramSize, axil.Options{
		Reset: c.rst, ResetActiveLow: true, Pause: stream.RandomPause(c.Bench, pause),
	})
	c.Reset(c.rst, bench.Inferred, 3)
	return c
}

// copy preloads n random words at src, has the copier copy them to dst,
// and checks the whole memory afterwards: dst holds the words (those
// inside the memory), nothing else changed, and err says whether any
// word lay outside. It reports through Failf, so that a mutation check
// can catch it, and returns false once the bench failed.
func (c *copyTB) copy(src, dst uint64, n int) bool {
	rng := c.Rand()
	for a := src; a < src+uint64(4*n) && a < ramSize; a++ {
		c.ram.Mem()[a] = byte(rng.Uint32())
	}
	want := bytes.Clone(c.ram.Mem())
	outside := false
	for i := range uint64(4 * n) {
		var b byte
		if src+i < ramSize {
			b = want[src+i] // from the preload: regions do not overlap
		} else {
			outside = true // a DECERR read returns zeros
		}
		if dst+i < ramSize {
			want[dst+i] = b
		} else {
			outside = true
		}
	}
	c.Set(c.src, src)
	c.Set(c.dst, dst)
	c.Set(c.n, n)
	c.Set(c.start, 1)
	c.RisingEdge(c.clk)
	c.Set(c.start, 0)
	if !c.AwaitWithin(bench.Until("done", func() bool { return c.done.Get() == 1 }), bench.Time(40*n)*10*bench.NS) {
		if c.Err() == nil {
			c.Failf("copier: copying %d words from %#x to %#x: done not high after %d cycles", n, src, dst, 40*n)
		}
		return false
	}
	if got := c.ram.Mem(); !bytes.Equal(got, want) {
		for i := range got {
			if got[i] != want[i] {
				c.Failf("copier: copied %d words from %#x to %#x: the RAM's byte %#x is %#02x, want %#02x", n, src, dst, i, got[i], want[i])
				return false
			}
		}
	}
	if got := c.e.Get() == 1; got != outside {
		c.Failf("copier: copied %d words from %#x to %#x: err is %v, want %v (DECERR outside the %d-byte RAM)", n, src, dst, got, outside, ramSize)
		return false
	}
	c.copies++
	return c.Err() == nil
}

// randomCopies copies k random blocks of 3 to 12 words between regions
// that do not overlap.
func (c *copyTB) randomCopies(k int) {
	rng := c.Rand()
	for range k {
		n := 3 + rng.IntN(10)
		half := uint64(ramSize/2 - 4*n)
		src := rng.Uint64N(half/4+1) * 4
		dst := ramSize/2 + rng.Uint64N(half/4+1)*4
		if rng.IntN(2) == 0 {
			src, dst = dst, src
		}
		if !c.copy(src, dst, n) {
			return
		}
	}
}

var _ = Describe("RAM serving an AXI4-Lite master (the copier)", func() {
	It("holds what the copier copied, under random backpressure", func() {
		c := newCopyTB("copier.sv", bench.Options{}, 0.4)
		c.randomCopies(8)
		Expect(c.copies).To(Equal(8))
		// The spec wakes at done's edge before the RAM's task has taken
		// that edge's last B handshake: one more edge and it has.
		c.ClockCycles(c.clk, 1)
		w, r := c.ram.Transfers()
		Expect(w).To(Equal(r))
		GinkgoWriter.Printf("8 copies, %d words, in %d cycles\n", w, c.Now()/(10*bench.NS))
	})

	It("answers DECERR outside its size, for writes and reads", func() {
		c := newCopyTB("copier.sv", bench.Options{}, 0.2)
		Expect(c.copy(0x10, ramSize-8, 4)).To(BeTrue(), "two words land, two are past the end")
		Expect(c.copy(ramSize-4, 0x40, 3)).To(BeTrue(), "two words read as zeros")
		Expect(c.copy(0x80, 0x100, 3)).To(BeTrue(), "err clears with the next start")
	})

	It("drives its readies and valids low while the reset is active, and serves again after it", func() {
		c := newCopyTB("copier.sv", bench.Options{}, 0)
		c.Set(c.rst, 0)
		c.ClockCycles(c.clk, 2)
		for _, n := range []string{"awready", "wready", "arready", "bvalid", "rvalid"} {
			Expect(c.Signal("m_axil_"+n)).To(bench.BeLow(), n)
		}
		c.Set(c.rst, 1)
		Expect(c.copy(0, 0x200, 4)).To(BeTrue())
	})

	It("preloads and inspects memory without the bus", func() {
		c := newCopyTB("copier.sv", bench.Options{}, 0)
		c.ram.Write(0x20, []byte{1, 2, 3})
		Expect(c.ram.Read(0x1f, 5)).To(Equal([]byte{0, 1, 2, 3, 0}))
		Expect(c.ram.Mem()[0x21]).To(Equal(byte(2)))
	})
})

// The mutation checks: each broken copier must fail the spec the right
// one passes, the first through the memory check, the second through the
// RAM's handshake rule.
var _ = Describe("the copier mutation checks", func() {
	var fails *failures
	BeforeEach(func() { fails = &failures{} })

	It("catch copier_broken.sv, which writes the third word one word too far", func() {
		c := newCopyTB("copier_broken.sv", bench.Options{Fail: fails.fail}, 0.4)
		c.randomCopies(8)
		Expect(fails.msgs).To(HaveLen(1))
		Expect(fails.msgs[0]).To(MatchRegexp(`copier: copied \d+ words from 0x[0-9a-f]+ to 0x[0-9a-f]+: the RAM's byte`))
		GinkgoWriter.Println(fails.msgs[0])
	})

	It("catch copier_dropvalid.sv, which drops awvalid before awready", func() {
		c := newCopyTB("copier_dropvalid.sv", bench.Options{Fail: fails.fail}, 0.5)
		c.randomCopies(8)
		Expect(fails.msgs).To(HaveLen(1))
		Expect(fails.msgs[0]).To(ContainSubstring(
			`axil RAM "m_axil": AW channel: m_axil_awvalid went low before m_axil_awready took the transfer`))
		GinkgoWriter.Println(fails.msgs[0])
	})
})

// A Master and a RAM through testdata/passthru.sv: each checks the other,
// with pauses on both sides, unaligned multi-word writes and reads, and
// addresses past the RAM's end.
var _ = Describe("Master and RAM back to back", func() {
	for _, dw := range []int{32, 64} {
		It(fmt.Sprintf("agree on every byte with a %d-bit bus", dw), func() {
			tb := bench.New(build("passthru.sv", "axil_passthru", "DW", fmt.Sprint(dw)), bench.Options{})
			clk := tb.Clock(tb.Signal("clk"), 10*bench.NS).Signal()
			rng := tb.Rand()
			m := axil.NewMaster(tb, "s_axil", clk, axil.Options{Pause: stream.RandomPause(tb, 0.3)})
			const size = 4096
			ram := axil.NewRAM(tb, "m_axil", clk, size, axil.Options{Pause: stream.RandomPause(tb, 0.3)})
			mirror := make([]byte, size)
			lanes := uint64(dw / 8)
			for range 200 {
				n := 1 + rng.IntN(3*int(lanes))
				addr := rng.Uint64N(size + 64 - uint64(n))
				last := (addr + uint64(n) - 1) &^ (lanes - 1)
				want := axil.OKAY
				if last+lanes > size {
					want = axil.DECERR
				}
				if rng.IntN(2) == 0 {
					data := make([]byte, n)
					for i := range data {
						data[i] = byte(rng.Uint32())
						if a := addr + uint64(i); a&^(lanes-1)+lanes <= size {
							mirror[a] = data[i]
						}
					}
					Expect(m.Write(addr, data)).To(Equal(want), "Write(%#x, %d bytes)", addr, n)
				} else {
					got, resp := m.Read(addr, n)
					Expect(resp).To(Equal(want), "Read(%#x, %d)", addr, n)
					for i, b := range got {
						a := addr + uint64(i)
						exp := byte(0)
						if a < size {
							exp = mirror[a]
						}
						Expect(b).To(Equal(exp), "Read(%#x, %d) byte %d", addr, n, i)
					}
				}
			}
			Expect(ram.Mem()).To(Equal(mirror))
		})
	}
})
