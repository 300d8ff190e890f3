package bench

import (
	"fmt"
	"math/big"
	"reflect"
	"strings"

	"github.com/weft-hdl/weft/dut"
	"github.com/weft-hdl/weft/program"
)

// Writes: Set drives a top-level input, Deposit writes any signal once,
// Force holds a signal at a value until Release (Verilog's force and
// release). All three take the value as any Go integer, a bool, a
// *big.Int or a []byte, converted by words below.
//
// A force is kept by rewriting: after every evaluation, applyForces puts
// back each forced value the design (or bench code) overwrote, and the
// bench evaluates again at the same time so that comb logic follows. That
// is exact for homes only the bench or clocked processes write: flops
// clocked at the edge sample the state before it, which holds the forced
// value, so every reader sees it; only the forced home itself holds what
// its own process computed, until applyForces runs after that evaluation
// (triggers that look before it see that value). It cannot hold what
// the settle recomputes (comb-driven nets), what changes edges inside one
// evaluation (a clock or reset the design drives), or what a process
// reads back after its own blocking assignment; Force refuses those
// (forceable).

// forceSet holds the signals a spec forced (Force) until Release.
type forceSet struct {
	list []*forced
	// words is scratch for converting values (words), so that a write
	// allocates nothing once a value of its width was converted.
	words []uint64
}

// forced is one forced signal (a scalar home or one array element).
type forced struct {
	sig  *dut.Signal
	h    *program.Signal
	elem int
	val  []uint64 // the forced value, ceil(width/64) words
	// input: a top-level input, whose driven value the bench remembers
	// while forced (Set, Deposit) and restores on Release.
	input  bool
	driven []uint64
	cur    []uint64 // scratch: the value read after an evaluation
}

// active reports whether any signal is forced (the fast path is off then).
func (f *forceSet) active() bool { return len(f.list) > 0 }

// find is the force on element elem of h, nil when there is none.
func (f *forceSet) find(h *program.Signal, elem int) *forced {
	for _, x := range f.list {
		if x.h == h && x.elem == elem {
			return x
		}
	}
	return nil
}

// applyForces writes forced values the last evaluation overwrote; it
// reports whether it wrote anything (then the bench evaluates again at
// the same time, a delta step).
func (tb *Bench) applyForces() bool {
	wrote := false
	for _, f := range tb.force.list {
		if f.h.Width <= 64 {
			v, err := tb.s.Get(f.h, f.elem)
			if err != nil {
				tb.failf("Force(%s): %v", f.sig.Name(), err)
				return false
			}
			if v == f.val[0] {
				continue
			}
		} else {
			cur, err := tb.s.GetWords(f.h, f.elem, f.cur[:0])
			if err != nil {
				tb.failf("Force(%s): %v", f.sig.Name(), err)
				return false
			}
			f.cur = cur
			if equalWords(cur, f.val) {
				continue
			}
		}
		if err := tb.s.DepositWords(f.h, f.elem, f.val); err != nil {
			tb.failf("Force(%s): %v", f.sig.Name(), err)
			return false
		}
		wrote = true
	}
	return wrote
}

