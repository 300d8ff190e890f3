// A true combinational loop (the same bits feed back) that converges: two
// muxes wired in a ring whose select makes one of them transparent, and a
// saturating loop through an always_comb.
module t(input logic clk);
  logic sel = 1'b0;
  logic [7:0] in1 = 8'd5, in2 = 8'd9;
  logic [7:0] x, y;
  int cyc = 0;
  assign x = sel ? y : in1;
  assign y = sel ? in2 : x + 8'd1;
  always_ff @(posedge clk) begin
    cyc <= cyc + 1;
    sel <= ~sel ^ cyc[1];
    in1 <= in1 + 8'd10;
    in2 <= in2 * 8'd3;
  end
  always @(posedge clk) begin
    $display("%0d: sel=%b in1=%0d in2=%0d x=%0d y=%0d", cyc, sel, in1, in2, x, y);
    if (cyc == 9) $finish;
  end
endmodule
