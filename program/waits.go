package program

import (
	"fmt"

	"github.com/weft-hdl/weft/ordering"
)

// WaitsFor returns the waits of k's tasks (shaped like k.Lanes) computed
// with the store footprints the generated code reports: final(t) gives
// every state byte the code for t may store (absolute offsets), which
// replaces the footprint derived from its SIR for write/write ordering;
// tasks for which it returns false keep theirs. A backend that widens or
// coalesces stores needs these waits instead of Task.Waits. k is not
// changed.
func (k *Partitioned) WaitsFor(final func(t *Task) ([]ordering.Range, bool)) ([][][]ordering.Wait, error) {
	table := make([][]ordering.Task, len(k.Lanes))
	fps := make([][][]ordering.Range, len(k.Lanes))
	changed := false
	for li, ts := range k.Lanes {
		fps[li] = make([][]ordering.Range, len(ts))
		for i, t := range ts {
			table[li] = append(table[li], ordering.Task{Index: t.Index, Effects: t.Effects})
			if fp, ok := final(t); ok {
				fps[li][i] = append([]ordering.Range{}, fp...) // non-nil: "no stores" is a footprint too
				changed = true
			}
		}
	}
	if !changed {
		out := make([][][]ordering.Wait, len(k.Lanes))
		for li, ts := range k.Lanes {
			for _, t := range ts {
				out[li] = append(out[li], t.Waits)
			}
		}
		return out, nil
	}
	waits, err := ordering.Recompute(table, func(lane, pos int) (ordering.Effects, bool) {
		fp := fps[lane][pos]
		if fp == nil {
			return ordering.Effects{}, false
		}
		e := k.Lanes[lane][pos].Effects
		e.Footprint = fp
		return e, true
	})
	if err != nil {
		return nil, fmt.Errorf("program: ordering %s: %w", k.Name, err)
	}
	return waits, nil
}
