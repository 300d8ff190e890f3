// $display order: several statements of one block print in order; blocks
// on different edges print in edge order; $write continues the line;
// the clk domain's displays precede those of a clock derived from it.
module t(input logic clk);
  logic div = 1'b0;
  logic [3:0] n = 4'd0;
  int cyc = 0;
  always_ff @(posedge clk) begin
    cyc <= cyc + 1;
    n <= n + 4'd1;
    div <= ~div;
  end
  always @(posedge clk) begin
    $write("[%0d pos", cyc);
    $write(" n=%0d", n);
    $display("]");
    $display("  second line");
  end
  always @(negedge clk) begin
    $write("  neg n=%0d;", n);
    $write(" ");
    $display("done");
  end
  always @(posedge div) begin
    $display("  div rose, n=%0d", n);
    if (cyc >= 6) $finish;
  end
endmodule
