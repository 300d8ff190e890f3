package compile_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/weft-hdl/weft/compile"
	"github.com/weft-hdl/weft/hdl"
	"github.com/weft-hdl/weft/internal/plancheck"
)

const counter = "module c #(parameter int W = 4) (input logic clk, output logic [W-1:0] q);\n" +
	"  always_ff @(posedge clk) q <= q + `STEP;\nendmodule\n"

func TestBuild(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "step.vh"), []byte("`define STEP 2\n"), 0o644)
	f := filepath.Join(dir, "c.sv")
	os.WriteFile(f, []byte("`include \"step.vh\"\n"+counter), 0o644)
	var out bytes.Buffer
	p, err := compile.NewBuilder().Files(f).IncludeDir(dir).Top("c").Param("W", "6").Output(&out).NoCache().Build()
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	q := p.DUT().MustSignal("q")
	if q.Width() != 6 {
		t.Errorf("W=6: width %d", q.Width())
	}
	if _, err := p.Sim.Tick(p.DUT().MustSignal("clk").Home(), 40); err != nil {
		t.Fatal(err)
	}
	if q.Get() != 80%64 {
		t.Errorf("q = %d, want %d", q.Get(), 80%64)
	}
	if !strings.Contains(p.SIR(), "settle") || len(p.Phases) != 5 || p.CompileTime <= 0 {
		t.Errorf("SIR/phases: %v", p.Phases)
	}
	if p.Lanes != 1 || len(p.Notes) != 0 {
		t.Errorf("threads %d notes %v", p.Lanes, p.Notes)
	}

	// Define instead of the include file
	p2, err := compile.NewBuilder().Source("c.sv", counter).Define("STEP", "3").Build()
	if err != nil {
		t.Fatal(err)
	}
	defer p2.Close()
	p2.Sim.Tick(p2.DUT().MustSignal("clk").Home(), 2)
	if v := p2.DUT().MustSignal("q").Get(); v != 6 {
		t.Errorf("STEP=3: q = %d", v)
	}
}

func TestOptions(t *testing.T) {
	src := "module m(input logic clk, output logic q); always_ff @(posedge clk) q <= ~q; endmodule"
	p, err := compile.NewBuilder().Source("m.sv", src).Lanes(4).Partition(compile.PartitionAlways).Build()
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	// One flop is one lane's work: the program says so and runs sequentially.
	if p.Lanes != 1 || p.RequestedLanes != 4 || len(p.Notes) != 1 || !strings.Contains(p.Notes[0], "no kernel is worth partitioning") {
		t.Errorf("threads %d/%d notes %v", p.Lanes, p.RequestedLanes, p.Notes)
	}
	if p.Plan == nil || p.Plan.Lanes != 4 {
		t.Errorf("threads 4: plan %+v", p.Plan)
	}

	// Two independent counters split across two lanes, and agree with the
	// sequential program after every cycle.
	two := `module m(input logic clk, output logic [15:0] a, output logic [15:0] b);
  always_ff @(posedge clk) a <= a * 16'd3 + 16'd1;
  always_ff @(posedge clk) b <= b * 16'd5 + 16'd7;
endmodule`
	for _, be := range []compile.BackendKind{compile.BackendInterp, compile.BackendNative} {
		pp, err := compile.NewBuilder().Source("m.sv", two).Backend(be).Lanes(2).Partition(compile.PartitionAlways).Build()
		if err != nil {
			t.Fatal(err)
		}
		seq, err := compile.NewBuilder().Source("m.sv", two).Backend(be).Build()
		if err != nil {
			t.Fatal(err)
		}
		if pp.Lanes != 2 || len(pp.Notes) != 0 || pp.Plan == nil || len(pp.Plan.Segments) == 0 {
			t.Errorf("%v: two counters: threads %d notes %v plan %v", be, pp.Lanes, pp.Notes, pp.Plan)
		}
		if err := plancheck.CheckSimulator(pp.Sim); err != nil {
			t.Errorf("%v: plan check: %v", be, err)
		}
		partitioned := false
		for _, k := range pp.Plan.Kernels {
			partitioned = partitioned || k.Partitioned()
		}
		if !partitioned {
			t.Errorf("%v: two counters: no kernel partitioned:\n%s", be, pp.Plan)
		}
		for cyc := 1; cyc <= 20; cyc++ {
			for _, q := range []*compile.Program{pp, seq} {
				if _, err := q.Sim.Tick(q.DUT().MustSignal("clk").Home(), 1); err != nil {
					t.Fatal(err)
				}
			}
			for _, sig := range []string{"a", "b"} {
				if got, want := pp.DUT().MustSignal(sig).Get(), seq.DUT().MustSignal(sig).Get(); got != want {
					t.Fatalf("%v: cycle %d: %s = %#x partitioned, %#x sequential", be, cyc, sig, got, want)
				}
			}
		}
		pp.Close()
		seq.Close()
	}
	p3, err := compile.NewBuilder().Source("m.sv", src).Lanes(4).Partition(compile.PartitionNever).Build()
	if err != nil {
		t.Fatal(err)
	}
	defer p3.Close()
	if len(p3.Notes) != 0 {
		t.Errorf("partition=never notes %v", p3.Notes)
	}

	for name, b := range map[string]*compile.Builder{
		"Lanes(0)":           compile.NewBuilder().Source("m.sv", src).Lanes(0),
		"Partition: unknown": compile.NewBuilder().Source("m.sv", src).Partition(7),
		"Backend: unknown":   compile.NewBuilder().Source("m.sv", src).Backend(9),
		"Define: empty":      compile.NewBuilder().Source("m.sv", src).Define("", "1"),
		"RingCap(-1)":        compile.NewBuilder().Source("m.sv", src).RingCap(-1),
		"no source files":    compile.NewBuilder(),
	} {
		if _, err := b.Build(); err == nil || !strings.Contains(err.Error(), name) {
			t.Errorf("%s: %v", name, err)
		}
	}
	if np, err := compile.NewBuilder().Source("m.sv", src).Backend(compile.BackendNative).Build(); err != nil {
		t.Errorf("native: %v", err)
	} else {
		np.Close()
	}
	if m, err := compile.ParsePartition("never"); err != nil || m != compile.PartitionNever || m.String() != "never" {
		t.Errorf("ParsePartition: %v %v", m, err)
	}
	if _, err := compile.ParsePartition("sometimes"); err == nil {
		t.Error("ParsePartition accepted sometimes")
	}
	if k, err := compile.ParseBackend("native"); err != nil || k != compile.BackendNative || k.String() != "native" {
		t.Errorf("ParseBackend: %v %v", k, err)
	}
}

func TestDiagnostics(t *testing.T) {
	_, err := compile.NewBuilder().Source("bad.sv", "module m(input logic a, output logic y);\n  assign y = b;\nendmodule\n").Build()
	var list *hdl.ErrorList
	if !errors.As(err, &list) {
		t.Fatalf("err = %v (%T), want *hdl.ErrorList", err, err)
	}
	msg := err.Error()
	if !strings.Contains(msg, "bad.sv:2:") || !strings.Contains(msg, "^") {
		t.Errorf("diagnostic lacks position or caret:\n%s", msg)
	}
	_, err = compile.NewBuilder().Files("/nonexistent/x.sv").Build()
	if err == nil || !strings.Contains(err.Error(), "x.sv") {
		t.Errorf("missing file: %v", err)
	}
}
