package elab

import (
	"testing"

	"github.com/weft-hdl/weft/design"
)

func param(t *testing.T, d *design.Design, inst, name string) design.ParamValue {
	t.Helper()
	in, ok := d.Instance(inst)
	if !ok {
		t.Fatalf("no instance %q", inst)
	}
	p, ok := in.Param(name)
	if !ok {
		t.Fatalf("instance %s has no parameter %s (has %v)", inst, name, in.Params)
	}
	return p
}

func TestParameters(t *testing.T) {
	tests := []struct {
		name, src   string
		opts        Options
		inst, param string
		want        string // "value (type)"
	}{
		{"untyped int", "module top; localparam P = 3 - 5; endmodule", Options{}, "", "P", "-2 (s32)"},
		{"typed conversion truncates", "module top; localparam logic [3:0] P = 5'h1F; endmodule", Options{}, "", "P", "15 (u4)"},
		{"range without type", "module top; parameter [7:0] P = -1; endmodule", Options{}, "", "P", "255 (u8)"},
		{"signed without range", "module top; parameter signed P = 4'hF; endmodule", Options{}, "", "P", "-1 (s4)"},
		{"sized signed literal", "module top; localparam P = 8'sd200; endmodule", Options{}, "", "P", "-56 (s8)"},
		{"arithmetic shift", "module top; localparam int P = -3 >>> 1; endmodule", Options{}, "", "P", "-2 (s32)"},
		{"unsized based is unsigned", "module top; localparam P = 'hFF + 1; endmodule", Options{}, "", "P", "256 (u32)"},
		{"localparam depends on param", "module top #(parameter W = 8) (); localparam M = W * 2 - 1; endmodule", Options{}, "", "M", "15 (s32)"},
		{"$clog2", "module top; localparam A = $clog2(5), B = $clog2(1), C = $clog2(1024); localparam X = A*100 + B*10 + C; endmodule", Options{}, "", "X", "310 (s32)"},
		{"$bits of a type", "module top; typedef logic [3:0][7:0] w_t; localparam B = $bits(w_t); endmodule", Options{}, "", "B", "32 (s32)"},
		{"$bits of a struct", "module top; typedef struct packed { logic [2:0] a; logic b; } s_t; localparam B = $bits(s_t); endmodule", Options{}, "", "B", "4 (s32)"},
		{"$size/$left/$high of a signal", "module top; logic [3:10] v; localparam A = $size(v)*1000 + $left(v)*100 + $high(v); endmodule", Options{}, "", "A", "8310 (s32)"},
		{"big widths", "module top; localparam logic [127:0] B = (128'd1 << 100) + 5; localparam logic [127:0] C = B >> 99; endmodule", Options{}, "", "C", "2 (u128)"},
		{"constant function with a loop", `module top;
  function automatic int log2c(input int v); int r; r = 0; while ((1 << r) < v) r++; return r; endfunction
  localparam P = log2c(33);
endmodule`, Options{}, "", "P", "6 (s32)"},
		{"recursive constant function", `module top;
  function automatic int fact(input int n); if (n <= 1) return 1; return n * fact(n - 1); endfunction
  localparam P = fact(6);
endmodule`, Options{}, "", "P", "720 (s32)"},
		{"constant function using a param", `module top #(parameter K = 3) ();
  function automatic int f(input int v); return v * K; endfunction
  localparam P = f(7);
endmodule`, Options{}, "", "P", "21 (s32)"},
		{"enum values", `module top; typedef enum logic [2:0] { A, B = 5, C } e_t; localparam P = C; endmodule`, Options{}, "", "P", "6 (u3)"},
		{"string value", `module top; localparam S = "ab"; endmodule`, Options{}, "", "S", "24930 (u16)"},
		{"string-typed parameter", `module top; localparam string S = "ab"; endmodule`, Options{}, "", "S", "24930 (u16)"},
		{"-G string into a string parameter", `module top #(parameter string S = "x") (); endmodule`, Options{Params: map[string]string{"S": `"ab"`}}, "", "S", "24930 (u16)"},
		{"ternary in a param", "module top #(parameter W = 3) (); localparam P = (W > 2) ? 10 : 20; endmodule", Options{}, "", "P", "10 (s32)"},
		{"-G decimal", "module top #(parameter W = 3) (); endmodule", Options{Params: map[string]string{"W": "17"}}, "", "W", "17 (s32)"},
		{"-G based", "module top #(parameter W = 3) (); endmodule", Options{Params: map[string]string{"W": "'h10"}}, "", "W", "16 (u32)"},
		{"-G sized into a typed param", "module top #(parameter logic [7:0] W = 3) (); endmodule", Options{Params: map[string]string{"W": "32'd300"}}, "", "W", "44 (u8)"},
		{"-G negative", "module top #(parameter int W = 3) (); endmodule", Options{Params: map[string]string{"W": "-4"}}, "", "W", "-4 (s32)"},
		{"override by name", `module sub #(parameter A = 1, parameter B = 2) (); localparam S = A + B; endmodule
module top; sub #(.B(40)) u (); endmodule`, Options{}, "u", "S", "41 (s32)"},
		{"override by position", `module sub #(parameter A = 1, parameter B = 2) (); localparam S = A * B; endmodule
module top; sub #(5, 6) u (); endmodule`, Options{}, "u", "S", "30 (s32)"},
		{"override from a parent param", `module sub #(parameter A = 1) (); endmodule
module top #(parameter N = 4) (); sub #(.A(N*N)) u (); endmodule`, Options{}, "u", "A", "16 (s32)"},
		{"body parameter without header is overridable", `module sub; parameter A = 1; endmodule
module top; sub #(.A(9)) u (); endmodule`, Options{}, "u", "A", "9 (s32)"},
		{"package parameter", `package p; localparam int W = 12; localparam int W2 = W / 4; endpackage
module top; import p::*; localparam Q = W2 + p::W; endmodule`, Options{}, "", "Q", "15 (s32)"},
		{"generate loop variable", `module sub #(parameter I = 0) (); endmodule
module top; for (genvar i = 0; i < 4; i++) begin : g sub #(.I(i * 3)) u (); end endmodule`, Options{}, "g[3].u", "I", "9 (s32)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d, diags := elabString(t, tc.src, tc.opts)
			if d == nil {
				for _, dg := range diags.List {
					t.Log(dg.Error())
				}
				t.Fatal("elaboration failed")
			}
			if got := param(t, d, tc.inst, tc.param).String(); got != tc.want {
				t.Errorf("got %s, want %s", got, tc.want)
			}
		})
	}
}

