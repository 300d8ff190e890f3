// want: 3:18: unknown identifier 'c'
module top(input logic a, output logic b);
  assign b = a & c;
endmodule
