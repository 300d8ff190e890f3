// want: 3:14: literal size must be at least 1, not 0
module top(output logic [7:0] b);
  assign b = 0'h1;
endmodule
