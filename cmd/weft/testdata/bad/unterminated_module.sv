// want: 2:1: unterminated module 'top': expected 'endmodule' before end of file
module top(input logic a, output logic b);
  assign b = a;
