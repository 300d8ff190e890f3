package slt

import (
	"fmt"
	"sort"
	"strings"

	"github.com/weft-hdl/weft/design"
)

// Loop is a true combinational loop: the items of one strongly connected
// component of the graph (or one item that reads bits it writes). Bit-
// disjoint "false loops" (a[0] = a[1]; two assignments reading and writing
// different bits of one vector; different constant array elements) never
// make a loop, because edges are bit-exact.
//
// The runtime runs Items in order repeatedly until a pass changes no bit
// of Signals' homes (or of any item's writes), at most MaxIter passes; if
// it has not settled it reports Error(MaxIter).
type Loop struct {
	Index int // in Schedule.Loops
	Node  *Node
	// Items in iteration order (the same slice as Node.Items).
	Items []*Item
	// Signals are the feedback bits: bits written by an item of the loop
	// and read by an item of the loop (merged, by home).
	Signals []design.Access
	// Homes are the homes of Signals, by ID.
	Homes []*design.Home
	// Bits counts the feedback bits.
	Bits int
	// MaxIter is the iteration bound (see Options.LoopLimit).
	MaxIter int
	// SelfLoop: the loop is one item that reads its own output.
	SelfLoop bool
	// Obvious: every item is an unconditional constant-address
	// assignment, so the cycle is there whatever the values (as opposed to
	// a path through a branch or a dynamic index that may never be taken).
	Obvious bool
	// Pos is the position of the loop's first item in design order.
	Pos design.Pos
}

// Names returns the hierarchical names of the homes in the loop.
func (l *Loop) Names() []string {
	out := make([]string, len(l.Homes))
	for i, h := range l.Homes {
		out[i] = h.Path
	}
	return out
}

// Error returns the error the runtime reports when the loop has not
// settled after iterations passes.
func (l *Loop) Error(iterations int) *LoopError { return &LoopError{Loop: l, Iterations: iterations} }

// LoopError is a comb loop that did not settle.
type LoopError struct {
	Loop       *Loop
	Iterations int
}

func (e *LoopError) Error() string {
	return fmt.Sprintf("comb loop did not settle after %d iterations: %s", e.Iterations, strings.Join(e.Loop.Names(), ", "))
}

func (s *Schedule) newLoop(n *Node, opts Options) *Loop {
	l := &Loop{Index: len(s.Loops), Node: n, Items: n.Items, SelfLoop: len(n.Items) == 1}
	in := make(map[int32]bool, len(n.Items))
	first := n.Items[0]
	for _, it := range n.Items {
		in[int32(it.ID)] = true
		if it.ID < first.ID {
			first = it
		}
	}
	l.Pos = first.Pos
	var fb []design.Access
	obvious := true
	for _, it := range n.Items {
		obvious = obvious && it.Unconditional
		for _, r := range it.Reads {
			s.Graph.writerIdx.each(r, func(w int32, wa design.Access) {
				if in[w] {
					fb = append(fb, intersect(wa, r))
				}
			})
		}
	}
	l.Signals = mergeAccesses(fb)
	seen := map[*design.Home]bool{}
	for _, a := range l.Signals {
		l.Bits += bitCount(a)
		obvious = obvious && !a.Dynamic
		if !seen[a.Home] {
			seen[a.Home] = true
			l.Homes = append(l.Homes, a.Home)
		}
	}
	sort.Slice(l.Homes, func(i, j int) bool { return l.Homes[i].ID < l.Homes[j].ID })
	l.Obvious = obvious
	switch {
	case opts.LoopLimit > 0:
		l.MaxIter = opts.LoopLimit
	default:
		l.MaxIter = min(max(DefaultLoopLimit, l.Bits+4), MaxLoopLimit)
	}
	return l
}

// itemNames lists up to max item names, then how many more.
func itemNames(items []*Item, limit int) string {
	var names []string
	for i, it := range items {
		if i == limit {
			names = append(names, fmt.Sprintf("and %d more", len(items)-limit))
			break
		}
		names = append(names, it.Name)
	}
	return strings.Join(names, ", ")
}

func (l *Loop) warning() Warning {
	items := append([]*Item(nil), l.Items...)
	sort.Slice(items, func(i, j int) bool { return items[i].ID < items[j].ID })
	sig := strings.Join(l.Names(), ", ")
	if l.Obvious {
		return Warning{Pos: l.Pos, Msg: fmt.Sprintf(
			"combinational loop through %s (%s): it is iterated until it settles, at most %d times, and is an error if it does not; break it with a register",
			sig, itemNames(items, 6), l.MaxIter)}
	}
	return Warning{Pos: l.Pos, Msg: fmt.Sprintf(
		"possible combinational loop through %s (%s): these read bits they write through a condition or a dynamic index; it is iterated until it settles, at most %d times",
		sig, itemNames(items, 6), l.MaxIter)}
}
