// Shift amounts are unsigned: a signed negative amount is a large shift;
// amounts wider than 32 bits with high bits set shift everything out;
// wide operands shifted across word boundaries; a shift in a wider context.
module t(input logic clk);
  logic signed [3:0] sa = 4'sd1;
  logic [39:0] big = 40'd1;
  logic [99:0] w = {4'hf, 96'h8000_0000_0000_0000_0000_0001};
  logic [6:0] n = 7'd0;
  logic [7:0] v = 8'hc3;
  logic [15:0] ctx;
  int cyc = 0;
  assign ctx = (v << 4) >> 2;     // 16-bit context: the high bits survive
  always_ff @(posedge clk) begin
    cyc <= cyc + 1;
    sa <= sa - 4'sd1;
    big <= big << 9;
    n <= n + 7'd13;
  end
  always @(posedge clk) begin
    $display("%0d: sa=%0d v<<sa=%h v>>sa=%h big=%h v>>big=%h ctx=%h", cyc, sa, v << sa, v >> sa, big, v >> big, ctx);
    $display("   n=%0d w<<n=%h w>>n=%h ws>>>n=%h", n, w << n, w >> n, $signed(w) >>> n);
    if (cyc == 6) $finish;
  end
endmodule
