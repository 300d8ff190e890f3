package kernels

import (
	"fmt"
	"sort"

	"github.com/weft-hdl/weft/design"
	"github.com/weft-hdl/weft/program"
	"github.com/weft-hdl/weft/sir"
	"github.com/weft-hdl/weft/statelayout"
)

// Export is what a simulator needs of p, as a program.Program: the signal
// table and scopes of the design, the flat layout, the units and the task
// tables. It shares p's units (neither side changes them) and is linked
// (LinkBuilt: BuildSchedule checked the units already).
func (p *Program) Export() (*program.Program, error) {
	d, s, l := p.Design, p.Schedule, p.Layout
	if d == nil || s == nil || l == nil {
		return nil, fmt.Errorf("kernels: Export: program without design, schedule or layout")
	}
	out := &program.Program{
		Initial: p.Initial, Settle: p.Settle, Event: p.Event,
		Warnings: append([]string(nil), p.Warnings...),
	}
	scopeIndex := map[*design.Instance]int{}
	for i, in := range d.Instances {
		scopeIndex[in] = i
	}
	for i, in := range d.Instances {
		parent := -1
		if in.Parent != nil {
			pi, ok := scopeIndex[in.Parent]
			if !ok || pi >= i {
				return nil, fmt.Errorf("kernels: Export: instance %s listed before its parent", in.Path)
			}
			parent = pi
		}
		out.Scopes = append(out.Scopes, &program.Scope{Name: in.Name, Path: in.Path, Module: in.Module, ParentIndex: parent, Pos: in.Pos})
	}
	limits := forceLimits(d, s)
	copies := map[*design.Home][]program.CopyTarget{}
	for _, sh := range d.Shared {
		to, from := d.CopyEnds(sh)
		copies[to.Home] = append(copies[to.Home], program.CopyTarget{Elem: to.Elem, From: from, Pos: sh.Copy.Pos})
	}
	for i, h := range d.Homes {
		k, err := signalKind(h.Kind)
		if err != nil {
			return nil, fmt.Errorf("kernels: Export: %s: %w", h.Path, err)
		}
		si := -1
		if h.Inst != nil {
			si = scopeIndex[h.Inst]
		}
		out.Signals = append(out.Signals, &program.Signal{ID: i, Name: h.Name, Path: h.Path, Aliases: h.Aliases,
			ScopeIndex: si, Kind: k, Width: h.Width, Signed: h.Signed, Packed: h.Packed, Unpacked: h.Unpacked,
			TypeName: h.TypeName, Pos: h.Pos, NoForce: limits[h], Copies: copies[h]})
		if at, ok := d.Shares(h); ok {
			out.Signals[i].Shares = &program.SignalElem{Signal: at.Home.ID, Elem: at.Elem}
		}
	}
	for _, f := range d.Functions {
		out.Functions = append(out.Functions, program.Function{Name: f.Name, Task: f.Task})
	}
	if d.Dump != nil {
		dp := &program.Dump{File: d.Dump.File}
		for _, v := range d.Dump.Vars {
			dp.Vars = append(dp.Vars, program.DumpVars{Levels: v.Levels, Scopes: v.Scopes, Signals: v.Signals, Pos: v.Pos})
		}
		out.Dump = dp
	}
	if d.Timescale != nil {
		out.Timescale, out.HasTimescale = d.Timescale.Precision, true
	}

	out.Layout = exportLayout(d, l)
	for _, t := range s.Triggers {
		out.Triggers = append(out.Triggers, program.Trigger{Name: t.String(), Signal: t.Home.ID, Elem: t.Elem, Bit: t.Bit, Derived: t.Derived()})
	}
	sp := l.Space()
	if len(p.Events) != len(sp.Events) {
		return nil, fmt.Errorf("kernels: Export: %d event kernels for %d trigger events", len(p.Events), len(sp.Events))
	}
	for i, ev := range sp.Events {
		if ev.Index != i {
			return nil, fmt.Errorf("kernels: Export: event %s has trigger byte %d, not %d", ev, ev.Index, i)
		}
		out.Events = append(out.Events, program.Event{Name: ev.String(), Trigger: ev.TriggerIndex, Edge: edge(ev.Edge),
			Fused: p.Events[i].Fused})
	}
	read := make([]bool, len(d.Homes))
	for _, it := range s.Items {
		for _, a := range it.Reads {
			if a.Home != nil && a.Home.ID >= 0 && a.Home.ID < len(read) {
				read[a.Home.ID] = true
			}
		}
	}
	for id, r := range read {
		if r {
			out.CombRead = append(out.CombRead, id)
		}
	}
	for _, tk := range p.Ticks {
		out.Ticks = append(out.Ticks, program.Tick{Clock: tk.Clock.ID, Trigger: tk.Trigger, Rise: tk.Rise, Fall: tk.Fall, Unit: tk.Unit, Count: tk.Count, Batch: tk.Batch})
	}
	for _, f := range p.Formats {
		out.Formats = append(out.Formats, program.Format{Task: f.Kind.String(), Text: f.Text, HasFormat: f.HasFormat, Scope: f.Scope, Pos: f.Pos})
	}
	for _, r := range p.Readmems {
		out.Readmems = append(out.Readmems, program.Readmem{File: r.File, Signal: r.Home.ID, Hex: r.Hex, Start: r.Start, End: r.End, Pos: r.Pos})
	}
	for _, lp := range p.Loops {
		out.Loops = append(out.Loops, program.Loop{Pos: lp.Pos, MaxIter: lp.MaxIter, Signals: lp.Names()})
	}
	for _, ls := range p.LoopSites {
		out.LoopSites = append(out.LoopSites, program.LoopSite{Pos: ls.Pos, MaxIter: ls.MaxIter})
	}
	if par := p.Parallel; par != nil {
		pp := par.Parallel
		out.Parallel = &pp
	}
	if err := out.LinkBuilt(); err != nil {
		return nil, fmt.Errorf("kernels: Export: %w", err)
	}
	return out, nil
}

