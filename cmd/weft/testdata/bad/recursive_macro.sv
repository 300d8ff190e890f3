// want: 4:14: macro `A nests more than 64 expansions deep (does it expand to itself?)
`define A (`A + 1)
module top(output logic [7:0] b);
  assign b = `A;
endmodule
