package ffsplit

import (
	"math"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/weft-hdl/weft/sir"
)

func rng(h sir.HomeID, lo, hi int) sir.Range { return sir.Range{Home: h, Lo: lo, Hi: hi} }

func mustSplit(t *testing.T, in Input, opts Options) *Plan {
	t.Helper()
	p, err := Split(in, opts)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Check(in); err != nil {
		t.Fatalf("%v\n%v", err, p)
	}
	return p
}

// own gives proc i its own staging bytes.
func own(i int) []sir.Range { return []sir.Range{rng(sir.HomeID(1000+i), 0, 4)} }

func TestBigGroupSplit(t *testing.T) {
	var in Input
	in.Lanes = 2
	for i := range 8 {
		in.Procs = append(in.Procs, Proc{Group: 0, Cost: 5, Writes: own(i)})
	}
	p := mustSplit(t, in, Options{})
	if len(p.Parts) != 4 {
		t.Fatalf("got %d parts, want 4\n%v", len(p.Parts), p)
	}
	for i, pt := range p.Parts {
		if want := []int{2 * i, 2*i + 1}; !reflect.DeepEqual(pt.Procs, want) || pt.Cost != 10 {
			t.Errorf("part %d = %v cost %d, want %v cost 10", i, pt.Procs, pt.Cost, want)
		}
	}
	if len(p.Clusters) != 4 {
		t.Errorf("got %d clusters, want 4", len(p.Clusters))
	}
	if p.Loads[0] != 20 || p.Loads[1] != 20 || p.Makespan != 20 || p.SingleCost != 40 {
		t.Errorf("loads %v makespan %d single %d", p.Loads, p.Makespan, p.SingleCost)
	}
}

func TestUnevenGroupCut(t *testing.T) {
	// Costs 1,1,1,1,8,1,1,1,1 (16) over 2 lanes × 2 parts: 4 parts with
	// boundaries near 4, 8, 12; never splitting the heavy proc.
	costs := []int{1, 1, 1, 1, 8, 1, 1, 1, 1}
	var in Input
	in.Lanes = 2
	for i, c := range costs {
		in.Procs = append(in.Procs, Proc{Group: 3, Cost: c, Writes: own(i)})
	}
	p := mustSplit(t, in, Options{})
	var got [][]int
	for _, pt := range p.Parts {
		got = append(got, pt.Procs)
	}
	// prefix 0 1 2 3 4 12 13 14 15 16, targets 4, 8, 12: cut at 4, then
	// 12 (index 5) is nearest to 8, then index 6 (13) to 12.
	want := [][]int{{0, 1, 2, 3}, {4}, {5}, {6, 7, 8}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("parts %v, want %v", got, want)
	}
	for _, pt := range p.Parts {
		if pt.Group != 3 {
			t.Fatalf("group %d", pt.Group)
		}
	}
}

func TestSmallGroupsLPT(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var in Input
	in.Lanes = 4
	maxCost := 0
	for g := range 100 {
		c := 1 + r.IntN(20)
		maxCost = max(maxCost, c)
		in.Procs = append(in.Procs, Proc{Group: g, Cost: c, Writes: own(g)})
	}
	p := mustSplit(t, in, Options{})
	if len(p.Parts) != 100 {
		t.Fatalf("got %d parts, want 100", len(p.Parts))
	}
	for g, pt := range p.Parts {
		if pt.Group != g || len(pt.Procs) != 1 {
			t.Fatalf("part %d: %+v", g, pt)
		}
	}
	// LPT: makespan <= total/lanes + largest job.
	if bound := p.SingleCost/in.Lanes + maxCost; p.Makespan > bound {
		t.Errorf("makespan %d > %d (loads %v)", p.Makespan, bound, p.Loads)
	}
	min := p.Loads[0]
	for _, l := range p.Loads {
		if l < min {
			min = l
		}
	}
	if p.Makespan-min > maxCost {
		t.Errorf("load spread %d > %d (loads %v)", p.Makespan-min, maxCost, p.Loads)
	}
}

