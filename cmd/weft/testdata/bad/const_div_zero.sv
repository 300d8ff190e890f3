// want: 3:22: division by zero in value of localparam 'W'
module top(output logic b);
  localparam int W = 8 / 0;
  assign b = 1'b0;
endmodule
