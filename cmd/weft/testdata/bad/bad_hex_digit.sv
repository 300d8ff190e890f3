// want: 3:18: invalid digit 'G' in hexadecimal literal 4'hZG
module top(output logic [3:0] b);
  assign b = 4'hZG;
endmodule
