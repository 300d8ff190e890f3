package elab

import (
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/weft-hdl/weft/hdl"
	"github.com/weft-hdl/weft/internal/tier"
)

// genElab elaborates src once and returns the first diagnostic line, the
// elaboration's state, and the heap that state still holds after a
// collection (what the elaboration kept, not what it threw away).
func genElab(t *testing.T, src string, opts Options) (first string, e *elab, held uint64) {
	t.Helper()
	st, fs, err := hdl.ParseString("t.sv", src)
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	diags := hdl.NewDiagnostics(fs)
	_, e = elaborate(st, fs, opts, diags)
	runtime.GC()
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(e)
	if len(diags.List) > 0 {
		first = strings.SplitN(diags.List[0].Error(), "\n", 2)[0]
	}
	if after.HeapAlloc > before.HeapAlloc {
		held = after.HeapAlloc - before.HeapAlloc
	}
	return first, e, held
}

// built is the number of iterations of generate loop g of the top module
// whose bodies were elaborated.
func built(e *elab, g string) int {
	if len(e.insts) == 0 {
		return 0
	}
	if s := e.insts[0].sc.syms[g]; s != nil {
		return len(s.subs)
	}
	return 0
}

// A generate loop whose step never reaches its bound (`i = i - 1` against
// `i < 10`) ran out of memory: each iteration built its body before the
// next was counted. The loop's header now runs first: past the limit the
// loop is an error at its position and no body is built.
func TestGenerateLoopThatNeverEnds(t *testing.T) {
	src := `module sub; endmodule
module top(output logic y);
  for (genvar i = 0; i < 10; i = i - 1) begin : g
    logic t;
    sub u();
  end
  assign y = 1'b0;
endmodule`
	first, e, _ := genElab(t, src, Options{Limits: Limits{GenerateIterations: 5000}})
	want := "t.sv:3:3: error: generate loop 'g': the generate loops of this design run more than 5000 iterations in all (elab.Limits.GenerateIterations; raise it with --max-generate-iterations)"
	if first != want {
		t.Errorf("got  %s\nwant %s", first, want)
	}
	if n := built(e, "g"); n != 0 || len(e.d.Homes) > 1 || len(e.d.Instances) != 1 { // the one home is y
		t.Errorf("%d iterations, %d homes and %d instances built before the limit", n, len(e.d.Homes), len(e.d.Instances))
	}

	// A loop after others charges what they ran: the total is bound.
	src2 := `module top(output logic y);
  for (genvar i = 0; i < 3000; i++) begin : a
  end
  for (genvar j = 0; j < 3000; j++) begin : b
    logic t;
  end
  assign y = 1'b0;
endmodule`
	first, e, _ = genElab(t, src2, Options{Limits: Limits{GenerateIterations: 5000}})
	want = "t.sv:4:3: error: generate loop 'b': the generate loops of this design run more than 5000 iterations in all (elab.Limits.GenerateIterations; raise it with --max-generate-iterations)"
	if first != want || built(e, "a") != 3000 || built(e, "b") != 0 {
		t.Errorf("got %s (a: %d iterations built, b: %d)\nwant %s", first, built(e, "a"), built(e, "b"), want)
	}

	// Nested loops: the inner one that passes the total stops the outer.
	src3 := `module top(output logic y);
  for (genvar i = 0; i < 1000; i++) begin : a
    for (genvar j = 0; j < 1000; j++) begin : b
      logic t;
    end
  end
  assign y = 1'b0;
endmodule`
	first, e, _ = genElab(t, src3, Options{Limits: Limits{GenerateIterations: 20_000}})
	want = "t.sv:3:5: error: generate loop 'b': the generate loops of this design run more than 20000 iterations in all (elab.Limits.GenerateIterations; raise it with --max-generate-iterations)"
	if first != want || built(e, "a") > 20 || len(e.d.Homes) > 20_000 {
		t.Errorf("got %s (%d outer iterations built, %d homes)\nwant %s", first, built(e, "a"), len(e.d.Homes), want)
	}
}