func TestOverlapCluster(t *testing.T) {
	in := Input{Lanes: 4}
	// Groups 0..5, one proc each; 1 and 4 write overlapping bytes of home
	// 7, and 4 and 5 share home 9 (chain: 1-4-5). 2 writes home 7 too,
	// but disjoint bytes.
	in.Procs = []Proc{
		{Group: 0, Cost: 3, Writes: own(0)},
		{Group: 1, Cost: 3, Writes: []sir.Range{rng(7, 0, 4)}},
		{Group: 2, Cost: 3, Writes: []sir.Range{rng(7, 4, 8)}},
		{Group: 3, Cost: 3, Writes: own(3)},
		{Group: 4, Cost: 3, Writes: []sir.Range{rng(7, 3, 4), rng(9, 0, 1)}},
		{Group: 5, Cost: 3, Writes: []sir.Range{rng(9, 0, 8)}},
	}
	p := mustSplit(t, in, Options{})
	c := p.Cluster[1]
	if p.Cluster[4] != c || p.Cluster[5] != c {
		t.Fatalf("clusters %v", p.Clusters)
	}
	if p.Cluster[2] == c {
		t.Fatalf("disjoint writer clustered: %v", p.Clusters)
	}
	if !reflect.DeepEqual(p.Clusters[c], []int{1, 4, 5}) {
		t.Fatalf("cluster %v", p.Clusters[c])
	}
	if p.Lane[1] != p.Lane[4] || p.Lane[1] != p.Lane[5] {
		t.Fatalf("lanes %v", p.Lane)
	}
	if len(p.Clusters) != 4 {
		t.Fatalf("clusters %v", p.Clusters)
	}
}

func TestOverlapWithinGroup(t *testing.T) {
	// One big group whose procs all write bits of one staging byte: the
	// parts stay one cluster on one lane.
	in := Input{Lanes: 2}
	for range 8 {
		in.Procs = append(in.Procs, Proc{Group: 0, Cost: 1, Writes: []sir.Range{rng(1, 0, 1)}})
	}
	p := mustSplit(t, in, Options{})
	if len(p.Parts) != 4 || len(p.Clusters) != 1 || p.Makespan != 8 {
		t.Fatalf("%v", p)
	}
}

func TestLane0(t *testing.T) {
	in := Input{Lanes: 3}
	for g := range 6 {
		in.Procs = append(in.Procs, Proc{Group: g, Cost: 10 * (g + 1), Writes: own(g)})
	}
	in.Procs[4].Lane0 = true
	// Affinity pulls group 4 to lane 2, but events win.
	in.LaneAccess = [][]sir.Range{nil, nil, {rng(50, 0, 100)}}
	in.Procs[4].Accesses = []sir.Range{rng(50, 0, 100)}
	p := mustSplit(t, in, Options{})
	if p.Lane[4] != 0 {
		t.Fatalf("Lane0 part on lane %d", p.Lane[4])
	}
	// Lane0 is placed first: lane 0 carries 50, the largest other (60)
	// goes elsewhere.
	if p.Lane[5] == 0 {
		t.Errorf("largest cluster joined the lane0 lane: %v", p)
	}
}

func TestLane0Cluster(t *testing.T) {
	// A part that shares bytes with a Lane0 part follows it to lane 0.
	in := Input{Lanes: 2, Procs: []Proc{
		{Group: 0, Cost: 1, Writes: []sir.Range{rng(1, 0, 2)}},
		{Group: 1, Cost: 1, Writes: own(1)},
		{Group: 2, Cost: 1, Writes: []sir.Range{rng(1, 1, 2)}, Lane0: true},
		{Group: 3, Cost: 1, Writes: own(3)},
	}}
	p := mustSplit(t, in, Options{})
	if p.Lane[0] != 0 || p.Lane[2] != 0 {
		t.Fatalf("%v", p)
	}
}

func TestAffinity(t *testing.T) {
	// Four equal groups; group g's state is read by lane 3-g in the comb
	// settle. Within balance every group follows its affinity.
	in := Input{Lanes: 4, LaneAccess: make([][]sir.Range, 4)}
	for g := range 4 {
		h := sir.HomeID(10 + g)
		in.Procs = append(in.Procs, Proc{Group: g, Cost: 5, Writes: own(g), Accesses: []sir.Range{rng(h, 0, 16)}})
		in.LaneAccess[3-g] = append(in.LaneAccess[3-g], rng(h, 0, 8), rng(h, 4, 12))
	}
	p := mustSplit(t, in, Options{})
	for g := range 4 {
		if p.Lane[g] != 3-g {
			t.Fatalf("group %d on lane %d, want %d\n%v", g, p.Lane[g], 3-g, p)
		}
	}
}

