package lanes

import (
	"errors"
	"fmt"

	"github.com/weft-hdl/weft/design"
	"github.com/weft-hdl/weft/sir"
)

// Defaults of Options, in cost units (see the package documentation).
const (
	// DefaultSyncCost is one cross-lane wait for native code
	// (SyncCostNative).
	DefaultSyncCost = SyncCostNative
	// DefaultTaskCost is the overhead of one more task on a lane (a call,
	// a progress store, a builder's prologue).
	DefaultTaskCost = 20
	// DefaultSlack is how far the preferred lane may be behind the earliest
	// one and still keep an item.
	DefaultSlack = 50
	// DefaultCheapValue is the smallest shared value that joins its users.
	DefaultCheapValue = 8
	// DefaultMargin is the fraction of the single-lane cost a partition's
	// makespan plus one wait must stay below (Worth).
	DefaultMargin = 0.9
)

// The cost of one cross-lane wait, in cost units (about one SIR
// instruction's time on the backend): what a wait and the dispatch around
// it cost in situ over what a unit costs. On a 2-core VM, BenchmarkLanes
// (sim) puts the partitioned cores16 clock kernel about 0.7 µs above half
// its sequential time on native code (~1 ns a unit: 600) and the
// partitioned UART about 1.8 µs above its sequential time interpreted (~6
// ns a unit: 300). They are the defaults of builds that must not depend
// on the machine (the compiler's PartitionAlways mode, tests); in auto
// mode the compiler charges a hand-off it measures on the running machine
// (compile.CalibrateSync), kept within [MinSyncCost, MaxSyncCost].
const (
	SyncCostNative = 600
	SyncCostInterp = 300
	MinSyncCost    = 10
	MaxSyncCost    = 1 << 24
)

// Worth is the one test of whether a partitioned kernel pays: its
// estimated makespan span plus one cross-lane wait (sync) is at most
// margin × the sequential kernel's cost single (margin 0: DefaultMargin).
// Partition applies it to the settle and kernels to the fused event
// kernels.
func Worth(span, sync, single int, margin float64) bool {
	if margin <= 0 {
		margin = DefaultMargin
	}
	return float64(span+sync) <= margin*float64(single)
}

// Work is one slt node (slt.Schedule.Nodes[k], k = its index in Input.Work)
// as the partitioner sees it.
type Work struct {
	// Preds are the nodes this node depends on, all < k (slt's NodePred).
	// Read only; duplicates are allowed.
	Preds []int32
	// Cost of this node lowered alone, in cost units; below 1 counts as 1.
	Cost int
	// Lane0: stores to event signals or to the shared system block
	// ($random's seed); runs on lane 0. (Runtime events do not pin a node:
	// each lane writes its own event ring.)
	Lane0 bool
	// Ordered nodes ($random) keep their relative order: each depends on
	// the previous Ordered node.
	Ordered bool
	// Observer is a comb observer (runtime events, e.g. $display in comb
	// logic); one with a single producer is joined with it.
	Observer bool
	// Writes are the bytes the node writes, object-relative: ranges of the
	// same Home intersecting in [Lo, Hi) overlap, and their writers share a
	// lane. Dynamic is not looked at (the range is taken as given).
	Writes []sir.Range
	// Inst is the instance whose logic this is (nil: the top).
	Inst *design.Instance
	// Shared lists values this node computes that other nodes compute too.
	Shared []Shared
}

// Shared names a value several nodes compute (the right-hand side of a
// split concatenation assignment, say) and what computing it costs.
type Shared struct{ Key, Cost int }

// Options tune Partition. Zero fields take their defaults; negative ones are
// errors.
type Options struct {
	// Lanes is the number of lanes, >= 1. With one lane the candidates are
	// still built (all on lane 0) but never chosen.
	Lanes int
	// SyncCost is one cross-lane wait (0: DefaultSyncCost).
	SyncCost int
	// TaskCost is charged per task boundary (0: DefaultTaskCost).
	TaskCost int
	// Slack: an item stays in its latest producer's lane (or the previous
	// item's) while that lane is at most Slack behind the earliest one
	// (0: DefaultSlack).
	Slack int
	// CheapValue: shared values cheaper than this are recomputed by every
	// user instead of joining them (0: DefaultCheapValue).
	CheapValue int
	// Margin: a candidate is chosen only if its makespan + SyncCost <=
	// Margin × single-lane cost (0: DefaultMargin).
	Margin float64
	// Always skips the margin test (tests use it).
	Always bool
}

// Input is what Partition partitions.
type Input struct {
	// Work are the nodes in their sequential order (a topological order).
	Work []Work
	// Top is the top instance (the root of the instance-subtree
	// candidate); nil Work.Inst means Top. Nil: instances hang below a
	// virtual root.
	Top *design.Instance
	// Cost returns the cost of lowering the given nodes (ascending)
	// together through one builder (shared values once). Nil: the sum of
	// the Work costs, less each Shared key's cost for every repeat of it.
	Cost func(nodes []int) int
	// SingleCost is the cost of the single-lane kernel (every value once);
	// 0: Cost(all nodes).
	SingleCost int
}

