package sim

import "time"

// ForceTickLoops makes s run its tick loops on the interpreter too, so
// tests check the loops' SIR against the step loop on the reference.
func ForceTickLoops(s *Simulator) { s.tickInterp = true }

// SetClock replaces the clock measured calls are timed with.
func SetClock(s *Simulator, now func() time.Time) { s.now = now }

// SetLaneBatch sets the batch the free-running lanes of s's tick loops
// start from (it adapts from there), so tests can make batches odd.
func SetLaneBatch(s *Simulator, n int) {
	for _, tl := range s.ticks {
		tl.laneBatch = n
	}
}