func TestAffinityOverload(t *testing.T) {
	// Every group prefers lane 1; only the first fits within the balanced
	// share, the rest go to the least loaded lane.
	in := Input{Lanes: 2, LaneAccess: [][]sir.Range{nil, {rng(1, 0, 64)}}}
	for g := range 4 {
		in.Procs = append(in.Procs, Proc{Group: g, Cost: 10, Writes: own(g), Accesses: []sir.Range{rng(1, 0, 8)}})
	}
	p := mustSplit(t, in, Options{})
	// share 20, bound 22: g0 → lane 1 (10), g1 → lane 1 (20), g2 would
	// make 30 → least loaded lane 0, g3 → lane 0.
	if want := []int{1, 1, 0, 0}; !reflect.DeepEqual(p.Lane, want) {
		t.Fatalf("lanes %v, want %v", p.Lane, want)
	}
	// A generous Balance lets affinity overload lane 1.
	p = mustSplit(t, in, Options{Balance: 2})
	if want := []int{1, 1, 1, 1}; !reflect.DeepEqual(p.Lane, want) {
		t.Fatalf("Balance 2: lanes %v, want %v", p.Lane, want)
	}
	// A single heavy cluster preferring lane 1 beyond the share still
	// goes to the least loaded lane (0).
	in2 := Input{Lanes: 2, LaneAccess: in.LaneAccess, Procs: []Proc{
		{Group: 0, Cost: 30, Accesses: []sir.Range{rng(1, 0, 1)}},
		{Group: 1, Cost: 1},
	}}
	p = mustSplit(t, in2, Options{PartsPerLane: 1})
	if p.Lane[0] != 0 {
		t.Fatalf("heavy cluster followed affinity: %v", p)
	}
}

func TestOneLane(t *testing.T) {
	in := Input{Lanes: 1, LaneAccess: [][]sir.Range{{rng(1, 0, 8)}}}
	for g := range 5 {
		for i := range 3 {
			in.Procs = append(in.Procs, Proc{Group: g, Cost: i + 1, Writes: own(g), Lane0: g == 2})
		}
	}
	p := mustSplit(t, in, Options{})
	for pi, l := range p.Lane {
		if l != 0 {
			t.Fatalf("part %d on lane %d", pi, l)
		}
	}
	if p.Makespan != p.SingleCost || p.SingleCost != 30 {
		t.Fatalf("%v", p)
	}
}

func TestEmpty(t *testing.T) {
	p := mustSplit(t, Input{Lanes: 3}, Options{})
	if len(p.Parts) != 0 || len(p.Lanes) != 3 || p.Makespan != 0 {
		t.Fatalf("%v", p)
	}
}

func TestZeroCost(t *testing.T) {
	in := Input{Lanes: 2, Procs: []Proc{{Group: 0}, {Group: 1, Cost: 0}, {Group: 1, Cost: 2}}}
	p := mustSplit(t, in, Options{})
	if p.SingleCost != 4 {
		t.Fatalf("%v", p)
	}
}

func TestInvalid(t *testing.T) {
	good := []Proc{{Group: 0, Cost: 1}, {Group: 2, Cost: 1}}
	cases := []struct {
		name string
		in   Input
		opts Options
	}{
		{"lanes0", Input{Lanes: 0, Procs: good}, Options{}},
		{"lanesNeg", Input{Lanes: -2, Procs: good}, Options{}},
		{"lanesHuge", Input{Lanes: MaxLanes + 1, Procs: good}, Options{}},
		{"groupOrder", Input{Lanes: 2, Procs: []Proc{{Group: 2}, {Group: 1}}}, Options{}},
		{"groupNeg", Input{Lanes: 2, Procs: []Proc{{Group: -1}}}, Options{}},
		{"costNeg", Input{Lanes: 2, Procs: []Proc{{Group: 0, Cost: -3}}}, Options{}},
		{"laneAccess", Input{Lanes: 1, Procs: good, LaneAccess: make([][]sir.Range, 2)}, Options{}},
		{"ppl", Input{Lanes: 2, Procs: good}, Options{PartsPerLane: -1}},
		{"balance", Input{Lanes: 2, Procs: good}, Options{Balance: -1}},
		{"overflow", Input{Lanes: 2, Procs: []Proc{{Cost: 1 << 62}, {Cost: 1 << 62}, {Cost: 1 << 62}}}, Options{}},
	}
	for _, c := range cases {
		if p, err := Split(c.in, c.opts); err == nil {
			t.Errorf("%s: no error, plan %v", c.name, p)
		}
	}
}

