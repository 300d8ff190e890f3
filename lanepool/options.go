package lanepool

import "time"

type config struct {
	wait, idle, done Spin
	jitter           time.Duration
	seed             uint64
	park             parkKind
	spinSet, parkSet bool  // chosen by an option, not by New
	pin              []int // CPUs worker threads are pinned to, by lane
}

// Option configures a Pool.
type Option func(*config)

// WithSpin sets how long a waiting lane (wait) and an idle worker (idle) spin
// before they park, overriding the budgets New picks; the caller of Run waits
// for the workers with wait too.
func WithSpin(wait, idle Spin) Option {
	return func(c *config) { c.wait, c.idle, c.done, c.spinSet = wait, idle, wait, true }
}

// WithPinning pins the thread of worker lane l (1..n-1) to CPU
// cpus[l%len(cpus)], so the kernel neither migrates a lane away from the
// caches its tasks filled nor stacks two lanes on one core while another is
// idle. Lane 0 runs on the goroutine that calls Run and is not pinned: to pin
// it too, lock that goroutine to its thread (runtime.LockOSThread) and set
// the thread's affinity to cpus[0], which no worker gets while len(cpus) >=
// the lane count. AllowedCPUs lists the CPUs a caller may pass.
//
// New returns once every worker has tried; a CPU the process may not use does
// not stop the pool (that lane just runs unpinned), and PinErr reports it.
// Off Linux pinning does nothing. An empty cpus pins nothing.
func WithPinning(cpus []int) Option {
	cpus = append([]int(nil), cpus...)
	return func(c *config) { c.pin = cpus }
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
