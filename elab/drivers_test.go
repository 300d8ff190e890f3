package elab

import "testing"

// TestManyDrivers: a generate loop whose processes each write their own
// element of one array (hundreds of writers of one home) is not a
// multiple-driver error, and one extra writer of an element still is,
// with the message the pairwise search gives.
func TestManyDrivers(t *testing.T) {
	const loop = `module top(input logic clk, output logic [7:0] y);
  logic [7:0] c [300];
  for (genvar i = 0; i < 300; i++) begin : g
    always_ff @(posedge clk) c[i] <= c[i] + 8'd1;
  end
`
	mustElab(t, loop+"  assign y = c[7];\nendmodule\n")
	expectError(t, loop+"  assign c[123] = 8'd0;\n  assign y = c[7];\nendmodule\n", Options{},
		"t.sv:6:3: error: 'top.c' is driven by more than one process: top.g[123]:always_ff@4 (t.sv:4:5) and top:assign@6 (t.sv:6:3)")
}
