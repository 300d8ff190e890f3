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
)

const counter = "module c #(parameter int W = 4) (input logic clk, output logic [W-1:0] q);\n" +
	"  always_ff @(posedge clk) q <= q + `STEP;\nendmodule\n"

func TestBuild(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "step.vh"), []byte("`define STEP 2\n"), 0o644)
	f := filepath.Join(dir, "c.sv")
	os.WriteFile(f, []byte("`include \"step.vh\"\n"+counter), 0o644)
	var out bytes.Buffer
	p, err := compile.NewBuilder().Files(f).IncludeDir(dir).Top("c").Param("W", "6").Output(&out).Build()
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
	if !strings.Contains(p.SIR(), "settle") || len(p.Phases) != 4 || p.CompileTime <= 0 {
		t.Errorf("SIR/phases: %v", p.Phases)
	}
	if p.Threads != 1 || len(p.Notes) != 0 {
		t.Errorf("threads %d notes %v", p.Threads, p.Notes)
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
	p, err := compile.NewBuilder().Source("m.sv", src).Threads(4).Partition(compile.PartitionAlways).Build()
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if p.Threads != 1 || p.RequestedThreads != 4 || len(p.Notes) != 1 || !strings.Contains(p.Notes[0], "not built yet") {
		t.Errorf("threads %d/%d notes %v", p.Threads, p.RequestedThreads, p.Notes)
	}
	p3, err := compile.NewBuilder().Source("m.sv", src).Threads(4).Partition(compile.PartitionNever).Build()
	if err != nil {
		t.Fatal(err)
	}
	defer p3.Close()
	if len(p3.Notes) != 0 {
		t.Errorf("partition=never notes %v", p3.Notes)
	}

	for name, b := range map[string]*compile.Builder{
		"Threads(0)":         compile.NewBuilder().Source("m.sv", src).Threads(0),
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
