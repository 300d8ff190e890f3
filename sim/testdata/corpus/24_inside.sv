// golden: hand — Icarus 11 does not implement inside ("sorry: inside
// expressions not supported yet"), so the expected values were worked out
// by hand for v = 0, 3, 6, ..., 54 and checked line by line.
// The inside operator: value lists, ranges [lo:hi], wildcard set members
// (? bits match anything, like ==?), mixed widths, and case inside.
module t(input logic clk);
  logic [7:0] v = 8'd0;
  logic in1, in2, in3, in4;
  logic [1:0] k;
  int cyc = 0;
  assign in1 = v inside {8'd1, 8'd4, 8'd9, 8'd16};
  assign in2 = v inside {[8'd10:8'd20], [8'd40:8'd50]};
  assign in3 = !(v[3:0] inside {[4'd3:4'd5], 4'd12});
  assign in4 = v inside {8'b??11_0???, 6'd9};
  always_comb begin
    case (v) inside
      [8'd0:8'd5], 8'd27: k = 2'd1;
      8'b??1?_?1??:        k = 2'd2;
      default:             k = 2'd3;
    endcase
  end
  always_ff @(posedge clk) begin
    cyc <= cyc + 1;
    v <= v + 8'd3;
  end
  always @(posedge clk) begin
    $display("%0d: v=%0d in1=%b in2=%b in3=%b in4=%b k=%0d", cyc, v, in1, in2, in3, in4, k);
    if (cyc == 18) $finish;
  end
endmodule
