package lanepool

import "time"

type config struct {
	wait, idle       Spin
	jitter           time.Duration
	seed             uint64
	park             parkKind
	spinSet, parkSet bool // chosen by an option, not by New
}

// Option configures a Pool.
type Option func(*config)

// WithSpin sets how long a waiting lane (wait) and an idle worker (idle) spin
// before they park, overriding the budgets New picks.
func WithSpin(wait, idle Spin) Option {
	return func(c *config) { c.wait, c.idle, c.spinSet = wait, idle, true }
}

// WithJitter makes every lane pause for a random time of up to max (busy
// waiting, yielding or sleeping) before each task and before each count it
// publishes, to shake out ordering bugs in task tables and in the pool. seed
// makes the choice of pauses reproducible per lane, not the interleaving.
// It is for tests; the pauses allocate nothing.
func WithJitter(max time.Duration, seed uint64) Option {
	return func(c *config) { c.jitter, c.seed = max, seed }
}

// withPark selects the parking mechanism (tests and benchmarks compare them).
func withPark(kind parkKind) Option {
	return func(c *config) { c.park, c.parkSet = kind, true }
}
