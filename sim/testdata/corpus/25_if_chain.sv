// if / else if chains, nested ifs with the dangling else binding to the
// inner if, and conditions on multi-bit values (true when non-zero).
module t(input logic clk);
  logic [3:0] a = 4'd0, b = 4'd15;
  logic [7:0] r;
  int cyc = 0;
  always_comb begin
    r = 8'd0;
    if (a > b) r = 8'd1;
    else if (a == b) r = 8'd2;
    else if (a[0]) begin
      if (b[1]) r = 8'd3;
      else r = 8'd4;          // binds to if (b[1])
    end else if (b & a) r = 8'd5;
    else r = 8'd6;
    if (a) if (b[3]) r = r + 8'd100; else r = r + 8'd200;
  end
  always_ff @(posedge clk) begin
    cyc <= cyc + 1;
    a <= a + 4'd3;
    b <= b - 4'd2;
  end
  always @(posedge clk) begin
    $display("%0d: a=%0d b=%0d r=%0d", cyc, a, b, r);
    if (cyc == 12) $finish;
  end
endmodule
