// Multiplication widths: the product takes the context width, so an
// 8x8 product keeps 16 bits only in a 16-bit context.
module t(input logic clk);
  logic [7:0] a = 8'd3, b = 8'd250;
  logic [15:0] p16;
  logic [7:0] p8;
  logic [11:0] p12;
  logic [3:0] n = 4'd9;
  int cyc = 0;
  assign p16 = a * b;
  assign p8 = a * b;
  assign p12 = a * b + n;
  always_ff @(posedge clk) begin
    cyc <= cyc + 1;
    a <= a * 8'd7 + 8'd5;
    b <= b - 8'd13;
    n <= n + 4'd3;
  end
  always @(posedge clk) begin
    $display("%0d: a=%0d b=%0d n=%0d p16=%0d p8=%0d p12=%0d self=%0d nn=%0d", cyc, a, b, n, p16, p8, p12,
             a * b, n * n);
    $display("   sq16=%0d mix=%0d", {8'd0, a} * {8'd0, b}, n * a);
    if (cyc == 10) $finish;
  end
endmodule
