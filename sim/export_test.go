package sim

import "time"

// ForceTickLoops makes s run its tick loops on the interpreter too, so
// tests check the loops' SIR against the step loop on the reference.
func ForceTickLoops(s *Simulator) { s.tickInterp = true }

// SetClock replaces the clock measured calls are timed with.
func SetClock(s *Simulator, now func() time.Time) { s.now = now }
