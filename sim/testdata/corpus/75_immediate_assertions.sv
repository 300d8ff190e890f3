// golden: hand — Icarus 11 ignores cover statements (and Verilator needs
// --assert); IEEE 1800 §16.3 runs an immediate assertion's pass action when
// its condition holds and its fail action otherwise.
// Regression: the action blocks of immediate assertions were dropped.
module t(input logic clk);
  logic c = 1;
  logic [7:0] y, z;
  int n = 0, seen = 0;
  always_comb begin y = 0; cover (c) y = 8'ha5; end
  always_comb begin z = 0; assert (!c) z = 1; else z = 8'h5a; end
  int cyc = 0;
  always @(posedge clk) begin
    cyc <= cyc + 1;
    assume (cyc < 100);
    assert (c) n <= n + 1;
    cover (cyc[0]) seen <= seen + 1;
    restrict (cyc == 99);
    $display("y=%h z=%h n=%0d seen=%0d", y, z, n, seen);
    if (cyc == 3) $finish;
  end
endmodule