// exportLayout flattens l: every object's place, the staging pairs and
// the initial values as fills.
func exportLayout(d *design.Design, l *statelayout.Layout) *program.Layout {
	sp := l.Space()
	out := &program.Layout{Kind: l.Kind(), Bytes: l.StateSize(), RingCap: sp.RingCap(),
		Triggers: sp.Triggers().ID, Prev: sp.Prev().ID, Sys: sp.Sys().ID}
	obj := func(o *statelayout.Object) program.Object {
		return program.Object{Name: o.Name, Kind: o.Kind.String(), Offset: l.Offset(o.ID), ElemSize: o.ElemSize, Elems: o.Elems}
	}
	for _, o := range sp.Objects() {
		out.Objects = append(out.Objects, obj(o))
	}
	out.Ring = obj(sp.Ring())
	out.Ring.Offset = l.Offset(sir.RingHome)
	for _, h := range d.Homes {
		if st := sp.Staging(h); st != nil {
			out.Staging = append(out.Staging, program.Stage{Signal: h.ID, Copy: st.ID})
		}
		if h.Init == nil {
			continue
		}
		s := l.Home(h)
		if h.Init.Value != nil && h.Init.Value.Sign() != 0 {
			b := make([]byte, s.ElemSize)
			statelayout.PutValue(b, design.Mask(h.Init.Value, h.Width))
			out.Init = append(out.Init, program.Fill{Offset: s.Offset, Stride: s.ElemSize, Count: s.Elems, Bytes: b})
		}
		elems := make([]int, 0, len(h.Init.Elems))
		for e := range h.Init.Elems {
			if e >= 0 && e < s.Elems {
				elems = append(elems, e)
			}
		}
		sort.Ints(elems)
		for _, e := range elems {
			b := make([]byte, s.ElemSize)
			statelayout.PutValue(b, design.Mask(h.Init.Elems[e], h.Width))
			out.Init = append(out.Init, program.Fill{Offset: s.Elem(e), Stride: s.ElemSize, Count: 1, Bytes: b})
		}
	}
	for _, sg := range l.Segments() {
		out.Segments = append(out.Segments, program.Segment{Lane: sg.Lane, Lo: sg.Lo, Hi: sg.Hi, Objects: sg.Objects})
	}
	return out
}

func signalKind(k design.HomeKind) (program.Kind, error) {
	switch k {
	case design.KindVar:
		return program.KindVar, nil
	case design.KindNet:
		return program.KindNet, nil
	case design.KindInput:
		return program.KindInput, nil
	case design.KindOutput:
		return program.KindOutput, nil
	case design.KindBlockLocal:
		return program.KindBlockLocal, nil
	case design.KindStatic:
		return program.KindStatic, nil
	}
	return 0, fmt.Errorf("a %s home in the design's home list", k)
}

func edge(e design.Edge) program.Edge {
	switch e {
	case design.Posedge:
		return program.Posedge
	case design.Negedge:
		return program.Negedge
	}
	return program.AnyEdge
}
