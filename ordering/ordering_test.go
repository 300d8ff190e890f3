package ordering_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/weft-hdl/weft/ordering"
)

func r(lo, hi int) []ordering.Range { return []ordering.Range{{Lo: lo, Hi: hi}} }

// rw is a task that reads rd and writes wr exactly (footprint = writes).
func rw(index int, rd, wr []ordering.Range) ordering.Task {
	return ordering.Task{Index: index, Effects: ordering.Effects{Reads: rd, Writes: wr, Footprint: wr}}
}

type W = ordering.Wait

func TestWaits(t *testing.T) {
	cases := []struct {
		name  string
		lanes [][]ordering.Task
		want  [][][]W
	}{
		{
			name: "read after write",
			lanes: [][]ordering.Task{
				{rw(0, nil, r(0, 4))},
				{rw(1, r(3, 4), nil)},
			},
			want: [][][]W{{nil}, {{{Lane: 0, Count: 1}}}},
		},
		{
			name: "write after read",
			lanes: [][]ordering.Task{
				{rw(0, r(0, 4), nil)},
				{rw(1, nil, r(2, 3))},
			},
			want: [][][]W{{nil}, {{{Lane: 0, Count: 1}}}},
		},
		{
			name: "write after write through footprints only",
			lanes: [][]ordering.Task{
				{{Index: 0, Effects: ordering.Effects{Writes: r(0, 3), Footprint: r(0, 4)}}},
				{{Index: 1, Effects: ordering.Effects{Writes: r(3, 4), Footprint: r(3, 4)}}},
			},
			want: [][][]W{{nil}, {{{Lane: 0, Count: 1}}}},
		},
		{
			name: "write after write, exact writes",
			lanes: [][]ordering.Task{
				{rw(0, nil, r(0, 8))},
				{rw(1, nil, r(4, 5))},
			},
			want: [][][]W{{nil}, {{{Lane: 0, Count: 1}}}},
		},
		{
			name: "no conflict",
			lanes: [][]ordering.Task{
				{rw(0, r(0, 8), r(8, 12))},
				{rw(1, r(0, 8), r(12, 16))},
				{{Index: 2, Effects: ordering.Effects{Reads: r(0, 4), Writes: r(16, 17), Footprint: r(16, 18)}}},
			},
			want: [][][]W{{nil}, {nil}, {nil}},
		},
		{
			name: "adjacent ranges do not conflict",
			lanes: [][]ordering.Task{
				{rw(0, nil, r(0, 4))},
				{rw(1, r(4, 8), r(4, 8))},
			},
			want: [][][]W{{nil}, {nil}},
		},
		{
			name: "only an earlier index is waited for",
			lanes: [][]ordering.Task{
				{rw(1, nil, r(0, 4))},
				{rw(0, r(0, 4), nil)},
			},
			want: [][][]W{{{{Lane: 1, Count: 1}}}, {nil}},
		},
		{
			name: "transitive redundancy",
			// A (lane 1) -> B (lane 2) -> C (lane 0); C conflicts with both.
			lanes: [][]ordering.Task{
				{rw(2, []ordering.Range{{0, 1}, {8, 9}}, nil)},
				{rw(0, nil, r(0, 1))},
				{rw(1, r(0, 1), r(8, 9))},
			},
			want: [][][]W{{{{Lane: 2, Count: 1}}}, {nil}, {{{Lane: 1, Count: 1}}}},
		},
		{
			name: "lane-order redundancy",
			// B waits for A; C follows B on lane 1 and needs nothing more.
			lanes: [][]ordering.Task{
				{rw(0, nil, r(0, 4))},
				{rw(1, r(0, 4), nil), rw(2, r(0, 4), nil)},
			},
			want: [][][]W{{nil}, {{{Lane: 0, Count: 1}}, nil}},
		},
		{
			name: "lane-order redundancy through a producer's waits",
			// D (lane 2) waits for B (lane 1), which waited for A (lane 0).
			// E follows D and conflicts with A only: implied.
			lanes: [][]ordering.Task{
				{rw(0, nil, r(0, 4))},
				{rw(1, r(0, 4), r(8, 12))},
				{rw(2, r(8, 12), nil), rw(3, r(0, 4), nil)},
			},
			want: [][][]W{{nil}, {{{Lane: 0, Count: 1}}}, {{{Lane: 1, Count: 1}}, nil}},
		},
		{
			name: "latest conflicting task of a lane",
			lanes: [][]ordering.Task{
				{rw(0, nil, r(0, 4)), rw(1, nil, r(0, 4)), rw(3, nil, r(0, 4))},
				{rw(2, r(0, 4), nil)},
			},
			want: [][][]W{{nil, nil, {{Lane: 1, Count: 1}}}, {{{Lane: 0, Count: 2}}}},
		},
		{
			name: "independent producers",
			lanes: [][]ordering.Task{
				{rw(2, []ordering.Range{{0, 1}, {8, 9}}, nil)},
				{rw(0, nil, r(0, 1))},
				{rw(1, nil, r(8, 9))},
			},
			want: [][][]W{{{{Lane: 1, Count: 1}, {Lane: 2, Count: 1}}}, {nil}, {nil}},
		},
		{
			name:  "empty lanes",
			lanes: [][]ordering.Task{nil, {rw(0, nil, r(0, 1))}, nil},
			want:  [][][]W{{}, {nil}, {}},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := ordering.Waits(c.lanes)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, c.want) {
				t.Fatalf("Waits = %v, want %v", got, c.want)
			}
			if err := checkPlan(c.lanes, got); err != nil {
				t.Fatal(err)
			}
		})
	}
}

