// Package gendesign generates SystemVerilog designs of a chosen size for
// benchmarks: many instances of a small leaf with a package, a function,
// a generate loop, an enum state machine and comb and clocked processes.
package gendesign

import (
	"fmt"
	"strings"
)

// Rows returns the source of a design with top module big_top holding n
// leaf instances (n/10 rows of 10, chained through their data ports; a
// clock clk and an active-low reset rst_n).
func Rows(n int) string {
	var sb strings.Builder
	sb.WriteString(`package gen_pkg;
  typedef enum logic [1:0] {IDLE, LOAD, RUN, DONE} state_t;
  function automatic logic [15:0] mix(input logic [15:0] a, input logic [15:0] b);
    return (a << 3) ^ (b >> 2) ^ 16'h9e37;
  endfunction
endpackage

module leaf import gen_pkg::*; #(parameter int SEED = 1) (
  input  logic        clk,
  input  logic        rst_n,
  input  logic [15:0] din,
  output logic [15:0] dout
);
  state_t state;
  logic [15:0] acc, nxt;
  logic [3:0][3:0] nib;
  always_comb begin
    nxt = mix(acc, din);
    for (int i = 0; i < 4; i++) nib[i] = nxt[i*4 +: 4] + 4'(SEED);
  end
  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      acc <= 16'(SEED);
      state <= IDLE;
    end else begin
      unique case (state)
        IDLE: state <= LOAD;
        LOAD: begin acc <= nxt; state <= RUN; end
        RUN:  begin acc <= nib; if (acc[0]) state <= DONE; end
        DONE: state <= IDLE;
      endcase
    end
  end
  assign dout = acc;
endmodule

module row #(parameter int N = 10, parameter int BASE = 0) (
  input  logic        clk,
  input  logic        rst_n,
  input  logic [15:0] din,
  output logic [15:0] dout
);
  logic [15:0] chain [N+1];
  assign chain[0] = din;
  for (genvar i = 0; i < N; i++) begin : g_leaf
    leaf #(.SEED(BASE + i)) u_leaf (.clk, .rst_n, .din(chain[i]), .dout(chain[i+1]));
  end
  assign dout = chain[N];
endmodule
`)
	rows := n / 10
	sb.WriteString("module big_top (input logic clk, input logic rst_n, input logic [15:0] din, output logic [15:0] dout);\n")
	fmt.Fprintf(&sb, "  logic [15:0] link [%d];\n  assign link[0] = din;\n", rows+1)
	for r := 0; r < rows; r++ {
		fmt.Fprintf(&sb, "  row #(.N(10), .BASE(%d)) u_row%d (.clk(clk), .rst_n(rst_n), .din(link[%d]), .dout(link[%d]));\n", r*10, r, r, r+1)
	}
	fmt.Fprintf(&sb, "  assign dout = link[%d];\nendmodule\n", rows)
	return sb.String()
}

// Counters returns a design of bits/32 free-running 32-bit counters made
// by one generate loop in module top (clock clk, synchronous reset rst,
// output sum): the flat shape, one module with many flops.
func Counters(bits int) string {
	n := max(bits/32, 2)
	return fmt.Sprintf(`module top (input logic clk, input logic rst, output logic [31:0] sum);
  logic [31:0] c [%d];
  for (genvar i = 0; i < %d; i++) begin : g
    always_ff @(posedge clk) if (rst) c[i] <= 32'(i); else c[i] <= c[i] + 32'(i | 1);
  end
  assign sum = c[0] ^ c[%d];
endmodule
`, n, n, n-1)
}

// Chain returns a design of bits/128 instances of a four-stage 32-bit
// pipeline module, each fed by the one before it, in module top (clock
// clk, synchronous reset rst, output sum): the hierarchical shape, many
// instances of one module with one parameter set.
func Chain(bits int) string {
	n := max(bits/128, 1)
	return fmt.Sprintf(`module pipe #(parameter int W = 32) (
  input  logic         clk,
  input  logic         rst,
  input  logic [W-1:0] din,
  output logic [W-1:0] dout
);
  logic [W-1:0] s0, s1, s2, s3, mixed;
  always_comb mixed = s1 + (s0 >> 3);
  always_ff @(posedge clk) begin
    if (rst) begin
      s0 <= '0; s1 <= '0; s2 <= '0; s3 <= '0;
    end else begin
      s0 <= din + W'(1);
      s1 <= s0 ^ (s0 << 5);
      s2 <= mixed;
      s3 <= s2;
    end
  end
  assign dout = s3;
endmodule

module top (input logic clk, input logic rst, output logic [31:0] sum);
  logic [31:0] link [%d];
  assign link[0] = 32'h1234_5678;
  for (genvar i = 0; i < %d; i++) begin : g
    pipe #(.W(32)) u (.clk, .rst, .din(link[i]), .dout(link[i+1]));
  end
  assign sum = link[%d];
endmodule
`, n+1, n, n)
}
