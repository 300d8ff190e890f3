// want: 3:20: missing ')' to close '(' at 3:14, found ';'
module top(input logic a, output logic b);
  assign b = (a & a;
endmodule
