package lanes

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/weft-hdl/weft/design"
	"github.com/weft-hdl/weft/sir"
)

// effPreds is the test's own reading of the dependencies: Preds plus the
// chain of Ordered nodes.
func effPreds(w []Work) [][]int {
	out := make([][]int, len(w))
	last := -1
	for k := range w {
		for _, q := range w[k].Preds {
			out[k] = append(out[k], int(q))
		}
		if w[k].Ordered {
			if last >= 0 {
				out[k] = append(out[k], last)
			}
			last = k
		}
	}
	return out
}

// checkPlan checks the invariants of a plan independently of the
// implementation's verify.
func checkPlan(t *testing.T, in Input, p *Plan) {
	t.Helper()
	w := in.Work
	n := len(w)
	if n == 0 {
		return
	}
	if p.Chosen < -1 || p.Chosen >= len(p.Candidates) || p.Reason == "" {
		t.Fatalf("chosen %d of %d, reason %q", p.Chosen, len(p.Candidates), p.Reason)
	}
	preds := effPreds(w)
	itemOf := make([]int, n)
	for i := range itemOf {
		itemOf[i] = -1
	}
	for i, it := range p.Items {
		if len(it.Nodes) == 0 || !slices.IsSorted(it.Nodes) || it.Cost < 1 {
			t.Fatalf("item %d: %+v", i, it)
		}
		lane0 := false
		for _, k := range it.Nodes {
			if itemOf[k] >= 0 {
				t.Fatalf("node %d in items %d and %d", k, itemOf[k], i)
			}
			itemOf[k] = i
			lane0 = lane0 || w[k].Lane0
		}
		if lane0 && !it.Lane0 {
			t.Fatalf("item %d has a lane-0 node but is not Lane0", i)
		}
	}
	for k, i := range itemOf {
		if i < 0 {
			t.Fatalf("node %d in no item", k)
		}
	}
	// Item graph acyclic.
	ni := len(p.Items)
	indeg := make([]int, ni)
	succ := make([][]int, ni)
	for k := range w {
		for _, q := range preds[k] {
			if itemOf[q] != itemOf[k] {
				succ[itemOf[q]] = append(succ[itemOf[q]], itemOf[k])
				indeg[itemOf[k]]++
			}
		}
	}
	var queue []int
	for i := range indeg {
		if indeg[i] == 0 {
			queue = append(queue, i)
		}
	}
	for j := 0; j < len(queue); j++ {
		for _, s := range succ[queue[j]] {
			if indeg[s]--; indeg[s] == 0 {
				queue = append(queue, s)
			}
		}
	}
	if len(queue) != ni {
		t.Fatalf("item graph has a cycle")
	}
	type wr struct {
		k int
		r sir.Range
	}
	var writes []wr
	for k := range w {
		for _, r := range w[k].Writes {
			writes = append(writes, wr{k, r})
		}
	}
	for ci, c := range p.Candidates {
		taskOf := make([]int, n)
		posOf := make([]int, n)
		for i := range taskOf {
			taskOf[i] = -1
		}
		for i, tk := range c.Tasks {
			if tk.Index != i {
				t.Fatalf("%s: task %d has Index %d", c.Name, i, tk.Index)
			}
			var nodes []int
			for _, it := range tk.Items {
				nodes = append(nodes, p.Items[it].Nodes...)
			}
			if !slices.Equal(nodes, tk.Nodes) {
				t.Fatalf("%s: task %d nodes %v, items give %v", c.Name, i, tk.Nodes, nodes)
			}
			for j, k := range tk.Nodes {
				if taskOf[k] >= 0 {
					t.Fatalf("%s: node %d in two tasks", c.Name, k)
				}
				taskOf[k], posOf[k] = i, j
				if w[k].Lane0 && tk.Lane != 0 {
					t.Fatalf("%s: lane-0 node %d on lane %d", c.Name, k, tk.Lane)
				}
			}
			if tk.End-tk.Start != tk.Cost || tk.End > c.Makespan {
				t.Fatalf("%s: task %d times", c.Name, i)
			}
		}
		for k := range taskOf {
			if taskOf[k] < 0 {
				t.Fatalf("%s: node %d in no task", c.Name, k)
			}
		}
		lanePos := make([]int, len(c.Tasks))
		onLane := 0
		used := 0
		for l, ids := range c.Lanes {
			if len(ids) > 0 {
				used++
			}
			for j, id := range ids {
				if c.Tasks[id].Lane != l || j > 0 && ids[j-1] >= id {
					t.Fatalf("%s: lane %d tasks %v", c.Name, l, ids)
				}
				lanePos[id] = j
				onLane++
			}
		}
		if onLane != len(c.Tasks) {
			t.Fatalf("%s: %d tasks on lanes, %d tasks", c.Name, onLane, len(c.Tasks))
		}
		// Sequential order is a topological order.
		for k := range w {
			for _, q := range preds[k] {
				if taskOf[q] > taskOf[k] || taskOf[q] == taskOf[k] && posOf[q] >= posOf[k] {
					t.Fatalf("%s: node %d (task %d) before its dependency %d (task %d)", c.Name, k, taskOf[k], q, taskOf[q])
				}
			}
		}
		// Waits: happens-before closure by task, in Index order.
		reach := make([]map[int]int, len(c.Tasks)) // lane -> last position done
		waits := 0
		for i, tk := range c.Tasks {
			r := map[int]int{}
			if j := lanePos[i]; j > 0 {
				prev := c.Lanes[tk.Lane][j-1]
				for l, v := range reach[prev] {
					r[l] = v
				}
				r[tk.Lane] = max(r[tk.Lane], j-1)
			}
			for _, u := range tk.After {
				waits++
				if u >= i || c.Tasks[u].Lane == tk.Lane {
					t.Fatalf("%s: task %d waits for %d", c.Name, i, u)
				}
				ul := c.Tasks[u].Lane
				if v, ok := r[ul]; !ok || v < lanePos[u] {
					r[ul] = lanePos[u]
				}
				for l, v := range reach[u] {
					if old, ok := r[l]; !ok || old < v {
						r[l] = v
					}
				}
			}
			reach[i] = r
		}
		if waits != c.Waits {
			t.Fatalf("%s: Waits %d, counted %d", c.Name, c.Waits, waits)
		}
		for k := range w {
			tk := c.Tasks[taskOf[k]]
			for _, q := range preds[k] {
				tq := c.Tasks[taskOf[q]]
				if tq.Lane == tk.Lane {
					continue
				}
				if v, ok := reach[tk.Index][tq.Lane]; !ok || v < lanePos[tq.Index] {
					t.Fatalf("%s: node %d (task %d lane %d) does not wait for node %d (task %d lane %d)\n%s",
						c.Name, k, tk.Index, tk.Lane, q, tq.Index, tq.Lane, dump(c))
				}
			}
		}
		// Overlapping writers on one lane.
		for a := range writes {
			for b := a + 1; b < len(writes); b++ {
				x, y := writes[a], writes[b]
				if x.r.Home == y.r.Home && x.r.Lo < y.r.Hi && y.r.Lo < x.r.Hi && x.r.Lo < x.r.Hi && y.r.Lo < y.r.Hi {
					if lx, ly := c.Tasks[taskOf[x.k]].Lane, c.Tasks[taskOf[y.k]].Lane; lx != ly {
						t.Fatalf("%s: overlapping writers %d and %d on lanes %d and %d", c.Name, x.k, y.k, lx, ly)
					}
				}
			}
		}
		if c.Boundaries != len(c.Tasks)-used {
			t.Fatalf("%s: boundaries %d", c.Name, c.Boundaries)
		}
		_ = ci
	}
}

