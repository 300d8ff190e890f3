// want: 3:14: undefined macro `WIDTH
module top(output logic [7:0] b);
  assign b = `WIDTH'd3;
endmodule
