package elab

import "testing"

// Bad inputs: each must produce the given diagnostic (file:line:col: error:
// message), never a panic, and no design.
func TestErrors(t *testing.T) {
	tests := []struct {
		name string
		src  string
		opts Options
		want string
	}{
		{"unknown identifier with suggestion", `module top(output logic y);
  logic foo;
  assign y = fo;
endmodule`, Options{}, "t.sv:3:14: error: unknown identifier 'fo'; did you mean 'foo'?"},
		{"unknown module", `module top;
  fifo #(8) u_fifo ();
endmodule`, Options{}, "t.sv:2:3: error: unknown module 'fifo' (instantiated as 'u_fifo')"},
		{"recursive instantiation", `module a; b u_b (); endmodule
module b; a u_a (); endmodule
module top; a u (); endmodule`, Options{}, "t.sv:2:13: error: recursive instantiation of module 'a': a -> b -> a"},
		{"unknown port", `module sub(input logic d); endmodule
module top; logic x; sub u (.dd(x)); endmodule`, Options{}, "t.sv:2:29: error: module 'sub' has no port 'dd'; did you mean 'd'?"},
		{"unknown parameter", `module sub #(parameter WIDTH = 1) (); endmodule
module top; sub #(.WIDHT(3)) u (); endmodule`, Options{}, "t.sv:2:19: error: module 'sub' has no parameter 'WIDHT'; did you mean 'WIDTH'?"},
		{"localparam override", `module sub #(parameter A = 1) (); localparam B = 2; endmodule
module top; sub #(.B(3)) u (); endmodule`, Options{}, "t.sv:2:19: error: 'B' is a localparam of module 'sub' and cannot be overridden"},
		{"too many positional connections", `module sub(input logic a); endmodule
module top; logic x, y; sub u (x, y); endmodule`, Options{}, "t.sv:2:35: error: too many port connections for module 'sub' (it has 1 ports)"},
		{"multiple drivers", `module top(input logic a, output logic [3:0] y);
  assign y[2:0] = {3{a}};
  always_comb y[3:2] = 2'b00;
endmodule`, Options{}, "t.sv:3:3: error: 'top.y' is driven by more than one process: top:assign@2 (t.sv:2:3) and top:always_comb@3 (t.sv:3:3)"},
		{"assignment to an input port", `module top(input logic a);
  assign a = 1'b0;
endmodule`, Options{}, "t.sv:2:10: error: cannot assign to input port 'a'"},
		{"non-constant parameter", `module top(input logic [3:0] a);
  localparam P = a + 1;
endmodule`, Options{}, "t.sv:2:18: error: 'a' is not a constant; value of localparam 'P' must be a constant expression"},
		{"non-constant range", `module top(input logic [3:0] n);
  logic [n:0] x;
endmodule`, Options{}, "t.sv:2:10: error: 'n' is not a constant; range bound must be a constant expression"},
		{"non-constant replication", `module top(input logic [3:0] n, output logic [7:0] y);
  assign y = {n{1'b1}};
endmodule`, Options{}, "t.sv:2:15: error: replication count must be a constant expression"},
		{"division by zero in a constant", `module top;
  localparam P = 4 / (2 - 2);
endmodule`, Options{}, "t.sv:2:18: error: division by zero in value of localparam 'P'"},
		{"constant select out of range", `module top(input logic [7:0] a, output logic y);
  assign y = a[9];
endmodule`, Options{}, "t.sv:2:16: error: index 9 is out of range [7:0] of 'a'"},
		{"reversed part select", `module top(input logic [7:0] a, output logic [3:0] y);
  assign y = a[0:3];
endmodule`, Options{}, "t.sv:2:14: error: part-select [0:3] of 'a' is reversed (declared [7:0])"},
		{"inout port", `module top(inout wire io);
endmodule`, Options{}, "t.sv:1:23: error: inout ports are not supported yet (port 'io')"},
		{"always_ff without an edge", `module top(input logic a, output logic y);
  always_ff @(a) y <= a;
endmodule`, Options{}, "t.sv:2:13: error: always_ff needs edge events only, such as @(posedge clk or negedge rst_n)"},
		{"always without event control", `module top(output logic clk);
  always clk = ~clk;
endmodule`, Options{}, "t.sv:2:3: error: always without an event control is not supported (it needs delays; weft simulates RTL, drive clocks from the Go test bench)"},
		{"delay in RTL", `module top(output logic y);
  initial begin #5 y = 1; end
endmodule`, Options{}, "t.sv:2:17: error: delay controls are not supported yet (weft simulates RTL; drive time from the Go test bench)"},
		{"output port connected to an expression", `module sub(output logic q); assign q = 1; endmodule
module top(input logic a); sub u (.q(a & a)); endmodule`, Options{}, "t.sv:2:38: error: port 'q' of 'u' is an output; connect it to a variable or net, not an expression"},
		{"endless for loop", `module top(output logic [7:0] y);
  always_comb begin y = 0; for (int i = 0; i >= 0; i++) y = y + 1; end
endmodule`, Options{}, "t.sv:2:28: error: for loop runs more than 1048576 iterations"},
		{"endless generate loop", `module top;
  for (genvar i = 0; i < 4; i = i) begin : g end
endmodule`, Options{}, "t.sv:2:3: error: generate loop 'g' repeats the value 0; the loop never ends"},
		{"several top candidates", `module a; endmodule
module b; endmodule`, Options{}, "t.sv:2:1: error: several modules could be the top (a, b); choose one with --top"},
		{"unknown top", `module a; endmodule`, Options{Top: "b"}, "t.sv: error: unknown top module 'b' (modules: a)"},
		{"bad -G value", `module top #(parameter P = 1) (); endmodule`, Options{Params: map[string]string{"P": "8'hZZ"}}, "<-G>: error: bad value for parameter 'P': bad digits in \"8'hZZ\""},
		{"-G unknown parameter", `module top #(parameter P = 1) (); endmodule`, Options{Params: map[string]string{"Q": "3"}}, "t.sv:1:1: error: module 'top' has no parameter 'Q'"},
		{"unknown struct member", `module top(output logic y);
  typedef struct packed { logic valid; logic [2:0] data; } s_t;
  s_t s;
  assign y = s.vaild;
endmodule`, Options{}, "t.sv:4:14: error: struct 's' has no member 'vaild'; did you mean 'valid'?"},
		{"parameter depends on itself", `module top;
  localparam A = B + 1;
  localparam B = A;
endmodule`, Options{}, "t.sv:3:18: error: parameter 'A' depends on itself"},
		{"unknown function", `module top(output logic [3:0] y);
  function automatic logic [3:0] inc(input logic [3:0] v); return v + 1; endfunction
  assign y = icn(4'd1);
endmodule`, Options{}, "t.sv:3:14: error: unknown function 'icn'; did you mean 'inc'?"},
		// Code that a constant condition makes dead is not translated, but a
		// name in it must still exist (a misspelling is an error in every
		// configuration).
		{"unknown name in dead ternary arm", `module top #(parameter bit C = 0) (input logic [3:0] a, output logic [3:0] y);
  assign y = C ? a_typo : a;
endmodule`, Options{}, "t.sv:2:18: error: unknown identifier 'a_typo'"},
		{"unknown name after constant false &&", `module top #(parameter bit C = 0) (input logic a, output logic y);
  assign y = (C && enable) | a;
endmodule`, Options{}, "t.sv:2:20: error: unknown identifier 'enable'"},
		{"unknown name in dead if branch", `module top #(parameter bit C = 0) (input logic clk, input logic [3:0] d, output logic [3:0] q);
  always_ff @(posedge clk) begin
    if (C) begin
      logic [3:0] t;
      t = d;
      q <= t ^ dd;
    end else q <= d;
  end
endmodule`, Options{}, "t.sv:6:16: error: unknown identifier 'dd'; did you mean 'd'?"},
		{"unknown function in arm of constant case", `module top #(parameter int M = 1) (input logic [3:0] d, output logic [3:0] q);
  always_comb case (M)
    0: q = swizzle(d);
    default: q = d;
  endcase
endmodule`, Options{}, "t.sv:3:12: error: unknown function 'swizzle'"},
		// Procedural code may only assign variables: an `output q` or
		// `wire w` written in an always block is a declaration mistake.
		{"procedural assignment to an output net", `module top(input logic clk, input logic d, output q);
  always @(posedge clk) q <= d;
endmodule`, Options{}, "t.sv:2:25: error: procedural assignment to output port 'q', which is a net (declared at t.sv:1:51); declare it 'output reg' or 'output logic', or drive it with 'assign'"},
		{"procedural assignment to a wire", `module top(input logic [1:0] d, output logic [1:0] y);
  wire [1:0] w;
  always_comb {w[0], w[1]} = d;
  assign y = w;
endmodule`, Options{}, "t.sv:3:16: error: procedural assignment to net 'w' (declared at t.sv:2:14); declare it as a variable ('reg' or 'logic'), or drive it with 'assign'"},
		{"unpacked array port shape", `module sub(input logic [7:0] m [4]); endmodule
module top; logic [7:0] m3 [3]; sub u (.m(m3)); endmodule`, Options{}, "t.sv:2:43: error: port 'm' of 'u' is an unpacked array of 4 elements of 8 bits; it must be connected to an array of the same shape"},
		// Issue 16: invalid code weft used to accept, and constants that
		// folded x/z to 0 without a word.
		{"x bits in a width", `module top;
  localparam logic [3:0] P = 4'b1x00;
  logic [P:0] v;
endmodule`, Options{}, "t.sv:3:10: error: range bound is 4'b1x00: it has x or z bits, and it must be a known number here"},
		{"z in a replication count", `module top(output logic [7:0] y);
  assign y = {1'bz{2'b01}};
endmodule`, Options{}, "t.sv:2:15: error: replication count is 1'bz: it has x or z bits, and it must be a known number here"},
		{"x in a generate loop bound", `module top;
  for (genvar i = 0; i < 'x; i++) begin : g end
endmodule`, Options{}, "t.sv:2:22: error: generate loop condition is 1'bx: it has x or z bits, and it must be a known number here"},
		{"class", `class Foo;
  int x;
endclass
module top; endmodule`, Options{}, "t.sv:1:1: error: classes are not supported (weft simulates RTL; write the test bench in Go)"},
		{"instance array tie-off width", `module Pass(input logic a, input logic b, output logic y); assign y = a & b; endmodule
module top(input logic [1:0] a, output logic [1:0] y);
  Pass u[1:0](.a(a), .b(0), .y(y));
endmodule`, Options{}, "t.sv:3:25: error: port 'b' of instance array 'u' needs 1 bits (the same value for every instance) or 2 bits (one slice per instance), not 32"},
		{"bit array assigned to a logic array", `module top;
  bit [7:0] ba [2];
  logic [7:0] la [2];
  assign la = ba;
endmodule`, Options{}, "t.sv:4:15: error: unpacked arrays 'la' (unsigned 4-state elements) and 'ba' (unsigned 2-state elements) have element types that are not equivalent; convert element by element (a loop) or declare both alike"},
		{"int array port connected to a logic array", `module sub(input int m [2]); endmodule
module top; logic signed [31:0] l [2]; sub u (.m(l)); endmodule`, Options{}, "t.sv:2:50: error: unpacked arrays 'u.m' (signed 2-state elements) and 'l' (signed 4-state elements) have element types that are not equivalent; convert element by element (a loop) or declare both alike"},
		{"constant function writing a module variable", `module top;
  logic hit;
  function automatic int mark(); hit = 1'b1; return 3; endfunction
  localparam P = mark();
endmodule`, Options{}, "t.sv:4:18: error: call of 'mark' is not a constant: it writes 'hit'"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { expectError(t, tc.src, tc.opts, tc.want) })
	}
}
