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