// randomInput builds a random DAG with every feature.
func randomInput(r *rand.Rand, n int) Input {
	top := &design.Instance{Name: "top", Path: "top"}
	insts := []*design.Instance{top}
	for i := r.IntN(12); i > 0; i-- {
		par := insts[r.IntN(len(insts))]
		c := &design.Instance{Name: fmt.Sprint("u", len(insts)), Parent: par}
		par.Children = append(par.Children, c)
		insts = append(insts, c)
	}
	w := make([]Work, n)
	for k := range w {
		wk := &w[k]
		wk.Cost = 1 + r.IntN(300)
		if r.IntN(10) == 0 {
			wk.Cost = r.IntN(3) - 1 // below 1 counts as 1
		}
		if k > 0 {
			for j := r.IntN(4); j > 0; j-- {
				lo := max(0, k-20)
				if r.IntN(5) == 0 {
					lo = 0
				}
				wk.Preds = append(wk.Preds, int32(lo+r.IntN(k-lo)))
			}
		}
		wk.Lane0 = r.IntN(20) == 0
		wk.Ordered = r.IntN(15) == 0
		wk.Observer = r.IntN(15) == 0
		for j := r.IntN(3); j > 0 && r.IntN(3) == 0; j-- {
			lo := r.IntN(40)
			wk.Writes = append(wk.Writes, sir.Range{Home: sir.HomeID(r.IntN(6)), Lo: lo, Hi: lo + r.IntN(5), Dynamic: r.IntN(4) == 0})
		}
		if r.IntN(8) == 0 {
			wk.Shared = append(wk.Shared, Shared{Key: r.IntN(10), Cost: r.IntN(20)})
		}
		if r.IntN(6) > 0 {
			wk.Inst = insts[r.IntN(len(insts))]
		}
	}
	in := Input{Work: w, Top: top}
	if r.IntN(3) == 0 {
		in.Top = nil
	}
	if r.IntN(2) == 0 {
		in.Cost = func(nodes []int) int {
			if !slices.IsSorted(nodes) {
				panic("Cost: nodes not ascending")
			}
			s := 0
			for _, k := range nodes {
				s += max(w[k].Cost, 1)
			}
			return s - (len(nodes)-1)/2
		}
	}
	if r.IntN(4) == 0 {
		in.SingleCost = 1 + r.IntN(n*150+1)
	}
	return in
}

