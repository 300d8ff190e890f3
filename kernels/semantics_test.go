package kernels

import (
	"errors"
	"math/big"
	"math/rand"
	"slices"
	"strings"
	"testing"

	"github.com/weft-hdl/weft/design"
	"github.com/weft-hdl/weft/program"
	"github.com/weft-hdl/weft/sir"
	"github.com/weft-hdl/weft/statelayout"
)

// A true comb loop that settles (a ripple through a feedback chain) and
// one that oscillates.
func TestCombLoopSettles(t *testing.T) {
	d := elabSrc(t, "m", `
module m(input logic [7:0] a, input logic en, output logic [7:0] y, output logic [7:0] z);
  // y and z feed each other through a condition: a loop that settles
  always_comb begin
    if (en) y = a;
    else y = z + 8'd1;
  end
  always_comb begin
    if (en) z = y;
    else z = a;
  end
endmodule`)
	p := mustBuild(t, d, Options{})
	if len(p.Loops) != 1 {
		t.Fatalf("want one loop, have %d", len(p.Loops))
	}
	dr := newDriver(t, p)
	for _, tc := range []struct{ a, en, y, z uint64 }{{5, 1, 5, 5}, {9, 0, 10, 9}, {200, 1, 200, 200}} {
		dr.set("a", tc.a)
		dr.set("en", tc.en)
		dr.step()
		if dr.getU("y") != tc.y || dr.getU("z") != tc.z {
			t.Errorf("a=%d en=%d: y=%d z=%d, want %d %d", tc.a, tc.en, dr.getU("y"), dr.getU("z"), tc.y, tc.z)
		}
	}
	if dr.status != sir.StatusOK {
		t.Fatalf("status %s", dr.status)
	}
}

func TestCombLoopNoSettle(t *testing.T) {
	d := elabSrc(t, "m", `
module m(input logic en, output logic y);
  logic x;
  assign x = en ? ~y : 1'b0;
  assign y = x;
endmodule`)
	p := mustBuild(t, d, Options{})
	dr := newDriver(t, p)
	dr.set("en", 1)
	dr.step()
	if dr.status != sir.StatusNoSettle {
		t.Fatalf("status %s, want nosettle", dr.status)
	}
	var le *program.NoSettleError
	if !errors.As(dr.err, &le) || !strings.Contains(dr.err.Error(), "m.x") || !strings.Contains(dr.err.Error(), "m.y") {
		t.Fatalf("error %v should be a LoopError naming m.x and m.y", dr.err)
	}
}

func TestLoopLimit(t *testing.T) {
	d := elabSrc(t, "m", `
module m(input logic [7:0] a, output logic [7:0] y);
  always_comb begin
    logic [7:0] k;
    k = a;
    y = 0;
    while (k != 0) begin
      y = y + 1;
      if (k > 100) k = k + 1; else k = k - 1;
    end
  end
endmodule`)
	p := mustBuild(t, d, Options{})
	dr := newDriver(t, p)
	dr.set("a", 7)
	dr.step()
	if dr.getU("y") != 7 || dr.status != sir.StatusOK {
		t.Fatalf("y=%d status %s", dr.getU("y"), dr.status)
	}
	dr.set("a", 101) // 101 → 102 → ... wraps to 0 after 155 steps: fine
	dr.step()
	if dr.getU("y") != 155 || dr.status != sir.StatusOK {
		t.Fatalf("y=%d status %s", dr.getU("y"), dr.status)
	}
	if len(p.LoopSites) != 1 {
		t.Fatalf("loop sites %v", p.LoopSites)
	}
	// With a bound of 50 the same run stops with looplimit.
	design.WalkStmt(d.Comb[0].Body, func(s design.Stmt) bool {
		if l, ok := s.(*design.Loop); ok {
			l.MaxIter = 50
		}
		return true
	})
	dr = newDriver(t, mustBuild(t, d, Options{}))
	dr.set("a", 30)
	dr.step()
	if dr.getU("y") != 30 || dr.status != sir.StatusOK {
		t.Fatalf("y=%d status %s", dr.getU("y"), dr.status)
	}
	dr.set("a", 101)
	dr.step()
	if dr.status != sir.StatusLoopLimit || dr.err == nil || !strings.Contains(dr.err.Error(), "exceeded 50 iterations") {
		t.Fatalf("status %s err %v, want looplimit", dr.status, dr.err)
	}
}