func TestHugeValuesNoPanic(t *testing.T) {
	in := Input{Lanes: MaxLanes, Procs: []Proc{
		{Group: 0, Cost: 1 << 40, Writes: []sir.Range{rng(1, -1<<62, 1<<62)}, Accesses: []sir.Range{rng(1, -1<<62, 1<<62)}},
		{Group: 0, Cost: 1 << 40, Writes: []sir.Range{rng(1, 5, 3)}},
		{Group: 1, Cost: 1, Accesses: []sir.Range{rng(1, -1<<62, 1<<62), rng(2, 0, 1<<62)}},
	}}
	in.LaneAccess = make([][]sir.Range, 3)
	in.LaneAccess[2] = []sir.Range{rng(1, -1<<62, 1<<62), rng(2, -1<<62, 1<<62)}
	if _, err := Split(in, Options{PartsPerLane: 1 << 40, Balance: 1e300}); err != nil {
		t.Fatal(err)
	}
}

func randomInput(r *rand.Rand) Input {
	in := Input{Lanes: 1 + r.IntN(6)}
	groups := r.IntN(12)
	g := 0
	for range groups {
		g += 1 + r.IntN(3)
		n := 1 + r.IntN(10)
		if r.IntN(4) == 0 {
			n += r.IntN(40)
		}
		for range n {
			pr := Proc{Group: g, Cost: r.IntN(30), Lane0: r.IntN(40) == 0}
			for range r.IntN(4) {
				lo := r.IntN(200)
				pr.Writes = append(pr.Writes, rng(sir.HomeID(r.IntN(40)), lo, lo+r.IntN(6)))
			}
			for range r.IntN(4) {
				lo := r.IntN(100)
				pr.Accesses = append(pr.Accesses, rng(sir.HomeID(r.IntN(20)), lo, lo+r.IntN(40)))
			}
			in.Procs = append(in.Procs, pr)
		}
	}
	if r.IntN(3) > 0 {
		in.LaneAccess = make([][]sir.Range, r.IntN(in.Lanes+1))
		for l := range in.LaneAccess {
			for range r.IntN(6) {
				lo := r.IntN(100)
				in.LaneAccess[l] = append(in.LaneAccess[l], rng(sir.HomeID(r.IntN(20)), lo, lo+r.IntN(60)))
			}
		}
	}
	return in
}

func TestRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 11))
	for it := range 2000 {
		in := randomInput(r)
		opts := Options{PartsPerLane: r.IntN(4), Balance: []float64{0, 1, 1.1, 1.5, 3}[r.IntN(5)]}
		p, err := Split(in, opts)
		if err != nil {
			t.Fatalf("iter %d: %v", it, err)
		}
		if err := p.Check(in); err != nil {
			t.Fatalf("iter %d: %v\n%v", it, err, p)
		}
		// Group-level shape: a group gets several parts only when it is
		// large, and no more parts than procs.
		ppl := opts.PartsPerLane
		if ppl == 0 {
			ppl = 2
		}
		perGroup := map[int]int{}
		groupCost := map[int]int{}
		for _, pt := range p.Parts {
			perGroup[pt.Group]++
			groupCost[pt.Group] += pt.Cost
		}
		for g, n := range perGroup {
			if n > 1 && groupCost[g]*in.Lanes*ppl <= p.SingleCost {
				t.Fatalf("iter %d: small group %d cut into %d parts", it, g, n)
			}
			if n > 1 && n > in.Lanes*ppl {
				t.Fatalf("iter %d: group %d cut into %d parts > %d", it, g, n, in.Lanes*ppl)
			}
		}
		// Deterministic.
		q, _ := Split(in, opts)
		if !reflect.DeepEqual(p, q) {
			t.Fatalf("iter %d: nondeterministic", it)
		}
	}
}