func TestRandom(t *testing.T) {
	iters := 600
	if testing.Short() {
		iters = 100
	}
	for seed := 0; seed < iters; seed++ {
		r := rand.New(rand.NewPCG(uint64(seed), 7))
		n := 1 + r.IntN(300)
		if seed%10 == 0 {
			n = 1 + r.IntN(8)
		}
		in := randomInput(r, n)
		o := Options{Lanes: 1 + r.IntN(8), Always: r.IntN(2) == 0}
		if r.IntN(3) == 0 {
			o.SyncCost = 1 + r.IntN(400)
			o.Slack = 1 + r.IntN(200)
			o.TaskCost = 1 + r.IntN(50)
			o.CheapValue = 1 + r.IntN(20)
		}
		p, err := Partition(in, o)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		t.Run(fmt.Sprint("seed", seed), func(t *testing.T) { checkPlan(t, in, p) })
		if len(p.Candidates) != 2 {
			t.Fatalf("seed %d: %d candidates", seed, len(p.Candidates))
		}
		if o.Lanes == 1 && p.Chosen != -1 {
			t.Fatalf("seed %d: one lane chosen", seed)
		}
		if o.Always && o.Lanes > 1 && p.Chosen < 0 {
			t.Fatalf("seed %d: Always but not chosen", seed)
		}
		p2, err := Partition(in, o)
		if err != nil || !reflect.DeepEqual(p, p2) {
			t.Fatalf("seed %d: not deterministic", seed)
		}
	}
}

// TestRandomWide: many independent components, so lanes fill up.
func TestRandomWide(t *testing.T) {
	for seed := 0; seed < 100; seed++ {
		r := rand.New(rand.NewPCG(uint64(seed), 11))
		n := 50 + r.IntN(250)
		in := randomInput(r, n)
		for k := range in.Work {
			in.Work[k].Preds = in.Work[k].Preds[:0:0]
			if k >= 8 && r.IntN(2) == 0 {
				in.Work[k].Preds = []int32{int32(k - 8)}
			}
		}
		p, err := Partition(in, Options{Lanes: 2 + r.IntN(7)})
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		checkPlan(t, in, p)
	}
}

func benchInput(n int) Input {
	r := rand.New(rand.NewPCG(1, 2))
	top := &design.Instance{Name: "top", Path: "top"}
	var insts []*design.Instance
	for i := 0; i < 64; i++ {
		c := &design.Instance{Name: fmt.Sprint("u", i), Parent: top}
		top.Children = append(top.Children, c)
		insts = append(insts, c)
	}
	w := make([]Work, n)
	for k := range w {
		wk := &w[k]
		wk.Cost = 1 + r.IntN(60)
		wk.Inst = insts[k*len(insts)/n]
		for j := r.IntN(3); j > 0 && k > 0; j-- {
			lo := max(0, k-50)
			if r.IntN(20) == 0 {
				lo = 0
			}
			wk.Preds = append(wk.Preds, int32(lo+r.IntN(k-lo)))
		}
		if r.IntN(10) == 0 {
			lo := r.IntN(1000)
			wk.Writes = []sir.Range{{Home: sir.HomeID(r.IntN(100)), Lo: lo, Hi: lo + 1 + r.IntN(8)}}
		}
		wk.Lane0 = r.IntN(200) == 0
		wk.Ordered = wk.Lane0
		if r.IntN(20) == 0 {
			wk.Shared = []Shared{{Key: r.IntN(n / 4), Cost: r.IntN(30)}}
		}
	}
	return Input{Work: w, Top: top}
}

func BenchmarkPartition10k(b *testing.B) {
	in := benchInput(10000)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Partition(in, Options{Lanes: 8, Always: true}); err != nil {
			b.Fatal(err)
		}
	}
}

func TestBenchInput(t *testing.T) {
	in := benchInput(3000)
	p, err := Partition(in, Options{Lanes: 8})
	if err != nil {
		t.Fatal(err)
	}
	checkPlan(t, in, p)
	t.Log(p.Reason)
}
