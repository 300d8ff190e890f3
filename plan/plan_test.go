package plan

import (
	"math/rand"
	"strings"
	"testing"
)

// times returns every task's [Start, End] by lane.
func times(k *Kernel) [][][2]int {
	out := make([][][2]int, len(k.Lanes))
	for l, ts := range k.Lanes {
		for _, t := range ts {
			out[l] = append(out[l], [2]int{t.Start, t.End})
		}
	}
	return out
}

func sameTimes(a, b [][][2]int) bool {
	if len(a) != len(b) {
		return false
	}
	for l := range a {
		if len(a[l]) != len(b[l]) {
			return false
		}
		for i := range a[l] {
			if a[l][i] != b[l][i] {
				return false
			}
		}
	}
	return true
}

func task(index, cost int, waits ...Wait) Task {
	return Task{Index: index, Label: "t", Cost: cost, Waits: waits}
}

func TestEstimate(t *testing.T) {
	tests := []struct {
		name     string
		sync     int
		lanes    [][]Task
		makespan int
		want     [][][2]int
	}{
		{
			name:     "empty",
			sync:     10,
			makespan: 0,
		},
		{
			name:     "serial",
			sync:     10,
			lanes:    [][]Task{{task(0, 10), task(1, 20), task(2, 30)}},
			makespan: 60,
			want:     [][][2]int{{{0, 10}, {10, 30}, {30, 60}}},
		},
		{
			name:     "parallel",
			sync:     10,
			lanes:    [][]Task{{task(0, 50)}, {task(1, 30), task(2, 5)}, {}},
			makespan: 50,
			want:     [][][2]int{{{0, 50}}, {{0, 30}, {30, 35}}, nil},
		},
		{
			// Lane 1's first task waits for lane 0's first (ends 40, +10
			// sync); lane 0's second waits for lane 1's second, which
			// waits for lane 0's first only implicitly.
			name: "waits",
			sync: 10,
			lanes: [][]Task{
				{task(0, 40), task(3, 10, Wait{1, 2})},
				{task(1, 20, Wait{0, 1}), task(2, 5)},
			},
			makespan: 95,
			want: [][][2]int{
				{{0, 40}, {85, 95}},
				{{50, 70}, {70, 75}},
			},
		},
		{
			// The wait is satisfied long before: the lane's own order decides.
			name: "early wait",
			sync: 10,
			lanes: [][]Task{
				{task(0, 5)},
				{task(1, 100), task(2, 1, Wait{0, 1})},
			},
			makespan: 101,
			want:     [][][2]int{{{0, 5}}, {{0, 100}, {100, 101}}},
		},
		{
			// Count 0 and a wait on an earlier task of the same lane cost
			// nothing.
			name: "trivial waits",
			sync: 10,
			lanes: [][]Task{
				{task(0, 5), task(1, 5, Wait{0, 1}, Wait{1, 0})},
				{task(2, 7)},
			},
			makespan: 10,
			want:     [][][2]int{{{0, 5}, {5, 10}}, {{0, 7}}},
		},
		{
			// Several waits: the latest producer decides.
			name: "join",
			sync: 3,
			lanes: [][]Task{
				{task(0, 10), task(3, 1, Wait{1, 1}, Wait{2, 1})},
				{task(1, 20)},
				{task(2, 30)},
			},
			makespan: 34,
			want:     [][][2]int{{{0, 10}, {33, 34}}, {{0, 20}}, {{0, 30}}},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			k := &Kernel{Name: tc.name, Lanes: tc.lanes}
			got, err := k.Estimate(tc.sync)
			if err != nil {
				t.Fatal(err)
			}
			if got != tc.makespan || k.Makespan() != tc.makespan {
				t.Errorf("makespan = %d (Makespan() %d), want %d", got, k.Makespan(), tc.makespan)
			}
			if want := tc.want; want == nil {
				want = make([][][2]int, len(tc.lanes))
				if !sameTimes(times(k), want) {
					t.Errorf("times = %v, want none", times(k))
				}
			} else if !sameTimes(times(k), want) {
				t.Errorf("times = %v, want %v", times(k), want)
			}
			// Estimating again gives the same result.
			before := times(k)
			if again, err := k.Estimate(tc.sync); err != nil || again != got || !sameTimes(times(k), before) {
				t.Errorf("second Estimate = %d, %v, times %v; want %d, %v", again, err, times(k), got, before)
			}
		})
	}
}

