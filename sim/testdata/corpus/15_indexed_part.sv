// Indexed part selects +: and -: with a dynamic base, read and written.
module t(input logic clk);
  logic [31:0] d = 32'hdead_beef;
  logic [31:0] w = 32'h0;
  logic [0:15] asc = 16'h1234;
  logic [4:0] i = 5'd0;
  int cyc = 0;
  always_ff @(posedge clk) begin
    cyc <= cyc + 1;
    i <= i + 5'd3;
    w[i +: 4] <= d[i +: 4];
    if (i >= 5'd7) w[i -: 8] <= ~d[i -: 8];
  end
  always @(posedge clk) begin
    if (i <= 5'd24)
      $display("%0d: i=%0d up=%h down=%h asc=%h w=%h", cyc, i, d[i +: 8], d[i + 7 -: 8], asc[i[3:2] * 4 +: 4], w);
    else
      $display("%0d: i=%0d w=%h", cyc, i, w);
    if (cyc == 11) $finish;
  end
endmodule
