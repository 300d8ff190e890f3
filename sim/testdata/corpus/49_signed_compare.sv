// Signed relational operators: both signed → signed compare; any
// unsigned operand → unsigned compare; literals, int, and integer.
module t(input logic clk);
  logic signed [7:0] a = -8'sd128;
  logic signed [3:0] b = 4'sd7;
  logic [7:0] u = 8'd0;
  int i = -3;
  integer j = 5;
  int cyc = 0;
  always_ff @(posedge clk) begin
    cyc <= cyc + 1;
    a <= a + 8'sd45;
    b <= b - 4'sd5;
    u <= u + 8'd70;
    i <= i + 2;
    j <= j - 3;
  end
  always @(posedge clk) begin
    $display("%0d: a=%0d b=%0d u=%0d i=%0d j=%0d ab=%b%b%b au=%b iu=%b ij=%b neg=%b lit=%b", cyc, a, b, u, i, j,
             a < b, a >= b, b > a, a < u, i < u, i > j, a < 0, a < 8'd0);
    if (cyc == 8) $finish;
  end
endmodule
