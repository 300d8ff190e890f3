// golden: hand — Icarus reads x for out-of-range selects, x/z literals and
// never-written variables; weft is 2-state (x and z read as 0), so the
// expected values were worked out by hand.
// Out-of-range reads return 0 (whole or per bit for a partly outside part
// select), out-of-range writes do nothing, x/z literal bits read as 0.
module t(input logic clk);
  logic [7:0] mem [0:3];
  logic [7:0] v = 8'b1010_0101;
  logic [7:0] w = 8'd0;
  logic [2:0] i = 3'd2;
  logic [3:0] j = 4'd5;
  logic [7:0] never;
  logic [3:0] xl = 4'b1x0z;
  logic [7:0] xf = 'x;
  int cyc = 0;
  initial for (int k = 0; k < 4; k++) mem[k] = 8'((k + 1) * 17);   // 17, 34, 51, 68
  always_ff @(posedge clk) begin
    cyc <= cyc + 1;
    i <= i + 3'd1;
    j <= j + 4'd1;
    mem[i] <= mem[i] + 8'd1;   // no effect while i >= 4
    w[j] <= 1'b1;              // no effect while j >= 8
  end
  always @(posedge clk) begin
    $display("%0d: i=%0d mem[i]=%0d mem=%0d,%0d,%0d,%0d j=%0d v[j]=%b v[j+:4]=%b w=%b never=%0d xl=%b xf=%h eq=%b",
             cyc, i, mem[i], mem[0], mem[1], mem[2], mem[3], j, v[j], v[j +: 4], w, never, xl, xf, xl == 4'b1000);
    if (cyc == 7) $finish;
  end
endmodule
