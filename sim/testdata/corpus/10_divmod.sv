// Division and modulo: unsigned, signed with negative operands (truncate
// toward zero; the remainder takes the dividend's sign). No zero divisor.
module t(input logic clk);
  logic signed [7:0] a = -8'sd100, b = 8'sd7;
  logic [7:0] ua = 8'd200, ub = 8'd9;
  int cyc = 0;
  always_ff @(posedge clk) begin
    cyc <= cyc + 1;
    a <= a + 8'sd31;
    b <= (b == 8'sd1) ? -8'sd4 : (b == -8'sd13) ? 8'sd10 : b - 8'sd3;
    ua <= ua + 8'd17;
    ub <= ub + 8'd2;
  end
  always @(posedge clk) begin
    $display("%0d: a=%0d b=%0d q=%0d r=%0d ua=%0d ub=%0d uq=%0d ur=%0d mix=%0d", cyc, a, b, a / b, a % b,
             ua, ub, ua / ub, ua % ub, a / ub);
    if (cyc == 10) $finish;
  end
endmodule
