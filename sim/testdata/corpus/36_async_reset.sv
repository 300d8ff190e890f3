// Asynchronous reset generated inside the design: rst_n falls on a
// negative clock edge (mid-cycle) and the flops reset at once, without
// waiting for the next clock; release is synchronous to the negedge too.
// A second reset, prst_n, falls at a positive edge: its flop first takes
// the clock edge, then the reset edge clears it in the same time step.
module t(input logic clk);
  logic rst_n = 1'b1;
  logic [7:0] q = 8'd5, q2 = 8'd100, q3 = 8'd0;
  logic prst_n = 1'b1;
  int cyc = 0;
  always_ff @(posedge clk) cyc <= cyc + 1;
  always_ff @(negedge clk) rst_n <= !(cyc == 3 || cyc == 4 || cyc == 9);
  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) q <= 8'd0;
    else q <= q + 8'd3;
  end
  always_ff @(posedge clk, negedge rst_n)
    if (~rst_n) q2 <= 8'd200;
    else q2 <= q2 - 8'd1;
  always_ff @(posedge clk) prst_n <= !(cyc == 2 || cyc == 7);
  always_ff @(posedge clk or negedge prst_n)
    if (!prst_n) q3 <= 8'd0; else q3 <= q3 + 8'd7;
  always @(posedge clk) $display("%0d: pos rst_n=%b q=%0d q2=%0d", cyc, rst_n, q, q2);
  always @(negedge clk) begin
    $display("%0d: neg rst_n=%b q=%0d q2=%0d prst_n=%b q3=%0d", cyc, rst_n, q, q2, prst_n, q3);
    if (cyc == 12) $finish;
  end
endmodule
