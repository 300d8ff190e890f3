package stream

import (
	"github.com/weft-hdl/weft/bench"
	"github.com/weft-hdl/weft/dut"
)

// Checker is an always-on protocol checker: once valid is asserted it
// stays asserted, with the payload unchanged, until the handshake. It
// fails the spec (tb.Failf) at the first violation, naming the bus, the
// rule, the time and the values. A bus without ready has no stall, so
// only its handshakes are counted. Cycles in reset are not checked.
type Checker struct {
	p          *port
	handshakes uint64
	stalled    bool       // valid active without ready at the last edge
	since      bench.Time // when the stalled beat was first offered
	held       Beat       // its payload
}

// NewChecker binds the bus at prefix and starts the checker's task.
func NewChecker(tb *bench.Bench, prefix string, clk *dut.Signal, cfg Config) *Checker {
	c := &Checker{p: bind(tb, "checker", prefix, clk, cfg)}
	if c.p == nil {
		return c
	}
	tb.Fork(c.p.task, c.run)
	return c
}

// Handshakes is the number of handshakes seen.
func (c *Checker) Handshakes() uint64 { return c.handshakes }

func (c *Checker) run() {
	p := c.p
	for {
		p.tb.RisingEdge(p.clk)
		if p.stopped() {
			return
		}
		if p.resetAt() {
			c.stalled = false
			continue
		}
		valid, ready := p.validAt(), p.readyAt()
		if c.stalled && !c.check(valid) {
			return
		}
		switch {
		case valid && ready:
			c.handshakes++
			c.stalled = false
		case valid && !c.stalled:
			c.stalled, c.since, c.held = true, p.tb.Now(), p.dataAt()
		case !valid:
			c.stalled = false
		}
	}
}

// check holds the rule at an edge after a stall; false after a failure.
func (c *Checker) check(valid bool) bool {
	p := c.p
	if !valid {
		p.tb.Failf("%s: %s went inactive at %s before a handshake (rule: once valid is asserted it stays asserted until ready takes the beat); the beat offered since %s, %s, was not taken",
			p.name, p.valid.Name(), p.tb.Now(), c.since, p.payloadText(c.held))
		return false
	}
	if now := p.dataAt(); !now.Equal(c.held) {
		p.tb.Failf("%s: the payload changed at %s while %s was active and not taken (rule: the payload holds until the handshake); offered since %s as %s, now %s",
			p.name, p.tb.Now(), p.valid.Name(), c.since, p.payloadText(c.held), p.payloadText(now))
		return false
	}
	return true
}
