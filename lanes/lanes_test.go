package lanes

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/weft-hdl/weft/design"
	"github.com/weft-hdl/weft/sir"
)

// chain appends a chain of n nodes of the given cost (the first depending
// on dep when dep >= 0) and returns the last node.
func chain(w *[]Work, n, cost int, dep int, inst *design.Instance) int {
	for i := 0; i < n; i++ {
		var preds []int32
		if i > 0 {
			preds = []int32{int32(len(*w) - 1)}
		} else if dep >= 0 {
			preds = []int32{int32(dep)}
		}
		*w = append(*w, Work{Preds: preds, Cost: cost, Inst: inst})
	}
	return len(*w) - 1
}

func mustPartition(t *testing.T, in Input, o Options) *Plan {
	t.Helper()
	p, err := Partition(in, o)
	if err != nil {
		t.Fatal(err)
	}
	checkPlan(t, in, p)
	return p
}

func candidate(t *testing.T, p *Plan, name string) *Candidate {
	t.Helper()
	for _, c := range p.Candidates {
		if c.Name == name {
			return c
		}
	}
	t.Fatalf("no candidate %q", name)
	return nil
}

// nodeLane returns the lane of every node in c.
func nodeLane(c *Candidate, n int) []int {
	lane := make([]int, n)
	for _, t := range c.Tasks {
		for _, k := range t.Nodes {
			lane[k] = t.Lane
		}
	}
	return lane
}

func dump(c *Candidate) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: makespan %d waits %d boundaries %d charged %d\n", c.Name, c.Makespan, c.Waits, c.Boundaries, c.Charged)
	for _, t := range c.Tasks {
		fmt.Fprintf(&b, "  task %d lane %d nodes %v [%d,%d) after %v\n", t.Index, t.Lane, t.Nodes, t.Start, t.End, t.After)
	}
	return b.String()
}

func TestTwoChains(t *testing.T) {
	var w []Work
	chain(&w, 10, 100, -1, nil)
	chain(&w, 10, 100, -1, nil)
	p := mustPartition(t, Input{Work: w}, Options{Lanes: 2})
	if p.Chosen < 0 {
		t.Fatalf("not partitioned: %s", p.Reason)
	}
	c := candidate(t, p, "items")
	lane := nodeLane(c, len(w))
	for k := range w {
		if lane[k] != lane[k/10*10] {
			t.Errorf("node %d on lane %d, its chain on %d", k, lane[k], lane[k/10*10])
		}
	}
	if lane[0] == lane[10] || c.Waits != 0 || len(c.Tasks) != 2 {
		t.Errorf("chains not split cleanly:\n%s", dump(c))
	}
	if c.Makespan != 1000 {
		t.Errorf("makespan %d, want 1000", c.Makespan)
	}
}

func TestChainStaysOnOneLane(t *testing.T) {
	var w []Work
	chain(&w, 30, 40, -1, nil)
	for _, lanes := range []int{2, 4, 8} {
		p := mustPartition(t, Input{Work: w}, Options{Lanes: lanes, Always: true})
		for _, c := range p.Candidates {
			if c.Waits != 0 || len(c.Tasks) != 1 {
				t.Errorf("%d lanes: chain split:\n%s", lanes, dump(c))
			}
		}
		if p2 := mustPartition(t, Input{Work: w}, Options{Lanes: lanes}); p2.Chosen != -1 {
			t.Errorf("a chain was partitioned: %s", p2.Reason)
		}
	}
}

func TestLane0Pinned(t *testing.T) {
	var w []Work
	chain(&w, 10, 100, -1, nil)
	chain(&w, 10, 100, -1, nil)
	w[15].Lane0 = true
	w[2].Writes = []sir.Range{{Home: 3, Lo: 0, Hi: 8}}
	w[17].Writes = []sir.Range{{Home: 3, Lo: 4, Hi: 5}} // affinity with node 2
	w[15].Writes = []sir.Range{{Home: 4, Lo: 0, Hi: 1}}
	w[19].Writes = []sir.Range{{Home: 4, Lo: 0, Hi: 2}}
	p := mustPartition(t, Input{Work: w}, Options{Lanes: 2, Always: true})
	for _, c := range p.Candidates {
		lane := nodeLane(c, len(w))
		if lane[15] != 0 {
			t.Errorf("%s: lane-0 node on lane %d", c.Name, lane[15])
		}
		if lane[19] != 0 {
			t.Errorf("%s: writers overlapping a lane-0 item's cluster off lane 0", c.Name)
		}
		if lane[2] != lane[17] {
			t.Errorf("%s: overlapping writers 2 and 17 on lanes %d and %d", c.Name, lane[2], lane[17])
		}
	}
	if !p.Items[p.itemOfNode(19)].Lane0 || p.Items[p.itemOfNode(12)].Lane0 {
		t.Error("cluster of a lane-0 item not marked Lane0")
	}
}

