// A derived clock: div toggles on every clk edge and clocks other flops,
// which see the values the clk domain has just written (they run after the
// clk edge's updates); a second-level divider clocks a third domain.
module t(input logic clk);
  logic div = 1'b0, div2 = 1'b0;
  logic [7:0] a = 8'd0, b = 8'd0, c = 8'd0, seen = 8'd0;
  int cyc = 0;
  always_ff @(posedge clk) begin
    div <= ~div;
    a <= a + 8'd1;
    cyc <= cyc + 1;
  end
  always_ff @(posedge div) begin
    b <= b + a;        // a already holds the value written at this clk edge
    div2 <= ~div2;
  end
  always_ff @(posedge div2) begin
    c <= c + 8'd1;
    seen <= b;
  end
  always @(negedge clk) begin
    $display("%0d: div=%b div2=%b a=%0d b=%0d c=%0d seen=%0d", cyc, div, div2, a, b, c, seen);
    if (cyc == 12) $finish;
  end
endmodule
