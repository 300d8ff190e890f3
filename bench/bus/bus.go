// Package bus binds the signals of a bus by prefix, the way cocotbext
// does: Bind(tb, "s_axis", ...) finds s_axis_tdata, s_axis_tvalid, ...
// Verification components (bench/stream, bench/axis, ...) take a prefix
// and bind their signals with it, so a spec names a bus once.
//
//	b := bus.Bind(tb, "s_axis", []string{"tdata", "tvalid"}, []string{"tready", "tlast"})
//	tb.Set(b.Signal("tvalid"), 1)
//	if b.Has("tlast") { ... }
//
// A name is looked up as prefix_name, then prefixname, then with the
// name upper-cased (S_AXIS_TDATA); an empty prefix looks the name up
// alone. A missing required signal fails the spec with the names the
// design has under that prefix.
package bus

import (
	"fmt"
	"sort"
	"strings"

	"github.com/weft-hdl/weft/bench"
	"github.com/weft-hdl/weft/dut"
)

// Bus is a set of signals bound by prefix.
type Bus struct {
	prefix string
	sigs   map[string]*dut.Signal
}

// Bind finds the required and optional signals of the bus at prefix. A
// required one that is missing fails the spec (and Bind returns nil).
func Bind(tb *bench.Bench, prefix string, required, optional []string) *Bus {
	b := &Bus{prefix: prefix, sigs: map[string]*dut.Signal{}}
	var missing []string
	for _, name := range required {
		if sig := find(tb.DUT(), prefix, name); sig != nil {
			b.sigs[name] = sig
		} else {
			missing = append(missing, name)
		}
	}
	for _, name := range optional {
		if sig := find(tb.DUT(), prefix, name); sig != nil {
			b.sigs[name] = sig
		}
	}
	if len(missing) > 0 {
		tb.Failf("bus %q: no signal for %s (tried %s); the design has %s", prefix, strings.Join(missing, ", "),
			strings.Join(candidates(prefix, missing[0]), ", "), withPrefix(tb.DUT(), prefix))
		return nil
	}
	return b
}

// Prefix is the prefix the bus was bound with.
func (b *Bus) Prefix() string { return b.prefix }

// Signal is the bus's signal name (nil when an optional one is absent).
func (b *Bus) Signal(name string) *dut.Signal { return b.sigs[name] }

// Has reports whether the bus has signal name.
func (b *Bus) Has(name string) bool { return b.sigs[name] != nil }

// candidates are the names tried for name at prefix, in order.
func candidates(prefix, name string) []string {
	if prefix == "" {
		return []string{name, strings.ToUpper(name)}
	}
	return []string{prefix + "_" + name, prefix + name, strings.ToUpper(prefix + "_" + name)}
}

func find(d *dut.DUT, prefix, name string) *dut.Signal {
	for _, c := range candidates(prefix, name) {
		if sig, err := d.Signal(c); err == nil {
			return sig
		}
	}
	return nil
}

// withPrefix lists the design's top-level signal names that start with
// prefix, for the message about a missing one.
func withPrefix(d *dut.DUT, prefix string) string {
	var out []string
	for _, n := range d.Top().Signals() {
		if strings.HasPrefix(strings.ToLower(n), strings.ToLower(prefix)) {
			out = append(out, n)
		}
	}
	if len(out) == 0 {
		return fmt.Sprintf("no signal starting with %q", prefix)
	}
	sort.Strings(out)
	return strings.Join(out, ", ")
}
