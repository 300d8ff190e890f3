package lanepool

import (
	"math/bits"
	"sync/atomic"
	"unsafe"
)

// A progress word is epoch<<countBits | count: the run's progress epoch and
// the lane's completed tasks in that run, or doneCount once the lane has
// stopped. Epochs grow by one per Run, so a word never needs resetting between
// runs and a waiter wants epoch<<countBits | c, computed without reading any
// shared memory. After maxEpoch runs the dispatcher zeroes the words while
// every lane is idle and starts again from epoch 1.
const (
	countBits = 24
	doneCount = 1<<countBits - 1
	// MaxTasksPerLane is the most tasks one lane of a kernel may have.
	MaxTasksPerLane = doneCount - 1
	maxEpoch        = 1<<(64-countBits) - 1
)

func word(epoch uint64, count uint32) uint64 { return epoch<<countBits | uint64(count) }

// line is a word that one goroutine publishes and others wait on, alone in its
// 128 bytes (two 64-byte lines, since x86 prefetches lines in pairs) so that
// publishing never invalidates another lane's data.
type line struct {
	v atomic.Uint64
	// sleepers has bit l set while lane l is parked (or about to park) waiting
	// for v to grow. Only waiters that gave up spinning write it, so a
	// publisher normally finds it in its own cache line, zero.
	sleepers atomic.Uint64
	// A worker's start line also carries the run it starts, written by the
	// dispatcher before it stores v, so the worker finds it in the line it
	// just fetched.
	k     *Kernel
	state unsafe.Pointer
	epoch uint64
	_     [128 - 5*8]byte
}

// publish stores v (a sequentially consistent store, so it releases every
// earlier write of this goroutine) and wakes the lanes parked on the line.
// Lane me is the publisher, whose Wakes count the wake-ups.
func (p *Pool) publish(ln *line, v uint64, me int) {
	ln.v.Store(v)
	if ln.sleepers.Load() != 0 {
		m := ln.sleepers.Swap(0)
		// Counted before the posts, so every wake-up a lane consumes is
		// already counted when it parks again.
		p.lanes[me].rec.stats.wakes.add(uint64(bits.OnesCount64(m)))
		for m != 0 {
			l := bits.TrailingZeros64(m)
			m &= m - 1
			p.lanes[l].spot.post(p.cfg.park)
		}
	}
}

// await returns once ln.v >= want, acquiring the store that made it so. The
// caller has loaded ln.v once and found it short. Lane me spins as s says,
// then parks on its spot. Parking is a Dekker handshake with publish: the
// waiter sets its sleepers bit then re-reads v, the publisher stores v then
// reads sleepers; with sequentially consistent atomics at least one of them
// sees the other, so a wake-up is never lost.
func (p *Pool) await(ln *line, want uint64, me int, s Spin) {
	st := &p.lanes[me].rec.stats
	st.waits.add(1)
	if spin(ln, want, s, st) {
		return
	}
	bit := uint64(1) << me
	for {
		// Counted before the bit is set, so the wake-up a publisher
		// counts after clearing it always has its park counted.
		st.parks.add(1)
		ln.sleepers.Or(bit)
		if ln.v.Load() >= want {
			break
		}
		p.lanes[me].spot.wait(p.cfg.park)
		if ln.v.Load() >= want {
			break
		}
	}
	// The publisher clears the bits it wakes; clear ours in case it read
	// sleepers before we set it, so no later publish wakes us for nothing.
	ln.sleepers.And(^bit)
}

// failLine records a run's failures: the epoch of the last run in which a
// task failed and the lowest sequential index that failed in it (MaxInt64
// when none did; Run resets it after a failed run).
type failLine struct {
	epoch atomic.Uint64
	index atomic.Int64
	_     [128 - 2*8]byte
}

// fail records that the task with sequential index idx failed in run e:
// first the index (a minimum, since lanes fail concurrently), then the epoch,
// so a lane that sees the epoch also sees an index at most idx.
func (f *failLine) fail(e uint64, idx int) {
	for {
		cur := f.index.Load()
		if int64(idx) >= cur || f.index.CompareAndSwap(cur, int64(idx)) {
			break
		}
	}
	f.epoch.Store(e)
}

// skips reports whether a task with sequential index idx must not run in run
// e: some task with a lower index has failed. Tasks with a lower index than
// every failure still run, because the sequential kernel would have run them.
func (f *failLine) skips(e uint64, idx int) bool {
	return f.epoch.Load() == e && int64(idx) > f.index.Load()
}
