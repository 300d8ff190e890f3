// want: 6:17: module 'leaf' has no parameter 'DEPTH'
module leaf #(parameter W = 1) (input logic [W-1:0] x, output logic [W-1:0] y);
  assign y = x;
endmodule
module top(input logic [3:0] a, output logic [3:0] b);
  leaf #(.W(4), .DEPTH(2)) u (.x(a), .y(b));
endmodule
