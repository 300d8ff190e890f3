// Package dut gives a test bench typed handles on a simulated design,
// found by hierarchical name:
//
//	d := dut.New(s)                    // s is a *sim.Simulator
//	state := d.MustSignal("u_tx.state") // with or without the top prefix
//	d.MustSignal("din").Set(0x5a)        // top-level inputs only
//	fmt.Println(state.Get())
//
// A Signal is one home of the design (a variable, net or port; a port
// connected straight to a parent signal is the same home under both names)
// or one element of an array home (Elem, or "mem[3]" in the name). Values
// move as uint64 (Get, Set) for signals of at most 64 bits and as *big.Int
// (GetBig, SetBig) for any width; GetSigned sign-extends a signed signal.
//
// # Writes
//
// Set, SetWords and SetBig write top-level inputs only: the values a test
// bench drives, seen by the next Step. Everything else is internal state,
// and writing it is deliberate: Deposit writes any signal once (a flop
// keeps the value until its process assigns it again; a net driven by
// comb logic is recomputed at the next settle), and Poke/Load write
// memory words. Holding a value against the design (a Verilog force) is
// the test bench's job: bench.Force. Every write checks that the value
// fits the signal's width; none allocates for signals of at most 64 bits.
//
// # Errors
//
// Unknown names (with a "did you mean" suggestion), values that do not fit,
// writes to non-inputs, element indexes out of range and calls on a closed
// simulator return errors that name the signal. Get, GetBig and GetSigned
// return no error (they are what specs call most): on a closed simulator
// or an array signal they return 0; Value is Get with the error.
//
// # Hierarchy
//
// Scope walks the instance tree: Top, Scope(path), Children, Signals.
package dut
