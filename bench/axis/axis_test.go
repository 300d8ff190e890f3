package axis_test

import (
	"math/big"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/weft-hdl/weft/bench"
	"github.com/weft-hdl/weft/bench/axis"
	"github.com/weft-hdl/weft/bench/stream"
)

var _ = Describe("an AXI4-Stream FIFO between an axis source and sink", func() {
	DescribeTable("carries random frames intact under random pauses on both sides",
		func(width, frames int) {
			lp := newLoop(design{width: width, pauseIn: 0.3, pauseOut: 0.4})
			sent := randomFrames(lp.tb.Rand(), frames, lp.bytes, allSideband, false)
			Expect(lp.transfer(sent)).To(BeTrue())

			beats := beatsOf(sent, lp.bytes)
			Expect(lp.src.Count()).To(BeEquivalentTo(frames))
			Expect(lp.sink.Count()).To(BeEquivalentTo(frames))
			Expect(lp.mon.Count()).To(BeEquivalentTo(frames))
			Expect(lp.sink.Empty()).To(BeTrue())
			Expect(lp.in.Handshakes()).To(Equal(beats), "beats on s_axis")
			Expect(lp.out.Handshakes()).To(Equal(beats), "beats on m_axis")
		},
		Entry("8-bit tdata", 8, 40),
		Entry("32-bit tdata", 32, 100),
		Entry("128-bit tdata", 128, 200),
	)

	It("sends an empty frame as one beat of null bytes", func() {
		lp := newLoop(design{width: 32})
		lp.src.Send(axis.Frame{ID: 3, Dest: 5})
		lp.src.Send(axis.Frame{Data: []byte{1, 2, 3}, User: []uint64{7}})
		Expect(lp.sink.Recv()).To(Equal(axis.Frame{ID: 3, Dest: 5, User: []uint64{0}}))
		Expect(lp.sink.Recv()).To(Equal(axis.Frame{Data: []byte{1, 2, 3}, User: []uint64{7}}))
		Expect(lp.in.Handshakes()).To(BeEquivalentTo(2))
	})

	It("puts one User value on every beat of the frame", func() {
		lp := newLoop(design{width: 8})
		lp.src.SendNowait(axis.Frame{Data: []byte{1, 2, 3}, User: []uint64{9}})
		Expect(lp.sink.Recv().User).To(Equal([]uint64{9, 9, 9}))
	})

	It("stays idle during reset and sends the queued frames after it", func() {
		lp := newLoop(design{width: 32})
		tb := lp.tb
		tb.Set(lp.rst, 0)
		sent := randomFrames(tb.Rand(), 3, lp.bytes, allSideband, false)
		for _, f := range sent {
			lp.src.SendNowait(f)
		}
		tb.ClockCycles(lp.clk, 10)
		Expect(tb.Signal("s_axis_tvalid")).To(bench.BeLow())
		Expect(tb.Signal("m_axis_tready")).To(bench.BeLow())
		Expect(lp.src.Idle()).To(BeFalse())
		Expect(lp.sink.Empty()).To(BeTrue())
		tb.Set(lp.rst, 1)
		for _, f := range sent {
			Expect(lp.sink.Recv()).To(Equal(f))
			Expect(lp.mon.Recv()).To(Equal(f))
		}
		lp.src.WaitIdle()
		Expect(lp.src.Count()).To(BeEquivalentTo(3))
	})

	It("drops a frame that a reset cuts off at the sink and the monitor", func() {
		// The source is not on the bus here: the spec drives s_axis beat
		// by beat, so that nothing of the cut frame is owed after reset.
		lp := newLoop(design{width: 8, raw: true})
		tb := lp.tb
		raw := stream.NewSource(tb, "s_axis", lp.clk, stream.Config{
			Data: []string{"tdata", "tlast", "tkeep", "tstrb", "tid", "tdest", "tuser"}, Valid: "tvalid", Ready: "tready",
			Reset: lp.rst, ResetActiveLow: true,
		})
		beat := func(data, last uint64) stream.Beat { return stream.NewBeat(data, last, 1, 1, 0, 0, 0) }
		raw.Send(beat(0xa1, 0))
		raw.Send(beat(0xa2, 0))
		tb.ClockCycles(lp.clk, 3) // both beats are through the FIFO
		tb.Reset(lp.rst, bench.Inferred, 2)
		raw.Send(beat(0xb1, 0))
		raw.Send(beat(0xb2, 1))
		Expect(lp.sink.Recv().Data).To(Equal([]byte{0xb1, 0xb2}))
		Expect(lp.mon.Recv().Data).To(Equal([]byte{0xb1, 0xb2}))
		Expect(lp.sink.Count()).To(BeEquivalentTo(1))
	})

	Describe("the sink's reading of tkeep and tstrb", func() {
		var (
			lp  *loop
			raw *stream.Source
		)
		// beat is a raw 32-bit beat of the full bus: tdata, tlast, tkeep,
		// tstrb, tid, tdest, tuser.
		beat := func(data uint64, last, keep, strb, id uint64) stream.Beat {
			return stream.Beat{new(big.Int).SetUint64(data), big.NewInt(int64(last)), big.NewInt(int64(keep)),
				big.NewInt(int64(strb)), new(big.Int).SetUint64(id), big.NewInt(0), big.NewInt(0)}
		}
		start := func(fail func(string, ...int)) {
			lp = newLoop(design{width: 32, raw: true, fail: fail})
			raw = stream.NewSource(lp.tb, "s_axis", lp.clk, stream.Config{
				Data: []string{"tdata", "tlast", "tkeep", "tstrb", "tid", "tdest", "tuser"}, Valid: "tvalid", Ready: "tready",
			})
		}

		It("drops null bytes anywhere in a frame and keeps position bytes", func() {
			start(nil)
			raw.SendNowait(beat(0x44332211, 0, 0b1011, 0b1011, 2)) // lane 2 null
			raw.SendNowait(beat(0x88776655, 0, 0b0000, 0b0000, 2)) // a beat of null bytes
			raw.SendNowait(beat(0xccbbaa99, 0, 0b1111, 0b1101, 2)) // lane 1 a position byte
			raw.SendNowait(beat(0x000000dd, 1, 0b0001, 0b0001, 2))
			Expect(lp.sink.Recv()).To(Equal(axis.Frame{Data: []byte{0x11, 0x22, 0x44, 0x99, 0xaa, 0xbb, 0xcc, 0xdd}, ID: 2, User: []uint64{0, 0, 0, 0}}))
		})

		It("fails on a byte lane with tkeep=0 and tstrb=1", func() {
			var c captured
			start(c.fail)
			raw.SendNowait(beat(0x44332211, 1, 0b0111, 0b1111, 0))
			lp.tb.ClockCycles(lp.clk, 5)
			Expect(c.msgs).To(HaveLen(1))
			Expect(c.msgs[0]).To(And(ContainSubstring(`axis sink "m_axis"`), ContainSubstring("byte lane 3 with tkeep=0 and tstrb=1")))
		})

		It("fails when tid changes inside a frame", func() {
			var c captured
			start(c.fail)
			raw.SendNowait(beat(0x44332211, 0, 0b1111, 0b1111, 1))
			raw.SendNowait(beat(0x88776655, 1, 0b1111, 0b1111, 2))
			lp.tb.ClockCycles(lp.clk, 6)
			Expect(c.msgs).To(HaveLen(1))
			Expect(c.msgs[0]).To(And(ContainSubstring(`axis sink "m_axis"`), ContainSubstring("tid=2"), ContainSubstring("started with tid=1")))
		})

		It("keeps every byte of a bus with tstrb and no tkeep (tstrb=0: a position byte)", func() {
			lp := newLoop(design{width: 32, top: "axis_fifo_strb", raw: true})
			raw := stream.NewSource(lp.tb, "s_axis", lp.clk, stream.Config{Data: []string{"tdata", "tstrb", "tlast"}, Valid: "tvalid", Ready: "tready"})
			raw.SendNowait(stream.NewBeat(0x44332211, 0b0101, 0))
			raw.SendNowait(stream.NewBeat(0x88776655, 0b0000, 1))
			Expect(lp.sink.Recv()).To(Equal(axis.Frame{Data: []byte{0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88}}))
		})
	})

	Describe("a bus without tkeep", func() {
		It("carries frames of whole beats", func() {
			lp := newLoop(design{width: 32, top: "axis_fifo_nokeep", pauseIn: 0.3, pauseOut: 0.3})
			Expect(lp.transfer(randomFrames(lp.tb.Rand(), 10, lp.bytes, sideband{}, true))).To(BeTrue())
		})

		It("refuses a frame that does not fill whole beats", func() {
			var c captured
			lp := newLoop(design{width: 32, top: "axis_fifo_nokeep", fail: c.fail})
			lp.src.SendNowait(axis.Frame{Data: []byte{1, 2, 3, 4, 5}})
			Expect(c.msgs).To(HaveLen(1))
			Expect(c.msgs[0]).To(And(ContainSubstring(`axis "s_axis"`), ContainSubstring("5 bytes does not fill whole 4-byte beats")))
		})

		It("refuses sideband the bus cannot carry", func() {
			var c captured
			lp := newLoop(design{width: 32, top: "axis_fifo_nokeep", fail: c.fail})
			lp.src.SendNowait(axis.Frame{Data: []byte{1, 2, 3, 4}, ID: 1})
			Expect(c.msgs).To(ConsistOf(ContainSubstring("Frame.ID is 1 but the bus has no tid")))
		})
	})

	It("refuses sideband wider than its signal", func() {
		var c captured
		lp := newLoop(design{width: 32, fail: c.fail})
		lp.src.SendNowait(axis.Frame{Data: []byte{1}, Dest: 8})
		Expect(c.msgs).To(ConsistOf(ContainSubstring("Frame.Dest 0x8 does not fit the 3-bit tdest")))
	})

	It("makes every beat a frame on a bus without tlast", func() {
		lp := newLoop(design{width: 16, top: "axis_fifo_nolast", pauseOut: 0.3})
		lp.src.Send(axis.Frame{Data: []byte{1, 2, 3, 4, 5}})
		for _, want := range [][]byte{{1, 2}, {3, 4}, {5}} {
			Expect(lp.sink.Recv()).To(Equal(axis.Frame{Data: want}))
		}
		_, ok := lp.sink.RecvWithin(200 * bench.NS)
		Expect(ok).To(BeFalse())
		Expect(lp.src.Count()).To(BeEquivalentTo(1))
		Expect(lp.sink.Count()).To(BeEquivalentTo(3))
	})

	It("fails rather than hangs when Recv or Send waits for a frame that never comes", func() {
		var c captured
		lp := newLoop(design{width: 32, fail: c.fail, timeout: 5 * bench.US})
		lp.sink.Recv()
		Expect(c.msgs).To(HaveLen(1))
		Expect(c.msgs[0]).To(ContainSubstring("5us"))

		var c2 captured
		lp = newLoop(design{width: 32, fail: c2.fail, timeout: 5 * bench.US})
		lp.tb.Force(lp.tb.Signal("m_axis_tready"), 0) // the FIFO fills and stalls s_axis
		lp.src.Send(axis.Frame{Data: make([]byte, 64)})
		Expect(c2.msgs).To(HaveLen(1))
		Expect(c2.msgs[0]).To(ContainSubstring("5us"))
	})
})
