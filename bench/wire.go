package bench

import "github.com/weft-hdl/weft/dut"

// Wire connects two signals through the test bench: after every
// evaluation, when from's value differs from to's, to (a top-level input)
// takes it and the design is evaluated again at the same time (a delta
// step), so the connection behaves like a wire outside the design, e.g.
// a UART's txd looped back to its rxd.
type Wire struct {
	tb       *Bench
	from, to *dut.Signal
}

// Wire connects from to to (equal widths, at most 64 bits) until Cut.
// The current value is copied at once.
func (tb *Bench) Wire(from, to *dut.Signal) *Wire {
	switch {
	case !tb.checkSig("Wire", from) || !tb.checkSig("Wire", to):
		return nil
	case from.IsArray() || to.IsArray():
		tb.failf("Wire(%s, %s): arrays cannot be wired; wire elements", from.Name(), to.Name())
		return nil
	case from.Width() != to.Width():
		tb.failf("Wire(%s, %s): widths differ (%d and %d bits)", from.Name(), to.Name(), from.Width(), to.Width())
		return nil
	case from.Width() > 64:
		tb.failf("Wire(%s, %s): wires of more than 64 bits are not supported yet", from.Name(), to.Name())
		return nil
	case !to.IsInput():
		tb.failf("Wire(%s, %s): %s is not a top-level input", from.Name(), to.Name(), to.Name())
		return nil
	}
	w := &Wire{tb: tb, from: from, to: to}
	tb.wires = append(tb.wires, w)
	w.copy()
	return w
}

// Cut disconnects the wire; to keeps its last value.
func (w *Wire) Cut() {
	if w == nil {
		return
	}
	ws := w.tb.wires[:0]
	for _, x := range w.tb.wires {
		if x != w {
			ws = append(ws, x)
		}
	}
	w.tb.wires = ws
}

// copy drives to with from's value when they differ. Into a forced
// input it goes where Set goes: remembered for the Release.
func (w *Wire) copy() bool {
	v := w.from.Get()
	if f := w.tb.force.find(w.to.Home(), w.to.ElemIndex()); f != nil {
		f.driven = append(f.driven[:0], v)
		return false
	}
	if w.to.Get() == v {
		return false
	}
	if err := w.to.Set(v); err != nil {
		w.tb.failf("wire %s → %s: %v", w.from.Name(), w.to.Name(), err)
		return false
	}
	return true
}

// propagate copies every wire; it reports whether an input changed.
func (tb *Bench) propagate() bool {
	changed := false
	for _, w := range tb.wires {
		if w.copy() {
			changed = true
		}
	}
	return changed && tb.err == nil
}
