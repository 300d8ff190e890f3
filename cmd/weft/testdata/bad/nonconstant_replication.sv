// want: 3:15: replication count must be a constant expression
module top(input logic [1:0] a, output logic [7:0] b);
  assign b = {a{1'b1}};
endmodule
