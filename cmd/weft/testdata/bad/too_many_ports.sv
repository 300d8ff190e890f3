// want: 6:17: too many port connections for module 'leaf' (it has 2 ports)
module leaf(input logic x, output logic y);
  assign y = x;
endmodule
module top(input logic a, output logic b, c);
  leaf u (a, b, c);
endmodule
