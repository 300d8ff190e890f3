package axil

import (
	"fmt"
	"strings"
)

// hold checks the AXI rule every channel shares, from the receiving
// side: once valid is high it stays high, with the payload unchanged,
// until the edge at which ready takes it (AXI A3.2.1). A master and a RAM
// each watch the channels the other side drives with one hold apiece,
// so a design that drops or changes a pending request or response fails
// the spec at the edge where it did, not later as a wrong value or a
// hang.
type hold struct {
	ch      string   // "AW", for messages
	valid   string   // signal names without the prefix
	ready   string   //
	payload []string // the signals that must stay still
	pending bool     // valid was high without ready at the previous edge
	vals    []uint64 // the payload then
}

func newHold(p *port, ch, valid, ready string, payload ...string) *hold {
	h := &hold{ch: ch, valid: valid, ready: ready}
	for _, n := range payload {
		if p.sig(n) != nil { // an optional signal the bus lacks
			h.payload = append(h.payload, n)
		}
	}
	h.vals = make([]uint64, len(h.payload))
	return h
}

// check looks at the latest edge's samples; false when the rule was
// broken (the spec has failed).
func (h *hold) check(p *port) bool {
	valid := p.get(h.valid) == 1
	if h.pending {
		if !valid {
			p.failf("%s channel: %s went low before %s took the transfer (%s); a valid once high must stay high until the handshake",
				h.ch, p.sig(h.valid).Name(), p.sig(h.ready).Name(), h.describe(p, h.vals))
			return false
		}
		now := make([]uint64, len(h.payload))
		for i, n := range h.payload {
			now[i] = p.get(n)
		}
		for i := range h.payload {
			if now[i] != h.vals[i] {
				p.failf("%s channel: the payload changed while %s was high and %s low: was %s, now %s; it must hold until the handshake",
					h.ch, p.sig(h.valid).Name(), p.sig(h.ready).Name(), h.describe(p, h.vals), h.describe(p, now))
				return false
			}
		}
	}
	h.pending = valid && p.get(h.ready) == 0
	if h.pending {
		for i, n := range h.payload {
			h.vals[i] = p.get(n)
		}
	}
	return true
}

// reset forgets a pending transfer: a reset ends it.
func (h *hold) reset() { h.pending = false }

func (h *hold) describe(p *port, vals []uint64) string {
	parts := make([]string, len(h.payload))
	for i, n := range h.payload {
		parts[i] = fmt.Sprintf("%s=%#x", p.sig(n).Name(), vals[i])
	}
	return strings.Join(parts, " ")
}