func TestEstimateErrors(t *testing.T) {
	tests := []struct {
		name  string
		sync  int
		lanes [][]Task
		want  string
	}{
		{
			name:  "cycle",
			lanes: [][]Task{{task(0, 1, Wait{1, 1})}, {task(1, 1, Wait{0, 1})}},
			want:  "cycle",
		},
		{
			name: "long cycle",
			lanes: [][]Task{
				{task(0, 1), task(1, 1, Wait{2, 2})},
				{task(2, 1, Wait{0, 2})},
				{task(3, 1), task(4, 1, Wait{1, 1})},
			},
			want: "cycle",
		},
		{
			name:  "waits for itself",
			lanes: [][]Task{{task(0, 1), task(1, 1, Wait{0, 2})}},
			want:  "own lane",
		},
		{
			name:  "waits for a later task of its lane",
			lanes: [][]Task{{task(0, 1, Wait{0, 2}), task(1, 1)}},
			want:  "own lane",
		},
		{
			name:  "lane out of range",
			lanes: [][]Task{{task(0, 1, Wait{2, 1})}, {task(1, 1)}},
			want:  "no lane 2",
		},
		{
			name:  "negative lane",
			lanes: [][]Task{{task(0, 1, Wait{-1, 1})}},
			want:  "no lane -1",
		},
		{
			name:  "count out of range",
			lanes: [][]Task{{task(0, 1, Wait{1, 2})}, {task(1, 1)}},
			want:  "lane 1 has 1 tasks",
		},
		{
			name:  "negative count",
			lanes: [][]Task{{task(0, 1, Wait{1, -1})}, {task(1, 1)}},
			want:  "lane 1 has 1 tasks",
		},
		{
			name:  "negative cost",
			lanes: [][]Task{{task(0, -1)}},
			want:  "negative cost",
		},
		{
			name:  "negative sync",
			sync:  -1,
			lanes: [][]Task{{task(0, 1)}},
			want:  "negative sync cost",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			k := &Kernel{Name: "k", Lanes: tc.lanes}
			// Stale estimates are cleared on error.
			for l := range k.Lanes {
				for i := range k.Lanes[l] {
					k.Lanes[l][i].Start, k.Lanes[l][i].End = 7, 9
				}
			}
			ms, err := k.Estimate(tc.sync)
			if err == nil {
				t.Fatalf("Estimate = %d, nil; want an error", ms)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q does not mention %q", err, tc.want)
			}
			if ms != 0 || k.Makespan() != 0 {
				t.Errorf("makespan %d / %d after error, want 0", ms, k.Makespan())
			}
			for l, ts := range k.Lanes {
				for i, task := range ts {
					if task.Start != 0 || task.End != 0 {
						t.Errorf("lane %d task %d: %d-%d after error, want 0-0", l, i, task.Start, task.End)
					}
				}
			}
		})
	}
}

// TestEstimateRandom checks Estimate on random tables against its
// definition: valid tables (waits only on earlier tasks in a global order)
// are estimated, and every task starts exactly when its lane and its
// waits allow; tables with arbitrary waits terminate.
func TestEstimateRandom(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	for iter := range 2000 {
		nl := 1 + rng.Intn(4)
		n := rng.Intn(12)
		sync := rng.Intn(20)
		k := &Kernel{Name: "random", Lanes: make([][]Task, nl)}
		valid := iter%2 == 0
		for i := range n {
			l := rng.Intn(nl)
			tk := task(i, rng.Intn(50))
			for range rng.Intn(3) {
				wl := rng.Intn(nl)
				if valid {
					// Only tasks already placed: acyclic.
					if len(k.Lanes[wl]) > 0 {
						tk.Waits = append(tk.Waits, Wait{wl, 1 + rng.Intn(len(k.Lanes[wl]))})
					}
				} else {
					tk.Waits = append(tk.Waits, Wait{wl, rng.Intn(4)})
				}
			}
			k.Lanes[l] = append(k.Lanes[l], tk)
		}
		ms, err := k.Estimate(sync)
		if err != nil {
			if valid {
				t.Fatalf("iteration %d: %v", iter, err)
			}
			continue
		}
		want := 0
		for l, ts := range k.Lanes {
			for i, tk := range ts {
				start := 0
				if i > 0 {
					start = ts[i-1].End
				}
				for _, w := range tk.Waits {
					if w.Count > 0 && w.Lane != l {
						start = max(start, k.Lanes[w.Lane][w.Count-1].End+sync)
					}
				}
				if tk.Start != start || tk.End != start+tk.Cost {
					t.Fatalf("iteration %d: lane %d task %d: %d-%d, want start %d cost %d", iter, l, i, tk.Start, tk.End, start, tk.Cost)
				}
				want = max(want, tk.End)
			}
		}
		if ms != want {
			t.Fatalf("iteration %d: makespan %d, want %d", iter, ms, want)
		}
	}
}

