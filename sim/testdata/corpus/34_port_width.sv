// Port connections of other widths: an input narrower than its port is
// zero-extended (sign-extended when the actual is signed), a wider one
// truncated; outputs are extended or truncated into the actual likewise.
module sub(input logic [7:0] in8, input logic signed [7:0] sin8, input logic [3:0] in4,
           output logic [7:0] out8, output logic [3:0] out4,
           output logic [7:0] e8, output logic signed [7:0] es8, output logic [3:0] e4);
  assign out8 = in8 + {4'd0, in4};
  assign out4 = sin8[7:4] ^ in4;
  assign e8 = in8;
  assign es8 = sin8;
  assign e4 = in4;
endmodule

module t(input logic clk);
  logic [3:0] n = 4'd9;
  logic signed [3:0] s = -4'sd2;
  logic [11:0] w = 12'habc;
  logic [15:0] o16;
  logic [1:0] o2;
  logic [7:0] in8;
  logic [11:0] sin8;     // the signed port output lands in a wider unsigned actual
  logic [3:0] in4;
  int cyc = 0;
  sub u(.in8(n), .sin8(s), .in4(w), .out8(o16), .out4(o2), .e8(in8), .es8(sin8), .e4(in4));
  always_ff @(posedge clk) begin
    cyc <= cyc + 1;
    n <= n + 4'd5;
    s <= s - 4'sd3;
    w <= w + 12'h111;
  end
  always @(posedge clk) begin
    $display("%0d: n=%0d s=%0d w=%h in8=%h sin8=%h in4=%h o16=%h o2=%b", cyc, n, s, w, in8, sin8, in4, o16, o2);
    if (cyc == 8) $finish;
  end
endmodule
