// Tasks with input, output and inout arguments, called from clocked
// blocks; outputs are copied back when the task returns.
module t(input logic clk);
  logic [7:0] a = 8'd3, b = 8'd250;
  logic [7:0] lo = 8'd0, hi = 8'd0;
  logic [15:0] acc = 16'd0;
  int cyc = 0;
  task automatic split(input logic [15:0] v, output logic [7:0] l, output logic [7:0] h);
    l = v[7:0];
    h = v[15:8];
  endtask
  task automatic accum(inout logic [15:0] x, input logic [7:0] d);
    x = x + d;
    if (x > 16'd1000) x = x - 16'd1000;
  endtask
  always_ff @(posedge clk) begin
    logic [7:0] l, h;
    cyc <= cyc + 1;
    split(a * b, l, h);
    lo <= l;
    hi <= h;
    a <= a + 8'd9;
    b <= b - 8'd11;
  end
  always @(posedge clk) begin
    accum(acc, a);
    $display("%0d: a=%0d b=%0d lo=%h hi=%h acc=%0d", cyc, a, b, lo, hi, acc);
    if (cyc == 10) $finish;
  end
endmodule
