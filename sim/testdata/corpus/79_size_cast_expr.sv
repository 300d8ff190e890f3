// Size casts whose size is a constant expression: a parameter, an
// arithmetic expression, $bits and a constant function call. The operand keeps its signedness
// (IEEE 1800 §6.24.1) and is evaluated as if assigned to a vector of the
// cast size: widened operands carry into the extra bits.
module t(input logic clk);
  localparam int W = 5;
  parameter P = 6;
  localparam logic [3:0] Q = 4'd3;
  logic [7:0] v = 8'hf3;
  logic signed [3:0] sn = -4'sd3;
  logic [3:0] un = 4'd13;
  logic [3:0] a4 = 4'd9, b4 = 4'd8;
  logic [15:0] wide;
  function automatic int dbl(input int x);
    return 2 * x;
  endfunction
  int cyc = 0;
  always @(posedge clk) begin
    cyc <= cyc + 1;
    sn <= sn + 4'sd2;
    un <= un + 4'd3;
    a4 <= a4 + 4'd5;
    v <= v + 8'd29;
    wide = (W + 1)'(sn);
    $display("%0d: sn=%0d un=%0d | %b %b %b %b %b | %0d %0d %0d %0d | %0d %0d %0d", cyc, sn, un,
      (W+1)'(sn), P'(un), $bits(v)'(sn), (Q + 1)'(v), dbl(2)'(un), wide,
      $bits(v)'(a4 + b4), P'(a4 + b4) >>> 1, (W-1)'(a4 + b4),
      $bits(wide)'(sn) + 16'sd0, (2*Q)'(sn) < 0, W'(un) + 5'd0);
    if (cyc == 4) $finish;
  end
endmodule
