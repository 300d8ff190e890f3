package lanepool

// Spin is how long a lane spins before it parks: Polls reads of the word it
// waits on in a tight loop (a read costs about a nanosecond while the word's
// cache line does not change), then Yields reads each after giving the CPU
// to any other runnable thread (sched_yield, about a microsecond when there
// is none). The yields matter on a loaded machine: a lane that only polls can
// spend its whole time slice waiting for a thread queued behind it.
type Spin struct {
	Polls, Yields int
}

// Spin budgets New uses; WithSpin overrides them.
var (
	// DefaultWaitSpin is for a lane waiting on another lane, and for the
	// caller waiting for the workers to finish: a few microseconds, about
	// what a futex wake-up costs.
	DefaultWaitSpin = Spin{Polls: 1 << 11, Yields: 8}
	// DefaultIdleSpin is for an idle worker between Runs, where the gap is
	// the caller's own work (a test-bench step): a worker that is still
	// spinning starts at once.
	DefaultIdleSpin = Spin{Polls: 1 << 11, Yields: 64}
	// OversubscribedWaitSpin replaces DefaultWaitSpin, and idle workers park
	// at once, when a pool has more lanes than GOMAXPROCS: then a spinning
	// lane holds a P that the lane it waits for may need in order to run.
	OversubscribedWaitSpin = Spin{Polls: 1 << 6}
)
