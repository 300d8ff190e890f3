// Package lanepool runs partitioned kernels: the seed's LanePool.
//
// A Kernel is a task table: per lane, an ordered list of tasks, each a
// TaskFunc (fn(state) -> Status, the shape of the native ABI) with its index in
// the kernel's sequential unit order and its waits, (lane, completed task
// count) pairs. Pool.NewKernel validates a table once, so Run never hangs on a
// bad one. A Pool runs lane 0 on the goroutine that calls Run and lanes 1..n-1
// on worker goroutines locked to their OS threads until Close.
//
// The package owns: the workers and their threads, the per-lane progress
// words, spinning and parking, skipping after a failure and choosing which
// failure to report. It knows nothing of what tasks compute; the task table
// (which waits make a kernel equal its sequential kernel) belongs to ordering/.
//
// # Progress words
//
// Each lane owns a progress word in its own 128-byte line. After a task whose
// count some other lane waits for, the lane stores epoch<<24 | count; after
// its last task, or when it stops early, it stores the done marker, the
// largest count. The epoch grows by one per Run, so words never need
// resetting and a waiter computes the value it wants from the run's epoch
// alone. A lane waiting for (L, c) polls lane L's word until it reaches
// epoch<<24 | c, then parks; the dispatcher waits for every worker's done
// marker the same way. No counter is shared, no lock is taken, and Run
// allocates nothing.
//
// # Memory ordering
//
// The stores and loads are sync/atomic operations, which the Go memory model
// makes sequentially consistent: when a load observes a store, the store is
// synchronized before the load. Suppose task T on lane A waits for (B, c).
// Lane B stores a value >= epoch<<24 | c in this run only after its first c
// tasks returned, in its own program order; every later store on that word is
// later still in that order, and values of earlier runs are smaller (when the
// epoch wraps, after 2^40 runs, the dispatcher zeroes the words first). A's
// load that sees such a value is therefore preceded, in happens-before, by
// B's first c tasks, and T runs after that load. Tasks of one lane are ordered
// by program order. Happens-before is transitive, so T
// sees every write of every task it waits for directly, of everything those
// tasks waited for, and of the earlier tasks of every lane involved. Likewise
// everything the caller wrote before Run, and the run description the
// dispatcher writes into a worker's start line, precede its store of the
// worker's start word; and every task precedes the done marker the dispatcher
// acquires before Run returns, so the caller sees all of the run's writes.
//
// A lane that stops early also stores its done marker, which satisfies every
// wait on it. That is why each lane re-checks the run's failure flag after its
// waits: the failing lane stored the flag before its done marker (and a lane
// that skipped loaded it before its own), so a waiter released by a done
// marker always sees the flag and skips too. No task ever runs on the output
// of a task that did not run.
//
// # Failures
//
// A task that returns a non-OK Status stops its lane and records the failure:
// the lowest failed index so far, then the run's epoch (so the flag never
// needs resetting on the OK path). Every lane then skips the tasks whose index
// is above the lowest failure, and still runs those below it, since the
// sequential kernel would have run them and one of them may fail first. Run
// reports the lowest index among tasks that ran and failed, which is
// therefore exactly the failure the sequential kernel reports, whatever the
// timing. (Tasks above it that were already running when it failed finish;
// their effects are what a partitioned kernel cannot take back.)
//
// # Parking
//
// A waiter, or an idle worker between Runs, first spins for a time (Spin):
// it polls the word in a tight loop for Spin.Poll, reading the clock only
// every 64 polls and never when the word is already there, then yields the
// CPU (sched_yield) and re-checks until Spin.Yield more has passed. Then it
// sets its bit in the word's sleepers mask and sleeps on its own spot: a
// futex on Linux, or a channel when the pool has more lanes than GOMAXPROCS
// (or off Linux). A publisher that finds the mask non-zero wakes those lanes.
// See await for why no wake-up is lost.
//
// The budgets are times because what they trade against is one: a hand-off
// between polling lanes costs about a cache-line round trip (about 0.9µs
// between the cores of a small VM), a park and wake-up about 12µs. Polling
// pays only while the producer runs, so a waiter polls for a few round
// trips, then yields (which hands the CPU to a producer queued behind it),
// then parks: DefaultWaitSpin (2µs of polls, 10µs of yields) between
// lanes, DefaultIdleSpin (5µs, 100µs) for an idle worker and
// DefaultDoneSpin (2µs, 100µs) for the caller waiting for the workers to
// finish (spin.go has the measurements). Spinning only pays while every
// lane has a core: with more lanes than GOMAXPROCS New polls for
// OversubscribedWaitSpin only, and idle workers park at once. UsableCPUs
// counts the CPUs the process may use (its affinity mask and cgroup CPU
// quota), and CapLanes caps a lane count to them, with a note to show when
// it does.
//
// # Counters
//
// Pool.Stats returns how the lanes waited: Runs, and, summed over lanes,
// Waits (waits that found their word not there), Spins (polls while
// spinning), Yields, Parks and Wakes (wake-ups posted to parked lanes).
// Each lane keeps its counters in its own record line and writes them only
// on the slow path, so a wait that finds its word costs nothing extra.
// Stats.Sub gives the counts between two calls and Stats.String per-Run
// figures; the benchmarks report them per op.
//
// # Pinning
//
// WithPinning(cpus) pins the OS thread of worker lane l to cpus[l%len(cpus)]
// right after the worker locks it, so lanes neither migrate nor share a core
// while another idles; AllowedCPUs lists the CPUs the process may use. Lane 0
// is the caller's goroutine, which the pool does not pin: a caller that wants
// it pinned locks its goroutine to its thread and pins that itself. A CPU
// that cannot be set leaves its lane unpinned, and Pool.PinErr reports it;
// off Linux pinning does nothing.
package lanepool
