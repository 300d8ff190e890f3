// golden: hand — Icarus 11 rejects dynamic element indices on the left of
// packed multi-dimensional arrays ("Array index expressions must be
// constant here"); the expected values were worked out by hand.
// Dynamic-index writes into packed arrays: a whole element, one bit of an
// element, and an element of a two-level array, all by nonblocking
// assignment, plus a blocking read-modify-write.
module t(input logic clk);
  logic [3:0][7:0] p = 32'h0;
  logic [1:0][2:0][3:0] q = 24'h0;
  logic [3:0][3:0] r = 16'h0;
  logic [1:0] i = 2'd0;
  logic [1:0] j = 2'd0;
  int cyc = 0;
  always_ff @(posedge clk) begin
    cyc <= cyc + 1;
    i <= i + 2'd1;
    j <= (j == 2'd2) ? 2'd0 : j + 2'd1;
    p[i] <= p[i] + 8'h11;
    p[i + 2'd2][7] <= 1'b1;
    q[i[0]][j] <= q[i[0]][j] + 4'd1;
  end
  always @(posedge clk) begin
    r[j] = r[j] + 4'd3;
    $display("%0d: i=%0d j=%0d p=%h q=%h r=%h", cyc, i, j, p, q, r);
    if (cyc == 6) $finish;
  end
endmodule
