// want: 4:18: unknown identifier 'c'
// The file starts with a byte-order mark, skipped without a word;
module top(input logic a, output logic b);
  assign b = a & c;
endmodule
