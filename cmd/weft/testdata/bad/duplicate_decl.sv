// want: 4:9: 't' is already declared (at testdata/bad/duplicate_decl.sv:3:9)
module top(input logic a, output logic b);
  logic t;
  logic t;
  assign t = a;
  assign b = t;
endmodule
