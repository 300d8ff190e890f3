package plancheck

import (
	"fmt"

	"github.com/weft-hdl/weft/ordering"
	"github.com/weft-hdl/weft/program"
	"github.com/weft-hdl/weft/sim"
	"github.com/weft-hdl/weft/sir"
)

// CheckProgram checks every partitioned kernel of p (none when
// p.Parallel is nil) with the waits the program records. Reads and exact
// writes come from sir.Effects of each task's final unit over p's layout,
// independently of ordering/; the write/write footprint is those writes
// plus the footprint the task records.
func CheckProgram(p *program.Program) error {
	return check(p, func(k *program.Partitioned) [][][]ordering.Wait {
		ws := make([][][]ordering.Wait, len(k.Lanes))
		for l, ts := range k.Lanes {
			for _, t := range ts {
				ws[l] = append(ws[l], t.Waits)
			}
		}
		return ws
	}, func(t *program.Task) []ordering.Range { return t.Effects.Footprint })
}

// CheckSimulator checks the partitioned kernels s runs, with the waits
// it runs them with (sim.Simulator.TaskWaits) and the store footprints
// its backend reports for the generated code, where it reports them.
func CheckSimulator(s *sim.Simulator) error {
	return check(s.Program(), s.TaskWaits, func(t *program.Task) []ordering.Range {
		if fp, ok := s.TaskFootprint(t); ok {
			return fp
		}
		return t.Effects.Footprint
	})
}

// check checks p's partitioned kernels; waits returns nil for a kernel
// that is not run (it is skipped).
func check(p *program.Program, waits func(*program.Partitioned) [][][]ordering.Wait, footprint func(*program.Task) []ordering.Range) error {
	for _, k := range p.Parallel.Kernels() {
		kw := waits(k)
		if kw == nil {
			continue
		}
		lanes := make([][]Task, len(k.Lanes))
		for l, ts := range k.Lanes {
			for i, t := range ts {
				fp := sir.Effects(t.Unit, p.Parallel.LaneLayout(p.Layout, l)) // each lane writes its own event ring
				task := Task{Lane: l, Index: t.Index}
				for _, r := range fp.Reads {
					task.Reads = append(task.Reads, [2]int{r.Lo, r.Hi})
				}
				for _, r := range fp.Writes {
					task.Writes = append(task.Writes, [2]int{r.Lo, r.Hi})
					task.Footprint = append(task.Footprint, [2]int{r.Lo, r.Hi})
				}
				for _, r := range footprint(t) {
					task.Footprint = append(task.Footprint, [2]int{r.Lo, r.Hi})
				}
				for _, w := range kw[l][i] {
					task.Waits = append(task.Waits, [2]int{w.Lane, w.Count})
				}
				lanes[l] = append(lanes[l], task)
			}
		}
		if err := Check(lanes); err != nil {
			return fmt.Errorf("%s: %w", k.Name, err)
		}
	}
	return nil
}