func TestBoundaries(t *testing.T) {
	cases := []struct {
		costs []int
		k     int
		want  []int
	}{
		{[]int{1, 1, 1, 1, 1, 1, 1, 1}, 4, []int{0, 2, 4, 6, 8}},
		{[]int{1, 1, 1}, 3, []int{0, 1, 2, 3}},
		{[]int{10, 1, 1, 1}, 2, []int{0, 1, 4}},
		{[]int{1, 1, 1, 10}, 2, []int{0, 3, 4}},
		{[]int{1, 1, 1, 1, 8, 1, 1, 1, 1}, 4, []int{0, 4, 5, 6, 9}},
		{[]int{5}, 1, []int{0, 1}},
	}
	for _, c := range cases {
		g := 0
		for _, x := range c.costs {
			g += x
		}
		if got := boundaries(c.costs, g, c.k, nil, 0); !reflect.DeepEqual(got, c.want) {
			t.Errorf("boundaries(%v, %d) = %v, want %v", c.costs, c.k, got, c.want)
		}
	}
}

func TestCheckCatches(t *testing.T) {
	in := Input{Lanes: 2, Procs: []Proc{
		{Group: 0, Cost: 2, Writes: []sir.Range{rng(1, 0, 2)}},
		{Group: 1, Cost: 2, Writes: []sir.Range{rng(1, 1, 2)}},
		{Group: 2, Cost: 2},
		{Group: 3, Cost: 2, Lane0: true},
	}}
	mutations := map[string]func(p *Plan){
		"splitCluster": func(p *Plan) { p.Lane[1] = 1 - p.Lane[0] },
		"lane0":        func(p *Plan) { p.Lane[3] = 1 },
		"load":         func(p *Plan) { p.Loads[0]++ },
		"cover":        func(p *Plan) { p.Parts = p.Parts[:3] },
		"cluster":      func(p *Plan) { p.Clusters[0] = p.Clusters[0][:1]; p.Clusters = append(p.Clusters, []int{1}) },
	}
	for name, mut := range mutations {
		p := mustSplit(t, in, Options{})
		if s := p.String(); s == "" {
			t.Fatal("empty String")
		}
		mut(p)
		if err := p.Check(in); err == nil {
			t.Errorf("%s: Check passed", name)
		}
	}
}

// coreInput is one trigger group holding the processes of len(sizes)
// "cores" in order (core c has sizes[c] processes of cost 5, alternating
// between the core's own instance and its child "alu"), with the comb
// logic of core c on lane combLane[c] (cost 100). Instance 0 is the top,
// 1+c core c, 1+len(sizes)+c its alu.
func coreInput(lanes int, sizes, combLane []int) (Input, []int) {
	nc := len(sizes)
	in := Input{Lanes: lanes, InstParent: []int{-1}, LaneInst: make([][]InstCost, lanes)}
	for range nc {
		in.InstParent = append(in.InstParent, 0)
	}
	for c := range nc {
		in.InstParent = append(in.InstParent, 1+c)
	}
	var core []int // core of each proc
	for c, n := range sizes {
		for k := range n {
			inst := 1 + c
			if k%2 == 1 {
				inst = 1 + nc + c
			}
			i := len(in.Procs)
			in.Procs = append(in.Procs, Proc{Group: 0, Cost: 5, Writes: own(i), Inst: inst})
			core = append(core, c)
		}
		in.LaneInst[combLane[c]] = append(in.LaneInst[combLane[c]], InstCost{Inst: 1 + c, Cost: 60}, InstCost{Inst: 1 + nc + c, Cost: 40})
	}
	return in, core
}

// coresOf lists, per part, the cores of its processes.
func coresOf(p *Plan, core []int) []map[int]bool {
	out := make([]map[int]bool, len(p.Parts))
	for pi, pt := range p.Parts {
		out[pi] = map[int]bool{}
		for _, i := range pt.Procs {
			out[pi][core[i]] = true
		}
	}
	return out
}

