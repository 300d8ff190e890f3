// Flops on both edges of one clock: a posedge stage feeds a negedge stage
// and back, so values move half a cycle at a time; a block on both edges
// sensitivity counts every transition.
module t(input logic clk);
  logic [7:0] p = 8'd1, n = 8'd0, both = 8'd0;
  int cyc = 0;
  always_ff @(posedge clk) begin
    p <= n + 8'd1;
    cyc <= cyc + 1;
  end
  always_ff @(negedge clk) n <= p * 8'd2;
  always @(posedge clk or negedge clk) both <= both + 8'd1;
  always @(posedge clk) begin
    $display("%0d: p=%0d n=%0d both=%0d", cyc, p, n, both);
    if (cyc == 8) $finish;
  end
endmodule
