// golden: hand — Icarus 11's output without the "Time: N Scope: t" line
// it adds after each $error and $warning.
// $sformatf as an argument of $display, $error and $warning prints what its
// format and arguments written in its place print (common_cells and Ibex
// build their assertion messages this way).
module t(input logic clk);
  logic [3:0] n = 0;
  always @(posedge clk) begin
    n <= n + 1;
    assert (n < 2) else $error($sformatf("n is %0d, want < %0d", n, 2));
    if (n == 1) $warning($sformatf("n=%0d (%s)", n, "one"));
    $display("cycle ", $sformatf("%0d:%h", n, n * 3), " end");
    if (n == 3) $finish;
  end
endmodule
