package sim

// ForceTickLoops makes s run its tick loops on the interpreter too, so
// tests check the loops' SIR against the step loop on the reference.
func ForceTickLoops(s *Simulator) { s.tickInterp = true }
