// Package lint holds the checks `weft lint` (and `weft run`, and
// compile.Builder) make on an elaborated design.Design, which need the whole
// design or its comb schedule rather than one source construct:
//
//   - COMBLOOP: a combinational loop, taken from the loops slt's comb
//     schedule found; slt is exact to the bit ranges processes access, and
//     bitloop.go follows single assignments bit by bit, so that a ripple
//     through the bits of one vector (c[8:1] = f(c[7:0])) is not reported;
//   - MULTIDRIVEN: parts of one signal driven by processes of different
//     kinds or clocks (an always_ff and an always_comb or assign, or flops
//     on different events); overlapping drivers are an elaboration error;
//   - INPUTWRITE: an input port written by anything but its connection.
//
// Warnings go to an hdl.Diagnostics with their codes, so -Wno-CODE and
// `// weft lint_off CODE` comments turn them off. The checks made while
// elaborating (WIDTHTRUNC and the rest) are in package elab.
package lint

import (
	"fmt"
	"sort"
	"strings"

	"github.com/weft-hdl/weft/design"
	"github.com/weft-hdl/weft/hdl"
	"github.com/weft-hdl/weft/slt"
)

// Check runs every design check on d and reports to diags. s is d's comb
// schedule when the caller has one (compile.Builder does); nil makes Check
// analyze d itself.
func Check(d *design.Design, s *slt.Schedule, diags *hdl.Diagnostics) {
	if d == nil || diags == nil {
		return
	}
	InputWrites(d, diags)
	MultiDriven(d, diags)
	if s == nil {
		var err error
		if s, err = slt.Analyze(d, slt.Options{}); err != nil {
			// The simulator reports the same failure where it matters.
			return
		}
	}
	CombLoops(s, diags)
}

// reporter collects warnings so that one problem in a module instantiated
// many times is reported once, saying how many instances share it.
type reporter struct {
	diags *hdl.Diagnostics
	list  []*pending
	byKey map[string]*pending
}

type pending struct {
	pos   hdl.Pos
	code  string
	msg   string
	count int
}

func newReporter(diags *hdl.Diagnostics) *reporter {
	return &reporter{diags: diags, byKey: map[string]*pending{}}
}

// warn records a warning; key says which warnings are the same problem
// (the source positions involved, not the instance paths).
func (r *reporter) warn(key string, pos hdl.Pos, code, format string, args ...any) {
	key = code + "\x00" + key
	if p := r.byKey[key]; p != nil {
		p.count++
		return
	}
	p := &pending{pos: pos, code: code, msg: fmt.Sprintf(format, args...), count: 1}
	r.byKey[key] = p
	r.list = append(r.list, p)
}

func (r *reporter) flush() {
	for _, p := range r.list {
		msg := p.msg
		if p.count > 1 {
			more := "1 more instance"
			if p.count > 2 {
				more = fmt.Sprintf("%d more instances", p.count-1)
			}
			msg += " (and the same in " + more + ")"
		}
		r.diags.Warnc(p.pos, p.code, "%s", msg)
	}
	r.list, r.byKey = nil, map[string]*pending{}
}

func hpos(p design.Pos) hdl.Pos { return hdl.Pos{File: p.File, Line: p.Line, Col: p.Col} }

// maxListed bounds the processes and signals one message names.
const maxListed = 8

