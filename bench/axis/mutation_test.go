package axis_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// The mutation checks: the same random traffic through a deliberately
// broken FIFO (testdata/axis_fifo_broken.sv) must fail, through the
// components and the scoreboard, with a message that shows the damage.
// Failures are captured (bench.Options.Fail) instead of failing the spec.
// The seed is fixed so that the check replays exactly; any seed shows
// both bugs within a few frames (BUG=1 needs one frame whose length is
// not a multiple of 4, BUG=2 one moment the FIFO fills).
var _ = Describe("a broken FIFO", func() {
	broken := func(bug string, pauseOut float64, c *captured) *loop {
		return newLoop(design{file: "testdata/axis_fifo_broken.sv", width: 32, params: []string{"BUG", bug},
			pauseIn: 0.3, pauseOut: pauseOut, fail: c.fail, seed: 20260412})
	}

	It("fails the transfer when the last beat leaves with tkeep all ones (BUG=1)", func() {
		var c captured
		lp := broken("1", 0.4, &c)
		Expect(lp.transfer(randomFrames(lp.tb.Rand(), 30, lp.bytes, allSideband, false))).To(BeFalse())
		Expect(c.msgs).To(HaveLen(1))
		Expect(c.msgs[0]).To(And(ContainSubstring("scoreboard: frame"), ContainSubstring("differs from the one sent"), ContainSubstring("Data")))
	})

	It("fails the transfer when a beat filling the FIFO loses tlast (BUG=2)", func() {
		var c captured
		lp := broken("2", 0.4, &c)
		Expect(lp.transfer(randomFrames(lp.tb.Rand(), 30, lp.bytes, allSideband, false))).To(BeFalse())
		Expect(c.msgs).To(HaveLen(1))
		// Two frames merge: the sink's own check (tid/tdest held through a
		// frame) or the scoreboard catches it, whichever sees it first.
		Expect(c.msgs[0]).To(Or(
			And(ContainSubstring("scoreboard: frame"), ContainSubstring("differs from the one sent")),
			And(ContainSubstring(`axis sink "m_axis"`), ContainSubstring("but the frame started with tid")),
		))
	})

	It("shows BUG=2 as a merged frame when no tid tells the frames apart", func() {
		var c captured
		lp := broken("2", 0.4, &c)
		Expect(lp.transfer(randomFrames(lp.tb.Rand(), 30, lp.bytes, sideband{user: true}, false))).To(BeFalse())
		Expect(c.msgs).To(HaveLen(1))
		Expect(c.msgs[0]).To(And(ContainSubstring("scoreboard: frame"), ContainSubstring("differs from the one sent")))
	})

	// BUG=2 only bites when the FIFO fills, which takes backpressure:
	// without sink pauses the same traffic passes. This is why the
	// specs pause both sides.
	It("hides BUG=2 from traffic without backpressure", func() {
		var c captured
		lp := broken("2", 0, &c)
		Expect(lp.transfer(randomFrames(lp.tb.Rand(), 30, lp.bytes, allSideband, false))).To(BeTrue())
		Expect(c.msgs).To(BeEmpty())
	})
})
