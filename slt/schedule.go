package slt

import (
	"errors"
	"fmt"
	"slices"

	"github.com/weft-hdl/weft/design"
	"github.com/weft-hdl/weft/internal/scc"
)

// DefaultLoopLimit is the smallest iteration bound of a loop when
// Options.LoopLimit is 0.
const DefaultLoopLimit = 64

// MaxLoopLimit caps the computed iteration bound of a loop.
const MaxLoopLimit = 1 << 20

// Options tune Analyze. The zero value is the default.
type Options struct {
	// LoopLimit is the iteration bound of every loop node. 0 means
	// max(DefaultLoopLimit, feedback bits + 4), at most MaxLoopLimit: a
	// loop that settles at all (a ripple through n feedback bits, say)
	// settles within about n+1 passes.
	LoopLimit int
	// NoSplit makes every comb process one item (for debugging and for
	// differential tests of the splitting itself).
	NoSplit bool
	// StageAll gives every non-blocking target a staging copy, none
	// updated in place (for differential tests of FFGroup.InPlace).
	StageAll bool
	// NoSnapshot keeps staged the targets a process reads after writing
	// them, instead of updating them in place and reading a copy taken when
	// the process starts (FFProc.Snapshot).
	NoSnapshot bool
}

// Schedule is the comb and FF analysis of one design: what later stages
// (sir lowering, lanes/, ffsplit/, sim/) consume. All slices are read-only
// for callers.
type Schedule struct {
	Design *design.Design
	// Items are the comb work items in design order (Items[i].ID == i).
	Items []*Item
	// Graph is the item dependency graph.
	Graph *Graph
	// Nodes is the sequential order: a topological order of the condensed
	// graph (single items and loops), ties broken by design order (the
	// smallest item ID of each node). Nodes[k].Index == k. Running the
	// nodes in this order (each loop to its fixpoint) settles the design.
	Nodes []*Node
	// Loops are the loop nodes, in order.
	Loops []*Loop
	// FF has one entry per design.Design.Groups (same index).
	FF []*FFGroup
	// Triggers are the event bits of the trigger groups, sorted by home
	// ID, element and bit.
	Triggers []*Trigger
	// TriggerHomes are the homes holding trigger bits, by ID.
	TriggerHomes []*design.Home
	// Warnings found during analysis (loops, races, multiple drivers).
	Warnings []Warning

	nodeOf                []int32
	nodeSuccOff, nodeSucc []int32
	nodePredOff, nodePred []int32
	trigByHome            map[*design.Home][]*Trigger
	noSnapshot            bool // Options.NoSnapshot, for inPlace
}

// Node is one step of the sequential order: a single acyclic item, or a
// loop (a strongly connected component, or an item reading its own
// output) that iterates to a fixpoint.
type Node struct {
	Index int
	// Items holds the single item, or the loop's items in iteration order.
	Items []*Item
	// Loop is nil for a single acyclic item.
	Loop *Loop
	// WritesTrigger is set when some item writes a trigger bit.
	WritesTrigger bool
}

// IsLoop reports whether the node is a loop.
func (n *Node) IsLoop() bool { return n.Loop != nil }

func (n *Node) String() string {
	if n.Loop != nil {
		return fmt.Sprintf("n%d loop#%d", n.Index, n.Loop.Index)
	}
	return fmt.Sprintf("n%d %s", n.Index, n.Items[0])
}

// Warning is a diagnostic found by the analysis.
type Warning struct {
	Pos design.Pos
	Msg string
}

func (w Warning) String() string { return fmt.Sprintf("%s: warning: %s", w.Pos, w.Msg) }

// NodeOf returns the index in Nodes of the node holding item i.
func (s *Schedule) NodeOf(item int) int { return int(s.nodeOf[item]) }

// NodeSucc returns the nodes that depend on node k (all after k), ascending.
// Read-only.
func (s *Schedule) NodeSucc(k int) []int32 { return s.nodeSucc[s.nodeSuccOff[k]:s.nodeSuccOff[k+1]] }

// NodePred returns the nodes node k depends on (all before k), ascending.
// Read-only.
func (s *Schedule) NodePred(k int) []int32 { return s.nodePred[s.nodePredOff[k]:s.nodePredOff[k+1]] }

