package kernels

import (
	"strings"

	"github.com/weft-hdl/weft/design"
	"github.com/weft-hdl/weft/ffsplit"
	"github.com/weft-hdl/weft/lanes"
	"github.com/weft-hdl/weft/slt"
)

// ffInsts is the instance tree handed to ffsplit (Input.InstParent): the
// hierarchical scopes of the processes, interned in first-seen order, every
// scope after its parent. Scopes include generate blocks, not only design
// instances: in a module that builds its cores with a generate loop every
// process belongs to the module's instance, and only the scope
// ("top.core[2]") tells the cores apart.
type ffInsts struct {
	id     map[string]int
	parent []int
}

func newFFInsts() *ffInsts { return &ffInsts{id: map[string]int{}} }

// of is the id of p's scope (-1 for a process without one).
func (t *ffInsts) of(p *design.Process) int {
	return t.intern(procScope(p))
}

// intern returns the id of scope path, interning it and its ancestors
// ("a", "a.b", "a.b.c" for "a.b.c"; dots inside brackets do not split).
func (t *ffInsts) intern(path string) int {
	if path == "" {
		return -1
	}
	if id, ok := t.id[path]; ok {
		return id
	}
	parent := t.intern(design.ParentPath(path)) // first, so its id is lower
	id := len(t.parent)
	t.id[path] = id
	t.parent = append(t.parent, parent)
	return id
}

// procScope is the hierarchical scope a process was written in: its name
// up to the ":kind@line" suffix ("top.g[1]" for "top.g[1]:always_ff@4")
// when the name extends its instance's path, otherwise that path.
func procScope(p *design.Process) string {
	if p == nil {
		return ""
	}
	inst := ""
	if p.Inst != nil {
		inst = p.Inst.Path
	}
	if rest, ok := strings.CutPrefix(p.Name, inst); ok {
		if i := strings.LastIndexByte(rest, ':'); i >= 0 && (i == 0 || rest[0] == '.') {
			return inst + rest[:i]
		}
	}
	return inst
}

// laneInsts lists, per lane of the chosen comb candidate of plan (none
// when plan is nil or chose none), the scopes of the nodes its tasks run
// with their costs (ffsplit Input.LaneInst).
func (t *ffInsts) laneInsts(s *slt.Schedule, n int, plan *lanes.Plan, work []lanes.Work) [][]ffsplit.InstCost {
	if plan == nil || plan.Chosen < 0 || plan.Chosen >= len(plan.Candidates) {
		return nil
	}
	out := make([][]ffsplit.InstCost, n)
	for _, tk := range plan.Candidates[plan.Chosen].Tasks {
		if tk.Lane < 0 || tk.Lane >= n {
			continue
		}
		for _, k := range tk.Nodes {
			if len(s.Nodes[k].Items) == 0 {
				continue
			}
			if id := t.of(s.Nodes[k].Items[0].Proc); id >= 0 {
				out[tk.Lane] = append(out[tk.Lane], ffsplit.InstCost{Inst: id, Cost: work[k].Cost})
			}
		}
	}
	return out
}