// Item is an atomic item: nodes lowered together through one builder.
type Item struct {
	// Nodes ascending (a valid run order).
	Nodes []int
	Cost  int
	// Lane0 is set when some node is Lane0 (or the item shares bytes with
	// such an item): the item runs on lane 0.
	Lane0 bool
	// Inst is the deepest instance holding all the item's nodes (the top
	// is Input.Top).
	Inst *design.Instance
	// Why the nodes were joined: "" for a single node, otherwise a comma
	// separated list of "observer", "shared value", "absorbed".
	Why string
	// Preds are the items this one depends on (dependencies and the order
	// of Ordered nodes), ascending.
	Preds []int
	// Cluster is the item's lane-affinity cluster: the index of the first
	// item of the cluster (items writing overlapping bytes, transitively).
	// Every item of a cluster runs on one lane.
	Cluster int
}

// Task is a run of items on one lane, lowered through one builder.
type Task struct {
	// Index is the task's position in the partitioned kernel's sequential
	// order: unique, 0..len(Tasks)-1, ascending along each lane, and a
	// topological order of the node dependencies.
	Index int
	Lane  int
	// Items are indexes into Plan.Items, in run order.
	Items []int
	// Nodes are the items' nodes in run order (a valid dependency order).
	Nodes []int
	// Cost is Input.Cost of the task's nodes.
	Cost int
	// Start and End are estimated times in cost units.
	Start, End int
	// After are the Task indexes on other lanes it was estimated to wait
	// for, without those implied by another of its waits; ascending.
	After []int
}

// Candidate is one partition of the items onto the lanes.
type Candidate struct {
	// Name is "items" or "instances".
	Name string
	// Tasks by Index.
	Tasks []*Task
	// Lanes has, per lane, its task indexes in run order.
	Lanes [][]int
	// Makespan is the estimated end of the last task, waits and task
	// boundaries included.
	Makespan int
	// Waits counts every Task.After entry; Boundaries is tasks minus lanes
	// with tasks.
	Waits, Boundaries int
	// Charged = Makespan + TaskCost×Boundaries + SyncCost×Waits: the figure
	// candidates are compared by.
	Charged int
	// NodeTask is the task Index of every node.
	NodeTask []int
}

// Plan is the result of Partition.
type Plan struct {
	Lanes int
	Items []Item
	// SingleCost is the estimated cost of the sequential kernel.
	SingleCost int
	Candidates []*Candidate
	// Chosen indexes Candidates; -1 keeps only the sequential kernel.
	Chosen int
	// Reason says, on one line with the numbers, why.
	Reason string
}

// Partition joins the nodes into atomic items, builds the "items" and
// "instances" candidates, cuts their lanes into tasks, charges them and
// keeps the cheaper one when it beats the sequential kernel by the margin.
// Empty Work gives a plan with no items, no candidates and Chosen -1.
// Invalid input (a predecessor not before its node, Lanes < 1, negative
// options) is an error, and so is a candidate failing its own verification:
// Partition never returns a bad plan.
func Partition(in Input, opts Options) (*Plan, error) {
	o, err := opts.withDefaults()
	if err != nil {
		return nil, err
	}
	if len(in.Work) == 0 {
		return &Plan{Lanes: o.Lanes, Chosen: -1, Reason: "no work: sequential kernel only"}, nil
	}
	p, err := newPart(in, o)
	if err != nil {
		return nil, err
	}
	p.buildItems()
	p.itemGraph()
	plan := &Plan{Lanes: o.Lanes, Items: p.items, Chosen: -1}
	plan.SingleCost = in.SingleCost
	if plan.SingleCost <= 0 {
		all := make([]int, p.n)
		for i := range all {
			all[i] = i
		}
		plan.SingleCost = p.costOf(all)
	}
	for _, build := range []func() (*placement, error){p.listItems, p.listInstances} {
		pl, err := build()
		if err != nil {
			return nil, err
		}
		c, err := p.cut(pl)
		if err != nil {
			return nil, err
		}
		if err := p.verify(c); err != nil {
			return nil, fmt.Errorf("lanes: candidate %q: %w", c.Name, err)
		}
		plan.Candidates = append(plan.Candidates, c)
	}
	best := 0
	for i, c := range plan.Candidates {
		if c.Charged < plan.Candidates[best].Charged {
			best = i
		}
	}
	b := plan.Candidates[best]
	others := ""
	for i, c := range plan.Candidates {
		if i != best {
			others += fmt.Sprintf(", %s charged %d", c.Name, c.Charged)
		}
	}
	used := 0
	for _, l := range b.Lanes {
		if len(l) > 0 {
			used++
		}
	}
	desc := fmt.Sprintf("%s (%d tasks on %d lanes, %d waits, charged %d%s): makespan %d + sync %d",
		b.Name, len(b.Tasks), used, b.Waits, b.Charged, others, b.Makespan, o.SyncCost)
	switch {
	case o.Lanes < 2:
		plan.Reason = fmt.Sprintf("one lane: sequential kernel only (best %s)", desc)
	case o.Always:
		plan.Chosen = best
		plan.Reason = fmt.Sprintf("%s, single %d (margin test skipped)", desc, plan.SingleCost)
	case Worth(b.Makespan, o.SyncCost, plan.SingleCost, o.Margin):
		plan.Chosen = best
		plan.Reason = fmt.Sprintf("%s <= %.2f × single %d", desc, o.Margin, plan.SingleCost)
	default:
		plan.Reason = fmt.Sprintf("sequential: best %s > %.2f × single %d", desc, o.Margin, plan.SingleCost)
	}
	return plan, nil
}