// itemOfNode is a test helper.
func (p *Plan) itemOfNode(k int) int {
	for i, it := range p.Items {
		if slices.Contains(it.Nodes, k) {
			return i
		}
	}
	return -1
}

func TestOverlapTogether(t *testing.T) {
	w := make([]Work, 6)
	for k := range w {
		w[k].Cost = 300
	}
	w[0].Writes = []sir.Range{{Home: 1, Lo: 0, Hi: 4}}
	w[3].Writes = []sir.Range{{Home: 1, Lo: 2, Hi: 6}}
	w[5].Writes = []sir.Range{{Home: 1, Lo: 5, Hi: 9}} // overlaps 3, so joins 0 too
	w[1].Writes = []sir.Range{{Home: 2, Lo: 0, Hi: 2}}
	w[2].Writes = []sir.Range{{Home: 2, Lo: 2, Hi: 4}} // disjoint from 1
	w[4].Writes = []sir.Range{{Home: 9, Lo: 0, Hi: 4}}
	p := mustPartition(t, Input{Work: w}, Options{Lanes: 3, Always: true})
	if a, b, c := p.Items[0].Cluster, p.Items[3].Cluster, p.Items[5].Cluster; a != 0 || b != 0 || c != 0 {
		t.Errorf("clusters %d %d %d, want 0 0 0", a, b, c)
	}
	if p.Items[1].Cluster == p.Items[2].Cluster {
		t.Error("disjoint writers clustered")
	}
	for _, c := range p.Candidates {
		lane := nodeLane(c, len(w))
		if lane[0] != lane[3] || lane[3] != lane[5] {
			t.Errorf("%s: overlapping writers on lanes %d %d %d", c.Name, lane[0], lane[3], lane[5])
		}
	}
}

func TestObserverJoined(t *testing.T) {
	w := []Work{
		{Cost: 50},
		{Cost: 5, Preds: []int32{0, 0}, Observer: true, Ordered: true},
		{Cost: 50},
		{Cost: 5, Preds: []int32{0, 2}, Observer: true},
	}
	p := mustPartition(t, Input{Work: w}, Options{Lanes: 2, Always: true})
	if len(p.Items) != 3 || !slices.Equal(p.Items[0].Nodes, []int{0, 1}) || p.Items[0].Why != "observer" {
		t.Fatalf("items %+v", p.Items)
	}
	if p.Items[0].Cost != 55 {
		t.Errorf("cost %d", p.Items[0].Cost)
	}
}

func TestSharedValue(t *testing.T) {
	w := []Work{
		{Cost: 40, Shared: []Shared{{Key: 7, Cost: 30}}},
		{Cost: 40, Shared: []Shared{{Key: 7, Cost: 30}}},
		{Cost: 40, Shared: []Shared{{Key: 8, Cost: 2}}},
		{Cost: 40, Shared: []Shared{{Key: 8, Cost: 2}}},
	}
	p := mustPartition(t, Input{Work: w}, Options{Lanes: 2, Always: true})
	if len(p.Items) != 3 || !slices.Equal(p.Items[0].Nodes, []int{0, 1}) || p.Items[0].Why != "shared value" {
		t.Fatalf("items %+v", p.Items)
	}
	if p.Items[0].Cost != 50 { // 40+40, the shared 30 once
		t.Errorf("joined cost %d, want 50", p.Items[0].Cost)
	}
	if p.SingleCost != 50+80-2 {
		t.Errorf("single cost %d", p.SingleCost)
	}
	// A raised threshold recomputes the value instead.
	p = mustPartition(t, Input{Work: w}, Options{Lanes: 2, Always: true, CheapValue: 31})
	if len(p.Items) != 4 {
		t.Errorf("items %+v", p.Items)
	}
}

