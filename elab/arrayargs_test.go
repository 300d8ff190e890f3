package elab

import "testing"

// Constant values of $countbits, the array query functions, size casts
// whose size is an expression and unpacked array arguments of constant
// functions (issue 16).
func TestBroadenConstants(t *testing.T) {
	tests := []struct {
		name, src string
		want      string // "value (type)" of parameter P
	}{
		{"$countbits ones", "module top; localparam P = $countbits(8'hf1, '1); endmodule", "5 (s32)"},
		{"$countbits zeros", "module top; localparam P = $countbits(8'hf1, 1'b0); endmodule", "3 (s32)"},
		{"$countbits both and repeated", "module top; localparam P = $countbits(12'h0f1, '0, '1, 1'b1); endmodule", "12 (s32)"},
		{"$countbits x and z controls count nothing in 2-state values", "module top; localparam P = $countbits(8'hf1, 'x, 1'bz); endmodule", "0 (s32)"},
		{"$countbits x control with another", "module top; localparam P = $countbits(8'hf1, 'x, '1); endmodule", "5 (s32)"},
		{"$countbits of an expression is self-determined", "module top; localparam P = $countbits(4'd15 + 4'd1, '0); endmodule", "4 (s32)"},
		{"$countbits control is the lsb", "module top; localparam P = $countbits(8'hf1, 2'b10); endmodule", "3 (s32)"},
		{"$dimensions of a scalar", "module top; logic s; localparam P = $dimensions(s) * 10 + $unpacked_dimensions(s); endmodule", "0 (s32)"},
		{"$dimensions of a bit select and a comparison", "module top; logic [7:0] v; localparam P = $dimensions(v[2]) * 10 + $dimensions(v == 8'd1); endmodule", "0 (s32)"},
		{"$dimensions of int and a struct", "module top; typedef struct packed { logic a, b; } s_t; localparam P = $dimensions(int) * 10 + $dimensions(s_t); endmodule", "11 (s32)"},
		{"$dimensions of an array", "module top; logic [1:0][3:0] m [5][6]; localparam P = $dimensions(m) * 10 + $unpacked_dimensions(m); endmodule", "42 (s32)"},
		{"$unpacked_dimensions of a row", "module top; logic [3:0] m [5][6][7]; localparam P = $unpacked_dimensions(m[1]) * 10 + $dimensions(m[1][2]); endmodule", "22 (s32)"},
		{"array query of a parameter array", "module top; localparam logic [3:0] Q [2][5:4] = '{'{1, 2}, '{3, 4}}; localparam P = $dimensions(Q) * 1000 + $unpacked_dimensions(Q) * 100 + $left(Q, 2) * 10 + $left(Q[1], 2); endmodule", "3253 (s32)"},
		{"$left with a dimension", "module top; logic [7:4] m [2:5][1:0]; localparam P = $left(m, 1) * 100 + $right(m, 2) * 10 + $low(m, 3); endmodule", "204 (s32)"},
		{"$bits as a cast size", "module top; logic [7:0] v; localparam P = $bits(v)'(4'sb1101); endmodule", "-3 (s8)"},
		{"expression as a cast size", "module top; localparam W = 3; localparam P = (W + 2)'(4'b1101); endmodule", "13 (u5)"},
		{"parameter as a cast size", "module top #(parameter W = 2) (); localparam P = W'(4'sb0111); endmodule", "-1 (s2)"},
		{"function call as a cast size", "module top; function automatic int f(int x); return x + 1; endfunction localparam P = f(5)'(-1); endmodule", "-1 (s6)"},
		{"constant function of a parameter array", `module top;
  function automatic int sum(input int a [3]);
    return a[0] * 100 + a[1] * 10 + a[2];
  endfunction
  localparam int A [1:3] = '{1, 2, 3};
  localparam int P = sum(A);
endmodule`, "123 (s32)"},
		{"constant function of a pattern with a default", `module top;
  function automatic int sum(input int a [3]);
    return a[0] * 100 + a[1] * 10 + a[2];
  endfunction
  localparam int P = sum('{1: 5, default: 7});
endmodule`, "757 (s32)"},
		{"constant function of a row of a parameter array", `module top;
  function automatic int sum(input int a [0:2]);
    return a[0] * 100 + a[1] * 10 + a[2];
  endfunction
  localparam int A [2][3] = '{'{1, 2, 3}, '{4, 5, 6}};
  localparam int P = sum(A[1]);
endmodule`, "456 (s32)"},
		{"array argument across opposite ranges", `module top;
  function automatic int lr(input int a [0:2]);
    return a[0] * 100 + a[1] * 10 + a[2];
  endfunction
  function automatic int rl(input int a [2:0]);
    return lr(a);
  endfunction
  localparam int P = rl('{1, 2, 3});
endmodule`, "123 (s32)"},
		{"output array argument of a task in a constant function", `module top;
  task automatic fill(input int k, output int o [3:1]);
    for (int i = 1; i <= 3; i++) o[i] = k * i;
  endtask
  function automatic int f(input int k);
    int b [3];
    fill(k, b);
    return b[0] * 100 + b[1] * 10 + b[2];
  endfunction
  localparam int P = f(2);
endmodule`, "642 (s32)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d := mustElab(t, tc.src)
			if got := param(t, d, "", "P").String(); got != tc.want {
				t.Errorf("P = %s, want %s", got, tc.want)
			}
		})
	}
}

