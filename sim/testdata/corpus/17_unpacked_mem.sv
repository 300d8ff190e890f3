// Unpacked arrays (memories) with dynamic index: write through one port,
// read through another, and a two-dimensional unpacked array.
module t(input logic clk);
  logic [7:0] mem [0:15];
  logic [3:0] grid [4][3];
  logic [3:0] wa = 4'd0, ra = 4'd0;
  logic [7:0] rd = 8'd0;
  int cyc = 0;
  initial begin
    for (int k = 0; k < 16; k++) mem[k] = 8'(k * 3);
    for (int r = 0; r < 4; r++)
      for (int c = 0; c < 3; c++) grid[r][c] = 4'(r * 3 + c);
  end
  always_ff @(posedge clk) begin
    cyc <= cyc + 1;
    wa <= wa + 4'd5;
    ra <= ra + 4'd3;
    mem[wa] <= mem[wa] + 8'd100;
    rd <= mem[ra];
    grid[cyc % 4][cyc % 3] <= grid[cyc % 4][cyc % 3] + 4'd7;
  end
  always @(posedge clk) begin
    $display("%0d: wa=%0d ra=%0d rd=%0d mem[ra]=%0d mem[5]=%0d grid[1][2]=%0d grid[cyc%%4][0]=%0d", cyc, wa, ra, rd,
             mem[ra], mem[5], grid[1][2], grid[cyc % 4][0]);
    if (cyc == 12) $finish;
  end
endmodule