// CombLoops reports each loop of s (COMBLOOP), naming its feedback signals
// and the processes on it.
func CombLoops(s *slt.Schedule, diags *hdl.Diagnostics) {
	r := newReporter(diags)
	defer r.flush()
	for _, l := range s.Loops {
		if falseLoop(l) {
			continue
		}
		var sigs []string
		for i, a := range l.Signals {
			if i == maxListed {
				sigs = append(sigs, fmt.Sprintf("and %d more", len(l.Signals)-maxListed))
				break
			}
			sigs = append(sigs, accessName(a))
		}
		var procs []string
		key := ""
		seen := map[*design.Process]bool{}
		items := append([]*slt.Item(nil), l.Items...)
		sort.Slice(items, func(i, j int) bool { return items[i].ID < items[j].ID })
		for _, it := range items {
			if seen[it.Proc] {
				continue
			}
			seen[it.Proc] = true
			key += it.Proc.Pos.String() + " "
			if len(procs) == maxListed {
				procs = append(procs, "...")
				break
			}
			procs = append(procs, procText(it.Proc))
		}
		what, why := "combinational loop", ""
		switch {
		case l.Obvious && l.SelfLoop:
			why = "the assignment reads bits it writes, with no flop between"
		case l.Obvious:
			why = "these processes read what the others compute, around a cycle with no flop"
		case l.SelfLoop:
			what = "possible combinational loop"
			why = "the process reads bits it also writes: it reads them before it writes them, or the path goes through a condition or a variable index"
		default:
			what = "possible combinational loop"
			why = "these processes read what the others compute, through conditions or variable indexes, so the cycle may never be taken"
		}
		r.warn(key, hpos(l.Pos), hdl.CodeCombLoop,
			"%s through %s, in %s: %s; weft iterates it until it settles (at most %d times). Break it with a flop (always_ff), or if the paths use different bits, split the signal so that no bit feeds itself",
			what, strings.Join(sigs, ", "), strings.Join(procs, ", "), why, l.MaxIter)
	}
}

// procText names a process for a message: its kind and where it is.
func procText(p *design.Process) string {
	kind := p.Kind.String()
	switch p.Kind {
	case design.ProcContAssign:
		if isConnection(p) {
			kind = "port connection"
		}
	case design.ProcAlwaysStar:
		kind = "always @*"
	case design.ProcAlwaysLevel:
		kind = "always @(...)"
	case design.ProcAlwaysEdge:
		kind = "always"
	}
	if p.Group != nil {
		kind += " " + eventsText(p.Group)
	}
	return fmt.Sprintf("%s (%s)", kind, p.Pos)
}

// isConnection reports whether p is the assignment elab makes for a port
// connection that was not collapsed ("top:port u.a@12").
func isConnection(p *design.Process) bool {
	return p.Kind == design.ProcContAssign && strings.Contains(p.Name, ":port ")
}

// eventsText is a trigger group's event set, hierarchical names sorted,
// so that two groups with the same events written in another order
// compare equal.
func eventsText(g *design.TriggerGroup) string {
	s := make([]string, len(g.Events))
	for i, e := range g.Events {
		s[i] = e.String()
	}
	sort.Strings(s)
	return "@(" + strings.Join(s, " or ") + ")"
}

// accessName writes an access with the signal's own indexes where its
// shape allows ("top.q[7:4]" for logic [7:0] q; offsets for multi-
// dimensional shapes).
func accessName(a design.Access) string {
	h := a.Home
	var b strings.Builder
	b.WriteString(h.Path)
	if h.IsArray() && !(a.ElemLo == 0 && a.ElemHi == h.Elems()-1) {
		if len(h.Unpacked) == 1 {
			lo := h.Unpacked[0].Lo()
			if a.ElemLo == a.ElemHi {
				fmt.Fprintf(&b, "[%d]", lo+a.ElemLo)
			} else {
				fmt.Fprintf(&b, "[%d:%d]", lo+a.ElemHi, lo+a.ElemLo)
			}
		} else {
			fmt.Fprintf(&b, " (elements %d..%d)", a.ElemLo, a.ElemHi)
		}
	}
	if a.Lo != 0 || a.Hi != h.Width-1 {
		if len(h.Packed) == 1 {
			d := h.Packed[0]
			idx := func(off int) int {
				if d.Left >= d.Right {
					return d.Right + off
				}
				return d.Right - off
			}
			if a.Lo == a.Hi {
				fmt.Fprintf(&b, "[%d]", idx(a.Lo))
			} else {
				fmt.Fprintf(&b, "[%d:%d]", idx(a.Hi), idx(a.Lo))
			}
		} else if a.Lo == a.Hi {
			fmt.Fprintf(&b, " (bit %d)", a.Lo)
		} else {
			fmt.Fprintf(&b, " (bits %d..%d)", a.Hi, a.Lo)
		}
	}
	return b.String()
}

