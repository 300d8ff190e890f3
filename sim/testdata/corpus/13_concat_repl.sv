// Concatenation and replication: self-determined operand widths, nested
// replication, concatenation on the left-hand side.
module t(input logic clk);
  logic [3:0] a = 4'h3;
  logic [7:0] b = 8'ha5;
  logic [15:0] c;
  logic [2:0] hi;
  logic [9:0] lo;
  int cyc = 0;
  assign c = {a, b, a};
  assign {hi, lo} = {b, 1'b1, a};
  always_ff @(posedge clk) begin
    cyc <= cyc + 1;
    a <= a + 4'd7;
    b <= {b[0], b[7:1]};
  end
  always @(posedge clk) begin
    $display("%0d: c=%h hi=%b lo=%b rep=%b nest=%h", cyc, c, hi, lo, {3{a[1:0]}}, {2{a, {2{1'b1}}}});
    $display("   sum={a,a}+1=%h width=%0d", {a, a} + 1'b1, $bits({a, b, 2'b0}));
    if (cyc == 8) $finish;
  end
endmodule
