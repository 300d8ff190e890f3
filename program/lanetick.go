package program

import (
	"fmt"

	"github.com/weft-hdl/weft/ordering"
	"github.com/weft-hdl/weft/sir"
)

// LaneTick is a tick loop whose lanes run free: the partitioned fused
// kernel of its clock's one event, where no lane touches what another
// writes, so that each lane runs its share of a whole batch of edges
// without waiting for the others (one lane-pool call per batch instead of
// one per edge). The caller writes the batch into Arg (u64 edges, then the
// clock's level before the batch in byte 8); each lane's unit runs that
// many edges of its own evaluate, apply and settle tasks, leaving out the
// comb logic no flop, trigger or runtime event reads (sinks: outputs and
// what only they read). Afterwards the caller does what the sequential
// tick loop did on the way: toggles the clock as many times, advances
// $time, records the trigger's level, and settles once, which computes
// the sinks. The units read neither the clock nor the system block, write
// neither rings, status words nor the system block, and return only OK.
type LaneTick struct {
	Tick int // index in Program.Ticks
	Name string
	Arg  sir.HomeID
	// Units has one unit per lane; Effects their effects over the layout
	// (lane L's under LaneLayout(L)).
	Units   []*sir.Unit
	Effects []ordering.Effects
}

// LaneTickArgSize is the size of a LaneTick's Arg object: the u64 edge
// count, then the clock's level in byte 8.
const LaneTickArgSize = 16

// LaneTickLevel is the offset of the clock's level in a LaneTick's Arg.
const LaneTickLevel = 8

// LaneTickBatch is the edges of a lane tick's first batch: long against a
// hand-off and a worker's wake-up in any design. The simulator grows
// batches from there (to about 100 µs); the planner spreads a batch's
// hand-offs over it.
const LaneTickBatch = 1024

// Interference returns why lt's lanes may not run free (nil: they may):
// some lane reads or writes bytes another lane writes, under effects e
// (one per lane; a backend's store footprint in Footprint, when it
// widens stores); name names the byte the lanes share.
func (lt *LaneTick) Interference(e []ordering.Effects, name func(off int) string) error {
	for a := range e {
		for b := range e {
			if a == b {
				continue
			}
			if at, ok := ordering.ConflictAt(e[a], e[b]); ok {
				return fmt.Errorf("lanes %d and %d of %s share state at byte %d (%s)", a, b, lt.Name, at, name(at))
			}
		}
	}
	return nil
}

// laneTickUnits lists the units of par's lane ticks.
func (par *Parallel) laneTickUnits() []*sir.Unit {
	var us []*sir.Unit
	for _, lt := range par.Ticks {
		if lt != nil {
			us = append(us, lt.Units...)
		}
	}
	return us
}

// NameAt names the object holding state byte off ("byte off" when none
// does).
func (l *Layout) NameAt(off int) string {
	for _, o := range append(l.Objects, l.Ring) {
		if o.Offset >= 0 && off >= o.Offset && off < o.Offset+o.Size() {
			return o.Name
		}
	}
	return fmt.Sprintf("byte %d", off)
}

// HasLaneTicks reports whether some tick loop has free-running lanes.
func (par *Parallel) HasLaneTicks() bool {
	if par == nil {
		return false
	}
	for _, lt := range par.Ticks {
		if lt != nil {
			return true
		}
	}
	return false
}
