// Package selector owns weft's measured kernel selection (the seed's
// KernelSelector): for one kernel slot it decides, by timing real calls,
// which of several equivalent kernels the simulator runs — the sequential
// kernel (candidate 0, the reference), its lane-partitioned alternative, and
// for combined comb-and-event calls also the fused sequential function.
//
// The selector is never needed for correctness. Every candidate computes the
// same thing; the selector only picks which one runs, and every call made
// while it measures still runs exactly one candidate and does real work.
//
// # Measuring
//
// A measurement runs up to Policy.Rounds rounds. In each round every
// candidate still in the measurement, in index order (so the reference
// first), runs one block of consecutive calls. The first calls of each block
// are a warm-up that is not recorded: it pays for caches refilled by the
// previous candidate and for parked lane workers waking up. The recorded
// calls of all rounds give one median per candidate.
//
// By default a block is sized by time as well as by calls, so that it lasts
// long enough to swamp the clock reads around each call but no longer than
// needed: with Policy.BlockTime set (50 µs by default), the warm-up ends
// after Policy.WarmupCalls calls or once it took BlockTime, whichever comes
// first (at least one call; for calls reported as one batch, at the end of
// a batch, since a batch's time cannot be told apart by call), and the
// block once its recorded calls took
// BlockTime and number at least Policy.MinCalls, or at Policy.BlockCalls
// calls in all. A 1 ms kernel thus measures a handful of calls per block, a
// 50 ns kernel a full block of BlockCalls. Without BlockTime every block has
// exactly BlockCalls calls, WarmupCalls of them warm-up, and a measurement
// that abandons nothing costs exactly Rounds × BlockCalls × candidates calls.
//
// # Abandoning
//
// A partitioned kernel that loses usually loses clearly, and every call of it
// while measuring is time lost, so with Policy.AbandonRatio set (1.3 by
// default) a non-reference candidate whose block median is above AbandonRatio
// × the reference's median so far is abandoned: it runs no more blocks in
// this measurement and cannot be chosen by it. Once every alternative is
// abandoned the measurement ends at once and keeps the reference — after one
// block each when the alternatives lose in the first round — counting as a
// check like any other (Stats.Abandoned counts these). Abandoning lasts one
// measurement: the next re-check gives every candidate its blocks again, so a
// kernel that lost on a busy host can win once the host is idle.
//
// # Decision rule
//
// A candidate other than the reference is eligible only when it was not
// abandoned, its median is below KeepRatio (0.95 by default) times the
// reference median and its trimmed mean (the mean without the slowest 2% of
// calls) is not above the reference's; the decision is the eligible candidate
// with the lowest median, or the reference when none is eligible (ties go to
// the lower index). Medians keep a few preempted or interrupted calls from
// swaying the decision, and the margin keeps lane workers idle unless they
// clearly pay off. The trimmed mean catches what a median hides: a
// partitioned kernel whose calls now and then wait for a descheduled lane can
// have half the median and still lose on throughput, and such a tail recurs,
// so trimming 2% does not remove it.
//
// # Re-checking
//
// A decision made while the host was busy must not stay wrong forever, so
// after each decision the selector runs the chosen kernel for an interval and
// then measures again; a re-check applies the same rule and may flip the
// choice. The interval is counted in calls, not clock time, so the decided
// hot path never reads the clock: it starts at Policy.FirstRecheck calls and
// doubles with every check up to Policy.MaxRecheck, which bounds how long a
// wrong decision can last while the measuring overhead keeps shrinking. A
// check that changes the choice starts the interval over at FirstRecheck:
// either the host changed or a measurement was off (one stall in a batch of
// calls can fill a block), and the new choice is confirmed soon.
//
// # Concurrency
//
// A Selector is not safe for concurrent use. The simulator owns one selector
// per kernel slot and calls it from its stepping goroutine; making the hot
// path atomic would cost more than the kernels it guards in small designs.
package selector
