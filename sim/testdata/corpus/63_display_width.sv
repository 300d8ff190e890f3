// Explicit field widths in $display: %Nd right-justifies the decimal
// value in at least N characters, whatever the operand's width (the
// automatic width applies only without N); %0Nd pads with zeros; %Nh
// keeps the automatic zero padding and adds spaces up to N.
module t(input logic clk);
  int i = 3;
  logic [31:0] u = 32'd77;
  logic [63:0] l = 64'd123456;
  logic signed [15:0] s = -16'sd42;
  logic [7:0] b = 8'd200;
  logic [15:0] h = 16'h00ab;
  int cyc = 0;
  always_ff @(posedge clk) begin
    cyc <= cyc + 1;
    i <= i * -7;
    u <= u * 32'd9;
    l <= l * 64'd1001;
    s <= s * 16'sd3;
    b <= b + 8'd31;
  end
  always @(posedge clk) begin
    $display("%0d: [%5d][%5d][%8d][%6d][%2d][%12d][%05d]", cyc, i, u, l, s, b, u, i);
    $display("   [%6h][%10b][%4o][%3d][%1d]", h, b, b, 3, b);
    if (cyc == 5) $finish;
  end
endmodule
