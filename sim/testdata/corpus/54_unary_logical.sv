// Unary operators in context: -x and ~x are evaluated at the context
// width (so ~a in a 16-bit context has 16 one-extended bits), ! gives one
// bit, unary plus; logical operators on multi-bit operands (true when
// non-zero) and their one-bit results in wider contexts.
module t(input logic clk);
  logic [7:0] a = 8'd0;
  logic signed [7:0] s = 8'sd1;
  logic [15:0] r1, r2, r3;
  logic [7:0] r4;
  logic [3:0] la = 4'd0, lb = 4'd0;
  logic [7:0] lr;
  int cyc = 0;
  assign r1 = ~a;          // 16-bit context
  assign r2 = -a;
  assign r3 = -s;          // signed: sign-extended first
  assign r4 = !a + 8'd0;
  assign lr = (la && lb) + (la || lb) + !la + 8'd10 * (la != 0 && !lb);
  always_ff @(posedge clk) begin
    cyc <= cyc + 1;
    a <= a + 8'd51;
    s <= s * -8'sd3;
    la <= (cyc % 3 == 0) ? 4'd0 : la + 4'd3;
    lb <= (cyc % 4 == 1) ? 4'd0 : lb + 4'd5;
  end
  always @(posedge clk) begin
    $display("%0d: a=%0d s=%0d r1=%h r2=%h r3=%h r4=%0d self=%h,%h plus=%0d nn=%0d", cyc, a, s, r1, r2, r3, r4,
             ~a, -a, +s, -(-s));
    $display("   la=%0d lb=%0d and=%b or=%b not=%b lr=%0d bitand=%b", la, lb, la && lb, la || lb, !lb, lr,
             |(la & lb));
    if (cyc == 10) $finish;
  end
endmodule