// Under the default limits the runaway loop stops at 2^20 iterations of
// its header, like a procedural loop, having built nothing: what the
// elaboration holds at the end is the header's values, not a million
// bodies (which took gigabytes).
func TestGenerateLoopThatNeverEndsDefaultLimits(t *testing.T) {
	tier.LongOnly(t, "a million iterations of a generate loop's header")
	src := `module sub; endmodule
module top(output logic y);
  for (genvar i = 0; i < 10; i = i - 1) begin : g
    logic t;
    sub u();
  end
  assign y = 1'b0;
endmodule`
	first, e, held := genElab(t, src, Options{})
	want := "t.sv:3:3: error: generate loop 'g' runs more than 1048576 iterations; does its step take the genvar to where the condition ends the loop? (elab.Limits.GenerateIterations; raise it with --max-generate-iterations)"
	if first != want {
		t.Errorf("got  %s\nwant %s", first, want)
	}
	if n := built(e, "g"); n != 0 || held > 64<<20 {
		t.Errorf("%d iterations built, %d MiB held", n, held>>20)
	}
}

// A generate loop of a million instances ran out of memory before the
// instance limit stopped it: the limit was checked as each instance was
// made, and a failed instance did not stop the loop. The instances the
// loop's body makes unconditionally are now counted before any is made.
func TestGenerateInstancesTripEarly(t *testing.T) {
	n := tier.Pick(100_000, 1_000_000)
	src := fmt.Sprintf(`module sub; endmodule
module top(output logic y);
  for (genvar i = 0; i < %d; i++) begin : g
    sub u();
  end
  assign y = 1'b0;
endmodule`, n)
	opts := Options{Limits: Limits{Instances: 1000}}
	want := "t.sv:4:9: error: the design has more than 1000 instances (elab.Limits.Instances; raise it with --max-instances)"
	if tier.Long() {
		opts = Options{}
		want = "t.sv:4:9: error: the design has more than 131072 instances (elab.Limits.Instances; raise it with --max-instances)"
	}
	first, e, held := genElab(t, src, opts)
	if first != want {
		t.Errorf("got  %s\nwant %s", first, want)
	}
	if b := built(e, "g"); b != 0 || len(e.d.Instances) != 1 || held > 64<<20 {
		t.Errorf("%d iterations and %d instances built, %d MiB held", b, len(e.d.Instances), held>>20)
	}

	// Instances the loop makes only under a condition are found as they
	// are made: the limit then stops the loop at once instead of failing
	// each remaining iteration's instance quietly.
	src = fmt.Sprintf(`module sub; endmodule
module top #(parameter bit C = 1) (output logic y);
  for (genvar i = 0; i < %d; i++) begin : g
    if (C) begin : c
      sub u();
    end
  end
  assign y = 1'b0;
endmodule`, n)
	first, e, _ = genElab(t, src, Options{Limits: Limits{Instances: 1000}})
	want = "t.sv:5:11: error: the design has more than 1000 instances (elab.Limits.Instances; raise it with --max-instances)"
	if first != want {
		t.Errorf("got  %s\nwant %s", first, want)
	}
	if b := built(e, "g"); b > 1000 {
		t.Errorf("%d iterations built after the instance limit", b)
	}

	// At the limit exactly the design elaborates.
	src = `module sub; endmodule
module top(output logic y);
  for (genvar i = 0; i < 999; i++) begin : g
    sub u();
  end
  assign y = 1'b0;
endmodule`
	if first, e, _ := genElab(t, src, Options{Limits: Limits{Instances: 1000}}); first != "" || len(e.d.Instances) != 1000 {
		t.Errorf("999 instances and the top under a limit of 1000: %s (%d instances)", first, len(e.d.Instances))
	}
}

// The header's work grows with the iterations it runs, and what a failed
// loop holds afterwards does not: ten times the iterations refused, the
// same heap held.
func TestGenerateRefusalHoldsLittle(t *testing.T) {
	loop := func(n int) string {
		return fmt.Sprintf(`module top(output logic y);
  for (genvar i = 0; i < %d; i++) begin : g
    logic [7:0] t;
    assign t = i;
  end
  assign y = 1'b0;
endmodule`, n)
	}
	_, _, small := genElab(t, loop(2_000), Options{Limits: Limits{GenerateIterations: 1_000}})
	_, _, large := genElab(t, loop(20_000), Options{Limits: Limits{GenerateIterations: 10_000}})
	t.Logf("held after refusing 1000 iterations: %d bytes; 10000: %d bytes", small, large)
	if large > 1<<20 && large > 4*small {
		t.Errorf("refusing 10000 iterations held %d bytes, 1000 iterations %d", large, small)
	}
}
