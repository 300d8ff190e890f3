package plancheck

import (
	"strings"
	"testing"
)

func rg(lo, hi int) [][2]int { return [][2]int{{lo, hi}} }

func TestCheck(t *testing.T) {
	cases := []struct {
		name  string
		lanes [][]Task
		want  string // substring of the error; "" when the plan is valid
	}{
		{
			name: "serial plan",
			lanes: [][]Task{{
				{Lane: 0, Index: 0, Writes: rg(0, 4), Footprint: rg(0, 4)},
				{Lane: 0, Index: 1, Reads: rg(0, 4), Writes: rg(0, 8), Footprint: rg(0, 8)},
				{Lane: 0, Index: 2, Reads: rg(0, 8), Writes: rg(0, 8), Footprint: rg(0, 8)},
			}},
		},
		{
			name: "disjoint parallel tasks",
			lanes: [][]Task{
				{{Lane: 0, Index: 0, Reads: rg(0, 4), Writes: rg(4, 8), Footprint: rg(4, 8)}},
				{{Lane: 1, Index: 1, Reads: rg(0, 4), Writes: rg(8, 12), Footprint: rg(8, 16)}},
			},
		},
		{
			name: "missing read/write wait",
			lanes: [][]Task{
				{{Lane: 0, Index: 0, Writes: rg(4, 8), Footprint: rg(4, 8)}},
				{{Lane: 1, Index: 1, Reads: rg(6, 7)}},
			},
			want: "task 0 (lane 0) writes and task 1 (lane 1) reads byte 6",
		},
		{
			name: "missing write/read wait",
			lanes: [][]Task{
				{{Lane: 0, Index: 0, Reads: rg(4, 8)}},
				{{Lane: 1, Index: 1, Writes: rg(2, 5), Footprint: rg(2, 5)}},
			},
			want: "task 0 (lane 0) reads and task 1 (lane 1) writes byte 4",
		},
		{
			name: "missing write/write wait through footprints",
			lanes: [][]Task{
				{{Lane: 0, Index: 0, Writes: rg(0, 3), Footprint: rg(0, 4)}},
				{{Lane: 1, Index: 1, Writes: rg(3, 4), Footprint: rg(3, 4)}},
			},
			want: "may both store byte 3",
		},
		{
			name: "wait orders the conflict",
			lanes: [][]Task{
				{{Lane: 0, Index: 0, Writes: rg(0, 3), Footprint: rg(0, 4)}},
				{{Lane: 1, Index: 1, Reads: rg(0, 4), Writes: rg(3, 4), Footprint: rg(3, 4), Waits: [][2]int{{0, 1}}}},
			},
		},
		{
			name: "transitive order",
			lanes: [][]Task{
				{{Lane: 0, Index: 2, Reads: rg(0, 1), Waits: [][2]int{{2, 1}}}},
				{{Lane: 1, Index: 0, Writes: rg(0, 1), Footprint: rg(0, 1)}},
				{{Lane: 2, Index: 1, Reads: rg(0, 1), Waits: [][2]int{{1, 1}}}},
			},
		},
		{
			name: "wait against the sequential order",
			lanes: [][]Task{
				{{Lane: 0, Index: 0, Waits: [][2]int{{1, 1}}}},
				{{Lane: 1, Index: 1}},
			},
			want: "task 1 (lane 1) happens before task 0 (lane 0)",
		},
		{
			name: "lane against the sequential order",
			lanes: [][]Task{{
				{Lane: 0, Index: 1},
				{Lane: 0, Index: 0},
			}},
			want: "against the sequential order",
		},
		{
			name: "cycle",
			lanes: [][]Task{
				{{Lane: 0, Index: 0, Waits: [][2]int{{1, 1}}}},
				{{Lane: 1, Index: 1, Waits: [][2]int{{0, 1}}}},
			},
			want: "cycle",
		},
		{
			name:  "own lane",
			lanes: [][]Task{{{Lane: 0, Index: 0, Waits: [][2]int{{0, 0}}}}},
			want:  "own lane",
		},
		{
			name:  "count out of range",
			lanes: [][]Task{{{Lane: 0, Index: 0, Waits: [][2]int{{1, 2}}}}, {{Lane: 1, Index: 1}}},
			want:  "waits for 2 tasks of lane 1",
		},
		{
			name:  "wrong lane field",
			lanes: [][]Task{{{Lane: 1, Index: 0}}},
			want:  "listed on lane 0",
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := Check(c.lanes)
			switch {
			case c.want == "" && err != nil:
				t.Fatalf("Check: %v", err)
			case c.want != "" && err == nil:
				t.Fatalf("Check accepted the plan, want error %q", c.want)
			case c.want != "" && !strings.Contains(err.Error(), c.want):
				t.Fatalf("Check: %v, want %q", err, c.want)
			}
		})
	}
}
