package bench

// forceSet holds the signals a spec forced (Force) until Release.
type forceSet struct{}

// active reports whether any signal is forced (the fast path is off then).
func (f *forceSet) active() bool { return false }

// applyForces writes forced values the last evaluation overwrote; it
// reports whether it wrote anything (then the bench evaluates again at
// the same time, a delta step).
func (tb *Bench) applyForces() bool { return false }
