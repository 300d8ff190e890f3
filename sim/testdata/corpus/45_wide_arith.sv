// Wide values (65..200 bits): add with carry across 64-bit words,
// multiply, rotate, signed multiply/divide/modulo and >>>, comparisons,
// dynamic part selects crossing word boundaries (read and write), and a
// memory of 70-bit words written through a dynamic part select.
module t(input logic clk);
  logic [64:0] a = {1'b0, 64'hffff_ffff_ffff_fff0};
  logic [127:0] m = 128'h1;
  logic [199:0] big = 200'h1;
  logic [199:0] w = {8'hab, 64'h0123_4567_89ab_cdef, 64'hfedc_ba98_7654_3210, 64'h0f1e_2d3c_4b5a_6978};
  logic [199:0] wr = '0;
  logic signed [129:0] sa = -130'sd98765432109876543210987, sb = 130'sd1234567;
  logic [69:0] mem [0:3];
  logic [127:0] prod;
  logic [7:0] i = 8'd0;
  int cyc = 0;
  initial for (int k = 0; k < 4; k++) mem[k] = {6'(k), 64'hdead_beef_0000_0000 + 64'(k)};
  assign prod = a * 65'h1_0000_0001;
  always_ff @(posedge clk) begin
    cyc <= cyc + 1;
    a <= a + 65'd7;
    m <= (m << 37) | (m >> 91);
    big <= big * 200'd1000003 + 200'd17;
    i <= i + 8'd23;
    wr[i +: 17] <= w[i +: 17];
    sa <= sa * -130'sd3;
    sb <= sb + 130'sd7654321;
    mem[cyc % 4][i[5:0] +: 6] <= 6'h2a;
  end
  always @(posedge clk) begin
    $display("%0d: a=%h prod=%h m=%h", cyc, a, prod, m);
    $display("   big=%h ge=%b sub=%h", big, big >= {72'd0, m}, m - {63'd0, a});
    $display("   i=%0d sel=%h dn=%h bit=%b wr=%h", i, w[i +: 17], w[i + 16 -: 9], w[i], wr);
    $display("   q=%0d r=%0d sh=%h lt=%b neg=%b", sa / sb, sa % sb, sa >>> 67, sa < sb, sa < 0);
    $display("   mem=%h %h %h %h", mem[0], mem[1], mem[2], mem[3]);
    if (cyc == 7) $finish;
  end
endmodule