func (o Options) withDefaults() (Options, error) {
	if o.Lanes < 1 {
		return o, fmt.Errorf("lanes: %d lanes (at least 1)", o.Lanes)
	}
	if o.SyncCost < 0 || o.TaskCost < 0 || o.Slack < 0 || o.CheapValue < 0 || o.Margin < 0 {
		return o, errors.New("lanes: negative option")
	}
	if o.SyncCost == 0 {
		o.SyncCost = DefaultSyncCost
	}
	if o.TaskCost == 0 {
		o.TaskCost = DefaultTaskCost
	}
	if o.Slack == 0 {
		o.Slack = DefaultSlack
	}
	if o.CheapValue == 0 {
		o.CheapValue = DefaultCheapValue
	}
	if o.Margin == 0 {
		o.Margin = DefaultMargin
	}
	return o, nil
}

// part is the state of one Partition call.
type part struct {
	in    Input
	o     Options
	lanes int
	n     int // nodes
	// Effective node dependencies (Preds plus the Ordered chain), sorted
	// and deduplicated: node k's are pred[predOff[k]:predOff[k+1]].
	predOff, pred []int32
	costFn        func([]int) int

	items  []Item
	itemOf []int32 // node -> item
	// Item graph (CSR), topological order and bottom levels.
	ipredOff, ipred []int32
	isuccOff, isucc []int32
	topo            []int32
	blevel          []int
	pinned          []bool // item must run on lane 0 (its cluster has a Lane0 item)
	cluster         []int32
}

func newPart(in Input, o Options) (*part, error) {
	n := len(in.Work)
	p := &part{in: in, o: o, lanes: o.Lanes, n: n}
	p.predOff = make([]int32, n+1)
	stamp := make([]int32, n)
	for i := range stamp {
		stamp[i] = -1
	}
	lastOrdered := int32(-1)
	for k := range in.Work {
		w := &in.Work[k]
		start := len(p.pred)
		for _, q := range w.Preds {
			if q < 0 || int(q) >= k {
				return nil, fmt.Errorf("lanes: node %d depends on node %d (predecessors must come before their node)", k, q)
			}
			if stamp[q] != int32(k) {
				stamp[q] = int32(k)
				p.pred = append(p.pred, q)
			}
		}
		if w.Ordered {
			if lastOrdered >= 0 && stamp[lastOrdered] != int32(k) {
				stamp[lastOrdered] = int32(k)
				p.pred = append(p.pred, lastOrdered)
			}
			lastOrdered = int32(k)
		}
		sortInt32(p.pred[start:])
		p.predOff[k+1] = int32(len(p.pred))
	}
	if in.Cost != nil {
		p.costFn = in.Cost
	} else {
		p.costFn = defaultCost(in.Work)
	}
	return p, nil
}

// nodePreds returns node k's effective dependencies.
func (p *part) nodePreds(k int) []int32 { return p.pred[p.predOff[k]:p.predOff[k+1]] }

func (p *part) itemPreds(i int) []int32 { return p.ipred[p.ipredOff[i]:p.ipredOff[i+1]] }
func (p *part) itemSuccs(i int) []int32 { return p.isucc[p.isuccOff[i]:p.isuccOff[i+1]] }

// costOf is Input.Cost (or the default) of ascending nodes, at least 1.
func (p *part) costOf(nodes []int) int {
	if len(nodes) == 1 {
		return max(p.in.Work[nodes[0]].Cost, 1)
	}
	return max(p.costFn(nodes), 1)
}

// defaultCost sums the node costs, counting every Shared key once.
func defaultCost(work []Work) func([]int) int {
	seen := map[int]bool{}
	return func(nodes []int) int {
		clear(seen)
		total := 0
		for _, k := range nodes {
			if k < 0 || k >= len(work) {
				continue
			}
			w := &work[k]
			total += max(w.Cost, 1)
			for _, s := range w.Shared {
				if seen[s.Key] {
					total -= max(s.Cost, 0)
				}
				seen[s.Key] = true
			}
		}
		return max(total, 1)
	}
}