func TestAbsorb(t *testing.T) {
	w := []Work{
		{Cost: 10, Shared: []Shared{{Key: 1, Cost: 100}}},                    // X
		{Cost: 10, Preds: []int32{0}},                                        // v
		{Cost: 10, Preds: []int32{1}, Shared: []Shared{{Key: 1, Cost: 100}}}, // Y
		{Cost: 10},                       // unrelated
		{Cost: 10, Preds: []int32{0, 3}}, // after X, not before Y
		// A second round: Y' (with 5) reached from the absorbed item.
		{Cost: 10, Preds: []int32{2}, Shared: []Shared{{Key: 2, Cost: 100}}},
		{Cost: 10, Preds: []int32{5}},
		{Cost: 10, Shared: []Shared{{Key: 2, Cost: 100}}, Preds: []int32{6}},
	}
	p := mustPartition(t, Input{Work: w}, Options{Lanes: 2, Always: true})
	if !slices.Equal(p.Items[0].Nodes, []int{0, 1, 2}) || !strings.Contains(p.Items[0].Why, "absorbed") {
		t.Errorf("item 0 %+v", p.Items[0])
	}
	if p.itemOfNode(3) == 0 || p.itemOfNode(4) == 0 {
		t.Error("unrelated node absorbed")
	}
	if i := p.itemOfNode(6); !slices.Equal(p.Items[i].Nodes, []int{5, 6, 7}) {
		t.Errorf("second item %+v", p.Items[i])
	}
	// Absorption of a joined item: X, Y share a key; v1, v2 share another;
	// X -> v1, v2 -> Y: the two items must merge.
	w = []Work{
		{Cost: 10, Shared: []Shared{{Key: 1, Cost: 100}}},
		{Cost: 10, Preds: []int32{0}, Shared: []Shared{{Key: 2, Cost: 100}}},
		{Cost: 10, Shared: []Shared{{Key: 2, Cost: 100}}},
		{Cost: 10, Preds: []int32{2}, Shared: []Shared{{Key: 1, Cost: 100}}},
	}
	p = mustPartition(t, Input{Work: w}, Options{Lanes: 2, Always: true})
	if len(p.Items) != 1 || p.Items[0].Why != "shared value, absorbed" {
		t.Errorf("items %+v", p.Items)
	}
}

func tree4() (*design.Instance, []*design.Instance) {
	top := &design.Instance{Name: "top", Path: "top"}
	var kids []*design.Instance
	for i := 0; i < 4; i++ {
		c := &design.Instance{Name: fmt.Sprintf("u%d", i), Path: fmt.Sprintf("top.u%d", i), Parent: top}
		top.Children = append(top.Children, c)
		kids = append(kids, c)
	}
	return top, kids
}

func TestInstanceSubtrees(t *testing.T) {
	top, kids := tree4()
	var w []Work
	for i := 0; i < 20; i++ { // interleaved, so the list scheduler has no hint
		c := kids[i%4]
		var preds []int32
		if i >= 4 {
			preds = []int32{int32(i - 4)}
		}
		w = append(w, Work{Cost: 100, Preds: preds, Inst: c})
	}
	// A grandchild counts with its parent's subtree.
	gc := &design.Instance{Name: "g", Path: "top.u1.g", Parent: kids[1]}
	kids[1].Children = append(kids[1].Children, gc)
	w[5].Inst = gc
	p := mustPartition(t, Input{Work: w, Top: top}, Options{Lanes: 2})
	c := candidate(t, p, "instances")
	lane := nodeLane(c, len(w))
	per := make([]int, 2)
	for i := 0; i < 4; i++ {
		for k := i; k < 20; k += 4 {
			if lane[k] != lane[i] {
				t.Errorf("instance %d split", i)
			}
		}
		per[lane[i]]++
	}
	if per[0] != 2 || per[1] != 2 || c.Waits != 0 {
		t.Errorf("per lane %v:\n%s", per, dump(c))
	}
	if c.Makespan != 1000 {
		t.Errorf("makespan %d", c.Makespan)
	}
	if p.Chosen < 0 {
		t.Errorf("not partitioned: %s", p.Reason)
	}
	if p.Items[5].Inst != gc || p.Items[1].Inst != kids[1] {
		t.Error("item instances")
	}
}

