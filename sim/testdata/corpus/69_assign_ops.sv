// Assignment operators and increments in procedural code: +=, -=, *=,
// <<=, >>=, >>>=, &=, |=, ^=, ++ and --, with the operand widths of the
// target.
module t(input logic clk);
  logic [7:0] a = 8'd10;
  logic signed [7:0] s = -8'sd64;
  int cyc = 0;
  always_ff @(posedge clk) begin
    logic [7:0] x;
    logic signed [7:0] y;
    cyc <= cyc + 1;
    x = a;
    x += 8'd250;
    x *= 8'd3;
    x -= 8'd1;
    x <<= 1;
    x ^= 8'h5a;
    x |= 8'h01;
    x &= 8'hfe;
    x >>= 1;
    x++;
    a <= x;
    y = s;
    y >>>= 2;
    y--;
    y += 8'sd3;
    s <= y;
  end
  always @(posedge clk) begin
    $display("%0d: a=%0d s=%0d", cyc, a, s);
    if (cyc == 8) $finish;
  end
endmodule
