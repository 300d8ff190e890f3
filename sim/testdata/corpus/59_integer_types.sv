// The integer types: byte, shortint, int, longint are 2-state signed;
// integer is signed; bit and logic vectors are unsigned unless declared
// signed; int unsigned; their widths and wrap-around, including 64- and
// 65-bit counters near their limits and a down counter below zero.
module t(input logic clk);
  byte by = 8'sd120;
  shortint sh = 16'sd32760;
  int in = 32'sd2147483640;
  longint lo = 64'sd9223372036854775800;
  integer ig = -5;
  bit [7:0] bv = 8'd250;
  int unsigned iu = 32'hffff_fff0;
  logic [2:0] c3 = 3'd5;
  logic [63:0] c64 = 64'hffff_ffff_ffff_fffd;
  logic [64:0] c65 = {1'b0, 64'hffff_ffff_ffff_fffe};
  logic [4:0] down = 5'd2;
  int cyc = 0;
  always_ff @(posedge clk) begin
    cyc <= cyc + 1;
    by <= by + 8'sd3;
    sh <= sh + 16'sd3;
    in <= in + 3;
    lo <= lo + 64'sd3;
    ig <= ig * -2;
    bv <= bv + 8'd3;
    iu <= iu + 32'd5;
    c3 <= c3 + 1'b1;
    c64 <= c64 + 1'b1;
    c65 <= c65 + 65'd1;
    down <= down - 1'b1;
  end
  always @(posedge clk) begin
    $display("%0d: by=%0d sh=%0d in=%0d lo=%0d ig=%0d bv=%0d iu=%0d", cyc, by, sh, in, lo, ig, bv, iu);
    $display("   lt0=%b%b%b%b%b%b bits=%0d,%0d,%0d,%0d,%0d", by < 0, sh < 0, in < 0, lo < 0, bv < 0, iu < 0,
             $bits(by), $bits(sh), $bits(in), $bits(lo), $bits(ig));
    $display("   c3=%0d c64=%h c65=%h down=%0d", c3, c64, c65, down);
    if (cyc == 5) $finish;
  end
endmodule
