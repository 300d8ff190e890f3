// golden: hand — Icarus 11 does not implement break and continue ("sorry:
// break statements not supported"); the expected values were worked out
// by hand.
// break and continue in for and while loops inside functions and a
// clocked block: first set bit, a sum that skips multiples of 3, and a
// search that stops early.
module t(input logic clk);
  logic [7:0] v = 8'b0000_0000;
  int cyc = 0;
  function automatic int first_one(input logic [7:0] x);
    int r = -1;
    for (int i = 0; i < 8; i++)
      if (x[i]) begin
        r = i;
        break;
      end
    return r;
  endfunction
  function automatic int sum_skip3(input int n);
    int s = 0;
    for (int i = 1; i <= n; i++) begin
      if (i % 3 == 0) continue;
      s += i;
    end
    return s;
  endfunction
  function automatic int steps_to(input int lim);
    int k = 0, acc = 0;
    while (1) begin
      k++;
      acc += k;
      if (acc >= lim) break;
    end
    return k;
  endfunction
  always_ff @(posedge clk) begin
    cyc <= cyc + 1;
    v <= {v[6:0], 1'b0} ^ 8'(cyc * 40);
  end
  always @(posedge clk) begin
    $display("%0d: v=%b first=%0d skip3=%0d steps=%0d", cyc, v, first_one(v), sum_skip3(cyc + 2),
             steps_to(cyc * 5));
    if (cyc == 5) $finish;
  end
endmodule
