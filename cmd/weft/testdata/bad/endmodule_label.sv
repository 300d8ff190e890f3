// want: 4:13: 'endmodule' label 'bar' does not match module name 'top'
module top(input logic a, output logic b);
  assign b = a;
endmodule : bar
