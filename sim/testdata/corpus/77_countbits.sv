// $countbits (IEEE 1800 §20.9): '0 and '1 control bits, both, repeated,
// a control bit that is not a constant, and 'x/'z control bits, which
// count nothing in 2-state (bit) values.
module t(input logic clk);
  bit [7:0] b = 8'b1011_0010;
  logic [15:0] w = 16'hf00f;
  logic signed [5:0] s = -6'sd1;
  bit c = 1'b0;
  bit [3:0] lo;
  assign lo = b[3:0] + 4'd1;
  localparam int P = $countbits(8'hf0, '0);
  int cyc = 0;
  always @(posedge clk) begin
    cyc <= cyc + 1;
    b <= b + 8'd37;
    w <= {w[14:0], w[15] ^ w[3]};
    c <= ~c;
    s <= s - 6'sd5;
    $display("%0d: b=%b ones=%0d zeros=%0d both=%0d dup=%0d xz=%0d x1=%0d w1=%0d w0=%0d s1=%0d c=%0d nc=%0d P=%0d e=%0d", cyc, b,
      $countbits(b, '1), $countbits(b, '0), $countbits(b, '0, '1), $countbits(b, 1'b1, '1),
      $countbits(b, 'x, 'z), $countbits(b, 1'bx, 1'b1), $countbits(w, 1'b1), $countbits(w, 1'b0), $countbits(s, '1),
      $countbits(b, c), $countbits(w, c, 1'b1), P, $countbits(lo, '0));
    if (cyc == 5) $finish;
  end
endmodule
