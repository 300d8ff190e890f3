package compile

import (
	"fmt"
	"strings"

	"github.com/weft-hdl/weft/kernels"
	"github.com/weft-hdl/weft/plan"
)

// NewPlan describes a program's partitioning (kp.Parallel must be set):
// per kernel the candidates and their estimates, the chosen partition with
// each lane's tasks (cost, waits, estimated times) and the layout's
// segments. An error means the task tables are inconsistent (a wait on a
// missing task, a cycle): a bug in the partitioner, reported rather than
// drawn.
func NewPlan(kp *kernels.Program) (*plan.Plan, error) {
	par := kp.Parallel
	p := &plan.Plan{Top: kp.Design.Top.Module, Lanes: par.Lanes, SyncCost: par.SyncCost, Layout: kp.Layout.Kind()}
	reason := func(prefix string) string {
		for _, r := range par.Reasons {
			if rest, ok := strings.CutPrefix(r, prefix); ok {
				return rest
			}
		}
		return ""
	}
	// The settle: lanes/ candidates.
	if c := par.Comb; c != nil {
		k := &plan.Kernel{Name: "settle", SingleCost: c.SingleCost, Reason: reason("settle: ")}
		for i, cand := range c.Candidates {
			k.Candidates = append(k.Candidates, plan.Candidate{Name: cand.Name, Makespan: cand.Makespan, Charged: cand.Charged, Tasks: len(cand.Tasks), Waits: cand.Waits})
			if i == c.Chosen {
				k.Chosen = cand.Name
			}
		}
		if par.Settle != nil {
			k.Lanes = planLanes(par.Settle)
		}
		if _, err := k.Estimate(par.SyncCost); err != nil {
			return nil, err
		}
		p.Kernels = append(p.Kernels, k)
	}
	for i, ek := range kp.Events {
		name := "fused " + ek.Event.String()
		k := &plan.Kernel{Name: name, Reason: reason(name + ": ")}
		if i < len(par.EventSingle) {
			k.SingleCost = par.EventSingle[i]
		}
		if i < len(par.FF) && par.FF[i] != nil {
			f := par.FF[i]
			k.SingleCost = f.SingleCost
			k.Candidates = append(k.Candidates, plan.Candidate{Name: "ffsplit", Makespan: f.Makespan, Charged: f.Makespan, Tasks: len(f.Parts)})
		}
		if i < len(par.Fused) && par.Fused[i] != nil {
			pk := par.Fused[i]
			k.SingleCost = pk.SingleCost
			k.Chosen = "ffsplit+settle"
			k.Candidates = append(k.Candidates, plan.Candidate{Name: "ffsplit+settle", Makespan: pk.Makespan, Charged: pk.Makespan, Tasks: len(pk.Tasks()), Waits: countWaits(pk)})
			k.Lanes = planLanes(pk)
		}
		if _, err := k.Estimate(par.SyncCost); err != nil {
			return nil, err
		}
		p.Kernels = append(p.Kernels, k)
	}
	p.Ticks = par.TickReasons
	sp := kp.Layout.Space()
	for _, s := range kp.Layout.Segments() {
		seg := plan.Segment{Lane: s.Lane, Lo: s.Lo, Hi: s.Hi}
		for _, id := range s.Objects {
			if o := sp.Object(id); o != nil {
				seg.Objects = append(seg.Objects, o.Name)
			} else {
				seg.Objects = append(seg.Objects, fmt.Sprintf("object %d", id))
			}
		}
		p.Segments = append(p.Segments, seg)
	}
	return p, nil
}

func planLanes(pk *kernels.Partitioned) [][]plan.Task {
	out := make([][]plan.Task, len(pk.Lanes))
	for l, ts := range pk.Lanes {
		for _, t := range ts {
			pt := plan.Task{Index: t.Index, Label: t.Label, Cost: t.Cost}
			for _, w := range t.Waits {
				pt.Waits = append(pt.Waits, plan.Wait{Lane: w.Lane, Count: w.Count})
			}
			out[l] = append(out[l], pt)
		}
	}
	return out
}

func countWaits(pk *kernels.Partitioned) int {
	n := 0
	for _, t := range pk.Tasks() {
		n += len(t.Waits)
	}
	return n
}
