// Comparisons of mixed widths: both operands are extended to the wider
// width before comparing (zero extension for unsigned).
module t(input logic clk);
  logic [3:0] a = 4'd0;
  logic [7:0] b = 8'd250;
  logic [2:0] c = 3'd5;
  int cyc = 0;
  always_ff @(posedge clk) begin
    cyc <= cyc + 1;
    a <= a + 4'd3;
    b <= b + 8'd1;
    c <= c - 3'd1;
  end
  always @(posedge clk) begin
    $display("%0d: a=%0d b=%0d c=%0d lt=%b le=%b gt=%b eq=%b ne=%b", cyc, a, b, c,
             a < b, a <= c, c > a, a == b[3:0], {1'b0, c} != a);
    // a + 4'd15 compared against 5'd16: the sum is computed in 5 bits
    $display("   sum>=16: %b  (4-bit sum)>=16: %b  ~a==b: %b", a + 4'd15 >= 5'd16,
             4'(a + 4'd15) >= 5'd16, ~a == b);
    if (cyc == 9) $finish;
  end
endmodule
