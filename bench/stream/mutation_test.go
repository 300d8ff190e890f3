package stream_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/weft-hdl/weft/bench"
)

// The mutation check: testdata/fifo_broken.sv is fifo.sv with an
// off-by-one full test (in_ready = count <= DEPTH), so a full FIFO takes
// one more beat and writes it over the oldest entry, the one out_data
// shows while the sink stalls. The same loopback that passes on fifo.sv
// must fail on it: through the output Checker (the payload changed while
// stalled) and, without checkers, through the scoreboard (a beat lost).
var _ = Describe("the loopback on a broken FIFO", func() {
	broken := []string{"testdata/fifo_broken.sv"}

	It("fails through the Checker on the output bus", func() {
		var c capture
		l := fifoLoop(bench.Options{Fail: c.fail, Timeout: 200 * bench.US}, broken)
		l.start(0.2, 0.6) // a slow sink, so the FIFO fills
		l.run(randomBeats(l.tb.Rand(), 200, 8, 4), same)
		Expect(c.msgs).To(HaveLen(1), "the first failure stops the bench")
		Expect(c.msgs[0]).To(ContainSubstring(`stream checker "out": the payload changed`))
		Expect(l.tb.Err()).To(HaveOccurred())
	})

	It("fails through the scoreboard without checkers", func() {
		var c capture
		l := fifoLoop(bench.Options{Fail: c.fail, Timeout: 200 * bench.US}, broken)
		l.checkers = false
		l.start(0.2, 0.6)
		l.run(randomBeats(l.tb.Rand(), 200, 8, 4), same)
		Expect(c.msgs).To(HaveLen(1))
		Expect(c.msgs[0]).To(ContainSubstring("scoreboard: beat"))
	})

	It("passes the same loopback on the correct FIFO", func() {
		var c capture
		l := fifoLoop(bench.Options{Fail: c.fail, Timeout: 200 * bench.US}, fifoFiles)
		l.start(0.2, 0.6)
		l.run(randomBeats(l.tb.Rand(), 200, 8, 4), same)
		Expect(c.msgs).To(BeEmpty())
		l.expectAgree(200, same)
	})
})
