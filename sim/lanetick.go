package sim

import (
	"encoding/binary"
	"fmt"
	"time"
	"unsafe"

	"github.com/weft-hdl/weft/lanepool"
	"github.com/weft-hdl/weft/ordering"
	"github.com/weft-hdl/weft/program"
	"github.com/weft-hdl/weft/selector"
	"github.com/weft-hdl/weft/sir"
)

// laneTick is an attached program.LaneTick: the tick loop's lanes running
// free over a whole batch of edges, one lane-pool call per batch.
type laneTick struct {
	lt     *program.LaneTick
	k      *lanepool.Kernel
	argOff int
	// sel chooses, per laneTickUnit edges, between the sequential tick
	// loop (0) and the lanes (1); nil: PartitionAlways. While lanes are
	// attached it decides for the tick loop in place of its slot's
	// selector. rest and restTime are the edges of candidate restCand
	// not yet reported to it, and their time.
	sel      *selector.Selector
	rest     int
	restTime time.Duration
	restCand int
	// batches and edges count what it ran.
	batches, edges uint64
}

// laneTickUnit is the edges one call of a lane tick's selector stands
// for: a measuring block of a few calls then hands the lanes a few
// hundred edges or more in one lane-pool call, so that what the block
// measures is the lanes' speed, not the hand-off (blocks of single edges
// made a design of 13 ns edges look 3x slower on lanes).
const laneTickUnit = 64

// laneTickEffects are lt's lanes' effects with the stores each compiled
// lane really makes (Footprinter), for the interference check.
func laneTickEffects(lt *program.LaneTick, ks []Kernel) []ordering.Effects {
	es := make([]ordering.Effects, len(lt.Units))
	for l := range lt.Units {
		es[l] = lt.Effects[l]
		if f, ok := ks[l].(Footprinter); ok {
			es[l].Footprint = f.Footprint()
		}
	}
	return es
}

// attachLaneTicks gives each tick loop its free-running lanes (those the
// build kept).
func (s *Simulator) attachLaneTicks(b *parBuild) error {
	for _, lt := range b.laneTicks {
		var tl *tickLoop
		for _, t := range s.ticks {
			if t.tk == &s.p.Ticks[lt.Tick] {
				tl = t
			}
		}
		if tl == nil {
			continue // no tick loop to stand in for
		}
		table := make([][]lanepool.Task, len(lt.Units))
		for l, u := range lt.Units {
			table[l] = []lanepool.Task{{Fn: s.taskFunc(b.taskKernels[u]), Index: l}}
		}
		k, err := s.pool.NewKernel(table)
		if err != nil {
			return fmt.Errorf("sim: %s: %w", lt.Name, err)
		}
		sel, err := s.newSelector()
		if err != nil {
			return err
		}
		tl.lanes = &laneTick{lt: lt, k: k, argOff: s.lay.Offset(lt.Arg), sel: sel}
	}
	return nil
}

// runLaneTick runs edges clock edges of tl on its free-running lanes and
// then does what the sequential tick loop does on the way: the clock's
// level, $time, the trigger's previous value, and a settle (which
// computes the comb logic the lanes leave out). It returns the edges run
// and how long the lanes took.
func (s *Simulator) runLaneTick(tl *tickLoop, edges int) (int, time.Duration, error) {
	lk := tl.lanes
	le := binary.LittleEndian
	clk := &s.trig[tl.tk.Trigger]
	level := s.bit(clk)
	le.PutUint64(s.st[lk.argOff:], uint64(edges))
	s.st[lk.argOff+program.LaneTickLevel] = level
	start := time.Now()
	res, err := s.pool.Run(lk.k, unsafe.Pointer(&s.buf[0]))
	elapsed := time.Since(start)
	if err != nil || res.Status != lanepool.OK {
		// The lanes' code only returns OK; a closed pool or a backend's
		// budget stop (which leaves the lanes at different edges) are
		// the ways here.
		k, st := s.events[max(tl.tk.Rise, tl.tk.Fall)].fused, sir.Status(res.Status)
		if err != nil {
			s.parErr, st = err, statusPoolError
		}
		return 0, elapsed, s.status(k, st)
	}
	lk.batches++
	lk.edges += uint64(edges)
	if edges%2 == 1 {
		s.st[clk.off] ^= 1 << clk.sh
	}
	s.st[clk.prev] = s.bit(clk)
	s.time += uint64(edges)
	le.PutUint64(s.st[s.timeOff:], s.time)
	s.steps += uint64(edges)
	// The sequential settle: a partitioned one would hand off again, and
	// its selector would time a call the step loop did not make.
	return edges, elapsed, s.called(s.settle, s.settle.k.Run(s.buf))
}

// LaneTickStats says how much a tick loop's free-running lanes ran.
type LaneTickStats struct {
	Name           string // "tick top.clk lanes"
	Lanes          int
	Batches, Edges uint64
	// Selector is the selector's state ("" in PartitionAlways mode),
	// Choice its latest decision (0: the sequential tick loop, 1: the
	// lanes) and Medians its latest measurement per edge.
	Selector string
	Choice   int
	Medians  []time.Duration
}

// LaneTickStats lists the tick loops whose free-running lanes are
// attached.
func (s *Simulator) LaneTickStats() []LaneTickStats {
	var out []LaneTickStats
	for _, tl := range s.ticks {
		if lk := tl.lanes; lk != nil {
			st := LaneTickStats{Name: lk.lt.Name, Lanes: len(lk.lt.Units), Batches: lk.batches, Edges: lk.edges}
			if lk.sel != nil {
				ss := lk.sel.Stats()
				st.Selector, st.Choice, st.Medians = ss.String(), ss.Choice, ss.Medians
			}
			out = append(out, st)
		}
	}
	return out
}
