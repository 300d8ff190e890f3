package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// generatedDesign writes a design of n leaf instances spread over rows of 10,
// with a generate loop, a function, a package and always_ff/always_comb
// processes in each leaf, and returns its path and line count.
func generatedDesign(b *testing.B, n int) (string, int) {
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
	path := filepath.Join(b.TempDir(), "big_top.sv")
	if err := os.WriteFile(path, []byte(sb.String()), 0o644); err != nil {
		b.Fatal(err)
	}
	return path, strings.Count(sb.String(), "\n")
}

// BenchmarkLintGenerated1000Instances measures the whole front end
// (preprocess, parse, elaborate) on a design with 1000 leaf instances.
// lines/s counts source lines; the elaborated lines (instances × leaf body)
// are what dominates, so elab-lines/s is reported too.
func BenchmarkLintGenerated1000Instances(b *testing.B) {
	path, lines := generatedDesign(b, 1000)
	df := &designFlags{defines: newDefineFlag("-D"), params: newDefineFlag("-G")}
	b.ResetTimer()
	for b.Loop() {
		d, diags := loadDesign([]string{path}, df)
		if err := diags.Err(); err != nil {
			b.Fatal(err)
		}
		if len(d.Instances) < 1000 {
			b.Fatalf("only %d instances", len(d.Instances))
		}
	}
	perOp := b.Elapsed().Seconds() / float64(b.N)
	b.ReportMetric(float64(lines)/perOp, "lines/s")
	b.ReportMetric(float64(1000*30)/perOp, "elab-lines/s")
}
