// Packed multi-dimensional arrays: element, sub-array and bit selects with
// dynamic indices, and the flat value. (Icarus 11 rejects dynamic element
// indices on the left of packed arrays, so the flop is a flat vector that
// is written through indexed part selects and read through packed views;
// 64_packed_dyn_write covers dynamic packed writes.)
module t(input logic clk);
  logic [31:0] pf = 32'h0403_0201;
  logic [23:0] qf = 24'h0;
  logic [3:0][7:0] p;
  logic [1:0][2:0][3:0] q;
  logic [1:0] i = 2'd0;
  logic [7:0] pi;
  logic [2:0][3:0] qi;
  assign pi = p[i];
  assign qi = q[i[0]];
  int cyc = 0;
  assign p = pf;
  assign q = qf;
  always_ff @(posedge clk) begin
    cyc <= cyc + 1;
    i <= i + 2'd1;
    pf[i * 8 +: 8] <= p[i] + 8'h11;
    pf[31] <= ~p[3][7];
    qf[i[0] * 12 + i * 4 +: 4] <= pi[3:0];
  end
  always @(posedge clk) begin
    $display("%0d: i=%0d p=%h p[i]=%h p[3]=%h p[1][3:0]=%h bit=%b q=%h q[1]=%h q[0][2]=%h qi[i]=%h pi[7:4]=%h", cyc, i,
             p, p[i], p[3], p[1][3:0], p[2][i], q, q[1], q[0][2], qi[i == 2'd3 ? 2'd0 : i], pi[7:4]);
    if (cyc == 10) $finish;
  end
endmodule
