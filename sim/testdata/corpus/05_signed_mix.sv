// Signed and unsigned mixing: an expression is signed only when every
// operand is signed; $signed/$unsigned change the interpretation.
module t(input logic clk);
  logic signed [7:0] s = -8'sd5;
  logic [7:0] u = 8'd3;
  logic signed [15:0] r1, r2, r3, r4;
  int cyc = 0;
  assign r1 = s + u;             // unsigned: s zero-extended
  assign r2 = s + $signed(u);    // signed: both sign-extended
  assign r3 = $unsigned(s) + 16'sd1;
  assign r4 = s * $signed(u);
  always_ff @(posedge clk) begin
    cyc <= cyc + 1;
    s <= s - 8'sd23;
    u <= u + 8'd61;
  end
  always @(posedge clk) begin
    $display("%0d: s=%0d u=%0d r1=%0d r2=%0d r3=%0d r4=%0d", cyc, s, u, r1, r2, r3, r4);
    $display("   lt_s=%b lt_mix=%b su=%0d us=%0d neg=%0d", s < $signed(u), s < u, $signed(u), $unsigned(s), -s);
    if (cyc == 10) $finish;
  end
endmodule
