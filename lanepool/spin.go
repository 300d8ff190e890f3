package lanepool

import "time"

// Spin is how long a lane spins before it parks. It first polls the word it
// waits on in a tight loop for Poll (a load costs about a nanosecond while the
// word's cache line does not change, so this sees a publish within one
// cache-line transfer), then gives the CPU to any other runnable thread
// (sched_yield) and re-checks, over and over, until Yield more has passed.
// The yields matter on a loaded machine: a lane that only polls can spend its
// whole time slice waiting for a thread queued behind it on the same CPU.
// After both it parks until the publisher wakes it. A zero Spin parks at once.
//
// The budgets are times, not counts, because what they are weighed against is
// a time (what parking costs) and the cost of a poll or a yield varies with
// the machine, its load and the race detector by ten times or more.
type Spin struct {
	Poll, Yield time.Duration
}

// Spin budgets New uses; WithSpin overrides them. They follow from costs
// measured on a 2-vCPU VM: a cache line's round trip between cores takes
// about 0.9µs, a futex park and wake-up about 12µs of the waiter's time,
// and a sched_yield with nothing else to run about a microsecond. Polling
// hands off in about one round trip, but only while the producer runs: on
// a host where another process keeps a core busy, a lane that polls for
// long burns the time slice its producer is waiting for (2 lanes always
// partitioned on cores.sv with a busy core ran at 19k cycles/s polling
// 20µs, 62k polling 2µs). So lanes poll for a few round trips, then yield,
// which costs little when nothing else wants the CPU and hands it to the
// producer when it is queued behind the waiter, and park after that.
var (
	// DefaultWaitSpin is for a lane waiting on another lane, and for the
	// caller waiting for the workers to finish: 2µs of polling covers a
	// hand-off between lanes that each have a core; 10µs of yields follow.
	DefaultWaitSpin = Spin{Poll: 2 * time.Microsecond, Yield: 10 * time.Microsecond}
	// DefaultIdleSpin is for an idle worker between Runs, where the gap is
	// the caller's own work (a test-bench step, typically a few to a hundred
	// microseconds). A worker that is still spinning starts within a round
	// trip, one that parked needs a futex wake-up first, so after 5µs of
	// polling it yields for 100µs more before it parks. The price: the
	// worker holds its P for up to 105µs after every Run, so a goroutine
	// that becomes runnable meanwhile while the other Ps are busy may wait
	// that long for one (BenchmarkDispatchBusyCore/chan).
	DefaultIdleSpin = Spin{Poll: 5 * time.Microsecond, Yield: 100 * time.Microsecond}
	// DefaultDoneSpin is for the caller of Run waiting for the workers'
	// done markers once its own lane is through. A caller that parks there
	// needs a wake-up to go on, and on a VM whose idle CPUs take 60-100µs
	// to wake (seen at busy hours) that wake-up is on the critical path
	// and cascades: the idle worker parks before the late caller's next
	// Run, which then wakes it too. A worker that is behind by a few tens
	// of microseconds is almost always running, so the caller yields as
	// long as an idle worker does (a yield hands the CPU to anything
	// queued behind the caller) and parks only after that.
	DefaultDoneSpin = Spin{Poll: 2 * time.Microsecond, Yield: 100 * time.Microsecond}
	// OversubscribedWaitSpin replaces DefaultWaitSpin and DefaultDoneSpin,
	// and idle workers park at once, when a pool has more lanes than
	// GOMAXPROCS: then a spinning
	// lane holds a P that the lane it waits for may need in order to run, so
	// a lane polls only for about one cache-line round trip and does not
	// yield (a yield keeps the P).
	OversubscribedWaitSpin = Spin{Poll: time.Microsecond}
)

// pollBatch is how many polls pass between two readings of the clock: about
// 64ns of polling against a clock read of some 20 to 40ns, so the clock costs
// little and a budget overshoots by about one batch.
const pollBatch = 64

// spin waits as s says for ln.v to reach want, and reports whether it did; on
// false the caller parks. It adds its polls and yields to st. Callers load the
// word once before they call it, so a word that is already there never costs
// a clock read; the budget starts after the first batch of polls, so a wait
// that ends within that batch costs none either.
func spin(ln *line, want uint64, s Spin, st *laneStats) bool {
	var t0 time.Time
	if s.Poll > 0 {
		var polls uint64
		for {
			for range pollBatch {
				polls++
				if ln.v.Load() >= want {
					st.spins.add(polls)
					return true
				}
			}
			now := time.Now()
			if t0.IsZero() {
				t0 = now
			} else if now.Sub(t0) >= s.Poll {
				t0 = now
				break
			}
		}
		st.spins.add(polls)
	}
	if s.Yield <= 0 {
		return false
	}
	if t0.IsZero() {
		t0 = time.Now()
	}
	var yields uint64
	ready := false
	for {
		osYield()
		yields++
		if ln.v.Load() >= want {
			ready = true
			break
		}
		if time.Since(t0) >= s.Yield {
			break
		}
	}
	st.yields.add(yields)
	return ready
}
