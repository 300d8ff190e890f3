// want: 3:3: unknown type 'word_t'
module top(input logic a, output logic b);
  word_t w;
  assign b = a;
endmodule
