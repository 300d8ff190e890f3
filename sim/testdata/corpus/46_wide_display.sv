// Displaying wide values in decimal, hex, octal and binary, signed and
// unsigned, padded and unpadded.
module t(input logic clk);
  logic [95:0] v = 96'd1;
  logic signed [69:0] s = 70'sd1;
  logic [66:0] b = 67'h5_0000_0000_0000_0003;
  int cyc = 0;
  always_ff @(posedge clk) begin
    cyc <= cyc + 1;
    v <= v * 96'd12345 + 96'd1;
    s <= -(s * 70'sd999);
    b <= {b[0], b[66:1]};
  end
  always @(posedge clk) begin
    $display("%0d: v=%d", cyc, v);
    $display("   v0=%0d vh=%h vo=%o", v, v, v);
    $display("   s=%d s0=%0d sh=%h", s, s, s);
    $display("   b=%b", b);
    if (cyc == 7) $finish;
  end
endmodule
