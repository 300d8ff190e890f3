// want: 6:25: module 'leaf' has no port 'z'
module leaf(input logic x, output logic y);
  assign y = x;
endmodule
module top(input logic a, output logic b);
  leaf u (.x(a), .y(b), .z(a));
endmodule
