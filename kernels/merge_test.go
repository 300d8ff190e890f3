package kernels

import (
	"fmt"
	"math/big"
	"math/rand"
	"strings"
	"testing"

	"github.com/weft-hdl/weft/hdl"
	"github.com/weft-hdl/weft/sir"
)

// Runs of processes sharing their if condition, next to processes that
// must run alone.
const mergeSrc = `
module merge (
  input  logic clk, rst_n,
  input  logic [7:0] a, b,
  output logic [7:0] y0, y1, y5, y6, sum
);
  // A generate loop of registers sharing a reset: one run.
  logic [7:0] r [0:5];
  for (genvar j = 0; j < 6; j++) begin : g
    always_ff @(posedge clk or negedge rst_n)
      if (!rst_n) r[j] <= 8'(j);
      else r[j] <= r[j] + a + 8'(j);
  end
  assign sum = r[0] ^ r[1] ^ r[2] ^ r[3] ^ r[4] ^ r[5];
  // A run without else.
  logic [7:0] q0 = 0, q1 = 0;
  always_ff @(posedge clk) if (a[0]) q0 <= b;
  always_ff @(posedge clk) if (a[0]) q1 <= b + 8'd1;
  assign y0 = q0;
  assign y1 = q1;
  // A dynamically indexed memory (queued writes): alone.
  logic [7:0] m [0:7];
  initial for (int i = 0; i < 8; i++) m[i] = 0;
  always_ff @(posedge clk) if (a[2]) m[b[2:0]] <= a;
  logic [7:0] q5 = 0;
  always_ff @(posedge clk) if (a[2]) q5 <= m[a[5:3]];
  assign y5 = q5;
  // The same condition on another register, different instance-free arms.
  logic [7:0] q6 = 0;
  always_ff @(posedge clk) if (a[2]) q6 <= q6 + b;
  assign y6 = q6;
endmodule
`

func TestMergeVsMachine(t *testing.T) {
	runDiff(t, diffCase{name: "merge", top: "merge", srcs: []string{mergeSrc}, clk: "clk", cycles: 200, seed: 12,
		gen: map[string]func(int, *rand.Rand, int) *big.Int{"rst_n": resetGen}})
}

// branches counts the conditional branches of the units whose name has
// prefix.
func branches(p *Program, prefix string) int {
	n := 0
	for _, u := range p.Units() {
		if !strings.HasPrefix(u.Name, prefix) {
			continue
		}
		for _, b := range u.Blocks {
			if b.Term.Kind == sir.TermBranch {
				n++
			}
		}
	}
	return n
}

func TestMergeRuns(t *testing.T) {
	d := elabInputs(t, "merge", nil, []hdl.Input{{Name: "merge.sv", Src: []byte(mergeSrc)}})
	merged := branches(mustBuild(t, d, Options{NoOpt: true}), "fused posedge")
	alone := branches(mustBuild(t, d, Options{NoOpt: true, NoMerge: true}), "fused posedge")
	// The reset run saves 5 branches, the q0/q1 run 1, the q5/q6 run 1
	// (the memory write before them runs alone).
	if alone-merged != 7 {
		t.Errorf("fused posedge: %d branches merged, %d alone: want 7 fewer", merged, alone)
	}
}

// Displays in merged arms print in process order, as they do alone.
func TestMergeKeepsDisplayOrder(t *testing.T) {
	src := `
module mdisp (input logic clk, input logic [7:0] a, b);
  always_ff @(posedge clk) if (a[1]) $display("p0 %h", a); else $display("p0 else %h", b);
  always_ff @(posedge clk) if (a[1]) $display("p1 %h", b);
  always_ff @(posedge clk) if (a[1]) $display("p2 %h", a ^ b); else $display("p2 else");
endmodule
`
	d := elabInputs(t, "mdisp", nil, []hdl.Input{{Name: "mdisp.sv", Src: []byte(src)}})
	run := func(opts Options) (string, int) {
		p := mustBuild(t, d, opts)
		dr := newDriver(t, p)
		for k := 0; k < 8; k++ {
			dr.set("a", uint64(k*37))
			dr.set("b", uint64(k*11))
			dr.set("clk", 1)
			dr.step()
			dr.set("clk", 0)
			dr.step()
		}
		return dr.out.String(), branches(p, "fused posedge")
	}
	merged, nm := run(Options{NoOpt: true})
	alone, na := run(Options{NoOpt: true, NoMerge: true})
	if merged != alone || !strings.Contains(merged, "p2 else") || !strings.Contains(merged, "p1 ") {
		t.Errorf("merged output:\n%s\nalone:\n%s", merged, alone)
	}
	if na-nm != 2 {
		t.Errorf("%d branches merged, %d alone: want 2 fewer", nm, na)
	}
}

