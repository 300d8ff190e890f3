// want: 4:14: unknown identifier 'bit_dne'; did you mean 'bit_done'?
module top(input logic a, output logic b);
  logic bit_done;
  assign b = bit_dne;
  assign bit_done = a;
endmodule
