package elab

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/weft-hdl/weft/hdl"
)

// Every module of the front end's test sources elaborates as the top
// without an internal error (errors about unsupported constructs are fine).
func TestFrontEndSourcesNeverCrash(t *testing.T) {
	files, _ := filepath.Glob("../hdl/testdata/*/*.sv")
	vfiles, _ := filepath.Glob("../hdl/testdata/*/*.v")
	files = append(files, vfiles...)
	if len(files) == 0 {
		t.Skip("no hdl test sources")
	}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		st, fs, _ := hdl.ParseString(filepath.Base(f), string(src))
		for _, m := range st.Modules {
			diags := hdl.NewDiagnostics(fs)
			Elaborate(st, fs, Options{Top: m.Name}, diags)
			for _, dg := range diags.List {
				if strings.Contains(dg.Msg, "internal error") {
					t.Errorf("%s top %s: %s", f, m.Name, dg.Error())
				}
				t.Logf("%s top %s: %s", filepath.Base(f), m.Name, strings.SplitN(dg.Error(), "\n", 2)[0])
			}
		}
	}
}

// Mutations of the example designs (a line dropped, a number changed) must
// elaborate or fail cleanly: no panic, no internal error, no hang.
func TestMutatedDesignsNeverCrash(t *testing.T) {
	files, _ := filepath.Glob("../hdl/testdata/designs/*")
	if len(files) == 0 {
		t.Skip("no example designs")
	}
	nums := []string{"0", "1", "3", "64", "1000000", "-1", "'1", "8'hff"}
	seed := uint32(12345)
	rnd := func(n int) int {
		seed = seed*1664525 + 1013904223
		return int(seed>>8) % n
	}
	count := 0
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(string(src), "\n")
		for i := 0; i < 60; i++ {
			mut := append([]string{}, lines...)
			k := rnd(len(mut))
			if i%2 == 0 {
				mut = append(mut[:k], mut[k+1:]...)
			} else {
				fields := strings.FieldsFunc(mut[k], func(r rune) bool { return r < '0' || r > '9' })
				if len(fields) == 0 {
					continue
				}
				mut[k] = strings.Replace(mut[k], fields[0], nums[rnd(len(nums))], 1)
			}
			st, fs, err := hdl.ParseString("m.sv", strings.Join(mut, "\n"))
			if err != nil {
				continue
			}
			count++
			diags := hdl.NewDiagnostics(fs)
			Elaborate(st, fs, Options{}, diags)
			for _, dg := range diags.List {
				if strings.Contains(dg.Msg, "internal error") {
					t.Errorf("%s mutation %d (line %d): %s", filepath.Base(f), i, k+1, dg.Error())
				}
			}
		}
	}
	t.Logf("%d mutations elaborated", count)
}

// An internal failure becomes an "internal error" diagnostic, not a crash.
func TestInternalErrorIsReported(t *testing.T) {
	st := &hdl.SourceText{Modules: []*hdl.Module{
		{Name: "sub"},
		{Name: "top", Items: []hdl.Item{&hdl.Instance{Module: "sub", Insts: []*hdl.InstanceName{nil}}}},
	}}
	diags := hdl.NewDiagnostics(nil)
	if d := Elaborate(st, nil, Options{Top: "top"}, diags); d != nil {
		t.Fatal("a design came back from a broken tree")
	}
	if diags.ErrorCount() != 1 || !strings.Contains(diags.List[0].Msg, "internal error in elaboration") {
		t.Errorf("diagnostics: %v", diags.Err())
	}
}

// Adversarial inputs fail cleanly and quickly.
func TestAdversarialInputs(t *testing.T) {
	srcs := []string{
		`module top; function automatic int f(input int n); return f(n + 1); endfunction localparam P = f(1); endmodule`,
		`module top; function automatic int f(input int n); while (1) n++; return n; endfunction localparam P = f(1); endmodule`,
		`module top; logic [100000000:0] big; endmodule`,
		`module top(output logic [7:0] y); assign y = {100000000{1'b1}}; endmodule`,
		`module top; localparam P = 2 ** 1000000; localparam Q = 1 << 100000000; endmodule`,
		`module top(output logic [3:0] a); assign a[5:2] = 0; endmodule`,
		`module top(output logic y); assign y = $bits(); endmodule`,
		`module top(input logic [3:0] x, output int y); assign y = int'(x) + $clog2(x); endmodule`,
		`module top; typedef struct packed { logic a; } s_t; s_t arr [2]; logic q; assign q = arr[1].a | arr[0].b; endmodule`,
		`module top; typedef t2 t1; typedef t1 t2; t1 x; endmodule`,
		`module top; localparam A = A; endmodule`,
		`module top(output logic [7:0] y); always_comb begin y = 0; for (int i = 0; i < 8; i = i) y++; end endmodule`,
		`module top(output logic [7:0] y); for (genvar i = 0; i < 100000000; i++) begin : g end endmodule`,
		`module top(input logic [7:0] a, output logic [7:0] y); assign y = a[a][a][a]; endmodule`,
		`module top; top u (); endmodule`,
	}
	for i, src := range srcs {
		st, fs, err := hdl.ParseString("a.sv", src)
		if err != nil {
			t.Logf("%d: parse: %v", i, err)
			continue
		}
		diags := hdl.NewDiagnostics(fs)
		d := Elaborate(st, fs, Options{}, diags)
		for _, dg := range diags.List {
			if strings.Contains(dg.Msg, "internal error") {
				t.Errorf("%d: %s", i, dg.Error())
			}
		}
		if d != nil && diags.ErrorCount() == 0 {
			t.Logf("%d: elaborated", i)
		} else if diags.ErrorCount() > 0 {
			t.Logf("%d: %s", i, strings.SplitN(diags.List[0].Error(), "\n", 2)[0])
		}
	}
}
