// The conditional operator: result width is the larger arm's, signedness
// only when both arms are signed; nested conditionals; multi-bit
// conditions.
module t(input logic clk);
  logic [2:0] c = 3'd0;
  logic signed [3:0] s = -4'sd3;
  logic [7:0] u = 8'd200;
  logic signed [7:0] r1, r2;
  logic [11:0] r3;
  int cyc = 0;
  assign r1 = c[0] ? s : 4'sd5;           // both signed: sign-extended
  assign r2 = c[0] ? s : 4'd5;            // one unsigned: zero-extended
  assign r3 = c ? u + u : s;              // 12-bit context; s zero-extended
  always_ff @(posedge clk) begin
    cyc <= cyc + 1;
    c <= c + 3'd1;
    s <= s - 4'sd2;
    u <= u + 8'd11;
  end
  always @(posedge clk) begin
    $display("%0d: c=%0d s=%0d r1=%0d r2=%0d r3=%0d nest=%0d", cyc, c, s, r1, r2, r3,
             c == 0 ? 10 : c == 1 ? 11 : c < 5 ? 12 : 13);
    if (cyc == 8) $finish;
  end
endmodule
