// Logical shifts, including shift amounts >= the width (result 0) and
// shift amounts wider than the operand.
module t(input logic clk);
  logic [7:0] v = 8'b1011_0110;
  logic [4:0] n = 5'd0;
  logic [7:0] l, r;
  logic [15:0] lw;
  int cyc = 0;
  assign l = v << n;
  assign r = v >> n;
  assign lw = v << n;          // 16-bit context keeps the shifted-out bits
  always_ff @(posedge clk) begin
    cyc <= cyc + 1;
    n <= n + 5'd1;
    if (n[1:0] == 2'd3) v <= v ^ 8'h5a;
  end
  always @(posedge clk) begin
    $display("%0d: v=%b n=%0d l=%b r=%b lw=%h big=%b c=%b", cyc, v, n, l, r, lw,
             v >> 64'd9, 8'd1 << 3'd7);
    if (cyc == 18) $finish;
  end
endmodule