// A process writing its condition with a blocking assignment ends the run:
// the next process must see the new value. Merging across it anyway
// (mergeIgnoresWrites) must be caught by comparing with the unmerged
// program.
const mergeRaceSrc = `
module mrace (input logic clk, input logic [7:0] a, b, output logic [7:0] y2, y3, y4);
  logic c = 0;
  always_ff @(posedge clk) if (c) begin c = 1'b0; y2 <= a; end else begin c = b[0]; y2 <= b; end
  always_ff @(posedge clk) if (c) y3 <= a; else y3 <= b;
  always_ff @(posedge clk) if (c) y4 <= a ^ b; else y4 <= 8'd0;
endmodule
`

func TestMergeAcrossWriteCaught(t *testing.T) {
	d := elabInputs(t, "mrace", nil, []hdl.Input{{Name: "mrace.sv", Src: []byte(mergeRaceSrc)}})
	run := func(p *Program) []string {
		dr := newDriver(t, p)
		r := rand.New(rand.NewSource(3))
		var out []string
		for k := 0; k < 100; k++ {
			dr.set("a", uint64(r.Intn(256)))
			dr.set("b", uint64(r.Intn(256)))
			dr.set("clk", 1)
			dr.step()
			dr.set("clk", 0)
			dr.step()
			out = append(out, dr.get("y2").String()+" "+dr.get("y3").String()+" "+dr.get("y4").String())
		}
		return out
	}
	want := run(mustBuild(t, d, Options{NoMerge: true}))
	if got := run(mustBuild(t, d, Options{})); strings.Join(got, ",") != strings.Join(want, ",") {
		t.Fatalf("merged program differs from the unmerged one")
	}
	mergeIgnoresWrites = true
	defer func() { mergeIgnoresWrites = false }()
	if got := run(mustBuild(t, d, Options{})); strings.Join(got, ",") == strings.Join(want, ",") {
		t.Fatalf("a run merged across a blocking write to its condition went unnoticed")
	}
}

// A generate loop of pipeline stages sharing a reset: each process reads
// two registers it updates in place (from snapshots) and the stages feed
// each other through an array.
const mergeSnapSrc = `
module msnap (input logic clk, rst_n, input logic [15:0] din, output logic [15:0] dout);
  logic [15:0] link [0:8];
  assign link[0] = din;
  for (genvar i = 0; i < 8; i++) begin : g
    logic [15:0] s0, s1, s2, s3;
    always_ff @(posedge clk or negedge rst_n)
      if (!rst_n) begin s0 <= '0; s1 <= 16'(i); s2 <= '0; s3 <= '0; end
      else begin
        s0 <= link[i] + 16'd1;
        s1 <= s0 ^ (s0 << 3);
        s2 <= s1 + (s0 >> 2);
        s3 <= s2;
      end
    assign link[i+1] = s3;
  end
  assign dout = link[8];
endmodule
`

