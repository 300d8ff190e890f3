// golden: hand — Icarus 11 rejects a skipped foreach dimension (m[, j]);
// Verilator 5 prints the same values.
// foreach over unpacked, multi-dimensional and packed arrays, in order from
// each dimension's left bound to its right bound (IEEE 1800 §12.7.3), with
// a skipped dimension, and in an always_ff.
module t(input logic clk);
  logic [7:0] arr [4] = '{8'd1, 8'd2, 8'd3, 8'd4};
  logic [3:0] m [1:0][0:2];
  logic [2:0][3:0] pk = 12'h123;
  int sum, order, porder, n;
  always_comb begin
    sum = 0;
    foreach (arr[i]) sum += arr[i];
    order = 0;
    foreach (m[i, j]) order = order * 10 + i * 3 + j;
    porder = 0;
    foreach (pk[i]) porder = porder * 16 + pk[i];
    n = 0;
    foreach (m[, j]) n++;
  end
  always_ff @(posedge clk) foreach (m[a, b]) m[a][b] <= 4'(a + b);
  int cyc = 0;
  always @(negedge clk) begin
    cyc <= cyc + 1;
    $display("sum=%0d order=%0d porder=%h n=%0d m=%h %h", sum, order, porder, n, m[1][2], m[0][0]);
    if (cyc == 1) $finish;
  end
endmodule
