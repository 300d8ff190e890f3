// Constant and run-time system functions: $clog2, $bits, $countones,
// $onehot, $onehot0, $signed/$unsigned, $size/$left/$right of arrays.
module t(input logic clk);
  logic [9:0] v = 10'd1;
  logic [7:0] arr [2:5];
  int cyc = 0;
  localparam int L1 = $clog2(1), L2 = $clog2(2), L3 = $clog2(1000), L4 = $clog2(1024);
  always_ff @(posedge clk) begin
    cyc <= cyc + 1;
    v <= v * 10'd3;
  end
  always @(posedge clk) begin
    $display("%0d: v=%b ones=%0d oh=%b oh0=%b clog=%0d/%0d/%0d/%0d bits=%0d,%0d size=%0d left=%0d right=%0d", cyc,
             v, $countones(v), $onehot(v), $onehot0(v & 10'h3), L1, L2, L3, L4, $bits(v), $bits(v[3:1]),
             $size(arr), $left(arr), $right(arr));
    if (cyc == 7) $finish;
  end
endmodule