// Analyze builds the comb work items of d, their dependency graph, its
// strongly connected components and the sequential order, and the FF
// evaluate/apply work and trigger bits of d's trigger groups.
func Analyze(d *design.Design, opts Options) (*Schedule, error) {
	if d == nil {
		return nil, errors.New("slt: nil design")
	}
	if opts.LoopLimit < 0 {
		return nil, fmt.Errorf("slt: negative loop limit %d", opts.LoopLimit)
	}
	for i, h := range d.Homes {
		if h == nil || h.ID != i {
			return nil, fmt.Errorf("slt: Design.Homes[%d] has the wrong ID (call design.Check)", i)
		}
	}
	for _, p := range d.Comb {
		if p == nil || !p.Kind.Comb() {
			return nil, fmt.Errorf("slt: Design.Comb holds a non-comb process %v", p)
		}
	}
	b := &builder{d: d, opts: opts, eff: effectsCache{}, expensive: map[*design.Process]bool{}}
	b.build()
	g, err := buildGraph(d, b.items)
	if err != nil {
		return nil, err
	}
	comp, count := scc.Tarjan(g.n, g.Succ)
	// Processes in a loop whose concat assignment had only a costly split:
	// split them after all, which may break the loop.
	if len(b.expensive) > 0 {
		size := make([]int32, count)
		for _, c := range comp {
			size[c]++
		}
		force := map[*design.Process]bool{}
		for i, it := range b.items {
			if b.expensive[it.Proc] && (size[comp[i]] > 1 || g.self[i]) {
				force[it.Proc] = true
			}
		}
		if len(force) > 0 {
			b = &builder{d: d, opts: opts, eff: b.eff, force: force, expensive: map[*design.Process]bool{}}
			b.build()
			if g, err = buildGraph(d, b.items); err != nil {
				return nil, err
			}
			comp, count = scc.Tarjan(g.n, g.Succ)
		}
	}
	s := &Schedule{Design: d, Items: b.items, Graph: g}
	s.triggers()
	s.order(comp, count, opts)
	s.ffGroups()
	if !opts.StageAll {
		s.noSnapshot = opts.NoSnapshot
		s.inPlace()
	}
	s.warn()
	return s, nil
}

// order builds Nodes, Loops and the node-level adjacency.
func (s *Schedule) order(comp []int32, count int, opts Options) {
	g := s.Graph
	comps := condense(g, comp, count)
	s.nodeOf = make([]int32, g.n)
	s.Nodes = make([]*Node, len(comps))
	slab := make([]Node, len(comps))
	for k, members := range comps {
		n := &slab[k]
		n.Index = k
		if len(members) > 1 || g.self[members[0]] {
			ord := members
			if len(members) > 1 {
				ord = loopOrder(g, members, comp)
			}
			n.Items = make([]*Item, len(ord))
			for i, v := range ord {
				n.Items[i] = s.Items[v]
			}
			n.Loop = s.newLoop(n, opts)
			s.Loops = append(s.Loops, n.Loop)
		} else {
			n.Items = s.Items[members[0] : members[0]+1 : members[0]+1]
		}
		for _, it := range n.Items {
			s.nodeOf[it.ID] = int32(k)
			n.WritesTrigger = n.WritesTrigger || it.WritesTrigger
		}
		s.Nodes[k] = n
	}
	// Node adjacency (deduplicated; edges go from lower to higher index).
	nn := len(s.Nodes)
	stamp := make([]int32, nn)
	for i := range stamp {
		stamp[i] = -1
	}
	s.nodePredOff = make([]int32, nn+1)
	for k, n := range s.Nodes {
		start := len(s.nodePred)
		for _, it := range n.Items {
			for _, w := range g.Pred(it.ID) {
				p := s.nodeOf[w]
				if int(p) != k && stamp[p] != int32(k) {
					stamp[p] = int32(k)
					s.nodePred = append(s.nodePred, p)
				}
			}
		}
		slices.Sort(s.nodePred[start:])
		s.nodePredOff[k+1] = int32(len(s.nodePred))
	}
	s.nodeSuccOff = make([]int32, nn+1)
	for _, p := range s.nodePred {
		s.nodeSuccOff[p+1]++
	}
	for i := 0; i < nn; i++ {
		s.nodeSuccOff[i+1] += s.nodeSuccOff[i]
	}
	s.nodeSucc = make([]int32, len(s.nodePred))
	fill := append([]int32(nil), s.nodeSuccOff[:nn]...)
	for k := 0; k < nn; k++ {
		for _, p := range s.NodePred(k) {
			s.nodeSucc[fill[p]] = int32(k)
			fill[p]++
		}
	}
}

// String summarizes the schedule on one line.
func (s *Schedule) String() string {
	split := 0
	for _, it := range s.Items {
		if it.Split != SplitNone {
			split++
		}
	}
	return fmt.Sprintf("slt: %d comb processes → %d items (%d from splits), %d edges, %d nodes, %d loops, %d ff groups, %d trigger bits, %d warnings",
		len(s.Design.Comb), len(s.Items), split, s.Graph.NumEdges(), len(s.Nodes), len(s.Loops), len(s.FF), len(s.Triggers), len(s.Warnings))
}
