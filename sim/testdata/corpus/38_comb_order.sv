// Combinational chains written out of order: every assign and always_comb
// reads signals defined further down; the result must be as if evaluated
// in dependency order. always_comb is also sensitive to what a function
// it calls reads (g is not an argument of addg).
module t(input logic clk);
  logic [7:0] e, d, c, b, a = 8'd1;
  logic [7:0] y, z;
  logic [7:0] g = 8'd1, fy;
  int cyc = 0;
  function automatic logic [7:0] addg(input logic [7:0] x);
    return x + g;
  endfunction
  always_comb fy = addg(z);
  assign e = d ^ 8'h0f;
  always_comb y = e + c;
  assign d = c << 1;
  always_comb begin
    z = y - b;
    if (z[0]) z = ~z;
  end
  assign c = b + 8'd3;
  assign b = a * 8'd5;
  always_ff @(posedge clk) begin
    cyc <= cyc + 1;
    a <= a + 8'd7;
    g <= g * 8'd3;
  end
  always @(posedge clk) begin
    $display("%0d: a=%0d b=%0d c=%0d d=%0d e=%0d y=%0d z=%0d g=%0d fy=%0d", cyc, a, b, c, d, e, y, z, g, fy);
    if (cyc == 8) $finish;
  end
endmodule
