// $readmemh from a file in the corpus directory (the path is relative to
// the directory the simulator runs in: the sim package), with @address
// jumps forwards and backwards, comments and underscores. (The file sets
// every word: Icarus leaves the others x, and weft does not yet support an
// initial block that also writes the memory.)
module t(input logic clk);
  logic [7:0] mem [0:15];
  logic [3:0] i = 4'd0;
  int cyc = 0;
  initial begin
    $readmemh("testdata/corpus/42_readmemh.hex", mem);
  end
  always_ff @(posedge clk) begin
    cyc <= cyc + 1;
    i <= i + 4'd1;
  end
  always @(posedge clk) begin
    $display("%0d: mem[%0d]=%h sum=%h", cyc, i, mem[i], mem[i] + mem[15 - i]);
    if (cyc == 15) $finish;
  end
endmodule
