// Format specifiers: %d (padded to the width of the largest value), %0d,
// %h/%x, %b, %o, %c, %s, %m, %%, field widths, signed values, and
// values printed without a format.
module t(input logic clk);
  logic [7:0] u = 8'd5;
  logic signed [7:0] s = -8'sd3;
  logic [11:0] h = 12'h0a3;
  logic [2:0] b3 = 3'b101;
  logic [31:0] w = 32'd123456;
  logic signed [15:0] sw = -16'sd1000;
  int cyc = 0;
  always_ff @(posedge clk) begin
    cyc <= cyc + 1;
    u <= u * 8'd7;
    s <= s * 8'sd5;
    h <= h + 12'h3c1;
    b3 <= b3 + 3'd3;
    w <= w * 32'd13;
    sw <= sw + 16'sd777;
  end
  always @(posedge clk) begin
    $display("%0d: d=[%d] 0d=[%0d] sd=[%d] s0=[%0d] h=[%h] 0h=[%0h] x=[%x] b=[%b] 0b=[%0b] o=[%o] 0o=[%0o]", cyc,
             u, u, s, s, h, h, h, b3, b3, u, u);
    $display("   w=[%d] [%0d] [%h] sw=[%d] [%0d] [%h] [%b]", w, w, w, sw, sw, sw, sw[3:0]);
    $display("   c=[%c%c] m=[%m] pct=[%%] w5=[%5d] w2=[%2h] w10=[%10b] s=[%s]", u[6:0] + 7'd65, 8'd33, u, u, b3, "ok");
    $display(u, s, " raw ", h);
    if (cyc == 3) $finish;
  end
endmodule
