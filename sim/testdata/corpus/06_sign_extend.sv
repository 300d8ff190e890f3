// Sign extension: signed operands are sign-extended to the context width,
// unsigned ones zero-extended; sized signed literals.
module t(input logic clk);
  logic signed [3:0] s4 = 4'sd0;
  logic [3:0] u4 = 4'd0;
  logic signed [11:0] e1, e2, e3;
  logic [11:0] e4;
  int cyc = 0;
  assign e1 = s4;              // sign-extended
  assign e2 = u4;              // zero-extended
  assign e3 = s4 + 4'sd1;      // signed, extended before the add
  assign e4 = s4 + u4;         // unsigned: s4 zero-extended
  always_ff @(posedge clk) begin
    cyc <= cyc + 1;
    s4 <= s4 - 4'sd3;
    u4 <= u4 + 4'd5;
  end
  always @(posedge clk) begin
    $display("%0d: s4=%0d u4=%0d e1=%h e2=%h e3=%h e4=%h", cyc, s4, u4, e1, e2, e3, e4);
    $display("   lit=%0d %0d %h %h", -4'sd1, 4'sd8, 12'(-4'sd1), 12'sh800 >>> 4);
    if (cyc == 8) $finish;
  end
endmodule
