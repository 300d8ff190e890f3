// Constant part selects, on the right and on the left, with ascending and
// descending ranges.
module t(input logic clk);
  logic [15:0] d = 16'h1234;
  logic [0:7] asc = 8'b1100_1010;
  logic [15:0] w = 16'h0;
  int cyc = 0;
  always_ff @(posedge clk) begin
    cyc <= cyc + 1;
    d <= d * 16'd5 + 16'd3;
    w[3:0] <= d[15:12];
    w[11:4] <= d[7:0];
    w[15:12] <= asc[0:3];
    asc <= {asc[1:7], asc[0]};
  end
  always @(posedge clk) begin
    $display("%0d: d=%h d[11:4]=%h d[0]=%b asc[2:5]=%b asc[0]=%b w=%h", cyc, d, d[11:4], d[0], asc[2:5],
             asc[0], w);
    if (cyc == 8) $finish;
  end
endmodule
