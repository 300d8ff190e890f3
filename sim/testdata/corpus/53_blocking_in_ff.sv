// Blocking assignments to block-local temporaries inside clocked blocks,
// mixed with nonblocking updates; the temporaries are not visible outside.
module t(input logic clk);
  logic [7:0] a = 8'd3, b = 8'd0, c = 8'd0;
  int cyc = 0;
  always_ff @(posedge clk) begin
    logic [7:0] t1, t2;
    t1 = a + 8'd1;
    t2 = t1 * 8'd2;
    t1 = t2 - a;
    b <= t1;
    c <= t2;
    a <= a + b;
    cyc <= cyc + 1;
  end
  always @(posedge clk) begin
    $display("%0d: a=%0d b=%0d c=%0d", cyc, a, b, c);
    if (cyc == 7) $finish;
  end
endmodule