// TestMergedSnapshotsInArms: a merged run takes each process's snapshots
// where its arm starts (no block before the run's branch loads them all),
// the result matches the reference, Icarus and the unmerged build, and
// taking them one process late is caught (by the unit check every build
// runs, or by a different state).
func TestMergedSnapshotsInArms(t *testing.T) {
	c := diffCase{name: "msnap", top: "msnap", srcs: []string{mergeSnapSrc}, clk: "clk", cycles: 80, seed: 5,
		gen: map[string]func(int, *rand.Rand, int) *big.Int{"rst_n": resetGen}}
	runDiff(t, c)
	d := elabInputs(t, "msnap", nil, []hdl.Input{{Name: "msnap.sv", Src: []byte(mergeSnapSrc)}})
	p := mustBuild(t, d, Options{NoOpt: true})
	for _, u := range p.Units() {
		if !strings.HasPrefix(u.Name, "fused posedge") {
			continue
		}
		for bi, b := range u.Blocks {
			loads := 0
			for _, in := range b.Insts {
				if in.Op == sir.OpLoad {
					loads++
				}
			}
			if b.Term.Kind == sir.TermBranch && loads >= 16 {
				t.Errorf("%s b%d loads %d values before a branch: snapshots taken before the run", u.Name, bi, loads)
			}
		}
	}

	snapshotOneLate = true
	defer func() { snapshotOneLate = false }()
	good := mustBuild(t, d, Options{NoMerge: true})
	late, err := Build(d, Options{})
	if err != nil {
		t.Logf("caught by the unit check: %v", err)
		return
	}
	dl, dg := newDriver(t, late), newDriver(t, good)
	r := rand.New(rand.NewSource(4))
	for k := 0; k < 40; k++ {
		for _, dr := range []*driver{dl, dg} {
			dr.set("rst_n", uint64(min(k, 1)))
		}
		v := uint64(r.Intn(1 << 16))
		for _, clk := range []uint64{1, 0} {
			for _, dr := range []*driver{dl, dg} {
				dr.set("din", v)
				dr.set("clk", clk)
				dr.step()
			}
		}
		if dl.get("dout").Cmp(dg.get("dout")) != 0 {
			return // caught
		}
	}
	t.Fatal("snapshots taken one process late went unnoticed")
}

// TestMergeAcrossInstances: a reset run goes on into the next instance of
// the same module when both have few processes (pipeline stages), but not
// into another module's instance nor out of or into an instance of
// mergeInstProcs processes or more (their code stays apart, for the native
// backend to loop over: jit/region.go).
func TestMergeAcrossInstances(t *testing.T) {
	mk := func(procs int) string {
		var b strings.Builder
		fmt.Fprintf(&b, "module stage(input logic clk, input logic rst, input logic [7:0] d, output logic [7:0] q);\n")
		for i := range procs {
			fmt.Fprintf(&b, "  logic [7:0] r%d;\n  always_ff @(posedge clk) if (rst) r%d <= 0; else r%d <= d + 8'd%d;\n", i, i, i, i)
		}
		b.WriteString("  assign q = r0;\nendmodule\n")
		b.WriteString("module other(input logic clk, input logic rst, output logic [7:0] q);\n  always_ff @(posedge clk) if (rst) q <= 0; else q <= q + 8'd1;\nendmodule\n")
		b.WriteString("module top(input logic clk, input logic rst, input logic [7:0] d, output logic [7:0] q, output logic [7:0] o);\n")
		b.WriteString("  logic [7:0] a, c;\n  stage s0(.clk, .rst, .d, .q(a));\n  stage s1(.clk, .rst, .d(a), .q(c));\n  stage s2(.clk, .rst, .d(c), .q);\n  other u(.clk, .rst, .q(o));\nendmodule\n")
		return b.String()
	}
	for _, c := range []struct {
		procs int
		// ifs: the reset tests left, by run.
		ifs int
	}{
		{procs: 2, ifs: 2},                  // the stages' six processes as one run, the other module's alone
		{procs: mergeInstProcs, ifs: 3 + 1}, // each stage its own run
	} {
		d := elabSrc(t, "top", mk(c.procs))
		got := branches(mustBuild(t, d, Options{NoOpt: true}), "fused posedge")
		if got != c.ifs {
			t.Errorf("%d processes a stage: %d branches, want %d", c.procs, got, c.ifs)
		}
		runDiff(t, diffCase{name: "mergeinst", top: "top", srcs: []string{mk(c.procs)}, clk: "clk", cycles: 40, seed: 3,
			gen: map[string]func(int, *rand.Rand, int) *big.Int{"rst": func(k int, r *rand.Rand, w int) *big.Int { return big.NewInt(int64(max(0, 1-k))) }}})
	}
}
