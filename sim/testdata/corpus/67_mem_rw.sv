// Memory read during write: a registered read of the address being
// written returns the old word (nonblocking), a comb read returns the
// stored word, and a write-first bypass is built explicitly.
module t(input logic clk);
  logic [7:0] mem [0:7];
  logic [2:0] wa = 3'd0, ra = 3'd0;
  logic [7:0] wd = 8'd10, rq = 8'd0, byp = 8'd0;
  logic [7:0] comb_rd;
  int cyc = 0;
  initial for (int k = 0; k < 8; k++) mem[k] = 8'(100 + k);
  assign comb_rd = mem[ra];
  always_ff @(posedge clk) begin
    cyc <= cyc + 1;
    mem[wa] <= wd;
    rq <= mem[ra];                          // old word when ra == wa
    byp <= (ra == wa) ? wd : mem[ra];       // write-first
    wa <= wa + 3'd3;
    ra <= (cyc % 2 == 0) ? wa + 3'd3 : ra + 3'd1;
    wd <= wd + 8'd10;
  end
  always @(posedge clk) begin
    $display("%0d: wa=%0d ra=%0d wd=%0d rq=%0d byp=%0d comb=%0d", cyc, wa, ra, wd, rq, byp, comb_rd);
    if (cyc == 9) $finish;
  end
endmodule