func TestInstanceTopLogic(t *testing.T) {
	// One big child (more than a share) with two small grandchildren and
	// its own logic; top logic too. Nothing crashes, everything is placed.
	top := &design.Instance{Name: "top", Path: "top"}
	big := &design.Instance{Name: "big", Path: "top.big", Parent: top}
	g1 := &design.Instance{Name: "g1", Path: "top.big.g1", Parent: big}
	g2 := &design.Instance{Name: "g2", Path: "top.big.g2", Parent: big}
	other := &design.Instance{Name: "x", Path: "elsewhere"} // outside Top's tree
	var w []Work
	chain(&w, 5, 100, -1, g1)
	chain(&w, 5, 100, -1, g2)
	chain(&w, 2, 100, -1, big)
	chain(&w, 1, 100, -1, nil)
	chain(&w, 1, 100, -1, other)
	p := mustPartition(t, Input{Work: w, Top: top}, Options{Lanes: 2, Always: true})
	c := candidate(t, p, "instances")
	lane := nodeLane(c, len(w))
	if lane[0] == lane[5] {
		t.Errorf("grandchildren not split:\n%s", dump(c))
	}
	// Without Top: a virtual root.
	mustPartition(t, Input{Work: w}, Options{Lanes: 3, Always: true})
}

func TestMargin(t *testing.T) {
	w := []Work{{Cost: 1}, {Cost: 1}, {Cost: 1}}
	p := mustPartition(t, Input{Work: w}, Options{Lanes: 2})
	if p.Chosen != -1 || !strings.HasPrefix(p.Reason, "sequential") {
		t.Errorf("chosen %d: %s", p.Chosen, p.Reason)
	}
	p = mustPartition(t, Input{Work: w}, Options{Lanes: 2, Always: true})
	if p.Chosen < 0 {
		t.Errorf("Always: %s", p.Reason)
	}
	p = mustPartition(t, Input{Work: w}, Options{Lanes: 1, Always: true})
	if p.Chosen != -1 || len(p.Candidates) != 2 {
		t.Errorf("one lane: chosen %d: %s", p.Chosen, p.Reason)
	}
	// SingleCost given: big enough to make partitioning pay.
	var w2 []Work
	chain(&w2, 5, 200, -1, nil)
	chain(&w2, 5, 200, -1, nil)
	if p := mustPartition(t, Input{Work: w2}, Options{Lanes: 2}); p.Chosen < 0 {
		t.Errorf("two chains: %s", p.Reason)
	}
	if p := mustPartition(t, Input{Work: w2, SingleCost: 1200}, Options{Lanes: 2}); p.Chosen != -1 {
		t.Errorf("small single cost: %s", p.Reason)
	}
}

func TestOrdered(t *testing.T) {
	// Four independent chains; an Ordered node in each, in an order that
	// the longest-path-first scheduler would otherwise break.
	var w []Work
	for c := 0; c < 4; c++ {
		chain(&w, 6, 100*(c+1), -1, nil)
	}
	ord := []int{3, 7, 14, 20, 22}
	for _, k := range ord {
		w[k].Ordered = true
	}
	for _, lanes := range []int{2, 3, 4} {
		p := mustPartition(t, Input{Work: w}, Options{Lanes: lanes, Always: true})
		for _, c := range p.Candidates {
			prev := [2]int{-1, -1}
			for _, k := range ord {
				ti := c.NodeTask[k]
				cur := [2]int{ti, slices.Index(c.Tasks[ti].Nodes, k)}
				if cur[0] < prev[0] || cur[0] == prev[0] && cur[1] <= prev[1] {
					t.Errorf("%d lanes %s: ordered node %d out of order:\n%s", lanes, c.Name, k, dump(c))
				}
				prev = cur
			}
		}
	}
}

func TestErrors(t *testing.T) {
	if _, err := Partition(Input{Work: []Work{{Cost: 1}}}, Options{Lanes: 0}); err == nil {
		t.Error("0 lanes accepted")
	}
	if _, err := Partition(Input{Work: []Work{{Cost: 1}, {Preds: []int32{1}}}}, Options{Lanes: 2}); err == nil {
		t.Error("self dependency accepted")
	}
	if _, err := Partition(Input{Work: []Work{{Preds: []int32{-1}}}}, Options{Lanes: 2}); err == nil {
		t.Error("negative dependency accepted")
	}
	if _, err := Partition(Input{Work: []Work{{Cost: 1}}}, Options{Lanes: 2, Slack: -1}); err == nil {
		t.Error("negative slack accepted")
	}
	p, err := Partition(Input{}, Options{Lanes: 4})
	if err != nil || p.Chosen != -1 || len(p.Candidates) != 0 {
		t.Errorf("empty: %v %+v", err, p)
	}
}

