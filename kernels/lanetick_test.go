package kernels

import (
	"slices"
	"strings"
	"testing"

	"github.com/weft-hdl/weft/sir"
)

// TestIslands: work that shares a written cache line stays on one lane;
// work that only reads the same bytes, or writes other lines, may part;
// the partitioned kernels' lanes are followed when they place every
// island, and the islands are cut into runs of about equal cost when not.
func TestIslands(t *testing.T) {
	fp := func(reads, writes []sir.Range) sir.Footprint { return sir.Footprint{Reads: reads, Writes: writes} }
	r := func(h, lo, hi int) []sir.Range { return []sir.Range{{Home: sir.HomeID(h), Lo: lo, Hi: hi}} }
	procs := []tickProc{
		{part: ffPart{group: 0, lo: 0, hi: 1}, cost: 10, fp: fp(nil, r(1, 0, 4)), lane: -1},          // 0 writes h1
		{part: ffPart{group: 0, lo: 1, hi: 2}, cost: 10, fp: fp(r(1, 2, 3), r(2, 0, 4)), lane: -1},   // 1 reads h1: with 0
		{part: ffPart{group: 0, lo: 2, hi: 3}, cost: 10, fp: fp(r(9, 0, 8), r(3, 0, 2)), lane: -1},   // 2 reads h9 (shared input)
		{part: ffPart{group: 0, lo: 3, hi: 4}, cost: 10, fp: fp(r(9, 0, 8), r(3, 64, 66)), lane: -1}, // 3: h3's next cache line, alone
		{part: ffPart{group: 0, lo: 4, hi: 5}, cost: 10, fp: fp(r(4, 0, 1), r(5, 0, 1)), lane: -1},   // 4 reads node 0's h4
	}
	tp := &tickParts{procs: [][]tickProc{procs}, nodes: []int{0},
		nodeFP: []sir.Footprint{fp(r(9, 0, 1), r(4, 0, 1))}, nodeCost: []int{5}, nodeLane: []int{-1}}
	parts, nodes, load, n := tp.islands(0, 2)
	if n != 4 {
		t.Fatalf("%d islands, want 4 ({0,1}, {2}, {3}, {4, node 0})", n)
	}
	laneOf := func(lo int) int {
		for l, ps := range parts {
			if slices.ContainsFunc(ps, func(p ffPart) bool { return p.lo == lo }) {
				return l
			}
		}
		return -1
	}
	if laneOf(0) != laneOf(1) || laneOf(4) != slices.IndexFunc(nodes, func(ks []int) bool { return len(ks) > 0 }) {
		t.Errorf("an island was split: parts %v, nodes %v", parts, nodes)
	}
	if load[0]+load[1] != 55 || load[0] == 0 || load[1] == 0 || max(load[0], load[1]) > 35 {
		t.Errorf("loads %v", load)
	}
	// In order: {0,1} and {2} on lane 0, {3} and {4, node} on lane 1.
	if laneOf(0) != 0 || laneOf(2) != 0 || laneOf(3) != 1 || laneOf(4) != 1 {
		t.Errorf("not cut in order: %v", parts)
	}
	// Writes to neighbouring bytes of one line join.
	procs[3].fp = fp(r(9, 0, 8), r(3, 2, 4))
	if _, _, _, n := tp.islands(0, 2); n != 3 {
		t.Errorf("%d islands with 2 and 3 writing one line, want 3", n)
	}
	procs[3].fp = fp(r(9, 0, 8), r(3, 64, 66))
	// Hints for every island: followed, even against the order.
	for i := range procs {
		procs[i].lane = []int{1, 1, 0, 1, 0}[i]
	}
	tp.nodeLane[0] = 0
	parts, _, _, _ = tp.islands(0, 2)
	if laneOf(0) != 1 || laneOf(1) != 1 || laneOf(2) != 0 || laneOf(3) != 1 || laneOf(4) != 0 {
		t.Errorf("hints not followed: %v", parts)
	}
	// A hint missing: the cut in order again.
	procs[3].lane = -1
	parts, _, _, _ = tp.islands(0, 2)
	if laneOf(0) != 0 || laneOf(3) != 1 {
		t.Errorf("partial hints followed: %v", parts)
	}
}

// TestLaneTickSinks: comb logic only outputs read is left out of the
// lanes (and settled after a batch), comb logic a flop needs, directly
// or through other comb logic, is in them.
func TestLaneTickSinks(t *testing.T) {
	src := `module core(input logic clk, input logic [7:0] in, output logic [7:0] acc);
  logic [7:0] x, t1, t2;
  assign t1 = x ^ in;
  assign t2 = t1 + 8'd3;
  always_ff @(posedge clk) begin x <= t2; acc <= acc + t2; end
endmodule
module m(input logic clk, input logic [7:0] in, output logic [7:0] sum, output logic [7:0] twice);
  logic [7:0] a0, a1;
  core c0(.clk, .in, .acc(a0));
  core c1(.clk, .in, .acc(a1));
  assign sum = a0 + a1;
  assign twice = sum << 1;
endmodule`
	p := mustBuild(t, elabSrc(t, "m", src), Options{Partition: PartitionOptions{Lanes: 2, Always: true}})
	if len(p.Parallel.Ticks) == 0 || p.Parallel.Ticks[0] == nil {
		t.Fatalf("no lane tick: %q", p.Parallel.TickReasons)
	}
	if !strings.Contains(p.Parallel.TickReasons[0], "2 islands") || !strings.Contains(p.Parallel.TickReasons[0], "2 comb nodes settled after each batch") {
		t.Errorf("reason %q", p.Parallel.TickReasons[0])
	}
	names := map[string]bool{}
	for _, u := range p.Parallel.Ticks[0].Units {
		for _, r := range sir.Effects(u, spaceLayout{p.Layout.Space()}).Writes {
			names[p.Layout.Space().Object(r.Home).Name] = true
		}
	}
	for _, want := range []string{"m.c0.t1", "m.c0.t2", "m.c1.t2", "m.c0.x", "m.a1"} {
		if !names[want] {
			t.Errorf("the lanes do not write %s: %v", want, names)
		}
	}
	for _, sink := range []string{"m.sum", "m.twice"} {
		if names[sink] {
			t.Errorf("the lanes write %s", sink)
		}
	}
}
