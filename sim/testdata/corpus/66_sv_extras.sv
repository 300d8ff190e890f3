// golden: hand — Icarus 11 lacks these SystemVerilog forms (signed'() and
// unsigned'() casts, @(edge ...), unique0 case, unique/priority if); the
// expected values were worked out by hand.
module t(input logic clk);
  logic [3:0] w = 4'd6;
  logic signed [3:0] s = 4'sd7;
  logic [7:0] both = 8'd0;
  logic [1:0] sel = 2'd0;
  logic [7:0] a, d;
  int cyc = 0;
  always @(edge clk) both <= both + 8'd1;
  always_comb begin
    a = 8'd0;
    unique0 case (sel)
      2'd1: a = 8'd11;
      2'd2: a = 8'd22;
    endcase
    priority if (sel[1]) d = 8'd2;
    else if (sel[0]) d = 8'd1;
    else d = 8'd0;
  end
  logic [7:0] e;
  always_comb begin
    unique if (sel == 2'd3) e = 8'd30;
    else if (sel == 2'd0) e = 8'd40;
    else e = 8'd50;
  end
  always_ff @(posedge clk) begin
    cyc <= cyc + 1;
    w <= w + 4'd5;
    s <= s + 4'sd5;
    sel <= sel + 2'd1;
  end
  always @(posedge clk) begin
    $display("%0d: w=%0d s=%0d sw=%0d us=%0d ext=%0d both=%0d sel=%0d a=%0d d=%0d e=%0d", cyc, w, s, signed'(w),
             unsigned'(s), signed'(w) + 8'sd0, both, sel, a, d, e);
    if (cyc == 4) $finish;
  end
endmodule
