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
// A measurement runs Policy.Rounds rounds. In each round every candidate, in
// index order, runs one block of Policy.BlockCalls consecutive calls. The
// first Policy.WarmupCalls calls of each block are not recorded: they pay for
// caches refilled by the previous candidate and for parked lane workers
// waking up. The remaining calls of all rounds give one median per candidate.
// A measurement therefore costs exactly Rounds × BlockCalls × candidates calls.
//
// # Decision rule
//
// A candidate other than the reference is eligible only when its median is
// below KeepRatio (0.95 by default) times the reference median and its
// trimmed mean (the mean without the slowest 2% of calls) is not above the
// reference's; the decision is the eligible candidate with the lowest
// median, or the reference when none is eligible (ties go to the lower
// index). Medians keep a few preempted or interrupted calls from swaying
// the decision, and the margin keeps lane workers idle unless they clearly
// pay off. The trimmed mean catches what a median hides: a partitioned
// kernel whose calls now and then wait for a descheduled lane can have half
// the median and still lose on throughput, and such a tail recurs, so
// trimming 2% does not remove it.
//
// # Re-checking
//
// A decision made while the host was busy must not stay wrong forever, so
// after each decision the selector runs the chosen kernel for an interval and
// then measures again; a re-check applies the same rule and may flip the
// choice. The interval is counted in calls, not clock time, so the decided
// hot path never reads the clock: it starts at Policy.FirstRecheck calls and
// doubles with every check up to Policy.MaxRecheck, which bounds how long a
// wrong decision can last while the measuring overhead keeps shrinking.
//
// # Concurrency
//
// A Selector is not safe for concurrent use. The simulator owns one selector
// per kernel slot and calls it from its stepping goroutine; making the hot
// path atomic would cost more than the kernels it guards in small designs.
package selector