func TestWaitsErrors(t *testing.T) {
	cases := []struct {
		name  string
		lanes [][]ordering.Task
		want  string
	}{
		{"duplicate", [][]ordering.Task{{{Index: 0}}, {{Index: 0}}}, "used twice"},
		{"duplicate on a lane", [][]ordering.Task{{{Index: 3}, {Index: 3}}}, "used twice"},
		{"descending", [][]ordering.Task{{{Index: 2}, {Index: 1}}}, "against the sequential order"},
	}
	for _, c := range cases {
		if _, err := ordering.Waits(c.lanes); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: Waits error %v, want %q", c.name, err, c.want)
		}
	}
}

func TestRecompute(t *testing.T) {
	// The planned footprints are disjoint; the backend's code for task 1
	// stores a whole word over task 0's bytes.
	lanes := [][]ordering.Task{
		{rw(0, nil, r(0, 2))},
		{rw(1, nil, r(2, 4))},
	}
	before, err := ordering.Waits(lanes)
	if err != nil {
		t.Fatal(err)
	}
	if before[1][0] != nil {
		t.Fatalf("planned waits %v, want none", before)
	}
	final := func(lane, pos int) (ordering.Effects, bool) {
		if lane == 1 && pos == 0 {
			return ordering.Effects{Writes: r(2, 4), Footprint: r(0, 8)}, true
		}
		return ordering.Effects{}, false
	}
	after, err := ordering.Recompute(lanes, final)
	if err != nil {
		t.Fatal(err)
	}
	if want := []W{{Lane: 0, Count: 1}}; !reflect.DeepEqual(after[1][0], want) {
		t.Fatalf("recomputed waits %v, want %v", after[1][0], want)
	}
	if lanes[1][0].Effects.Footprint[0] != (ordering.Range{Lo: 2, Hi: 4}) {
		t.Fatal("Recompute modified its input")
	}
	if err := checkPlan(lanes, before); err != nil {
		t.Fatal(err)
	}
	// With the final effects, the old waits are wrong and the new ones right.
	fixed := [][]ordering.Task{lanes[0], {{Index: 1, Effects: ordering.Effects{Writes: r(2, 4), Footprint: r(0, 8)}}}}
	if err := checkPlan(fixed, before); err == nil {
		t.Fatal("plancheck accepted the planned waits for the final footprint")
	}
	if err := checkPlan(fixed, after); err != nil {
		t.Fatal(err)
	}
}

func TestSummarize(t *testing.T) {
	lanes := [][]ordering.Task{
		{rw(2, []ordering.Range{{0, 1}, {8, 9}}, nil)},
		{rw(0, nil, r(0, 1))},
		{rw(1, r(0, 1), r(8, 9))},
	}
	ws, err := ordering.Waits(lanes)
	if err != nil {
		t.Fatal(err)
	}
	got := ordering.Summarize(lanes, ws)
	want := ordering.Stats{Lanes: 3, Tasks: 3, Waits: 2, Conflicts: 3}
	if got != want {
		t.Fatalf("Summarize = %v, want %v", got, want)
	}
	if s := got.String(); !strings.Contains(s, "3 conflicting pairs") {
		t.Fatalf("String = %q", s)
	}
}

func TestConflicts(t *testing.T) {
	e := func(rd, wr, fp []ordering.Range) ordering.Effects {
		return ordering.Effects{Reads: rd, Writes: wr, Footprint: fp}
	}
	cases := []struct {
		u, t ordering.Effects
		want bool
	}{
		{e(nil, r(0, 4), r(0, 4)), e(r(3, 4), nil, nil), true},
		{e(r(3, 4), nil, nil), e(nil, r(0, 4), r(0, 4)), true},
		{e(r(0, 4), nil, nil), e(r(0, 4), nil, nil), false},
		{e(nil, r(0, 3), r(0, 4)), e(nil, r(3, 4), r(3, 4)), true},
		// Writes count as footprint even when a caller leaves it out.
		{e(nil, r(0, 4), nil), e(nil, r(2, 3), nil), true},
		{e([]ordering.Range{{10, 12}, {0, 2}}, nil, nil), e(nil, []ordering.Range{{4, 6}, {11, 11}, {2, 4}}, nil), false},
		{e([]ordering.Range{{10, 12}, {0, 2}}, nil, nil), e(nil, []ordering.Range{{4, 6}, {11, 12}}, nil), true},
	}
	for i, c := range cases {
		if got := ordering.Conflicts(c.u, c.t); got != c.want {
			t.Errorf("case %d: Conflicts = %v, want %v", i, got, c.want)
		}
	}
}
