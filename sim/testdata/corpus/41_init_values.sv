// Declaration initial values and initial blocks: constants, expressions of
// parameters, an initial block that overwrites a declaration value and
// fills an array, and $display in an initial block (printed at time 0).
module t(input logic clk);
  parameter int BASE = 40;
  logic [7:0] a = 8'd17;
  logic [7:0] b = BASE + 2;
  logic signed [7:0] s = -8'sd9;
  logic [15:0] c = 16'hffff;
  logic [3:0] arr [0:3];
  int n = BASE * 3;
  bit flag = 1'b1;
  logic [7:0] d;
  initial begin
    c = 16'h1234;             // overrides the declaration value
    d = a + b;
    for (int i = 0; i < 4; i++) arr[i] = 4'(i * 5);
    $display("init: a=%0d b=%0d s=%0d c=%h d=%0d n=%0d flag=%b", a, b, s, c, d, n, flag);
  end
  int cyc = 0;
  always_ff @(posedge clk) begin
    cyc <= cyc + 1;
    a <= a + arr[cyc % 4];
    s <= s + 8'sd4;
    flag <= ~flag;
  end
  always @(posedge clk) begin
    $display("%0d: a=%0d s=%0d c=%h arr=%0d,%0d,%0d,%0d flag=%b", cyc, a, s, c, arr[0], arr[1], arr[2], arr[3], flag);
    if (cyc == 5) $finish;
  end
endmodule