// Each construct that weft cannot simulate exactly, or that is wrong, is a
// named error at its position.
func TestBroadenErrors(t *testing.T) {
	tests := []struct{ name, src, want string }{
		{"$countbits without control bits", `module top;
  logic [3:0] v;
  initial $display($countbits(v));
endmodule`, "t.sv:3:20: error: $countbits takes an expression and at least one control bit, got 1 argument(s)"},
		{"array query of a scalar", `module top;
  logic s;
  initial $display($left(s));
endmodule`, "t.sv:3:20: error: $left: dimension 1 does not exist (the value has 0)"},
		{"non-constant dimension in a constant", `module top;
  logic [3:0] m [2];
  int d;
  localparam P = $size(m, d);
endmodule`, "t.sv:4:27: error: 'd' is not a constant; value of localparam 'P' must be a constant expression"},
		{"$unpacked_dimensions with two arguments", `module top;
  logic [3:0] m [2];
  initial $display($unpacked_dimensions(m, 1));
endmodule`, "t.sv:3:20: error: $unpacked_dimensions takes 1 argument(s), got 2"},
		{"non-constant cast size", `module top;
  logic [3:0] v;
  int n;
  initial $display(n'(v));
endmodule`, "t.sv:4:20: error: cast width must be a constant expression"},
		{"array argument of another size", `module top;
  function automatic int f(input int a [4]); return a[0]; endfunction
  int m [3];
  initial $display(f(m));
endmodule`, "t.sv:4:22: error: argument 'a' of 'f' is an unpacked array [4] of 32-bit elements; the array passed is [3] of 32-bit elements"},
		{"array argument of another shape", `module top;
  function automatic int f(input int a [2][2]); return a[0][0]; endfunction
  int m [4];
  initial $display(f(m));
endmodule`, "t.sv:4:22: error: argument 'a' of 'f' is an unpacked array [2][2] of 32-bit elements; the array passed is [4] of 32-bit elements"},
		{"scalar passed as an array", `module top;
  function automatic int f(input int a [4]); return a[0]; endfunction
  int m;
  initial $display(f(m));
endmodule`, "t.sv:4:22: error: argument 'a' of 'f' is an unpacked array [4]; pass an array of that shape or an assignment pattern"},
		{"array passed as a scalar output", `module top;
  task automatic f(output int a); a = 1; endtask
  int m [4];
  initial f(m);
endmodule`, "t.sv:4:13: error: argument 'a' of 'f' is not an unpacked array; pass an element"},
		{"array argument of other element types", `module top;
  function automatic int f(input int a [4]); return a[0]; endfunction
  logic [31:0] m [4];
  initial $display(f(m));
endmodule`, "t.sv:4:22: error: argument 'a' of 'f' has signed 2-state elements and 'm' has unsigned 4-state elements: unpacked arrays need equivalent element types (IEEE 1800 §7.6); convert element by element (a loop) or declare both alike"},
		{"pattern argument missing an element", `module top;
  function automatic int f(input int a [3]); return a[0]; endfunction
  initial $display(f('{0: 1, 2: 3}));
endmodule`, "t.sv:3:22: error: the pattern for argument 'a' of 'f' gives no value for element [1]"},
		{"output array argument in an expression", `module top;
  function automatic int f(output int a [2]); a[0] = 1; return 0; endfunction
  int m [2];
  initial $display(f(m));
endmodule`, "t.sv:4:20: error: output arguments of functions called in expressions are not supported yet; call 'f' as a statement"},
		{"too large an array argument", `module top;
  function automatic int f(input int a [8192]); return a[0]; endfunction
  int m [8192];
  initial $display(f(m));
endmodule`, "t.sv:2:28: error: unpacked array argument 'a' has 8192 elements; array arguments of more than 4096 elements are not supported yet"},
		{"pattern item of another shape", `module top;
  logic [3:0] m [2][2];
  logic [3:0] r [3];
  initial m = '{r, r};
endmodule`, "t.sv:4:17: error: the pattern item is an unpacked array [2] of 4-bit elements; the array passed is [3] of 4-bit elements"},
		{"pattern leaving an element out", `module top;
  logic [3:0] m [2:0][2];
  initial m = '{2: '{4'd1, 4'd2}, 0: '{4'd3, 4'd4}};
endmodule`, "t.sv:3:15: error: the pattern gives no value for element [1][0] of 'm'"},
		{"scalar pattern item for a row", `module top;
  logic [3:0] m [2][2];
  initial m = '{4'd1, 4'd2};
endmodule`, "t.sv:3:17: error: expected a nested assignment pattern or an unpacked array [2] for a multi-dimensional array"},
		{"pattern default of too many dimensions", `module top;
  logic [3:0] m [2][2];
  logic [3:0] r [2][2];
  initial m = '{default: r};
endmodule`, "t.sv:4:26: error: the default of the pattern is an unpacked array of 2 dimensions; the elements of [2][2] have fewer"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { expectError(t, tc.src, Options{}, tc.want) })
	}
}
