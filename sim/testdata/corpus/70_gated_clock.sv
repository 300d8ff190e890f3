// A clock gated by a flop (en changes on the negedge, so the gate is
// glitch-free): the gated domain fires with clk and sees the values from
// before the edge, unlike a flop-derived clock, whose domain runs after
// the clk domain's updates.
module t(input logic clk);
  logic en = 1'b0, div = 1'b0;
  logic gclk;
  logic [7:0] cnt = 8'd0, g = 8'd0, gseen = 8'd0, d = 8'd0, dseen = 8'd0;
  int cyc = 0;
  assign gclk = clk & en;
  always_ff @(negedge clk) en <= (cyc % 3 != 0);
  always_ff @(posedge clk) begin
    cyc <= cyc + 1;
    cnt <= cnt + 8'd1;
    div <= ~div;
  end
  always_ff @(posedge gclk) begin
    g <= g + 8'd1;
    gseen <= cnt;       // value before this clk edge
  end
  always_ff @(posedge div) begin
    d <= d + 8'd1;
    dseen <= cnt;       // value written at this clk edge
  end
  always @(negedge clk) begin
    $display("%0d: en=%b cnt=%0d g=%0d gseen=%0d d=%0d dseen=%0d", cyc, en, cnt, g, gseen, d, dseen);
    if (cyc == 10) $finish;
  end
endmodule
