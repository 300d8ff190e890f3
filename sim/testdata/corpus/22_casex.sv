// casex with wildcard labels (2-state values: only the labels carry
// don't-cares), and a casez whose expression is the constant.
module t(input logic clk);
  logic [5:0] v = 6'd0;
  logic [3:0] r, k;
  int cyc = 0;
  always_comb begin
    casex (v)
      6'b1x_xx_x1: r = 4'd1;
      6'b1x_xx_x0: r = 4'd2;
      6'b01_x1_xx: r = 4'd3;
      6'b0x_x0_x1: r = 4'd4;
      default:     r = 4'd5;
    endcase
    casez (1'b1)             // reverse case: first set bit from the top
      v[5]:    k = 4'd5;
      v[4]:    k = 4'd4;
      v[3]:    k = 4'd3;
      v[2]:    k = 4'd2;
      default: k = 4'd0;
    endcase
  end
  always_ff @(posedge clk) begin
    cyc <= cyc + 1;
    v <= v + 6'd7;
  end
  always @(posedge clk) begin
    $display("%0d: v=%b r=%0d k=%0d", cyc, v, r, k);
    if (cyc == 14) $finish;
  end
endmodule
