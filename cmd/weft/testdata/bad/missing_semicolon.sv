// want: 3:16: expected ';' after declaration, found 'assign'
module top(input logic a, output logic b);
  logic [3:0] t
  assign b = a;
endmodule
