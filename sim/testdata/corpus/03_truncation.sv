// Truncation on assignment, and widening with zero fill of unsigned values.
module t(input logic clk);
  logic [15:0] w = 16'hbeef;
  logic [3:0] nib;
  logic [7:0] byt;
  logic [23:0] ext;
  logic [4:0] sum5;
  int cyc = 0;
  always_comb begin
    nib = w;            // low 4 bits
    byt = w + 16'h0101; // low 8 bits of the 16-bit sum
    ext = w;            // zero-extended
    sum5 = nib + byt;   // 8-bit context, truncated to 5 bits
  end
  always_ff @(posedge clk) begin
    cyc <= cyc + 1;
    w <= {w[14:0], w[15] ^ w[13]} + 16'd77;
  end
  always @(posedge clk) begin
    $display("%0d: w=%h nib=%h byt=%h ext=%h sum5=%h", cyc, w, nib, byt, ext, sum5);
    if (cyc == 10) $finish;
  end
endmodule