// $display / $write order within a step follows the sequential kernel:
// groups in design order, statements in program order; $finish ends the
// run after the step completes.
func TestDisplayAndFinish(t *testing.T) {
	d := elabSrc(t, "top", `
module sub(input logic clk, input logic [7:0] v);
  always @(posedge clk) $display("%m sees %0d", v);
endmodule
module top(input logic clk, input logic [7:0] n, output logic [7:0] cnt);
  initial $display("hello %s %0d", "init", 8'd3);
  always_ff @(posedge clk) begin
    cnt <= cnt + 1;
    $write("[%02d]", cnt);
    $write("%c", 8'h41 + n[2:0]);
    if (cnt == 3) begin
      $display(" done %h %b %d|%5d|%0d", 8'h0f, 3'b101, -8'sd5, 16'd42, n);
      $finish;
    end else $display("");
  end
  sub u_sub(.clk, .v(cnt));
endmodule`)
	p := mustBuild(t, d, Options{})
	dr := newDriver(t, p)
	for i := 0; i < 10 && dr.status == sir.StatusOK; i++ {
		dr.set("n", uint64(i))
		dr.tick("clk")
	}
	want := "hello init 3\n[00]A\ntop.u_sub sees 0\n[01]B\ntop.u_sub sees 1\n[02]C\ntop.u_sub sees 2\n[03]D done 0f 101   -5|   42|3\ntop.u_sub sees 3\n"
	if got := dr.out.String(); got != want {
		t.Fatalf("output:\n%q\nwant\n%q", got, want)
	}
	if dr.status != sir.StatusFinish || dr.getU("cnt") != 4 {
		t.Fatalf("status %s cnt %d", dr.status, dr.getU("cnt"))
	}
}

// Several clocks, a negedge process, an async reset and a clock derived
// from a flop, compared with the reference.
func TestClocksVsMachine(t *testing.T) {
	src := `
module clocks(input logic clk, input logic clk2, input logic rst_n, input logic [7:0] d,
              output logic [7:0] q1, q2, q3, q4);
  logic div2;
  always_ff @(posedge clk or negedge rst_n)
    if (!rst_n) div2 <= 0; else div2 <= ~div2;
  always_ff @(posedge clk or negedge rst_n)
    if (!rst_n) q1 <= 0; else q1 <= q1 + d;
  always_ff @(negedge clk or negedge rst_n) if (!rst_n) q2 <= 0; else q2 <= q1 ^ d;
  always_ff @(posedge div2 or negedge rst_n)
    if (!rst_n) q3 <= 0; else q3 <= q3 + 1;
  always @(posedge clk2 or negedge rst_n) if (!rst_n) q4 <= 0; else q4 <= q3 + q1;
endmodule`
	rst := func(k int, r *rand.Rand, w int) *big.Int {
		if k == 1 || k == 2 { // a negedge for Icarus, whose flops start at x
			return big.NewInt(0)
		}
		return resetGen(k+2, r, w)
	}
	gen := map[string]func(int, *rand.Rand, int) *big.Int{"rst_n": rst,
		"clk2": func(k int, r *rand.Rand, w int) *big.Int { return big.NewInt(int64(k / 3 % 2)) }}
	runDiff(t, diffCase{name: "clocks", top: "clocks", srcs: []string{src}, clk: "clk", cycles: 60, seed: 7, gen: gen, skip: 6})
}

