package slt

import (
	"fmt"
	"github.com/weft-hdl/weft/internal/bound"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/weft-hdl/weft/design"
)

// Big designs for the benchmarks, built by generate loops.

// bitChainSV: n one-bit continuous assignments chained through one n-bit
// vector (every item writes and reads single bits of the same home: the
// writer index must not degrade to a scan), listed in reverse so the order
// has to be found.
func bitChainSV(n int) string {
	return fmt.Sprintf(`module t #(parameter N = %d, parameter K = %d) (input logic [63:0] x, output logic [N*K:0] y);
  logic [N*K:0] w;
  for (genvar j = N - 1; j >= 0; j--) begin : g
    for (genvar i = K - 1; i >= 0; i--) begin : h
      assign w[j*K+i+1] = w[j*K+i] ^ x[i %% 64];
    end
  end
  assign w[0] = x[0];
  assign y = w;
endmodule
`, n/100, 100)
}

// meshSV: instances of a tile with 7 comb items each (assigns, a
// concat assign, an always_comb with independent statements), wired in a
// chain, plus a register per tile.
func meshSV(cells int) string {
	return fmt.Sprintf(`module tile(input logic clk, input logic [15:0] i, output logic [15:0] o);
  logic [7:0] a, b, c;
  logic [15:0] r;
  assign a = i[7:0] ^ i[15:8];
  assign {b, c} = {i[3:0], a[7:4], a[3:0] + 4'd1, i[11:8]};
  always_comb begin
    o[7:0] = b + c;
    o[15:8] = r[15:8] ^ a;
  end
  always_ff @(posedge clk) r <= {a, b};
endmodule
module t #(parameter N = %d) (input logic clk, input logic [15:0] x, output logic [15:0] y);
  logic [15:0] w [0:N];
  assign w[0] = x;
  for (genvar k = 0; k < N; k++) begin : g
    tile u(.clk(clk), .i(w[k]), .o(w[k+1]));
  end
  assign y = w[N];
endmodule
`, cells)
}

// benchCache keeps the last elaborated benchmark design (only one, so a
// benchmark's GC does not scan another's design).
var benchCache struct {
	name string
	d    *design.Design
}

func benchDesign(b *testing.B, name, src string) *design.Design {
	if benchCache.name == name {
		return benchCache.d
	}
	benchCache.d = nil
	runtime.GC()
	start := time.Now()
	d := elabSV(b, src)
	b.Logf("%s: elaborated %d comb processes in %v", name, len(d.Comb), time.Since(start))
	benchCache.name, benchCache.d = name, d
	return d
}

func benchAnalyze(b *testing.B, d *design.Design) {
	b.ReportAllocs()
	runtime.GC()
	b.ResetTimer()
	cpu0 := bound.CPUTime()
	var s *Schedule
	for i := 0; i < b.N; i++ {
		var err error
		if s, err = Analyze(d, Options{}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(bound.CPUTime()-cpu0)/1e6/float64(b.N), "cpu-ms/op")
	b.ReportMetric(float64(len(s.Items)), "items")
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(s.Items)), "ns/item")
}

// BenchmarkAnalyzeBitChain100k: 100k one-bit assigns through one vector.
func BenchmarkAnalyzeBitChain100k(b *testing.B) {
	benchAnalyze(b, benchDesign(b, "bitchain", bitChainSV(100_000)))
}

// BenchmarkAnalyzeMesh100k: 14.3k tile instances, 7 items each (100k).
func BenchmarkAnalyzeMesh100k(b *testing.B) {
	benchAnalyze(b, benchDesign(b, "mesh", meshSV(14_300)))
}

func TestBigDesignsSmall(t *testing.T) {
	// The benchmark designs, small: same shapes, checked by brute force.
	s := analyzeSV(t, bitChainSV(200), Options{})
	if len(s.Items) != 202 {
		t.Fatalf("bit chain: %s", s)
	}
	if len(s.Loops) != 0 || len(s.Items) != 202 {
		t.Fatalf("bit chain: %s", s)
	}
	for i := 0; i < 200; i++ {
		if s.NodeOf(s.Items[i].ID) <= s.NodeOf(s.Items[i+1].ID) {
			// items are listed w[200] first; each must come after the next one
			t.Fatalf("bit chain order wrong at %d", i)
		}
	}
	s = analyzeSV(t, meshSV(20), Options{})
	if len(s.Loops) != 0 || !strings.Contains(s.String(), "20 ff groups") {
		t.Fatalf("mesh: %s", s)
	}
}

// chainDesign builds by hand (elaborating 100k generate iterations takes
// seconds) a chain of n one-bit assigns w[i+1] = w[i], listed last first;
// w[0] = x, or w[0] = w[n] when ring is set (one SCC of n+1 items).
func chainDesign(n int, ring bool) *design.Design {
	top := &design.Instance{Name: "t", Path: "t", Module: "t"}
	w := &design.Home{ID: 0, Name: "w", Path: "t.w", Inst: top, Kind: design.KindVar, Width: n + 1}
	x := &design.Home{ID: 1, Name: "x", Path: "t.x", Inst: top, Kind: design.KindInput, Width: 1}
	d := &design.Design{Top: top, Instances: []*design.Instance{top}, Homes: []*design.Home{w, x}, Modules: []string{"t"}}
	bit := func(i int) *design.Slice {
		return &design.Slice{X: &design.HomeRef{Home: w}, Lsb: u32(i), T: design.Type{Width: 1}}
	}
	add := func(lhs design.LValue, rhs design.Expr) {
		p := &design.Process{ID: len(d.Comb), Kind: design.ProcContAssign, Inst: top,
			Name: fmt.Sprintf("t:assign#%d", len(d.Comb)), Body: &design.Assign{LHS: lhs, RHS: rhs}}
		design.Analyze(p)
		d.Comb = append(d.Comb, p)
	}
	for i := n - 1; i >= 0; i-- {
		add(bit(i+1), bit(i))
	}
	if ring {
		add(bit(0), bit(n))
	} else {
		add(bit(0), &design.HomeRef{Home: x})
	}
	d.Index()
	return d
}

func TestDeepGraphs(t *testing.T) {
	n := 100_000
	if testing.Short() {
		n = 5_000
	}
	s, err := Analyze(chainDesign(n, false), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Loops) != 0 || len(s.Nodes) != n+1 {
		t.Fatalf("chain: %s", s)
	}
	for k, nd := range s.Nodes { // the reverse of design order
		if nd.Items[0].ID != n-k {
			t.Fatalf("node %d is item %d", k, nd.Items[0].ID)
		}
	}
	s, err = Analyze(chainDesign(n, true), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Loops) != 1 || len(s.Nodes) != 1 || len(s.Loops[0].Items) != n+1 {
		t.Fatalf("ring: %s", s)
	}
	l := s.Loops[0]
	if l.Bits != n+1 || l.MaxIter != min(n+5, MaxLoopLimit) || !l.Obvious {
		t.Errorf("ring loop: bits %d max %d obvious %v", l.Bits, l.MaxIter, l.Obvious)
	}
	// Iteration order follows the ring from the first item in design order:
	// item 0 writes w[n], which item n reads; item n writes w[0], ...
	for k, it := range l.Items {
		if want := (n + 1 - k) % (n + 1); it.ID != want {
			t.Fatalf("loop item %d is %d, want %d", k, it.ID, want)
		}
	}
}
