// Plain case: multiple labels per item, default, first match wins, a
// case on an expression with labels of another width, and signedness:
// a signed expression against signed labels compares signed, against an
// unsigned label the comparison is unsigned at the wider width.
module t(input logic clk);
  logic [3:0] v = 4'd0;
  logic signed [3:0] s = -4'sd4;
  logic [7:0] r, r2, r3, r4, r5;
  int cyc = 0;
  always_comb begin
    case (v)
      4'd0, 4'd1: r = 8'd10;
      4'd2:       r = 8'd20;
      4'd3, 4'd2: r = 8'd30;   // 2 never reaches here
      4'd9:       r = 8'd90;
      default:    r = 8'hff;
    endcase
    case (v + 4'd8)          // 4-bit: wraps
      5'd16:   r2 = 8'd1;    // labels compared at 5 bits
      5'd8:    r2 = 8'd2;
      default: r2 = 8'd0;
    endcase
    case (s)
      -4'sd1:         r3 = 8'd1;
      -4'sd2, -4'sd3: r3 = 8'd2;
      4'sd3:          r3 = 8'd3;
      default:        r3 = 8'd0;
    endcase
    case (s)                 // unsigned 8-bit labels: s zero-extended
      8'hff:   r4 = 8'd1;
      8'd15:   r4 = 8'd2;
      default: r4 = 8'd0;
    endcase
    case (v)
      -1:      r5 = 8'd1;    // signed 32-bit label, unsigned v: never matches
      12:      r5 = 8'd2;
      default: r5 = 8'd0;
    endcase
  end
  always_ff @(posedge clk) begin
    cyc <= cyc + 1;
    v <= v + 4'd1;
    s <= s + 4'sd1;
  end
  always @(posedge clk) begin
    $display("%0d: v=%0d r=%0d r2=%0d s=%0d r3=%0d r4=%0d r5=%0d", cyc, v, r, r2, s, r3, r4, r5);
    if (cyc == 15) $finish;
  end
endmodule