func TestTypeParameter(t *testing.T) {
	d := mustElab(t, `module sub #(parameter type T = logic [7:0]) (input T x, output T y); assign y = x; endmodule
module top(input logic [15:0] a, output logic [15:0] b); sub #(.T(logic [15:0])) u (.x(a), .y(b)); endmodule`)
	if h := home(t, d, "u.x"); h.Width != 16 {
		t.Errorf("u.x is %d bits, want 16", h.Width)
	}
	if p := param(t, d, "u", "T"); p.TypeParam != "logic [15:0]" {
		t.Errorf("T = %q", p.TypeParam)
	}
}

// A parameter declared as an unpacked array (`localparam logic [7:0] T [3]
// = '{...}`, common for lookup tables) keeps its elements in order: T[0] is
// the first pattern value, and the element type (here signed) is kept.
func TestUnpackedArrayParameter(t *testing.T) {
	d := mustElab(t, `module top(input logic [1:0] i, output logic [7:0] a, output logic [7:0] b, output logic n,
    output logic [3:0] c);
  localparam logic [7:0] T [3] = '{8'h11, 8'h22, 8'h33};
  localparam int S [0:1] = '{-5, 7};
  localparam logic [3:0] M [2][2] = '{'{4'd1, 4'd2}, '{4'd3, 4'd4}};
  localparam logic [7:0] D [4] = '{default: 8'hA5};
  assign a = T[0] ^ T[2] ^ D[3];
  assign b = T[i];
  assign n = S[0] < 0;
  assign c = M[1][0];
endmodule`)
	if got := rhsOf(t, d, "top.a"); got != "8'd135" { // 0x11 ^ 0x33 ^ 0xA5
		t.Errorf("a = %s", got)
	}
	if got := rhsOf(t, d, "top.n"); got != "1'd1" {
		t.Errorf("n = %s (S[0] must stay signed)", got)
	}
	if got := rhsOf(t, d, "top.c"); got != "4'd3" {
		t.Errorf("c = %s", got)
	}
	if got := rhsOf(t, d, "top.b"); got == "" {
		t.Errorf("b has no assignment")
	}
}

// `parameter string Impl = "generic"` selecting a generate branch, passed
// down through an instance and computed by a ternary, as technology-
// selecting wrappers do.
func TestStringParameterSelectsGenerate(t *testing.T) {
	d := mustElab(t, `module sub #(parameter string Impl = "generic") (output logic [7:0] y);
  if (Impl == "fpga") begin : g_f assign y = 8'd1; end
  else if (Impl == "generic") begin : g_g assign y = 8'd2; end
  else begin : g_x assign y = 8'd3; end
endmodule
module top #(parameter string Impl = "fpga") (output logic [7:0] a, output logic [7:0] b, output logic [7:0] c);
  sub #(.Impl(Impl)) u1 (.y(a));
  sub u2 (.y(b));
  sub #(.Impl(Impl == "fpga" ? "asic" : "generic")) u3 (.y(c));
endmodule`)
	for name, want := range map[string]string{"top.a": "8'd1", "top.b": "8'd2", "top.c": "8'd3"} {
		if got := rhsOf(t, d, name); got != want {
			t.Errorf("%s = %s, want %s", name, got, want)
		}
	}
}
