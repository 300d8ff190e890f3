// golden: hand — Icarus prints x for a zero divisor; weft is 2-state and
// the standard's 2-state rule gives 0 for x / 0 and x % 0 (checked by hand).
// Division and modulo by zero, unsigned and signed, run-time and constant.
// (A zero divisor in a localparam's value is an elaboration error in weft,
// so the constant case is an inline expression, which warns and gives 0.)
module t(input logic clk);
  logic [7:0] a = 8'd100, b = 8'd3;
  logic signed [7:0] sa = -8'sd100, sb = 8'sd2;

  int cyc = 0;
  always_ff @(posedge clk) begin
    cyc <= cyc + 1;
    b <= b - 8'd1;       // 3, 2, 1, 0, 255
    sb <= sb - 8'sd1;    // 2, 1, 0, -1, -2
  end
  always @(posedge clk) begin
    $display("%0d: b=%0d q=%0d r=%0d sb=%0d sq=%0d sr=%0d cq=%0d wide=%0d", cyc, b, a / b, a % b, sb, sa / sb,
             sa % sb, 8'd7 / 8'd0, {8'd0, a} / {8'd0, b} + 16'd1000);
    if (cyc == 4) $finish;
  end
endmodule
