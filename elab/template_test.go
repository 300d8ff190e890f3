package elab

import (
	"fmt"
	"math/big"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/weft-hdl/weft/design"
	"github.com/weft-hdl/weft/hdl"
	"github.com/weft-hdl/weft/internal/gendesign"
)

// dumpAll writes every exported field reachable from v: pointers are
// numbered where first met and named by number after, so two dumps are
// equal only when the values and the sharing are.
func dumpAll(v any) string {
	var b strings.Builder
	ids := map[uintptr]int{}
	var walk func(v reflect.Value, depth int)
	walk = func(v reflect.Value, depth int) {
		switch v.Kind() {
		case reflect.Pointer:
			if v.IsNil() {
				b.WriteString("nil")
				return
			}
			if bi, ok := v.Interface().(*big.Int); ok {
				b.WriteString(bi.Text(16)) // linear, unlike decimal
				return
			}
			if id, ok := ids[v.Pointer()]; ok {
				fmt.Fprintf(&b, "@%d", id)
				return
			}
			id := len(ids)
			ids[v.Pointer()] = id
			fmt.Fprintf(&b, "#%d", id)
			walk(v.Elem(), depth+1)
		case reflect.Interface:
			if v.IsNil() {
				b.WriteString("nil")
				return
			}
			fmt.Fprintf(&b, "%s:", v.Elem().Type())
			walk(v.Elem(), depth)
		case reflect.Struct:
			b.WriteString("{")
			t := v.Type()
			for i := 0; i < v.NumField(); i++ {
				if !t.Field(i).IsExported() {
					continue
				}
				fmt.Fprintf(&b, "%s:", t.Field(i).Name)
				walk(v.Field(i), depth)
				b.WriteString(" ")
			}
			b.WriteString("}")
		case reflect.Slice, reflect.Array:
			if v.Kind() == reflect.Slice && v.IsNil() {
				b.WriteString("nil")
				return
			}
			b.WriteString("[")
			for i := 0; i < v.Len(); i++ {
				walk(v.Index(i), depth)
				b.WriteString(",")
			}
			b.WriteString("]")
		case reflect.Map:
			if v.IsNil() {
				b.WriteString("nil")
				return
			}
			keys := v.MapKeys()
			sort.Slice(keys, func(i, j int) bool { return fmt.Sprint(keys[i]) < fmt.Sprint(keys[j]) })
			b.WriteString("map[")
			for _, k := range keys {
				fmt.Fprintf(&b, "%v=", k)
				walk(v.MapIndex(k), depth)
				b.WriteString(",")
			}
			b.WriteString("]")
		case reflect.Func, reflect.Chan:
		default:
			fmt.Fprintf(&b, "%v", v)
		}
	}
	walk(reflect.ValueOf(v), 0)
	return b.String()
}

// elabBothWays elaborates st with and without templates and fails when the
// designs or the diagnostics differ in anything. It returns the design and
// diagnostics of opts.
func elabBothWays(t *testing.T, st *hdl.SourceText, fs *hdl.FileSet, opts Options) (*design.Design, *hdl.Diagnostics) {
	d, dg, _ := elabCountingBothWays(t, st, fs, opts)
	return d, dg
}

// elabCountingBothWays is elabBothWays, also returning how many instances
// were copies.
func elabCountingBothWays(t *testing.T, st *hdl.SourceText, fs *hdl.FileSet, opts Options) (*design.Design, *hdl.Diagnostics, int) {
	t.Helper()
	each := opts
	each.EachInstance = true
	d1, dg1, _ := elaborateCounting(st, fs, each)
	d2, dg2, copies := elaborateCounting(st, fs, opts)
	if m1, m2 := diagText(dg1), diagText(dg2); m1 != m2 {
		t.Fatalf("diagnostics differ:\neach instance:\n%s\nwith templates:\n%s", m1, m2)
	}
	if (d1 == nil) != (d2 == nil) {
		t.Fatalf("one elaboration failed: each instance %v, with templates %v", d1 != nil, d2 != nil)
	}
	if d1 == nil {
		return nil, dg2, copies
	}
	a, b := dumpAll(d1), dumpAll(d2)
	if a != b {
		i := 0
		for i < len(a) && i < len(b) && a[i] == b[i] {
			i++
		}
		lo := max(0, i-300)
		t.Fatalf("designs differ at byte %d:\neach instance:  ...%s\nwith templates: ...%s", i, a[lo:min(len(a), i+300)], b[lo:min(len(b), i+300)])
	}
	return d2, dg2, copies
}

