// want: 3:19: invalid digit '2' in binary literal 8'b102
module top(output logic [7:0] b);
  assign b = 8'b102;
endmodule