func TestInstanceAffinity(t *testing.T) {
	// Cores of 7, 5, 6 and 6 processes (120 in all): the ideal cuts at
	// 30, 60, 90 fall after process 6, inside core 0, then at core
	// boundaries.
	in, core := coreInput(2, []int{7, 5, 6, 6}, []int{0, 0, 1, 1})
	// Without instance information core 0 is cut in two: the test
	// exercises what the tree changes.
	bare := in
	bare.InstParent, bare.LaneInst = nil, nil
	pb := mustSplit(t, bare, Options{})
	mixed := false
	for _, cs := range coresOf(pb, core) {
		mixed = mixed || len(cs) > 1
	}
	if !mixed {
		t.Fatalf("without instances no part mixes cores: %v", pb)
	}

	p := mustSplit(t, in, Options{})
	for pi, cs := range coresOf(p, core) {
		if len(cs) != 1 {
			t.Errorf("part %d holds cores %v", pi, cs)
		}
	}
	if len(p.Parts) != 4 {
		t.Errorf("%d parts, want 4 (one per core)\n%v", len(p.Parts), p)
	}
	for i, c := range core {
		if want := []int{0, 0, 1, 1}[c]; p.Lane[partOf(p, i)] != want {
			t.Fatalf("proc %d of core %d on lane %d, want %d\n%v", i, c, p.Lane[partOf(p, i)], want, p)
		}
	}
	if p.Loads[0] != 60 || p.Loads[1] != 60 {
		t.Errorf("loads %v", p.Loads)
	}
	// Deterministic.
	if q := mustSplit(t, in, Options{}); !reflect.DeepEqual(p, q) {
		t.Fatal("nondeterministic")
	}
}

func partOf(p *Plan, proc int) int {
	for pi, pt := range p.Parts {
		for _, i := range pt.Procs {
			if i == proc {
				return pi
			}
		}
	}
	return -1
}

func TestInstanceAffinityCuts(t *testing.T) {
	// Sixteen cores in one group, their comb logic alternating between
	// two lanes: the four parts the costs ask for would each hold four
	// cores of both lanes, so they are cut again where the preferred lane
	// changes, and every core follows its comb logic.
	sizes := make([]int, 16)
	lanes := make([]int, 16)
	for c := range sizes {
		sizes[c], lanes[c] = 4, c%2
	}
	in, core := coreInput(2, sizes, lanes)
	p := mustSplit(t, in, Options{})
	for i, c := range core {
		if l := p.Lane[partOf(p, i)]; l != c%2 {
			t.Fatalf("proc %d of core %d on lane %d\n%v", i, c, l, p)
		}
	}
	if p.Loads[0] != p.Loads[1] {
		t.Errorf("loads %v", p.Loads)
	}
}

func TestInstanceBalance(t *testing.T) {
	// All comb logic on lane 0: cores (cost 20 each, share 40, bound 44)
	// follow it while lane 0 stays within Balance × share, the rest go to
	// the least loaded lane.
	in, core := coreInput(2, []int{4, 4, 4, 4}, []int{0, 0, 0, 0})
	p := mustSplit(t, in, Options{})
	got := make([]int, 4)
	for i, c := range core {
		got[c] = p.Lane[partOf(p, i)]
	}
	if want := []int{0, 0, 1, 1}; !reflect.DeepEqual(got, want) {
		t.Fatalf("cores on lanes %v, want %v\n%v", got, want, p)
	}
	// A generous Balance lets every core follow its comb logic.
	p = mustSplit(t, in, Options{Balance: 2})
	if p.Loads[1] != 0 {
		t.Fatalf("Balance 2: loads %v", p.Loads)
	}

	// The instance preference comes before byte affinity: the comb
	// settle of lane 1 reads core 0's state, but core 0's comb logic is
	// on lane 0.
	in, core = coreInput(2, []int{2, 2}, []int{0, 1})
	in.LaneAccess = [][]sir.Range{nil, {rng(1, 0, 64)}}
	for i := range in.Procs {
		if core[i] == 0 {
			in.Procs[i].Accesses = []sir.Range{rng(1, 0, 8)}
		}
	}
	p = mustSplit(t, in, Options{})
	if p.Lane[partOf(p, 0)] != 0 || p.Lane[partOf(p, 2)] != 1 {
		t.Fatalf("byte affinity won over the instance: %v", p)
	}
}

