package elab

import (
	"fmt"
	"strings"

	"github.com/weft-hdl/weft/hdl"
)

// eachInstance calls fn for every instantiation in items, generate
// constructs included, in source order.
func eachInstance(items []hdl.Item, fn func(*hdl.Instance)) {
	gb := func(b *hdl.GenBlock) {
		if b != nil {
			eachInstance(b.Items, fn)
		}
	}
	for _, it := range items {
		switch it := it.(type) {
		case *hdl.Instance:
			fn(it)
		case *hdl.GenRegion:
			eachInstance(it.Items, fn)
		case *hdl.GenBlock:
			gb(it)
		case *hdl.GenFor:
			gb(it.Body)
		case *hdl.GenIf:
			gb(it.Then)
			gb(it.Else)
		case *hdl.GenCase:
			for _, ci := range it.Items {
				gb(ci.Body)
			}
		}
	}
}

// noTop reports why no module can be the top when --top is not given and
// every module is instantiated by another: there is no module at all, only
// interfaces, or the instantiations form a cycle (which must exist when
// every module has an instantiator), named with the instantiation that
// closes it.
func (e *elab) noTop(st *hdl.SourceText) {
	var ifaces []string
	modules := 0
	for _, m := range st.Modules {
		if m.Interface {
			ifaces = append(ifaces, m.Name)
		} else {
			modules++
		}
	}
	if modules == 0 {
		e.errorf(e.inputsPos(st), "no module to elaborate: %s", e.noModuleReason(st, ifaces))
		return
	}
	if cycle, at := instanceCycle(st); cycle != nil {
		chain := strings.Join(append(cycle, cycle[0]), " -> ")
		var what string
		switch len(cycle) {
		case 1:
			what = fmt.Sprintf("module '%s' instantiates itself (%s)", cycle[0], chain)
		case 2:
			what = fmt.Sprintf("modules '%s' and '%s' instantiate each other (%s)", cycle[0], cycle[1], chain)
		default:
			what = fmt.Sprintf("modules %s instantiate one another in a cycle (%s)", strings.Join(cycle, ", "), chain)
		}
		e.errorf(at.Pos, "%s; no module is left to be the top (if a generate condition ends the recursion, name the top with --top)", what)
		return
	}
	e.errorf(firstFile(st), "no top module: every module is instantiated by another; choose one with --top")
}

// inputsPos is where a message about the whole compilation unit goes: its
// first input file.
func (e *elab) inputsPos(st *hdl.SourceText) hdl.Pos {
	if len(st.Inputs) > 0 {
		return hdl.Pos{File: st.Inputs[0]}
	}
	return firstFile(st)
}

// noModuleReason says, naming the input files, why they give nothing to
// elaborate.
func (e *elab) noModuleReason(st *hdl.SourceText, ifaces []string) string {
	subject := "the file declares"
	switch n := len(st.Inputs); {
	case n == 0:
		subject = "the source declares"
	case n > 1:
		subject = "the files " + strings.Join(st.Inputs, ", ") + " declare"
	}
	if len(ifaces) > 0 {
		return fmt.Sprintf("%s only interfaces (%s), and the top must be a module", subject, strings.Join(ifaces, ", "))
	}
	if len(st.Inputs) > 1 {
		return fmt.Sprintf("none of the files %s has a module declaration", strings.Join(st.Inputs, ", "))
	}
	if len(st.Inputs) == 0 {
		return "the source has no module declaration"
	}
	return "the file has no module declaration"
}

// instanceCycle finds a cycle of instantiations when every module has an
// instantiator: walking from the first module to the module that
// instantiates it, and so on, must come back to a module already visited.
// The cycle is returned in instantiation order starting from its module
// declared first, with the instantiation of the second module in the first
// (of itself, for a cycle of one). nil when the walk ends at a module no
// one instantiates (one defined twice, an interface).
func instanceCycle(st *hdl.SourceText) ([]string, *hdl.Instance) {
	type edge struct {
		parent string
		inst   *hdl.Instance
	}
	by := map[string]edge{} // module: its first instantiation, in source order
	order := map[string]int{}
	for i, m := range st.Modules {
		if _, dup := order[m.Name]; !dup {
			order[m.Name] = i
		}
		eachInstance(m.Items, func(in *hdl.Instance) {
			if _, ok := by[in.Module]; !ok {
				by[in.Module] = edge{m.Name, in}
			}
		})
	}
	var first string
	for _, m := range st.Modules {
		if !m.Interface {
			first = m.Name
			break
		}
	}
	seen := map[string]int{} // module: its index in path
	var path []string        // each module is instantiated by the next
	for cur := first; ; {
		if i, ok := seen[cur]; ok {
			path = path[i:]
			break
		}
		seen[cur] = len(path)
		path = append(path, cur)
		ed, ok := by[cur]
		if !ok {
			return nil, nil
		}
		cur = ed.parent
	}
	// path runs against the instantiations: reverse it, then rotate it
	// to start at the module declared first.
	cycle := make([]string, len(path))
	for i, m := range path {
		cycle[len(path)-1-i] = m
	}
	lo := 0
	for i, m := range cycle {
		if order[m] < order[cycle[lo]] {
			lo = i
		}
	}
	cycle = append(cycle[lo:], cycle[:lo]...)
	return cycle, by[cycle[1%len(cycle)]].inst
}
