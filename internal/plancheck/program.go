package plancheck

import (
	"fmt"

	"github.com/weft-hdl/weft/kernels"
	"github.com/weft-hdl/weft/sir"
)

// CheckProgram checks every partitioned kernel of p (none when
// p.Parallel is nil). Reads and exact writes come from sir.Effects of each
// task's final unit over p's layout, independently of ordering/; the
// write/write footprint is those writes plus the codegen footprint the
// task records.
func CheckProgram(p *kernels.Program) error {
	if p.Parallel == nil {
		return nil
	}
	for _, k := range p.Parallel.Kernels() {
		lanes := make([][]Task, len(k.Lanes))
		for l, ts := range k.Lanes {
			for _, t := range ts {
				fp := sir.Effects(t.Unit, p.Layout)
				task := Task{Lane: l, Index: t.Index}
				for _, r := range fp.Reads {
					task.Reads = append(task.Reads, [2]int{r.Lo, r.Hi})
				}
				for _, r := range fp.Writes {
					task.Writes = append(task.Writes, [2]int{r.Lo, r.Hi})
					task.Footprint = append(task.Footprint, [2]int{r.Lo, r.Hi})
				}
				for _, r := range t.Effects.Footprint {
					task.Footprint = append(task.Footprint, [2]int{r.Lo, r.Hi})
				}
				for _, w := range t.Waits {
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
