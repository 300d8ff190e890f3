// The power operator: integer results, width from the base, and the
// special cases of 0 and 1 exponents.
module t(input logic clk);
  logic [7:0] b = 8'd0;
  logic [3:0] e = 4'd0;
  logic [31:0] p;
  int cyc = 0;
  assign p = b ** e;
  always_ff @(posedge clk) begin
    cyc <= cyc + 1;
    b <= b + 8'd1;
    e <= e + 4'd1;
  end
  always @(posedge clk) begin
    $display("%0d: b=%0d e=%0d p=%0d p8=%0d two=%0d sgn=%0d", cyc, b, e, p, b ** e, 2 ** e,
             (-3) ** 3);
    if (cyc == 9) $finish;
  end
endmodule