func elaborateCounting(st *hdl.SourceText, fs *hdl.FileSet, opts Options) (*design.Design, *hdl.Diagnostics, int) {
	diags := hdl.NewDiagnostics(fs)
	d, e := elaborate(st, fs, opts, diags)
	return d, diags, e.copies
}

func diagText(dg *hdl.Diagnostics) string {
	var b strings.Builder
	for _, d := range dg.List {
		b.WriteString(d.Error())
		b.WriteString("\n")
	}
	return b.String()
}

func parseOrFail(t *testing.T, src string) (*hdl.SourceText, *hdl.FileSet) {
	t.Helper()
	st, fs, err := hdl.ParseString("t.sv", src)
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	return st, fs
}

// TestTemplatesSameDesign elaborates designs with repeated instances both
// ways: the copies must be exactly what elaborating each instance gives.
func TestTemplatesSameDesign(t *testing.T) {
	cases := []struct {
		name   string
		src    string
		copies int // at least
	}{
		{"chain", gendesign.Chain(2000), 14},
		{"nested and arrays", `
module leaf #(parameter W = 4) (input logic clk, input logic [W-1:0] d, output logic [W-1:0] q);
  logic [W-1:0] r;
  always_ff @(posedge clk) r <= d + 1'b1;
  assign q = r;
  initial $display("leaf %m W=%0d", W);
endmodule
module mid #(parameter W = 4) (input logic clk, input logic [W-1:0] d, output logic [W-1:0] q);
  logic [W-1:0] t [2];
  leaf #(.W(W)) a (.clk, .d(d), .q(t[0]));
  leaf #(.W(W)) b (.clk, .d(t[0]), .q(t[1]));
  for (genvar i = 0; i < 2; i++) begin : g
    logic [W-1:0] x;
    always_comb x = t[i] ^ W'(i);
  end
  assign q = g[1].x;
endmodule
module top (input logic clk, input logic [7:0] din, output logic [7:0] o1, o2, o3, output logic [3:0] o4);
  logic [7:0] m1, m2;
  mid #(.W(8)) u1 (.clk, .d(din), .q(m1));
  mid #(.W(8)) u2 (.clk, .d(m1), .q(m2));
  mid #(8) u3 (.clk, .d(m2), .q(o3));
  mid u4 (.clk, .d(din[3:0]), .q(o4));
  leaf #(.W(8)) arr [3:0] (.clk, .d(din), .q());
  assign o1 = m1;
  assign o2 = u2.g[0].x;
  initial u3.t[1] = 8'h5a;
endmodule
`, 7}, // u2.b, u3.a, u3.b, arr[3:0] (u2 and u3 collapse d into a variable, u1 into an input)
		{"clock order swapped", `
module two (input logic a, input logic b, output logic [1:0] q);
  always_ff @(posedge a or posedge b) q <= q + 1'b1;
endmodule
module top (input logic c1, input logic c2, output logic [1:0] x, y);
  two u (.a(c1), .b(c2), .q(x));
  two v (.a(c2), .b(c1), .q(y));
endmodule
`, 1},
		{"same signal on two ports", `
module two (input logic a, input logic b, output logic q);
  assign q = a & b;
endmodule
module top (input logic c1, input logic c2, output logic x, y, z);
  two u (.a(c1), .b(c2), .q(x));
  two v (.a(c1), .b(c1), .q(y));
  two w (.a(c2), .b(c1), .q(z));
endmodule
`, 1},
		{"override values and types differ", `
module p #(parameter W = 8, parameter logic [3:0] K = 4'd3) (output logic [31:0] q);
  assign q = 32'(W) + 32'(K);
endmodule
module top (output logic [31:0] a, b, c, d, e, f, g);
  p #(.W(8)) u1 (.q(a));
  p #(.W(8), .K(4'd3)) u6 (.q(f));
  p #(.W(8)) u7 (.q(g));
  p #(.W(8'd8)) u2 (.q(b));
  p #(.W(9)) u3 (.q(c));
  p #(.W(8), .K(4'd3)) u4 (.q(d));
  p #(.W(8), .K('1)) u5 (.q(e));
endmodule
`, 2}, // u7 of u1, u4 of u6
		{"warnings each time", `
module w (input logic [7:0] d, output logic [3:0] q);
  assign q = d;
endmodule
module top (input logic [7:0] d, output logic [3:0] a, b);
  w u (.d, .q(a));
  w v (.d, .q(b));
endmodule
`, 0},
		{"functions and tasks", `
package pk;
  function automatic logic [7:0] inc(input logic [7:0] x); return x + 1; endfunction
endpackage
module f (input logic clk, input logic [7:0] d, output logic [7:0] q, output logic [7:0] r);
  function automatic logic [7:0] dbl(input logic [7:0] x); return x << 1; endfunction
  always_ff @(posedge clk) q <= pk::inc(d);
  assign r = dbl(d);
endmodule
module g (input logic clk, input logic [7:0] d, output logic [7:0] q);
  always_ff @(posedge clk) q <= pk::inc(d);
endmodule
module top (input logic clk, input logic [7:0] d, output logic [7:0] a, b, c, e, f1, f2);
  f u (.clk, .d, .q(a), .r(f1));
  f v (.clk, .d, .q(b), .r(f2));
  g x (.clk, .d, .q(c));
  g y (.clk, .d, .q(e));
endmodule
`, 1},
		{"initial value through a port", `
module iv (input logic clk, output logic [7:0] q, output logic [7:0] r);
  initial q = 8'h5;
  initial r = 8'h7;
  always_ff @(posedge clk) begin q <= q + 1'b1; r <= r + 1'b1; end
endmodule
module top (input logic clk, output logic [7:0] a, b, c, d);
  logic [7:0] w1, w2, w3, w4;
  iv u (.clk, .q(w1), .r(w2));
  iv v (.clk, .q(w3), .r(w4));
  assign a = w1; assign b = w2; assign c = w3; assign d = w4;
endmodule
`, 0},
		{"memories and initial", `
module mem (input logic clk, input logic we, input logic [3:0] a, input logic [7:0] d, output logic [7:0] q);
  logic [7:0] m [16];
  initial for (int i = 0; i < 16; i++) m[i] = 8'(i * 3);
  always_ff @(posedge clk) begin
    if (we) m[a] <= d;
    q <= m[a];
  end
endmodule
module top (input logic clk, input logic we, input logic [3:0] a, input logic [7:0] d, output logic [7:0] q0, q1);
  mem u0 (.clk, .we, .a, .d, .q(q0));
  mem u1 (.clk, .we, .a, .d, .q(q1));
  initial u1.m[2] = 8'hee;
endmodule
`, 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			st, fs := parseOrFail(t, c.src)
			_, _, copies := elabCountingBothWays(t, st, fs, Options{Top: "top"})
			if copies < c.copies {
				t.Errorf("%d instances were copies, want at least %d", copies, c.copies)
			}
		})
	}
}

