// want: 3:10: cannot assign to input port 'a'
module top(input logic a, output logic b);
  assign a = 1'b0;
  assign b = a;
endmodule
