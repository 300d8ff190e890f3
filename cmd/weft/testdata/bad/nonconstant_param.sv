// want: 3:22: 'a' is not a constant; value of localparam 'W' must be a constant expression
module top(input logic [3:0] a, output logic b);
  localparam int W = a + 1;
  assign b = a[0];
endmodule