// driver is one process writing part of a home.
type driver struct {
	p      *design.Process
	a      design.Access
	domain string // "comb", or the sorted event set of a flop
}

// MultiDriven reports signals whose bits are written by processes of
// different domains (MULTIDRIVEN): combinational logic and flops, or flops
// on different events. Port connections are not counted (the process that
// drives the port inside its instance is), and neither are initial blocks
// nor static variables of functions (elab warns about those). Several
// comb processes, or several flops on the same events, driving different
// bits of one vector is ordinary RTL and not reported.
func MultiDriven(d *design.Design, diags *hdl.Diagnostics) {
	r := newReporter(diags)
	defer r.flush()
	by := map[*design.Home][]driver{}
	var homes []*design.Home
	add := func(p *design.Process, domain string) {
		for _, a := range p.Writes {
			if a.Home.Kind == design.KindStatic {
				continue
			}
			if _, ok := by[a.Home]; !ok {
				homes = append(homes, a.Home)
			}
			by[a.Home] = append(by[a.Home], driver{p, a, domain})
		}
	}
	for _, p := range d.Comb {
		if !isConnection(p) {
			add(p, "comb")
		}
	}
	for _, g := range d.Groups {
		dom := eventsText(g)
		for _, p := range g.Procs {
			add(p, dom)
		}
	}
	sort.Slice(homes, func(i, j int) bool { return homes[i].ID < homes[j].ID })
	for _, h := range homes {
		ds := by[h]
		sort.SliceStable(ds, func(i, j int) bool { return ds[i].p.Pos.Before(ds[j].p.Pos) })
		var other *driver
		for i := range ds {
			if ds[i].domain != ds[0].domain {
				other = &ds[i]
				break
			}
		}
		if other == nil {
			continue
		}
		first := ds[0]
		pos := hpos(h.Pos)
		if !pos.IsValid() {
			pos = hpos(other.p.Pos)
		}
		fix := "drive all of it from one process, or split it into one signal per process"
		if first.domain != "comb" && other.domain != "comb" {
			fix = "drive all of it on one clock, or split it into one signal per clock"
		}
		r.warn(fmt.Sprint(h.Pos, first.p.Pos, other.p.Pos), pos, hdl.CodeMultiDriven,
			"'%s' is driven by processes of different kinds or clocks: %s drives %s and %s drives %s; %s",
			h.Path, procText(first.p), accessName(first.a), procText(other.p), accessName(other.a), fix)
	}
}

// InputWrites reports writes to an input port by anything other than the
// connection that feeds it from the parent (INPUTWRITE). Elaboration
// already rejects the direct forms (an assignment to an input by name, an
// output connected to an input); this catches what reaches an input some
// other way, such as a hierarchical reference.
func InputWrites(d *design.Design, diags *hdl.Diagnostics) {
	r := newReporter(diags)
	defer r.flush()
	seen := map[[2]any]bool{}
	for _, p := range d.Processes() {
		for _, a := range p.Writes {
			h := a.Home
			if h.Kind != design.KindInput {
				continue
			}
			if isConnection(p) && h.Inst != nil && p.Inst == h.Inst.Parent {
				continue
			}
			k := [2]any{p, h}
			if seen[k] {
				continue
			}
			seen[k] = true
			r.warn(fmt.Sprint(p.Pos, h.Pos), hpos(p.Pos), hdl.CodeInputWrite,
				"%s writes '%s', an input port: only its connection should drive an input; drive the signal connected to it in the parent instead, or make the port an output",
				procText(p), accessName(a))
		}
	}
}
