// Several clocks derived from clk by dividers (by 2, by 3 with a counter,
// and a negedge-generated one); each domain counts its own edges and the
// clk domain samples them all.
module t(input logic clk);
  logic c2 = 1'b0, c3 = 1'b0, cn = 1'b0;
  logic [1:0] k3 = 2'd0;
  logic [7:0] n2 = 8'd0, n3 = 8'd0, nn = 8'd0, n3f = 8'd0;
  int cyc = 0;
  always_ff @(posedge clk) begin
    c2 <= ~c2;
    k3 <= (k3 == 2'd2) ? 2'd0 : k3 + 2'd1;
    c3 <= (k3 == 2'd2);
  end
  always_ff @(negedge clk) cn <= ~cn;
  always_ff @(posedge c2) n2 <= n2 + 8'd1;
  always_ff @(posedge c3) n3 <= n3 + 8'd1;
  always_ff @(negedge c3) n3f <= n3f + n3;
  always_ff @(posedge cn) nn <= nn + 8'd2;
  always_ff @(posedge clk) cyc <= cyc + 1;
  always @(posedge clk) begin
    $display("%0d: c2=%b c3=%b cn=%b n2=%0d n3=%0d n3f=%0d nn=%0d", cyc, c2, c3, cn, n2, n3, n3f, nn);
    if (cyc == 14) $finish;
  end
endmodule
