package kernels

import (
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/weft-hdl/weft/design"
)

func TestFFInstsIntern(t *testing.T) {
	tr := newFFInsts()
	if id := tr.intern("top.g[1].u"); id != 2 {
		t.Fatalf("id %d", id)
	}
	tr.intern("top.a[x.y].b") // a dot inside brackets does not split
	tr.intern("top")
	want := map[string]int{"top": 0, "top.g[1]": 1, "top.g[1].u": 2, "top.a[x.y]": 3, "top.a[x.y].b": 4}
	if !reflect.DeepEqual(tr.id, want) {
		t.Fatalf("ids %v, want %v", tr.id, want)
	}
	if want := []int{-1, 0, 1, 0, 3}; !reflect.DeepEqual(tr.parent, want) {
		t.Fatalf("parents %v, want %v", tr.parent, want)
	}
	if tr.intern("") != -1 || tr.of(nil) != -1 {
		t.Fatal("no scope must be -1")
	}
}

func TestProcScope(t *testing.T) {
	top := &design.Instance{Path: "top"}
	u := &design.Instance{Path: "top.g[2].u", Parent: top}
	for _, c := range []struct {
		p    *design.Process
		want string
	}{
		{&design.Process{Name: "top:always_ff@3", Inst: top}, "top"},
		{&design.Process{Name: "top.core[2]:always_ff@7", Inst: top}, "top.core[2]"},
		{&design.Process{Name: "top.g[2].u.blk:assign@1", Inst: u}, "top.g[2].u.blk"},
		{&design.Process{Name: "topx.y:always_ff@1", Inst: top}, "top"}, // not an extension of the path
		{&design.Process{Name: "odd", Inst: u}, "top.g[2].u"},
		{&design.Process{Name: "x:always_ff@1"}, ""},
	} {
		if got := procScope(c.p); got != c.want {
			t.Errorf("procScope(%q) = %q, want %q", c.p.Name, got, c.want)
		}
	}
}

// TestFFInstanceAffinity: in a module holding its cores in a generate
// loop (every flop in one trigger group), each core's registers are
// evaluated on the lane that runs the core's comb logic, so the settle
// after the edge waits only for the shared sum, not for the cores.
func TestFFInstanceAffinity(t *testing.T) {
	src, err := os.ReadFile("testdata/flatcores.sv")
	if err != nil {
		t.Fatal(err)
	}
	p := mustBuild(t, elabSrc(t, "flatcores", string(src)), Options{Partition: PartitionOptions{Lanes: 2, Always: true}})
	par, s := p.Parallel, p.Schedule
	if par == nil || par.Comb == nil || par.Comb.Chosen < 0 {
		t.Fatalf("settle not partitioned: %v", par.Reasons)
	}
	core := func(scope string) string {
		if i := strings.Index(scope, "core["); i >= 0 {
			return scope[i : i+strings.IndexByte(scope[i:], ']')+1]
		}
		return ""
	}
	combLane := map[string]int{}
	for _, tk := range par.Comb.Candidates[par.Comb.Chosen].Tasks {
		for _, k := range tk.Nodes {
			if c := core(procScope(s.Nodes[k].Items[0].Proc)); c != "" {
				if l, ok := combLane[c]; ok && l != tk.Lane {
					t.Fatalf("%s's comb logic on lanes %d and %d", c, l, tk.Lane)
				}
				combLane[c] = tk.Lane
			}
		}
	}
	if len(combLane) != 8 {
		t.Fatalf("comb lanes %v", combLane)
	}
	checked := 0
	for ei, ek := range p.Events {
		fp := par.FF[ei]
		if fp == nil {
			continue
		}
		var procs []*design.Process
		for _, gi := range ek.Groups {
			for _, f := range s.FF[gi].Evaluate {
				procs = append(procs, f.Proc)
			}
		}
		for pi, pt := range fp.Parts {
			for _, i := range pt.Procs {
				c := core(procScope(procs[i]))
				if c == "" {
					continue
				}
				checked++
				if fp.Lane[pi] != combLane[c] {
					t.Errorf("%s: %s evaluated on lane %d, its comb logic on lane %d\n%v", ek.Event, procs[i].Name, fp.Lane[pi], combLane[c], fp)
				}
			}
		}
	}
	if checked < 16 {
		t.Fatalf("checked %d processes", checked)
	}
}
