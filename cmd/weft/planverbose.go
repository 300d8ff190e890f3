package main

import (
	"cmp"
	"fmt"
	"io"
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/weft-hdl/weft/internal/natsort"
	"github.com/weft-hdl/weft/ordering"
	"github.com/weft-hdl/weft/plan"
	"github.com/weft-hdl/weft/program"
)

// printPlacement writes, for every partitioned kernel, each lane's tasks
// with the design objects (variables, memories; staging copies under their
// variable's name) each task writes, and per lane the instances those
// belong to: where the plan put each part of the design.
func printPlacement(w io.Writer, p *program.Program) {
	par := p.Parallel
	if par == nil {
		fmt.Fprintln(w, "\nplacement: no partitioned kernel")
		return
	}
	objs := designObjects(p.Layout)
	kernels := append([]*program.Partitioned{par.Settle}, par.Fused...)
	for _, k := range kernels {
		if k == nil {
			continue
		}
		fmt.Fprintf(w, "\nplacement %s\n", k.Name)
		for lane, tasks := range k.Lanes {
			insts := map[string]bool{}
			var lines []string
			for _, t := range tasks {
				names := objectsIn(objs, t.Effects.Writes)
				for _, n := range names {
					insts[instanceOf(n)] = true
				}
				lines = append(lines, fmt.Sprintf("    task %d %s writes: %s", t.Index, t.Label, byInstance(names)))
			}
			fmt.Fprintf(w, "  lane %d: instances %s\n", lane, orNone(sortedKeys(insts)))
			for _, l := range lines {
				fmt.Fprintln(w, l)
			}
		}
	}
}

// placedObject is a design object's byte range in the state.
type placedObject struct {
	name   string
	lo, hi int
}

// designObjects lists the layout's variables and staging copies (named
// after their variable) by offset.
func designObjects(l *program.Layout) []placedObject {
	var out []placedObject
	for _, o := range l.Objects {
		if o.Kind != "home" && o.Kind != "staging" || o.Size() == 0 {
			continue
		}
		out = append(out, placedObject{strings.TrimSuffix(o.Name, "$stage"), o.Offset, o.Offset + o.Size()})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].lo < out[j].lo })
	return out
}

// objectsIn names the objects the ranges touch, sorted, each once.
func objectsIn(objs []placedObject, rs []ordering.Range) []string {
	seen := map[string]bool{}
	for _, r := range rs {
		i := sort.Search(len(objs), func(i int) bool { return objs[i].hi > r.Lo })
		for ; i < len(objs) && objs[i].lo < r.Hi; i++ {
			seen[objs[i].name] = true
		}
	}
	return sortedKeys(seen)
}

// instanceOf is the instance path of a hierarchical object name: all but
// its last component.
func instanceOf(name string) string {
	if i := strings.LastIndexByte(name, '.'); i > 0 {
		return name[:i]
	}
	return name
}

// byInstance writes names grouped by instance, "top.u{a,b} top.v{c}".
func byInstance(names []string) string {
	if len(names) == 0 {
		return "none"
	}
	groups := map[string][]string{}
	for _, n := range names {
		in := instanceOf(n)
		groups[in] = append(groups[in], strings.TrimPrefix(n, in+"."))
	}
	var parts []string
	ins := slices.SortedFunc(maps.Keys(groups), naturalCompare)
	for _, in := range ins {
		slices.SortFunc(groups[in], naturalCompare)
		parts = append(parts, in+"{"+strings.Join(groups[in], ",")+"}")
	}
	return strings.Join(parts, " ")
}

// sortedKeys sorts in natural order: g[2] before g[10].
func sortedKeys(m map[string]bool) []string {
	return slices.SortedFunc(maps.Keys(m), naturalCompare)
}

// naturalCompare is natsort.Compare with ties ("2", "002") broken by the
// strings, so that names from a map always print in one order.
func naturalCompare(a, b string) int {
	if c := natsort.Compare(a, b); c != 0 {
		return c
	}
	return strings.Compare(b, a)
}

func orNone(s []string) string {
	if len(s) == 0 {
		return "none"
	}
	return strings.Join(s, ", ")
}

// setTaskInstances fills Task.Inst of every task of pl's partitioned
// kernels from the matching task of p (same kernel name, lane and
// position): the top-level child instance (or the top) owning most of the
// bytes the task writes, plan.MixedInst when none owns more than half. The
// SVG colours tasks by it. Kernels or lanes that do not match stay as
// they are.
func setTaskInstances(pl *plan.Plan, p *program.Program) {
	par := p.Parallel
	if pl == nil || par == nil {
		return
	}
	objs := designObjects(p.Layout)
	byName := map[string]*program.Partitioned{}
	for _, k := range append([]*program.Partitioned{par.Settle}, par.Fused...) {
		if k != nil {
			byName[k.Name] = k
		}
	}
	for _, k := range pl.Kernels {
		pk := byName[k.Name]
		if pk == nil || len(pk.Lanes) != len(k.Lanes) {
			continue
		}
		for l, ts := range k.Lanes {
			if len(pk.Lanes[l]) != len(ts) {
				continue
			}
			for i := range ts {
				ts[i].Inst = mostWritten(objs, pk.Lanes[l][i].Effects.Writes)
			}
		}
	}
}

// mostWritten is the top-level child instance owning more than half of
// the object bytes rs write ("" when they write no design object), else
// the two or three instances owning nine tenths of them ("top.c[1] +
// top.c[3]": a lane holding two whole cores), else plan.MixedInst.
func mostWritten(objs []placedObject, rs []ordering.Range) string {
	bytes := map[string]int{}
	total := 0
	for _, r := range rs {
		i := sort.Search(len(objs), func(i int) bool { return objs[i].hi > r.Lo })
		for ; i < len(objs) && objs[i].lo < r.Hi; i++ {
			n := min(objs[i].hi, r.Hi) - max(objs[i].lo, r.Lo)
			bytes[topChild(instanceOf(objs[i].name))] += n
			total += n
		}
	}
	for in, n := range bytes {
		if n > total-n {
			return in
		}
	}
	if total == 0 {
		return ""
	}
	names := slices.SortedFunc(maps.Keys(bytes), func(a, b string) int {
		return cmp.Or(bytes[b]-bytes[a], natsort.Compare(a, b))
	})
	for k, covered := 0, 0; k < len(names) && k < 3; k++ {
		if covered += bytes[names[k]]; 10*covered >= 9*total {
			top := names[:k+1]
			slices.SortFunc(top, natsort.Compare)
			return strings.Join(top, " + ")
		}
	}
	return plan.MixedInst
}

// topChild cuts an instance path to the top and its first component below
// ("top.core[2].alu" → "top.core[2]"); dots inside brackets do not count.
func topChild(path string) string {
	for {
		up := program.ParentPath(path)
		if up == "" || program.ParentPath(up) == "" {
			return path
		}
		path = up
	}
}
