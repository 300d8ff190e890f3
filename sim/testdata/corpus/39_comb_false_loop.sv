// A bit-disjoint false loop: the carry vector depends on itself, but each
// bit only on lower bits (a ripple-carry adder), plus two words that feed
// each other through disjoint halves.
module t(input logic clk);
  logic [7:0] a = 8'd23, b = 8'd200;
  logic [8:0] c;
  logic [7:0] s;
  logic [7:0] p, q;
  int cyc = 0;
  assign c[0] = 1'b0;
  assign c[8:1] = (a & b) | ((a ^ b) & c[7:0]);
  assign s = a ^ b ^ c[7:0];
  assign p[3:0] = a[3:0];
  assign p[7:4] = q[3:0] + 4'd1;
  assign q[3:0] = p[3:0] ^ 4'h5;
  assign q[7:4] = p[7:4] + b[7:4];
  always_ff @(posedge clk) begin
    cyc <= cyc + 1;
    a <= a + 8'd37;
    b <= b - 8'd11;
  end
  always @(posedge clk) begin
    $display("%0d: a=%0d b=%0d s=%0d sum=%0d cout=%b p=%h q=%h", cyc, a, b, s, a + b, c[8], p, q);
    if (cyc == 8) $finish;
  end
endmodule
