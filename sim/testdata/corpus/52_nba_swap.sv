// Nonblocking assignments: a swap, a shift register written in reverse
// order, the last of several NBAs to one variable winning, and two blocks
// updating disjoint halves of one vector.
module t(input logic clk);
  logic [7:0] x = 8'd1, y = 8'd2;
  logic [7:0] s0 = 8'd10, s1 = 8'd0, s2 = 8'd0;
  logic [7:0] w = 8'd0;
  logic [7:0] v = 8'd0;
  always_ff @(posedge clk) v[3:0] <= v[3:0] + 4'd1;
  always_ff @(posedge clk) v[7:4] <= v[7:4] + 4'd3;
  int cyc = 0;
  always_ff @(posedge clk) begin
    cyc <= cyc + 1;
    x <= y;
    y <= x + 8'd3;
  end
  always_ff @(posedge clk) begin
    s2 <= s1;
    s1 <= s0;
    s0 <= s0 + 8'd10;
  end
  always_ff @(posedge clk) begin
    w <= 8'd1;
    if (cyc[0]) w <= 8'd2;
    w[7] <= 1'b1;
  end
  always @(posedge clk) begin
    $display("%0d: x=%0d y=%0d s=%0d,%0d,%0d w=%h v=%h", cyc, x, y, s0, s1, s2, w, v);
    if (cyc == 6) $finish;
  end
endmodule
