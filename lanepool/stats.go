package lanepool

import (
	"fmt"
	"strconv"
	"strings"
	"sync/atomic"
)

// Stats is an account of how a pool's lanes waited, summed over its lanes
// since New. Take two and Sub them for the figures of the Runs in between;
// String gives them per Run.
//
// A wait here is an await: a lane needing a word (another lane's progress
// count, a worker's done marker, or, for an idle worker, its next start) that
// was not there at its first load. Waits that find the word there cost a
// load and are not counted. Every wait ends in one of three ways: polling
// sees the word, a yield's re-check sees it, or the lane parks.
type Stats struct {
	// Runs counts the Run calls that ran a kernel (not those that returned
	// ErrBusy, ErrClosed or a bad-kernel error).
	Runs uint64
	// Waits counts awaits entered because the word was not there yet. An
	// idle worker's wait for its next Run counts too, so a pool whose Runs
	// are further apart than a worker's first load adds about one wait per
	// started worker per Run.
	Waits uint64
	// Spins counts the polls of the tight loop: loads of the awaited word
	// before the first yield. At about a nanosecond each while the word's
	// line is unchanged, Spins is roughly the nanoseconds spent polling
	// (more under the race detector, where a load is slower).
	Spins uint64
	// Yields counts sched_yield calls made while waiting.
	Yields uint64
	// Parks counts the times a lane announced itself asleep on a word (set
	// its bit in the word's sleepers mask) after spinning in vain. Most are
	// followed by a sleep on the lane's spot; the re-check after setting the
	// bit may find the word there instead, and a lane woken for nothing
	// (by a wake-up left over from an earlier wait) parks again and counts
	// again.
	Parks uint64
	// Wakes counts the wake-ups publishers posted to parked lanes' spots.
	// Each consumes one Parks announcement, so Wakes <= Parks always (Stats
	// reads the Wakes counters before the Parks counters for that reason),
	// and Parks <= Waits + Wakes once no lane is waiting.
	Wakes uint64
}

// Stats returns the pool's counters. It may be called at any time, from any
// goroutine, even during a Run (whose waits are then partly counted); right
// after a Run, an idle worker's wait for the next Run may already be counted
// in part. Reading them costs one load per counter per lane; keeping them
// costs nothing on a wait that finds its word already there.
func (p *Pool) Stats() Stats {
	var s Stats
	// Wakes first: a wake-up is counted after the Parks announcement it
	// consumed, so reading the Parks counters later counts that
	// announcement too.
	for l := range p.lanes {
		s.Wakes += p.lanes[l].rec.stats.wakes.load()
	}
	for l := range p.lanes {
		c := &p.lanes[l].rec.stats
		s.Runs += c.runs.load()
		s.Waits += c.waits.load()
		s.Spins += c.spins.load()
		s.Yields += c.yields.load()
		s.Parks += c.parks.load()
	}
	return s
}

// Sub returns s - t field by field: the counts between two Stats of one pool,
// t taken first.
func (s Stats) Sub(t Stats) Stats {
	return Stats{
		Runs:   s.Runs - t.Runs,
		Waits:  s.Waits - t.Waits,
		Spins:  s.Spins - t.Spins,
		Yields: s.Yields - t.Yields,
		Parks:  s.Parks - t.Parks,
		Wakes:  s.Wakes - t.Wakes,
	}
}

// Add gives the counts of s and t together (a benchmark's timed runs,
// with untimed ones between them).
func (s Stats) Add(t Stats) Stats {
	return Stats{
		Runs:   s.Runs + t.Runs,
		Waits:  s.Waits + t.Waits,
		Spins:  s.Spins + t.Spins,
		Yields: s.Yields + t.Yields,
		Parks:  s.Parks + t.Parks,
		Wakes:  s.Wakes + t.Wakes,
	}
}

// String gives the counts per Run, as in "runs=1000 waits/run=0.5
// spins/run=812 yields/run=0.01 parks/run=0.002 wakes/run=0.002", or the
// totals when no Run is counted.
func (s Stats) String() string {
	var b strings.Builder
	b.WriteString("runs=")
	b.WriteString(strconv.FormatUint(s.Runs, 10))
	f := []struct {
		name string
		v    uint64
	}{{"waits", s.Waits}, {"spins", s.Spins}, {"yields", s.Yields}, {"parks", s.Parks}, {"wakes", s.Wakes}}
	for _, x := range f {
		if s.Runs == 0 {
			fmt.Fprintf(&b, " %s=%d", x.name, x.v)
		} else {
			b.WriteString(" " + x.name + "/run=" + perRun(float64(x.v)/float64(s.Runs)))
		}
	}
	return b.String()
}

// laneStats is one lane's share of Stats, kept in the lane's record line.
type laneStats struct {
	runs, waits, spins, yields, parks, wakes counter
}

// counter is a statistic with one writer at a time: a worker lane's counters
// are written by its worker, lane 0's by whoever is in Run or Close, and those
// calls are ordered by the pool's state word. So an increment is a load and a
// store, with no locked read-modify-write, and both are atomic only so that
// Stats may read them while a Run is in progress.
type counter struct{ v atomic.Uint64 }

func (c *counter) add(n uint64) { c.v.Store(c.v.Load() + n) }

func (c *counter) load() uint64 { return c.v.Load() }

// perRun shows three significant digits, without an exponent for large
// figures (spins run to thousands).
func perRun(v float64) string {
	if v >= 100 {
		return strconv.FormatFloat(v, 'f', 0, 64)
	}
	return strconv.FormatFloat(v, 'g', 3, 64)
}
