package kernels

import "testing"

// Concatenations of two slices of one value that rotate it are lowered as
// a funnel shift; the others as before.
const rotateSrc = `
module rot (
  input  logic clk,
  input  logic [7:0] a,
  input  logic [31:0] b,
  input  logic [63:0] c,
  output logic [7:0] r8, n8,
  output logic [31:0] r32,
  output logic [63:0] r64, q64
);
  logic [63:0] t [0:1];
  assign r8 = {a[2:0], a[7:3]};      // right by 3
  assign n8 = {a[2:0], a[6:2]};      // not a rotation (overlapping slices)
  assign r32 = {b[30:0], b[31]};     // right by 31 (left by 1)
  always_comb begin
    t[0] = c ^ 64'h0123_4567_89ab_cdef;
    t[1] = {t[0][0], t[0][63:1]};    // right by 1, from an array element
  end
  assign r64 = t[1];
  logic [63:0] q = 64'h1;
  always_ff @(posedge clk) q <= {q[47:0], q[63:48]} ^ c; // right by 48 of a flop
  assign q64 = q;
endmodule
`

func TestRotateVsMachine(t *testing.T) {
	runDiff(t, diffCase{name: "rot", top: "rot", srcs: []string{rotateSrc}, clk: "clk", cycles: 100, seed: 14, skip: 2})
}
