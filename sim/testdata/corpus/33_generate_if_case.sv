// Generate if and case on parameters choose the implementation of each
// instance; an unused branch may hold code that would not elaborate.
module unit #(parameter int MODE = 0) (input logic [7:0] a, input logic [7:0] b, output logic [7:0] y);
  if (MODE == 0) begin : g_add
    assign y = a + b;
  end else if (MODE == 1) begin : g_sub
    assign y = a - b;
  end else begin : g_other
    case (MODE)
      2: begin : g_and assign y = a & b; end
      3, 4: begin : g_xor assign y = a ^ b ^ 8'(MODE); end
      default: begin : g_zero assign y = '0; end
    endcase
  end
endmodule

module t(input logic clk);
  logic [7:0] a = 8'd10, b = 8'd3;
  logic [7:0] y [6];
  int cyc = 0;
  for (genvar m = 0; m < 6; m++) begin : u
    unit #(.MODE(m)) x(.a(a), .b(b), .y(y[m]));
  end
  always_ff @(posedge clk) begin
    cyc <= cyc + 1;
    a <= a * 8'd3;
    b <= b + 8'd5;
  end
  always @(posedge clk) begin
    $display("%0d: a=%0d b=%0d y=%0d %0d %0d %0d %0d %0d", cyc, a, b, y[0], y[1], y[2], y[3], y[4], y[5]);
    if (cyc == 6) $finish;
  end
endmodule
