// want: 3:16: index 9 is out of range [7:0] of 'a'
module top(input logic [7:0] a, output logic b);
  assign b = a[9];
endmodule