// TestProducerTaskClosed: a consumer on another lane waits for the task
// holding its producer, which ends there.
func TestProducerTaskClosed(t *testing.T) {
	var w []Work
	a := chain(&w, 3, 100, -1, nil) // 0..2
	chain(&w, 8, 100, -1, nil)      // 3..10
	// Node 11 needs 1 (middle of chain A) and 10.
	w = append(w, Work{Cost: 100, Preds: []int32{1, 10}})
	_ = a
	p := mustPartition(t, Input{Work: w}, Options{Lanes: 2, Always: true})
	for _, c := range p.Candidates {
		if c.Waits > 1 {
			t.Errorf("%s: %d waits:\n%s", c.Name, c.Waits, dump(c))
		}
	}
}

// TestProducerClosedEarly: when a lane runs a cheap item another lane
// needs and then an expensive one, the cheap item ends its task, so the
// consumer waits for it alone and not for the expensive work after it.
func TestProducerClosedEarly(t *testing.T) {
	w := []Work{
		{Cost: 3},
		{Cost: 3},
		{Cost: 600, Preds: []int32{0}},
		{Cost: 600, Preds: []int32{1}},
	}
	p := mustPartition(t, Input{Work: w}, Options{Lanes: 2, Always: true, SyncCost: 200})
	c := p.Candidates[0]
	if c.Name != "items" {
		t.Fatalf("candidate 0 is %q", c.Name)
	}
	// The consumer starts after both cheap items and one sync (without the
	// early cut it would start after the expensive item: 1406).
	if c.Makespan > 3+3+200+600 {
		t.Errorf("makespan %d: the consumer waited for the expensive item:\n%s", c.Makespan, dump(c))
	}
	if p.Chosen != 0 {
		t.Errorf("chose %d (%s):\n%s", p.Chosen, p.Reason, dump(c))
	}
}

// TestVerifyCatches corrupts a good candidate in several ways; verify must
// reject each.
func TestVerifyCatches(t *testing.T) {
	var w []Work
	chain(&w, 4, 100, -1, nil)
	chain(&w, 4, 100, -1, nil)
	w = append(w, Work{Cost: 100, Preds: []int32{3, 7}, Lane0: true})
	w[1].Writes = []sir.Range{{Home: 1, Lo: 0, Hi: 4}}
	w[2].Writes = []sir.Range{{Home: 1, Lo: 3, Hi: 4}}
	build := func() (*part, *Candidate) {
		o, _ := Options{Lanes: 2, Always: true}.withDefaults()
		p, err := newPart(Input{Work: w}, o)
		if err != nil {
			t.Fatal(err)
		}
		p.buildItems()
		p.itemGraph()
		pl, err := p.listItems()
		if err != nil {
			t.Fatal(err)
		}
		c, err := p.cut(pl)
		if err != nil {
			t.Fatal(err)
		}
		if err := p.verify(c); err != nil {
			t.Fatal(err)
		}
		if c.Waits == 0 {
			t.Fatalf("want a wait:\n%s", dump(c))
		}
		return p, c
	}
	corrupt := map[string]func(c *Candidate){
		"drop wait": func(c *Candidate) {
			for _, tk := range c.Tasks {
				tk.After = nil
			}
		},
		"swap indexes": func(c *Candidate) {
			last := len(c.Tasks) - 1
			c.Tasks[0], c.Tasks[last] = c.Tasks[last], c.Tasks[0]
			c.Tasks[0].Index, c.Tasks[last].Index = 0, last
		},
		"node twice": func(c *Candidate) { c.Tasks[0].Nodes = append(c.Tasks[0].Nodes, c.Tasks[0].Nodes[0]) },
		"lane0 moved": func(c *Candidate) {
			last := c.Tasks[c.NodeTask[8]]
			for l, ids := range c.Lanes {
				c.Lanes[l] = slices.DeleteFunc(ids, func(i int) bool { return i == last.Index })
			}
			last.Lane = 1
			c.Lanes[1] = append(c.Lanes[1], last.Index)
		},
		"bad lane":   func(c *Candidate) { c.Tasks[0].Lane = 5 },
		"wait later": func(c *Candidate) { c.Tasks[0].After = []int{len(c.Tasks) - 1} },
	}
	for name, f := range corrupt {
		p, c := build()
		f(c)
		if err := p.verify(c); err == nil {
			t.Errorf("%s: not caught", name)
		}
	}
}
