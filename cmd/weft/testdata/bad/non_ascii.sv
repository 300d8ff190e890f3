// want: 3:18: unexpected byte 0xc3: the non-ASCII character 'é' (U+00E9); outside strings and comments, SystemVerilog source is ASCII
module top(input logic a, output logic y);
  logic [1:0] café;
  // a comment may say café, and a string "café"
  assign y = a;
endmodule
