package slt

import (
	"fmt"
	"strings"

	"github.com/weft-hdl/weft/design"
)

// warn collects the analysis warnings: loops, multiple drivers (hand-built
// designs only) and blocking writes in trigger groups read by other groups.
func (s *Schedule) warn() {
	for _, l := range s.Loops {
		s.Warnings = append(s.Warnings, l.warning())
	}
	for _, e := range s.Graph.WriteWriteEdges() {
		a, b := s.Items[e[0]], s.Items[e[1]]
		s.Warnings = append(s.Warnings, Warning{Pos: b.Pos, Msg: fmt.Sprintf(
			"%s and %s write common bits; the later one in design order wins", a.Name, b.Name)})
	}
	type key struct {
		h    *design.Home
		w, r int
	}
	seen := map[key]bool{}
	for _, g := range s.FF {
		for _, a := range g.Immediate {
			for _, h := range s.FF {
				if h == g || !overlapsAny(a, h.Reads) {
					continue
				}
				k := key{a.Home, g.Index, h.Index}
				if seen[k] {
					continue
				}
				seen[k] = true
				pos := g.Group.Procs[0].Pos
				for _, p := range g.Evaluate {
					if overlapsAny(a, p.Blocking) {
						pos = p.Proc.Pos
						break
					}
				}
				s.Warnings = append(s.Warnings, Warning{Pos: pos, Msg: fmt.Sprintf(
					"'%s' is written with a blocking assignment on %s and read on %s: the value read depends on evaluation order; use a non-blocking assignment (<=)",
					a.Home.Path, g.Group.EventsString(), h.Group.EventsString())})
			}
		}
	}
}

// Dump prints the whole schedule: the sequential order with every item's
// read and write sets and dependencies, loops, FF groups, trigger bits and
// warnings.
func (s *Schedule) Dump() string {
	var b strings.Builder
	b.WriteString(s.String())
	b.WriteString("\norder:\n")
	item := func(it *Item, ind string) {
		fmt.Fprintf(&b, "%si%d %s", ind, it.ID, it.Name)
		if it.Split != SplitNone {
			fmt.Fprintf(&b, " (%s %d/%d)", it.Split, it.Part+1, it.Parts)
		}
		var flags []string
		if it.Effects {
			flags = append(flags, "effects")
		}
		if it.WritesTrigger {
			flags = append(flags, "writes-trigger")
		}
		if len(flags) > 0 {
			fmt.Fprintf(&b, " [%s]", strings.Join(flags, " "))
		}
		fmt.Fprintf(&b, "\n%s    writes: %s\n%s    reads:  %s\n", ind, accessList(it.Writes), ind, accessList(it.Reads))
		if pr := s.Graph.Pred(it.ID); len(pr) > 0 {
			fmt.Fprintf(&b, "%s    after: ", ind)
			for i, p := range pr {
				if i == 16 {
					fmt.Fprintf(&b, " ... (%d)", len(pr))
					break
				}
				if i > 0 {
					b.WriteByte(' ')
				}
				fmt.Fprintf(&b, "i%d", p)
			}
			b.WriteByte('\n')
		}
		if it.Split == SplitConcat {
			fmt.Fprintf(&b, "%s    body: %s", ind, strings.TrimLeft(design.StmtString(it.Body, 0), " "))
			if !strings.HasSuffix(b.String(), "\n") {
				b.WriteByte('\n')
			}
		}
	}
	for _, n := range s.Nodes {
		if n.Loop == nil {
			fmt.Fprintf(&b, "  n%d ", n.Index)
			item(n.Items[0], "")
			continue
		}
		l := n.Loop
		kind := "possible loop"
		if l.Obvious {
			kind = "loop"
		}
		fmt.Fprintf(&b, "  n%d loop#%d (%s, %d items, at most %d iterations) feedback %s (%d bits)\n",
			n.Index, l.Index, kind, len(l.Items), l.MaxIter, accessList(l.Signals), l.Bits)
		for _, it := range n.Items {
			item(it, "      ")
		}
	}
	if len(s.FF) > 0 {
		b.WriteString("ff groups:\n")
	}
	for _, g := range s.FF {
		fmt.Fprintf(&b, "  %s", g)
		if g.WritesTrigger {
			b.WriteString(" [writes-trigger]")
		}
		b.WriteByte('\n')
		for _, p := range g.Evaluate {
			fmt.Fprintf(&b, "    evaluate %s  nonblocking: %s  blocking: %s\n", p.Proc.Name, accessList(p.NonBlocking), accessList(p.Blocking))
		}
		fmt.Fprintf(&b, "    reads: %s\n    staged: %s\n", accessList(g.Reads), accessList(g.Staged))
		if len(g.InPlace) > 0 {
			fmt.Fprintf(&b, "    in place: %s\n", accessList(g.InPlace))
		}
		if len(g.Sparse) > 0 {
			fmt.Fprintf(&b, "    sparse: %s\n", accessList(g.Sparse))
		}
		if len(g.Immediate) > 0 {
			fmt.Fprintf(&b, "    immediate: %s\n", accessList(g.Immediate))
		}
		fmt.Fprintf(&b, "    apply: %s\n", accessList(g.Apply))
	}
	if len(s.Triggers) > 0 {
		b.WriteString("triggers:\n")
	}
	for _, t := range s.Triggers {
		fmt.Fprintf(&b, "  %s:", t)
		for _, u := range t.Uses {
			fmt.Fprintf(&b, " %s g%d", u.Edge, u.Group)
		}
		if t.Derived() {
			b.WriteString("; written by")
			for _, i := range t.Items {
				fmt.Fprintf(&b, " i%d", i)
			}
			for _, g := range t.FF {
				fmt.Fprintf(&b, " g%d", g)
			}
			b.WriteString(" (derived)")
		}
		b.WriteByte('\n')
	}
	if len(s.Warnings) > 0 {
		b.WriteString("warnings:\n")
	}
	for _, w := range s.Warnings {
		fmt.Fprintf(&b, "  %s\n", w)
	}
	return b.String()
}
