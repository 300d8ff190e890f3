// Casts: size casts N'(x) (truncate or extend by the operand's
// signedness) and type casts to byte, int, shortint and a typedef.
// (signed'() and unsigned'(), which Icarus 11 lacks, are in 66_sv_extras.)
module t(input logic clk);
  logic [11:0] w = 12'h9f3;
  logic signed [5:0] s = -6'sd7;
  typedef logic [5:0] six_t;
  int cyc = 0;
  always_ff @(posedge clk) begin
    cyc <= cyc + 1;
    w <= w + 12'h2e5;
    s <= s + 6'sd9;
  end
  always @(posedge clk) begin
    $display("%0d: w=%h s=%0d 4'=%h 16'=%h s10=%h byte=%0d int=%0d short=%0d six=%h", cyc,
             w, s, 4'(w), 16'(w), 10'(s), byte'(w), int'(s), shortint'(w),
             six_t'(w));
    if (cyc == 7) $finish;
  end
endmodule
