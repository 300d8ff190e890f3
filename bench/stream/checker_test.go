package stream_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/weft-hdl/weft/bench"
	"github.com/weft-hdl/weft/bench/stream"
	"github.com/weft-hdl/weft/dut"
)

// tapBus is the tap design's bus, every signal driven by the spec, with
// a checker on it whose failures are captured.
type tapBus struct {
	tb                   *bench.Bench
	c                    *capture
	clk                  *dut.Signal
	data, valid, ready   *dut.Signal
	chk                  *stream.Checker
	dataV, validV, readV uint64
}

func newTap() *tapBus {
	p := build("tap", []string{"testdata/tap.sv"})
	c := &capture{}
	tb := bench.New(p, bench.Options{Fail: c.fail})
	t := &tapBus{tb: tb, c: c, data: tb.Signal("t_data"), valid: tb.Signal("t_valid"), ready: tb.Signal("t_ready")}
	t.clk = tb.Clock(tb.Signal("clk"), 10*bench.NS).Signal()
	t.chk = stream.NewChecker(tb, "t", t.clk, stream.Config{})
	return t
}

// cycle drives valid, ready and data for the next edge, as registered
// logic would after an edge, and waits for that edge.
func (t *tapBus) cycle(valid, ready, data uint64) {
	t.tb.Set(t.valid, valid)
	t.tb.Set(t.ready, ready)
	t.tb.Set(t.data, data)
	t.tb.RisingEdge(t.clk)
}

var _ = Describe("Checker", func() {
	It("passes a legal bus: valid held through a stall, free payload while idle, back-to-back beats", func() {
		t := newTap()
		t.cycle(0, 0, 1)
		t.cycle(0, 1, 2)    // idle: the payload may change
		t.cycle(1, 0, 0x5a) // offered, stalled
		t.cycle(1, 0, 0x5a)
		t.cycle(1, 1, 0x5a) // taken
		t.cycle(1, 1, 0x5b) // back to back
		t.cycle(1, 0, 0x5c) // a new beat, stalled
		t.cycle(1, 1, 0x5c)
		t.cycle(0, 1, 0x00)
		t.cycle(0, 0, 0x00)
		t.tb.ReadOnly()
		Expect(t.c.msgs).To(BeEmpty())
		Expect(t.chk.Handshakes()).To(BeEquivalentTo(3))
		Expect(t.tb.Signal("taken")).To(bench.HaveValue(3))
	})

	It("fails when valid drops before the handshake, naming the bus, the rule, the time and the beat", func() {
		t := newTap()
		t.cycle(1, 0, 0x5a) // offered at the 5ns edge, not taken
		t.cycle(1, 0, 0x5a)
		t.cycle(0, 0, 0x5a) // withdrawn: a violation
		t.tb.ReadOnly()     // the checker's task sees the edge too
		Expect(t.c.msgs).To(HaveLen(1))
		Expect(t.c.msgs[0]).To(And(
			ContainSubstring(`stream checker "t"`),
			ContainSubstring("t_valid went inactive at 25ns before a handshake"),
			ContainSubstring("once valid is asserted it stays asserted"),
			ContainSubstring("offered since 5ns, t_data=0x5a, was not taken")))
		Expect(t.chk.Handshakes()).To(BeZero())
	})

	It("fails when the payload changes while stalled", func() {
		t := newTap()
		t.cycle(1, 1, 0x01) // a handshake
		t.cycle(1, 0, 0x02) // offered at the 15ns edge, stalled
		t.cycle(1, 1, 0x03) // taken, but not the beat that was offered
		t.tb.ReadOnly()
		Expect(t.c.msgs).To(HaveLen(1))
		Expect(t.c.msgs[0]).To(And(
			ContainSubstring(`stream checker "t": the payload changed at 25ns`),
			ContainSubstring("the payload holds until the handshake"),
			ContainSubstring("offered since 15ns as t_data=0x2, now t_data=0x3")))
		Expect(t.chk.Handshakes()).To(BeEquivalentTo(1))
	})
})

var _ = Describe("binding", func() {
	It("binds a bus with an empty prefix: the names as Config gives them", func() {
		t := newTap()
		cfg := stream.Config{Data: []string{"t_data"}, Valid: "t_valid", Ready: "t_ready"}
		mon := stream.NewMonitor(t.tb, "", t.clk, cfg)
		chk := stream.NewChecker(t.tb, "", t.clk, cfg)
		t.cycle(1, 0, 0x42)
		t.cycle(1, 1, 0x42)
		t.cycle(0, 0, 0)
		Expect(t.c.msgs).To(BeEmpty())
		Expect(mon.Recv()).To(stream.EqualBeat(stream.NewBeat(0x42)))
		Expect(mon.Count()).To(BeEquivalentTo(1))
		Expect(chk.Handshakes()).To(BeEquivalentTo(1))
	})
})
