// perf/peers/chain100k.sv: 781 instances of a four-stage 32-bit pipeline,
// each fed by the one before (about 10^5 flop bits): weft's generated
// benchmark shape (internal/gendesign.Chain) with an active-low reset.
module pipe #(parameter int W = 32) (
  input  logic         clk,
  input  logic         rst_n,
  input  logic [W-1:0] din,
  output logic [W-1:0] dout
);
  logic [W-1:0] s0, s1, s2, s3, mixed;
  always_comb mixed = s1 + (s0 >> 3);
  always_ff @(posedge clk) begin
    if (!rst_n) begin
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

module chain100k (input logic clk, input logic rst_n, output logic [31:0] sum);
  logic [31:0] link [782];
  assign link[0] = 32'h1234_5678;
  for (genvar i = 0; i < 781; i++) begin : g
    pipe #(.W(32)) u (.clk, .rst_n, .din(link[i]), .dout(link[i+1]));
  end
  assign sum = link[781];
endmodule
