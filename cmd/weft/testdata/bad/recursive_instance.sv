// want: 6:5: recursive instantiation of module 'a': a -> b -> a
module top(input logic x, output logic y);
  a u_a (.x(x), .y(y));
endmodule
module b(input logic x, output logic y);
  a u_again (.x(x), .y(y));
endmodule
module a(input logic x, output logic y);
  b u_b (.x(x), .y(y));
endmodule