func equalWords(a, b []uint64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// Set drives a top-level input; the value is seen by the next
// evaluation, at the current time. v is a bool, any Go integer, a
// *big.Int or, for wide signals, a []byte (little-endian: b[0] is bits
// 7:0, as AXI-Stream byte lanes; bytes beyond the width must be zero).
// Every signal takes -2^(W-1)..2^W-1 for a width of W bits, signed or
// not: a negative value is stored as its W-bit two's complement (so -1
// is all ones), as in cocotb. While the input is forced, Set is
// remembered instead, and Release applies the last one. A value that
// does not fit, an array, or a signal that is not a top-level input
// (use Deposit or Force for internal signals) fails the spec.
func (tb *Bench) Set(sig *dut.Signal, v any) {
	if !tb.writeTarget("Set", sig) {
		return
	}
	if !sig.IsInput() {
		tb.failf("Set(%s): %s is not a top-level input (%s); use Deposit or Force for internal signals", sig.Name(), sig.Name(), homeText(sig.Home()))
		return
	}
	ws, ok := tb.words("Set", sig, v)
	if !ok {
		return
	}
	if f := tb.force.find(sig.Home(), sig.ElemIndex()); f != nil {
		f.driven = append(f.driven[:0], ws...)
		return
	}
	if err := sig.SetWords(ws); err != nil {
		tb.failf("Set(%s): %v", sig.Name(), err)
	}
}

// Deposit writes any signal once, internal ones too (a flop, a memory
// word through Elem or "mem[3]", a procedural variable): the design
// sees the value from the next evaluation, and a flop keeps it until its
// process assigns it again. A net that comb logic drives takes it only
// until the next settle recomputes it (use Force to hold a value). On a
// forced input Deposit is remembered like Set; on a forced variable it
// has no effect, as a design assignment would not. The value is taken as
// by Set.
func (tb *Bench) Deposit(sig *dut.Signal, v any) {
	if !tb.writeTarget("Deposit", sig) {
		return
	}
	ws, ok := tb.words("Deposit", sig, v)
	if !ok {
		return
	}
	if f := tb.force.find(sig.Home(), sig.ElemIndex()); f != nil {
		if f.input {
			f.driven = append(f.driven[:0], ws...)
		}
		return
	}
	if err := sig.DepositWords(ws); err != nil {
		tb.failf("Deposit(%s): %v", sig.Name(), err)
	}
}

// Force holds sig at v (taken as by Set) until Release, like Verilog's
// force: from the next evaluation on, the design and every reader see v
// whatever the design or the bench writes to sig. Forcing a forced signal
// changes its value. Top-level inputs, flops and other variables that
// clocked processes assign (array elements too, through Elem or
// "mem[3]") can be forced. Not supported yet (the spec fails, naming
// what to force instead): nets and variables that comb logic drives
// (continuous assignments, always_comb and always @* outputs, nets driven
// by instance outputs), clocks and resets that the design drives itself,
// and variables that a clocked process assigns with = and reads back in
// the same evaluation.
func (tb *Bench) Force(sig *dut.Signal, v any) {
	if !tb.writeTarget("Force", sig) || !tb.forceable(sig) {
		return
	}
	ws, ok := tb.words("Force", sig, v)
	if !ok {
		return
	}
	h, e := sig.Home(), sig.ElemIndex()
	f := tb.force.find(h, e)
	if f == nil {
		f = &forced{sig: sig, h: h, elem: e, input: sig.IsInput()}
		if f.input {
			cur, err := tb.s.GetWords(h, e, nil)
			if err != nil {
				tb.failf("Force(%s): %v", sig.Name(), err)
				return
			}
			f.driven = cur
		}
		tb.force.list = append(tb.force.list, f)
	}
	f.val = append(f.val[:0], ws...)
	if err := sig.DepositWords(f.val); err != nil {
		tb.failf("Force(%s): %v", sig.Name(), err)
	}
}

// Release ends the force on sig, like Verilog's release: a top-level
// input returns to the last value bench code drove (Set or Deposit while
// it was forced, or its value before Force), seen by the next
// evaluation; a variable keeps the forced value until the design next
// assigns it (a flop: at its next clock edge). Releasing a signal that
// is not forced fails the spec.
func (tb *Bench) Release(sig *dut.Signal) {
	if !tb.writeTarget("Release", sig) {
		return
	}
	h, e := sig.Home(), sig.ElemIndex()
	f := tb.force.find(h, e)
	if f == nil {
		tb.failf("Release(%s): %s is not forced", sig.Name(), sig.Name())
		return
	}
	list := tb.force.list[:0]
	for _, x := range tb.force.list {
		if x != f {
			list = append(list, x)
		}
	}
	clear(tb.force.list[len(list):])
	tb.force.list = list
	if f.input {
		if err := sig.SetWords(f.driven); err != nil {
			tb.failf("Release(%s): %v", sig.Name(), err)
		}
	}
}

// writeTarget checks what every write needs: a signal, a bench still
// running, a phase that allows writes, and one element (not an array).
func (tb *Bench) writeTarget(call string, sig *dut.Signal) bool {
	if tb.err != nil || !tb.checkSig(call, sig) || !tb.writable(call, sig) {
		return false
	}
	if sig.IsArray() {
		tb.failf("%s(%s): %s is an array of %d elements; write one element (%s.Elem(i), or %q)", call, sig.Name(), sig.Name(), sig.Len(), sig.Name(), sig.Name()+"[i]")
		return false
	}
	return true
}

// homeText says what declared h and where, for messages.
func homeText(h *program.Signal) string {
	var what string
	switch h.Kind {
	case program.KindInput:
		what = "an input port"
	case program.KindOutput:
		what = "an output port"
	case program.KindNet:
		what = "a net"
	default:
		what = "a variable"
	}
	if sc := h.Scope(); sc != nil {
		what += " of " + sc.Path
	}
	return what
}

// words converts v to the words of sig's width in tb.force.words; on
// failure it fails the spec, naming call. It must not let v escape, so
// that boxing an integer for the call allocates nothing: messages format
// copies of v's contents, never v.
func (tb *Bench) words(call string, sig *dut.Signal, v any) ([]uint64, bool) {
	w := sig.Width()
	switch x := v.(type) {
	case bool:
		u := uint64(0)
		if x {
			u = 1
		}
		return tb.uintWords(call, sig, u)
	case int:
		return tb.intWords(call, sig, int64(x))
	case int8:
		return tb.intWords(call, sig, int64(x))
	case int16:
		return tb.intWords(call, sig, int64(x))
	case int32:
		return tb.intWords(call, sig, int64(x))
	case int64:
		return tb.intWords(call, sig, x)
	case uint:
		return tb.uintWords(call, sig, uint64(x))
	case uint8:
		return tb.uintWords(call, sig, uint64(x))
	case uint16:
		return tb.uintWords(call, sig, uint64(x))
	case uint32:
		return tb.uintWords(call, sig, uint64(x))
	case uint64:
		return tb.uintWords(call, sig, x)
	case uintptr:
		return tb.uintWords(call, sig, uint64(x))
	case *big.Int:
		return tb.bigWords(call, sig, x)
	case []byte:
		return tb.byteWords(call, sig, x)
	case nil:
		tb.failf("%s(%s, nil): no value", call, sig.Name())
		return nil, false
	}
	// Named integer and bool types (an enum of the test bench).
	switch rv := reflect.ValueOf(v); rv.Kind() {
	case reflect.Bool:
		return tb.words(call, sig, rv.Bool())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return tb.intWords(call, sig, rv.Int())
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return tb.uintWords(call, sig, rv.Uint())
	}
	tb.failf("%s(%s, %s): a %s cannot be written to %s (%d bits); use a bool, a Go integer, a *big.Int or a []byte (little-endian)", call, sig.Name(), reflect.TypeOf(v), reflect.TypeOf(v), sig.Name(), w)
	return nil, false
}

// scratch is tb.force.words resized to the words of a w-bit value, zeroed.
func (tb *Bench) scratch(w int) []uint64 {
	n := (w + 63) / 64
	if cap(tb.force.words) < n {
		tb.force.words = make([]uint64, n)
	}
	ws := tb.force.words[:n]
	clear(ws)
	return ws
}

func (tb *Bench) uintWords(call string, sig *dut.Signal, u uint64) ([]uint64, bool) {
	w := sig.Width()
	if w < 64 && u>>w != 0 {
		tb.fitFail(call, sig, fmt.Sprintf("%d (%#x)", u, u))
		return nil, false
	}
	ws := tb.scratch(w)
	ws[0] = u
	return ws, true
}

func (tb *Bench) intWords(call string, sig *dut.Signal, i int64) ([]uint64, bool) {
	if i >= 0 {
		return tb.uintWords(call, sig, uint64(i))
	}
	w := sig.Width()
	if w < 64 && i < -(int64(1)<<(w-1)) {
		tb.fitFail(call, sig, fmt.Sprint(i))
		return nil, false
	}
	ws := tb.scratch(w)
	for k := range ws {
		ws[k] = ^uint64(0) // the sign, extended to the width
	}
	ws[0] = uint64(i)
	trimWords(ws, w)
	return ws, true
}

// trimWords clears the bits of ws at and above width w.
func trimWords(ws []uint64, w int) {
	if r := w % 64; r != 0 {
		ws[len(ws)-1] &= 1<<r - 1
	}
}

func (tb *Bench) bigWords(call string, sig *dut.Signal, x *big.Int) ([]uint64, bool) {
	if x == nil {
		tb.failf("%s(%s, (*big.Int)(nil)): no value", call, sig.Name())
		return nil, false
	}
	w := sig.Width()
	// x is the caller's: work on a copy (and keep x from escaping).
	y := new(big.Int).Set(x)
	if y.Sign() < 0 {
		// Two's complement: -x fits when -x-1 needs at most w-1 bits.
		if new(big.Int).Not(y).BitLen() > w-1 {
			tb.fitFail(call, sig, y.String())
			return nil, false
		}
		y.Add(y, new(big.Int).Lsh(big.NewInt(1), uint(w)))
	} else if y.BitLen() > w {
		tb.fitFail(call, sig, fmt.Sprintf("%s (%#x)", y, y))
		return nil, false
	}
	ws := tb.scratch(w)
	mask := new(big.Int).SetUint64(^uint64(0))
	for k := range ws {
		ws[k] = new(big.Int).And(y, mask).Uint64()
		y.Rsh(y, 64)
	}
	return ws, true
}

func (tb *Bench) byteWords(call string, sig *dut.Signal, b []byte) ([]uint64, bool) {
	w := sig.Width()
	n := (w + 7) / 8
	for i := n; i < len(b); i++ {
		if b[i] != 0 {
			tb.failf("%s(%s, %s): byte %d (0x%02x) lies beyond the %d bits of %s; bytes past its width must be zero", call, sig.Name(), bytesText(b), i, b[i], w, sig.Name())
			return nil, false
		}
	}
	if r := w % 8; r != 0 && len(b) >= n && b[n-1]>>r != 0 {
		tb.failf("%s(%s, %s): does not fit in %d bits: byte %d (0x%02x) has bits above bit %d", call, sig.Name(), bytesText(b), w, n-1, b[n-1], w-1)
		return nil, false
	}
	ws := tb.scratch(w)
	for i := 0; i < len(b) && i < n; i++ {
		ws[i/8] |= uint64(b[i]) << (8 * (i % 8))
	}
	return ws, true
}

// bytesText shows a byte slice as Go would write it (the first 16 bytes).
func bytesText(b []byte) string {
	var s strings.Builder
	s.WriteString("[]byte{")
	for i, c := range b {
		if i == 16 {
			fmt.Fprintf(&s, ", ... (%d bytes)", len(b))
			break
		}
		if i > 0 {
			s.WriteString(", ")
		}
		fmt.Fprintf(&s, "0x%02x", c)
	}
	s.WriteString("}")
	return s.String()
}

// fitFail reports a value outside -2^(W-1)..2^W-1 for sig.
func (tb *Bench) fitFail(call string, sig *dut.Signal, val string) {
	w := sig.Width()
	var lo, hi string
	if w < 64 {
		lo, hi = fmt.Sprint(-(int64(1) << (w - 1))), fmt.Sprint(uint64(1)<<w-1)
	} else {
		lo, hi = fmt.Sprintf("-2^%d", w-1), fmt.Sprintf("2^%d-1", w)
	}
	tb.failf("%s(%s, %s): does not fit in %d bits (the range is %s..%s, negative values as two's complement)", call, sig.Name(), val, w, lo, hi)
}

// forceable fails Force on the signals a rewrite after every evaluation
// cannot hold (see the top of the file), naming what to force instead.
// The compiler found them (program.Signal.NoForce); the first limit
// whose elements hold sig's is the reason.
func (tb *Bench) forceable(sig *dut.Signal) bool {
	h, e := sig.Home(), sig.ElemIndex()
	name := sig.Name()
	for _, l := range h.NoForce {
		if e < l.ElemLo || e > l.ElemHi {
			continue
		}
		switch l.Reason {
		case program.ForceComb:
			tb.failf("Force(%s): not supported yet: %s is driven by combinational logic (%s at %s), which every settle recomputes; %s", name, name, l.Process, l.Pos, tb.driversText(l.Drivers))
		case program.ForceClock:
			tb.failf("Force(%s): not supported yet: %s is a clock or reset that the design drives itself (a process assigns it and other processes run on its edges within the same evaluation); force what drives it, or the flops it clocks", name, name)
		case program.ForceReadBack:
			tb.failf("Force(%s): not supported yet: the clocked process at %s assigns %s with a blocking assignment (=) and reads it back at %s in the same evaluation, where it would see its own value instead of the forced one; force a variable it assigns with <=, or the inputs of what it computes", name, l.Pos, name, l.ReadPos)
		default:
			tb.failf("Force(%s): not supported: the compiler marks %s as not forceable (reason %d)", name, name, l.Reason)
		}
		return false
	}
	return true
}

// driversText names what a comb process reads besides the signal it
// drives (full paths), the signals to force instead, as advice.
func (tb *Bench) driversText(drivers []string) string {
	if len(drivers) == 0 {
		return "it is a constant"
	}
	p := tb.s.Program()
	names := make([]string, len(drivers))
	for i, d := range drivers {
		names[i] = p.ShortName(d)
	}
	return "force what drives it instead: " + strings.Join(names, ", ")
}