func TestInstancePreference(t *testing.T) {
	// 0 top: 1, 2; 1: 3, 4. Lane 1 holds 3 (10) and 4 (10), lane 0 holds
	// 2 (15) and the top (1): 1's subtree prefers lane 1, 2 lane 0, and
	// the top (21 of 36 on lane 1) lane 1.
	in := Input{Lanes: 2, InstParent: []int{-1, 0, 0, 1, 1}, LaneInst: [][]InstCost{
		{{Inst: 2, Cost: 15}, {Inst: 0, Cost: 1}},
		{{Inst: 3, Cost: 10}, {Inst: 4, Cost: 10}},
	}}
	tr := newInsts(in)
	if want := []int{1, 1, 0, 1, 1}; !reflect.DeepEqual(tr.lane, want) {
		t.Fatalf("lanes %v, want %v", tr.lane, want)
	}
	for _, c := range []struct{ a, b, want int }{{3, 4, 1}, {3, 2, 0}, {-1, 3, 3}, {3, 3, 3}, {1, 3, 1}, {-1, -1, -1}} {
		if got := tr.lca(c.a, c.b); got != c.want {
			t.Errorf("lca(%d,%d) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
	// A tie has no majority: the instance inherits its parent's.
	in.LaneInst = [][]InstCost{{{Inst: 3, Cost: 5}}, {{Inst: 4, Cost: 5}}}
	if tr = newInsts(in); tr.lane[1] != -1 || tr.lane[3] != 0 || tr.lane[4] != 1 || tr.lane[2] != -1 {
		t.Fatalf("tie: lanes %v", tr.lane)
	}
	// Two trees have no common ancestor.
	in.InstParent = []int{-1, -1}
	in.LaneInst = nil
	if got := newInsts(in).lca(0, 1); got != disjoint {
		t.Fatalf("lca across trees = %d", got)
	}
}

func TestInstanceInvalid(t *testing.T) {
	good := []Proc{{Group: 0, Cost: 1}, {Group: 2, Cost: 1, Inst: 1}}
	cases := []struct {
		name string
		in   Input
		opts Options
	}{
		{"parentSelf", Input{Lanes: 2, Procs: good, InstParent: []int{-1, 1}}, Options{}},
		{"parentLater", Input{Lanes: 2, Procs: good, InstParent: []int{1, -1}}, Options{}},
		{"parentNeg", Input{Lanes: 2, Procs: good, InstParent: []int{-1, -3}}, Options{}},
		{"procInst", Input{Lanes: 2, Procs: []Proc{{Inst: 2}}, InstParent: []int{-1, 0}}, Options{}},
		{"procInstNeg", Input{Lanes: 2, Procs: []Proc{{Inst: -2}}, InstParent: []int{-1, 0}}, Options{}},
		{"laneInstLanes", Input{Lanes: 1, Procs: good, InstParent: []int{-1, 0}, LaneInst: make([][]InstCost, 2)}, Options{}},
		{"laneInstInst", Input{Lanes: 2, Procs: good, InstParent: []int{-1, 0}, LaneInst: [][]InstCost{{{Inst: 2}}}}, Options{}},
		{"laneInstNoTree", Input{Lanes: 2, Procs: good, LaneInst: [][]InstCost{{{Inst: 0}}}}, Options{}},
		{"laneInstCost", Input{Lanes: 2, Procs: good, InstParent: []int{-1, 0}, LaneInst: [][]InstCost{{{Inst: 1, Cost: -1}}}}, Options{}},
		{"slackNeg", Input{Lanes: 2, Procs: good}, Options{CutSlack: -1}},
	}
	for _, c := range cases {
		if p, err := Split(c.in, c.opts); err == nil {
			t.Errorf("%s: no error, plan %v", c.name, p)
		}
	}
	// Without a tree Inst is ignored.
	mustSplit(t, Input{Lanes: 2, Procs: []Proc{{Inst: 7}, {Group: 1, Inst: -9}}}, Options{})
}

func TestSnap(t *testing.T) {
	// Ten procs of cost 1, keys change at 3 and 7; k=2, target 5 (×2 =
	// 10): within slack 0.5 (tol 5 in k-scaled units, 2.5 procs) the
	// nearest change is 3 or 7, both 2 procs away: the lower wins.
	costs := make([]int, 10)
	for i := range costs {
		costs[i] = 1
	}
	keys := []int{0, 0, 0, 1, 1, 1, 1, 2, 2, 2}
	if got := boundaries(costs, 10, 2, keys, 0.5); !reflect.DeepEqual(got, []int{0, 3, 10}) {
		t.Errorf("got %v", got)
	}
	// Out of tolerance: the ideal cut stays.
	if got := boundaries(costs, 10, 2, keys, 0.2); !reflect.DeepEqual(got, []int{0, 5, 10}) {
		t.Errorf("tight slack: got %v", got)
	}
	keys = []int{0, 0, 0, 0, 0, 0, 1, 1, 1, 1}
	if got := boundaries(costs, 10, 2, keys, 0.5); !reflect.DeepEqual(got, []int{0, 6, 10}) {
		t.Errorf("got %v", got)
	}
}

func randomInstInput(r *rand.Rand) Input {
	in := randomInput(r)
	n := 1 + r.IntN(12)
	for i := range n {
		p := -1
		if i > 0 && r.IntN(5) > 0 {
			p = r.IntN(i)
		}
		in.InstParent = append(in.InstParent, p)
	}
	// Procs in runs of one instance, as a design's processes come.
	inst := -1
	for i := range in.Procs {
		if r.IntN(3) == 0 {
			inst = r.IntN(n+1) - 1
		}
		in.Procs[i].Inst = inst
	}
	if r.IntN(4) > 0 {
		in.LaneInst = make([][]InstCost, r.IntN(in.Lanes+1))
		for l := range in.LaneInst {
			for range r.IntN(5) {
				in.LaneInst[l] = append(in.LaneInst[l], InstCost{Inst: r.IntN(n), Cost: r.IntN(50)})
			}
		}
	}
	return in
}

func TestRandomInstances(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 5))
	for it := range 2000 {
		in := randomInstInput(r)
		opts := Options{PartsPerLane: r.IntN(4), Balance: []float64{0, 1, 1.1, 3}[r.IntN(4)], CutSlack: []float64{0, 0.1, 1, 5}[r.IntN(4)]}
		p, err := Split(in, opts)
		if err != nil {
			t.Fatalf("iter %d: %v", it, err)
		}
		if err := p.Check(in); err != nil {
			t.Fatalf("iter %d: %v\n%v", it, err, p)
		}
		// Without lane preferences only the cost cuts remain: at most
		// Lanes × PartsPerLane parts per group.
		ppl := max(opts.PartsPerLane, 0)
		if ppl == 0 {
			ppl = 2
		}
		if len(in.LaneInst) == 0 {
			perGroup := map[int]int{}
			for _, pt := range p.Parts {
				perGroup[pt.Group]++
			}
			for g, n := range perGroup {
				if n > 1 && n > in.Lanes*ppl {
					t.Fatalf("iter %d: group %d cut into %d parts", it, g, n)
				}
			}
		}
		q, _ := Split(in, opts)
		if !reflect.DeepEqual(p, q) {
			t.Fatalf("iter %d: nondeterministic", it)
		}
	}
}

func TestHugeInstancesNoPanic(t *testing.T) {
	in := Input{Lanes: 3, InstParent: []int{-1, 0, 1, -1}, Procs: []Proc{
		{Group: 0, Cost: 1 << 40, Inst: 2},
		{Group: 0, Cost: 1 << 40, Inst: 3},
		{Group: 0, Cost: 1, Inst: -1},
		{Group: 1, Cost: 1 << 40, Inst: 1},
	}, LaneInst: [][]InstCost{{{Inst: 2, Cost: math.MaxInt}, {Inst: 2, Cost: math.MaxInt}}, {{Inst: 1, Cost: math.MaxInt}}, {{Inst: 3, Cost: 0}}}}
	p, err := Split(in, Options{PartsPerLane: 1 << 40, Balance: 1e300, CutSlack: 1e300})
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Check(in); err != nil {
		t.Fatal(err)
	}
}
