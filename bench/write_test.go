package bench_test

import (
	"bytes"
	"fmt"
	"io"
	"math/big"
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/weft-hdl/weft/bench"
	"github.com/weft-hdl/weft/compile"
	"github.com/weft-hdl/weft/dut"
)

// Named types, as a test bench declares opcodes and flags.
type (
	opcode uint8
	level  bool
)

const writeSV = "testdata/write.sv"

var _ = Describe("writing signals", func() {
	var (
		p     *compile.Program
		tb    *bench.Bench
		fails *failures
		opts  bench.Options
	)
	sig := func(n string) *dut.Signal { return tb.Signal(n) }

	BeforeEach(func() {
		fails = &failures{}
		opts = bench.Options{Fail: fails.fail, Output: &bytes.Buffer{}}
		var err error
		p, err = compile.NewBuilder().Files(writeSV).Top("write").Output(io.Discard).Build()
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(p.Close)
		tb = bench.New(p, opts)
	})

	Context("when the writes are right", func() {
		AfterEach(func() {
			Expect(fails.msgs).To(BeEmpty())
		})

		It("Set takes bools, every integer kind, named types, *big.Int and []byte", func() {
			en, din := sig("en"), sig("din")
			tb.Set(en, true)
			Expect(en).To(bench.BeHigh())
			tb.Set(en, level(false))
			Expect(en).To(bench.BeLow())
			for i, v := range []any{int(1), int8(2), int16(3), int32(4), int64(5), uint(6), uint8(7),
				uint16(8), uint32(9), uint64(10), uintptr(11), opcode(12), 255} {
				tb.Set(din, v)
				want := uint64(i + 1)
				if i == 12 {
					want = 255
				}
				Expect(din).To(bench.HaveValue(want), "%T", v)
			}
			tb.ReadWrite()
			Expect(sig("sum")).To(bench.HaveValue(256)) // the design saw the last one

			// Negative values: two's complement in the signal's width,
			// signed or not.
			tb.Set(sig("sdin"), -5)
			Expect(sig("sdin")).To(bench.HaveValue(-5))
			Expect(sig("sdin")).To(bench.HaveValue(0xfb))
			tb.Set(din, int8(-128))
			Expect(din).To(bench.HaveValue(0x80))
			tb.Set(sig("d64"), -1)
			Expect(sig("d64")).To(bench.HaveValue(uint64(1<<64 - 1)))
			tb.Set(sig("d64"), uint64(1<<63))
			Expect(sig("d64")).To(bench.HaveValue(uint64(1 << 63)))

			wide, wideQ := sig("wide"), sig("wide_q")
			all := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 100), big.NewInt(1))
			tb.Set(wide, -1)
			Expect(wide).To(bench.HaveValue(all))
			tb.Set(wide, big.NewInt(-2))
			Expect(wide).To(bench.HaveValue(new(big.Int).Sub(all, big.NewInt(1))))
			v := new(big.Int).Add(new(big.Int).Lsh(big.NewInt(3), 98), big.NewInt(7))
			tb.Set(wide, v)
			tb.ReadWrite()
			Expect(wideQ).To(bench.HaveValue(v))
			tb.Set(wide, uint64(0x1234))
			Expect(wide).To(bench.HaveValue(0x1234))

			// []byte: b[0] is bits 7:0; zero bytes past the width are fine.
			lanes := []byte{0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d}
			tb.Set(wide, lanes)
			want, _ := new(big.Int).SetString("0d0c0b0a090807060504030201", 16)
			tb.ReadWrite()
			Expect(wideQ).To(bench.HaveValue(want))
			tb.Set(sig("d12"), []byte{0x34, 0x0c})
			Expect(sig("d12")).To(bench.HaveValue(0xc34))
			tb.Set(din, []byte{0x5a, 0, 0, 0})
			Expect(din).To(bench.HaveValue(0x5a))
			tb.Set(din, []byte{})
			Expect(din).To(bench.HaveValue(0))
		})

		It("Set of an integer or a bool allocates nothing", func() {
			din, en, d64, wide := sig("din"), sig("en"), sig("d64"), sig("wide")
			i, u, b := 0, uint64(0), false
			allocs := testing.AllocsPerRun(200, func() {
				i, u, b = (i+77)&0xff, u*3+0x1_0000_0001, !b
				tb.Set(din, i)
				tb.Set(d64, u)
				tb.Set(en, b)
				tb.Set(wide, u) // two words, through the bench's scratch
			})
			Expect(allocs).To(BeZero())
		})

		It("Deposit writes a flop, which resumes from the value, and memory words", func() {
			tb.Clock(sig("clk"), 10*bench.NS)
			cnt := sig("cnt")
			tb.Deposit(cnt, 42)
			tb.ReadWrite()
			Expect(sig("cnt_p1")).To(bench.HaveValue(43))
			tb.Tick(1)
			Expect(cnt).To(bench.HaveValue(42)) // en is 0: it holds
			Expect(sig("cnt_q")).To(bench.HaveValue(42))
			tb.Set(sig("en"), 1)
			tb.Tick(2)
			Expect(cnt).To(bench.HaveValue(44))
			tb.Set(sig("en"), 0)

			tb.Deposit(sig("mem[2]"), 0xbeef)
			m1, err := sig("mem").Elem(1)
			Expect(err).NotTo(HaveOccurred())
			tb.Deposit(m1, uint16(0x1234))
			tb.Set(sig("waddr"), 2)
			tb.ReadWrite()
			Expect(sig("rd")).To(bench.HaveValue(0xbeef))
			tb.Set(sig("waddr"), 1)
			tb.ReadWrite()
			Expect(sig("rd")).To(bench.HaveValue(0x1234))

			tb.Deposit(sig("din"), 9) // an input: like Set
			tb.ReadWrite()
			Expect(sig("sum")).To(bench.HaveValue(10))
		})

		It("Force holds an input against Set, and Release restores the last Set", func() {
			din, sum := sig("din"), sig("sum")
			tb.Clock(sig("clk"), 10*bench.NS)
			tb.Set(din, 3)
			tb.Force(din, 9)
			tb.ReadWrite()
			Expect(sum).To(bench.HaveValue(10))
			tb.Set(din, 5) // remembered, not applied
			tb.Tick(1)
			Expect(din).To(bench.HaveValue(9))
			Expect(sum).To(bench.HaveValue(10))
			Expect(sig("tmp_q")).To(bench.HaveValue(10)) // a flop sampled the forced value
			tb.Set(din, 7)
			tb.Deposit(din, 6) // an input: remembered like Set
			tb.Release(din)
			tb.ReadWrite()
			Expect(din).To(bench.HaveValue(6))
			Expect(sum).To(bench.HaveValue(7))

			// Without a Set while forced, Release returns to the value
			// before Force.
			tb.Force(din, 1)
			tb.Force(din, 2) // a second Force changes the value
			tb.ReadWrite()
			Expect(sum).To(bench.HaveValue(3))
			tb.Release(din)
			tb.ReadWrite()
			Expect(sum).To(bench.HaveValue(7))

			// Wide values compare and restore as words.
			v := new(big.Int).Lsh(big.NewInt(5), 90)
			tb.Set(sig("wide"), 1)
			tb.Force(sig("wide"), v)
			tb.Set(sig("wide"), 2)
			tb.Tick(1)
			Expect(sig("wide_q")).To(bench.HaveValue(v))
			tb.Release(sig("wide"))
			tb.ReadWrite()
			Expect(sig("wide_q")).To(bench.HaveValue(2))
		})

		It("Force holds a flop for its fan-out flops and comb readers, and Release resumes counting from it", func() {
			cnt, cntQ, cntP1 := sig("cnt"), sig("cnt_q"), sig("cnt_p1")
			tb.Clock(sig("clk"), 10*bench.NS)
			tb.Set(sig("en"), 1)
			tb.Tick(3)
			Expect(cnt).To(bench.HaveValue(3))
			tb.Force(cnt, 100)
			tb.ReadWrite()
			Expect(cntP1).To(bench.HaveValue(101))
			for range 4 {
				tb.Tick(1)
				Expect(cnt).To(bench.HaveValue(100))
				Expect(cntQ).To(bench.HaveValue(100)) // sampled at the same edge
				Expect(cntP1).To(bench.HaveValue(101))
			}
			tb.ClockCycles(sig("clk"), 20) // no fast path around the force
			Expect(cnt).To(bench.HaveValue(100))
			tb.Deposit(cnt, 7) // no effect while forced
			tb.Tick(1)
			Expect(cnt).To(bench.HaveValue(100))

			tb.Release(cnt)
			tb.ReadWrite()
			Expect(cnt).To(bench.HaveValue(100)) // until its process assigns it
			tb.Tick(1)
			Expect(cnt).To(bench.HaveValue(101))
			Expect(cntQ).To(bench.HaveValue(100))
			tb.Tick(1)
			Expect(cnt).To(bench.HaveValue(102))
			Expect(cntQ).To(bench.HaveValue(101))
			Expect(cntP1).To(bench.HaveValue(103))
		})

		It("Force holds a memory word the design writes, a flop on a derived clock and a variable assigned with =", func() {
			tb.Clock(sig("clk"), 10*bench.NS)
			m1, slow, bcnt := sig("mem[1]"), sig("slow"), sig("bcnt")
			tb.Set(sig("waddr"), 1)
			tb.Set(sig("din"), 5)
			tb.Set(sig("en"), 1)
			tb.Force(m1, 0x77)
			tb.Force(slow, 9)
			tb.Force(bcnt, 50)
			tb.Tick(4)
			Expect(sig("rd")).To(bench.HaveValue(0x77))
			Expect(slow).To(bench.HaveValue(9))
			Expect(bcnt).To(bench.HaveValue(50))
			tb.Release(m1)
			tb.Release(slow)
			tb.Release(bcnt)
			tb.ReadWrite()
			Expect(sig("rd")).To(bench.HaveValue(0x77))
			Expect(bcnt).To(bench.HaveValue(50))
			tb.Tick(2)
			Expect(sig("rd")).To(bench.HaveValue(5))
			Expect(slow).To(bench.HaveValue(10)) // div rose once in two cycles
			Expect(bcnt).To(bench.HaveValue(52))
		})
	})

	// Forces are re-applied before the armed triggers look at the state.
	It("shows waits on a forced flop no change", func() {
		clk, cnt := sig("clk"), sig("cnt")
		tb.Clock(clk, 10*bench.NS)
		tb.Set(sig("en"), 1)
		tb.Force(cnt, 100)
		tb.Tick(1)
		Expect(tb.First(bench.Edge(cnt), bench.ClockCycles(clk, 3)).Index()).To(Equal(1))
		Expect(fails.msgs).To(BeEmpty())
	})

	It("keeps a forced input from a wire and from a clock", func() {
		en := sig("en")
		tb.Force(en, 0)
		w := tb.Wire(tb.Signal("clk"), en)
		tb.Set(tb.Signal("clk"), 1)
		tb.Timer(1)
		Expect(en).To(bench.BeLow(), "the wire's value waits for the Release")
		tb.Release(en)
		tb.Timer(1)
		Expect(en).To(bench.BeHigh())
		w.Cut()
		tb.Force(en, 1)
		Expect(fails.msgs).To(BeEmpty())
		tb.Clock(en, 10*bench.NS) // stops the bench
		Expect(fails.msgs).To(ConsistOf("bench: at 2ps: Clock(en): the signal is forced; Release it first"))
	})

	It("fails every misuse with the call, the signal and what to do instead", func() {
		assign := func(what string) string {
			return fmt.Sprintf("%s:%d:", writeSV, lineOf(writeSV, what))
		}
		wide := new(big.Int).Lsh(big.NewInt(1), 100)
		calls := []func(tb *bench.Bench){
			func(tb *bench.Bench) { tb.Set(tb.Signal("din"), 256) },
			func(tb *bench.Bench) { tb.Set(tb.Signal("din"), -129) },
			func(tb *bench.Bench) { tb.Set(tb.Signal("en"), uint8(2)) },
			func(tb *bench.Bench) { tb.Set(tb.Signal("wide"), wide) },
			func(tb *bench.Bench) {
				tb.Set(tb.Signal("wide"), new(big.Int).Sub(new(big.Int).Neg(wide), big.NewInt(1)))
			},
			func(tb *bench.Bench) { tb.Set(tb.Signal("din"), (*big.Int)(nil)) },
			func(tb *bench.Bench) { tb.Set(tb.Signal("din"), nil) },
			func(tb *bench.Bench) { tb.Set(tb.Signal("din"), "x") },
			func(tb *bench.Bench) { tb.Set(tb.Signal("din"), 1.5) },
			func(tb *bench.Bench) { tb.Set(tb.Signal("d12"), []byte{0x00, 0x10}) },
			func(tb *bench.Bench) { tb.Set(tb.Signal("din"), []byte{1, 0, 2}) },
			func(tb *bench.Bench) { tb.Set(tb.Signal("cnt"), 1) },
			func(tb *bench.Bench) { tb.Set(tb.Signal("mem"), 1) },
			func(tb *bench.Bench) { tb.Set(nil, 1) },
			func(tb *bench.Bench) { tb.Deposit(tb.Signal("mem"), 1) },
			func(tb *bench.Bench) { tb.Deposit(tb.Signal("mem[0]"), 1<<16) },
			func(tb *bench.Bench) { tb.Force(tb.Signal("cnt"), 256) },
			func(tb *bench.Bench) { tb.Force(tb.Signal("mem"), 1) },
			func(tb *bench.Bench) { tb.Force(tb.Signal("cnt_p1"), 1) },
			func(tb *bench.Bench) { tb.Force(tb.Signal("rd"), 1) },
			func(tb *bench.Bench) { tb.Force(tb.Signal("div"), 1) },
			func(tb *bench.Bench) { tb.Force(tb.Signal("tmp"), 1) },
			func(tb *bench.Bench) { tb.Release(tb.Signal("cnt")) },
		}
		fit8 := "does not fit in 8 bits (the range is -128..255, negative values as two's complement)"
		want := []string{
			"Set(din, 256 (0x100)): " + fit8,
			"Set(din, -129): " + fit8,
			"Set(en, 2 (0x2)): does not fit in 1 bits (the range is -1..1, negative values as two's complement)",
			"Set(wide, 1267650600228229401496703205376 (0x10000000000000000000000000)): does not fit in 100 bits (the range is -2^99..2^100-1, negative values as two's complement)",
			"Set(wide, -1267650600228229401496703205377): does not fit in 100 bits (the range is -2^99..2^100-1, negative values as two's complement)",
			"Set(din, (*big.Int)(nil)): no value",
			"Set(din, nil): no value",
			"Set(din, string): a string cannot be written to din (8 bits); use a bool, a Go integer, a *big.Int or a []byte (little-endian)",
			"Set(din, float64): a float64 cannot be written to din (8 bits); use a bool, a Go integer, a *big.Int or a []byte (little-endian)",
			"Set(d12, []byte{0x00, 0x10}): does not fit in 12 bits: byte 1 (0x10) has bits above bit 11",
			"Set(din, []byte{0x01, 0x00, 0x02}): byte 2 (0x02) lies beyond the 8 bits of din; bytes past its width must be zero",
			"Set(cnt): cnt is not a top-level input (an output port of write); use Deposit or Force for internal signals",
			`Set(mem): mem is an array of 4 elements; write one element (mem.Elem(i), or "mem[i]")`,
			"Set: nil signal",
			`Deposit(mem): mem is an array of 4 elements; write one element (mem.Elem(i), or "mem[i]")`,
			"Deposit(mem[0], 65536 (0x10000)): does not fit in 16 bits (the range is -32768..65535, negative values as two's complement)",
			"Force(cnt, 256 (0x100)): " + fit8,
			`Force(mem): mem is an array of 4 elements; write one element (mem.Elem(i), or "mem[i]")`,
			"Force(cnt_p1): not supported yet: cnt_p1 is driven by combinational logic (assign at " + assign("assign cnt_p1") +
				"3), which every settle recomputes; force what drives it instead: cnt",
			"Force(rd): not supported yet: rd is driven by combinational logic (assign at " + assign("assign rd") +
				"3), which every settle recomputes; force what drives it instead: waddr, mem",
			"Force(div): not supported yet: div is a clock or reset that the design drives itself (a process assigns it and other processes run on its edges within the same evaluation); force what drives it, or the flops it clocks",
			"Force(tmp): not supported yet: the clocked process at " + assign("always @(posedge clk) begin") + "3 assigns tmp with a blocking assignment (=) and reads it back at " +
				assign("tmp_q <= tmp") + "5 in the same evaluation, where it would see its own value instead of the forced one; force a variable it assigns with <=, or the inputs of what it computes",
			"Release(cnt): cnt is not forced",
		}
		Expect(calls).To(HaveLen(len(want)))
		for i, call := range calls {
			fails.msgs = nil
			call(bench.New(p, opts)) // a fresh bench: a failure stops one
			Expect(fails.msgs).To(Equal([]string{"bench: at 0s: " + want[i]}), "call %d", i)
		}

		// The failure points at the spec's line.
		fails.where = nil
		line := nextLine()
		bench.New(p, opts).Set(sig("din"), 256)
		Expect(fails.where).To(Equal([]string{line}))
	})
})

// BenchmarkSetInt is tb.Set of an int on an 8-bit input: the type
// switch, the range check and the simulator write, with no allocation.
func BenchmarkSetInt(b *testing.B) {
	p, err := compile.NewBuilder().Files(writeSV).Top("write").Output(io.Discard).Build()
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { p.Close() })
	tb := bench.New(p, bench.Options{Fail: func(m string, _ ...int) { b.Fatal(m) }, Output: io.Discard})
	b.Cleanup(tb.Close)
	din := tb.Signal("din")
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		tb.Set(din, i&0xff)
	}
}
