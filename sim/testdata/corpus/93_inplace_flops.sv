// Flops updated in place (no staging copy) beside flops that must keep
// pre-edge values: generate-loop counters each reading only their own
// element, two processes owning the halves of one byte, case arms, a flop
// clocked by a derived clock, and a flop its writer reads after writing it
// (staged). $display reads comb copies, so the flops have no other reader.
module t(input logic clk);
  int cyc = 0;
  logic [7:0] cnt [0:7];
  initial for (int i = 0; i < 8; i++) cnt[i] = 8'(100 + i);
  for (genvar j = 0; j < 8; j++) begin : g
    always_ff @(posedge clk)
      if (cyc == 0) cnt[j] <= 8'(j * 3);
      else cnt[j] <= cnt[j] + 8'(j + 1);
  end
  logic [7:0] sum;
  always_comb begin
    sum = 0;
    for (int i = 0; i < 8; i++) sum = sum ^ cnt[i];
  end
  wire [7:0] c5 = cnt[5] + 8'd0;
  logic [7:0] pk = 8'h35;
  always_ff @(posedge clk) pk[3:0] <= pk[3:0] + 4'd3;
  always_ff @(posedge clk) pk[7:4] <= pk[7:4] ^ 4'(cyc);
  wire [7:0] pk_w = pk ^ 8'd0;
  logic [7:0] cs = 0;
  always_ff @(posedge clk)
    case (cyc % 4)
      0: cs <= cs + 8'd7;
      1: cs <= cs ^ 8'h5a;
      2: cs <= {cs[6:0], cs[7]};
      default: ;
    endcase
  wire [7:0] cs_w = cs ^ 8'd0;
  logic div = 0;
  always_ff @(posedge clk) div <= ~div;
  logic [7:0] dq = 8'd1;
  always_ff @(posedge div) dq <= dq * 8'd3;
  wire [7:0] dq_w = dq ^ 8'd0;
  logic [7:0] own = 8'd9, seen = 0;
  always_ff @(posedge clk) begin
    own <= own + 8'd11;
    seen <= own;
  end
  wire [7:0] seen_w = seen ^ 8'd0;
  always_ff @(posedge clk) cyc <= cyc + 1;
  always @(posedge clk) begin
    $display("%0d: sum=%h c5=%h pk=%h cs=%h dq=%h seen=%h", cyc, sum, c5, pk_w, cs_w, dq_w, seen_w);
    if (cyc == 12) $finish;
  end
endmodule