// samplePlan is a plan exercising every part of the views: a settle with
// two candidates and cross-lane waits, an event kernel that keeps its
// sequential version, a fused kernel with an idle lane, labels needing
// escapes, and all kinds of segments.
func samplePlan(t *testing.T) *Plan {
	p := &Plan{
		Top:      "top",
		Lanes:    3,
		SyncCost: 20,
		Layout:   LayoutSegmented,
		Kernels: []*Kernel{
			{
				Name:       "settle",
				SingleCost: 400,
				Candidates: []Candidate{
					{Name: "items", Makespan: 180, Charged: 240, Tasks: 5, Waits: 3},
					{Name: "instances", Makespan: 220, Charged: 250, Tasks: 3, Waits: 1},
				},
				Chosen: "items",
				Reason: "items 240 + 20 beats single 400 by 35%",
				Lanes: [][]Task{
					{
						{Index: 0, Label: "n0..n4 (5 nodes)", Cost: 60},
						{Index: 2, Label: "n9..n12 (4 nodes)", Cost: 50, Waits: []Wait{{1, 1}}},
						{Index: 4, Label: "eval a<b && c>d", Cost: 30, Waits: []Wait{{2, 1}}},
					},
					{
						{Index: 1, Label: "n5..n8 (4 nodes)", Cost: 80},
					},
					{
						{Index: 3, Label: "mem\tloop \"m\"", Cost: 40, Waits: []Wait{{0, 1}}},
					},
				},
			},
			{
				Name:       "fused posedge top.clk",
				SingleCost: 300,
				Candidates: []Candidate{{Name: "ffsplit", Makespan: 260, Charged: 260, Tasks: 4}},
				Reason:     "ffsplit 260 + 20 does not beat single 300 by 10%",
			},
			{
				Name:       "fused negedge top.rst_n",
				SingleCost: 1000,
				Candidates: []Candidate{
					{Name: "ffsplit", Makespan: 500, Charged: 500, Tasks: 2},
					{Name: "ffsplit+settle", Makespan: 560, Charged: 560, Tasks: 3, Waits: 1},
				},
				Chosen: "ffsplit+settle",
				Lanes: [][]Task{
					{{Index: 0, Label: "eval g0[0:3]", Cost: 500}},
					{{Index: 1, Label: "eval g1[0:2]", Cost: 1}, {Index: 2, Label: "settle", Cost: 40, Waits: []Wait{{0, 1}}}},
					{},
				},
			},
		},
		Segments: []Segment{
			{Lane: SharedLane, Lo: 0, Hi: 256, Objects: []string{"top.a", "top.b", "top.c", "top.d", "top.e", "top.f"}},
			{Lane: 0, Lo: 384, Hi: 512, Objects: []string{"top.u0.q", "top.u0.d"}},
			{Lane: MultiLane, Lo: 640, Hi: 768, Objects: []string{"top.mem<&>"}},
			{Lane: 1, Lo: 896, Hi: 904},
		},
	}
	for _, k := range p.Kernels {
		if _, err := k.Estimate(p.SyncCost); err != nil {
			t.Fatal(err)
		}
	}
	return p
}

func TestSampleEstimate(t *testing.T) {
	p := samplePlan(t)
	// #0 0-60 and #1 0-80 start at once; #3 waits L0:1: 60+20 = 80;
	// #2 waits L1:1: 80+20 = 100; #4 waits L2:1 (120+20) but its lane is
	// busy until 150.
	want := [][][2]int{{{0, 60}, {100, 150}, {150, 180}}, {{0, 80}}, {{80, 120}}}
	if got := times(p.Kernels[0]); !sameTimes(got, want) {
		t.Errorf("settle times %v, want %v", got, want)
	}
	if got := p.Kernels[0].Makespan(); got != 180 {
		t.Errorf("settle makespan %d, want 180", got)
	}
}