// A memory written with a dynamic index inside a procedural loop falls
// back to a whole staging copy.
func TestSparseInLoopVsMachine(t *testing.T) {
	src := `
module sl(input logic clk, input logic rst_n, input logic [7:0] a, input logic [2:0] n, output logic [7:0] q);
  logic [7:0] mem [0:7];
  initial for (int i = 0; i < 8; i++) mem[i] = 0;
  always_ff @(posedge clk) begin
    int k;
    logic [2:0] ix;
    k = 0;
    while (k < n) begin
      ix = a[2:0] + k[2:0]; // (Icarus sizes an index expression like mem[a + k] at 32 bits)
      mem[ix] <= a + k[7:0];
      k = k + 1;
    end
  end
  assign q = mem[a[5:3]] ^ mem[n];
endmodule`
	runDiff(t, diffCase{name: "sl", top: "sl", srcs: []string{src}, clk: "clk", cycles: 80, seed: 8,
		gen: map[string]func(int, *rand.Rand, int) *big.Int{"rst_n": resetGen}})
}

// Every unit's footprint (sir.Effects) lies inside state memory; settle
// never touches staging copies or trigger bytes.
func TestEffectsWithinLayout(t *testing.T) {
	p := mustBuild(t, elabSrc(t, "corners", cornersSrc), Options{})
	for _, u := range p.Units() {
		fp := sir.Effects(u, p.Layout)
		for _, r := range append(append([]sir.Range{}, fp.Reads...), fp.Writes...) {
			if r.Lo < 0 || r.Hi > p.StateSize || r.Lo >= r.Hi {
				t.Errorf("%s: range %+v outside state of %d bytes", u.Name, r, p.StateSize)
			}
		}
		if u == p.Settle {
			for _, r := range append(append([]sir.Range{}, fp.Reads...), fp.Writes...) {
				if o := p.Layout.Space().Object(r.Home); o.Kind != statelayout.KindHome && o.Kind != statelayout.KindScratch && o.Kind != statelayout.KindSys && o.Kind != statelayout.KindRing {
					t.Errorf("settle touches %s (%s)", o.Name, o.Kind)
				}
			}
		}
	}
}

// The first end status of a step wins ($finish in the event, then $stop
// in the settle: $finish) and the settle still runs after it, in a fused
// kernel lowered in one piece, in one assembled from the event's unit and
// the settle (a large program), and on the unfused path.
func TestFusedEndStatusOrder(t *testing.T) {
	d := elabSrc(t, "top", `
module top(input logic clk, output logic [7:0] cnt, output logic [7:0] y);
  always_ff @(posedge clk) begin
    cnt <= cnt + 1;
    if (cnt == 2) $finish;
  end
  always_comb begin
    y = cnt + 8'd10;
    if (cnt == 3) $stop;
    if (cnt == 5) $fatal(1, "five");
  end
endmodule`)
	for _, c := range []struct {
		fused bool
		large int
	}{{true, 0}, {true, -1}, {false, 0}, {false, -1}} {
		dr := newDriver(t, mustBuild(t, d, Options{LargeMinInsts: c.large}))
		dr.fused = c.fused
		var got []sir.Status
		for i := 0; i < 6; i++ {
			dr.tick("clk")
			got = append(got, dr.status)
			dr.status = sir.StatusOK
		}
		// Step 3: $finish (cnt was 2) and $stop (cnt is now 3) in one step.
		want := []sir.Status{sir.StatusOK, sir.StatusOK, sir.StatusFinish, sir.StatusOK, sir.StatusFatal, sir.StatusOK}
		if !slices.Equal(got, want) || dr.getU("y") != dr.getU("cnt")+10 {
			t.Errorf("%+v: statuses %v, want %v; y=%d cnt=%d (the settle must run)", c, got, want, dr.getU("y"), dr.getU("cnt"))
		}
	}
}
