// unique and priority case: the values are those of the plain forms
// (no violation occurs in this design).
module t(input logic clk);
  logic [1:0] sel = 2'd0;
  logic [3:0] v = 4'd0;
  logic [7:0] a, b;
  int cyc = 0;
  always_comb begin
    unique case (sel)
      2'd0: a = 8'd10;
      2'd1: a = 8'd11;
      2'd2: a = 8'd12;
      2'd3: a = 8'd13;
    endcase
    priority casez (v)
      4'b1???: b = 8'd8;
      4'b?1??: b = 8'd4;
      default: b = 8'd0;
    endcase
  end
  logic [7:0] d;
  always_comb begin
    // (Icarus 11 has no unique/priority if; the plain form is used)
    if (v[0]) d = 8'd1;
    else if (v[1]) d = 8'd2;
    else d = 8'd3;
  end
  always_ff @(posedge clk) begin
    cyc <= cyc + 1;
    sel <= sel + 2'd1;
    v <= v + 4'd3;
  end
  always @(posedge clk) begin
    $display("%0d: sel=%0d v=%b a=%0d b=%0d d=%0d", cyc, sel, v, a, b, d);
    if (cyc == 9) $finish;
  end
endmodule