// TestTemplatesCorpus elaborates every design of the repository both ways.
func TestTemplatesCorpus(t *testing.T) {
	var sets [][]string
	for _, dir := range []string{"../sim/testdata/corpus", "../cmd/weft/testdata/bad", "../bench/testdata",
		"../bench/axil/testdata", "../bench/axi/testdata", "../bench/stream/testdata", "../bench/uart/testdata",
		"../bench/axis/testdata", "../bench/scoreboard/testdata", "../perf/peers", "../hdl/testdata/designs"} {
		files, _ := filepath.Glob(filepath.Join(dir, "*.sv"))
		for _, f := range files {
			sets = append(sets, []string{f})
		}
	}
	for _, dir := range []string{"../examples/uart/rtl", "../examples/cores/rtl", "../examples/soc/rtl"} {
		files, _ := filepath.Glob(filepath.Join(dir, "*.sv"))
		vs, _ := filepath.Glob(filepath.Join(dir, "*.v"))
		sets = append(sets, append(files, vs...))
	}
	if len(sets) < 50 {
		t.Fatalf("found %d designs; the corpus moved?", len(sets))
	}
	total := 0
	for _, set := range sets {
		t.Run(strings.TrimPrefix(set[0], "../"), func(t *testing.T) {
			fs := hdl.NewFileSet()
			var inputs []hdl.Input
			for _, f := range set {
				src, err := os.ReadFile(f)
				if err != nil {
					t.Fatal(err)
				}
				inputs = append(inputs, hdl.Input{Name: f, Src: src})
			}
			diags := hdl.NewDiagnostics(fs)
			st := hdl.Load(fs, inputs, hdl.PreprocessOptions{IncludeDirs: []string{filepath.Dir(set[0])}}, diags)
			if diags.ErrorCount() > 0 {
				t.Skipf("does not parse: %v", diags.Err())
			}
			// Small generate bound: endless_generate.sv trips it soon.
			_, _, copies := elabCountingBothWays(t, st, fs, Options{Limits: Limits{GenerateIterations: 1 << 14}})
			total += copies
		})
	}
	t.Logf("%d designs, %d instances copied", len(sets), total)
}
