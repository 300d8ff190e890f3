// want-warning: 6:14: port 'x' of 'u' is 8 bits wide but is connected to a 4-bit expression; the value is zero-extended [WIDTHEXPAND]
module leaf(input logic [7:0] x, output logic y);
  assign y = ^x;
endmodule
module top(input logic [3:0] a, output logic b);
  leaf u (.x(a), .y(b));
endmodule
