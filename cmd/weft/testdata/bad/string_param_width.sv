// want: 5:10: range bound (a 207-bit number) is too large
module top(output logic y);
  // A string parameter is its characters, 8 bits each: far too wide here.
  parameter S = "abcdefghijklmnopqrstuvwxyz";
  logic [S:0] x;
  assign y = x[0];
endmodule
