// want: 3:3: modules 'a' and 'b' instantiate each other (a -> b -> a); no module is left to be the top (if a generate condition ends the recursion, name the top with --top)
module a(input logic x, output logic y);
  b u_b (.x(x), .y(y));
endmodule
module b(input logic x, output logic y);
  a u_a (.x(x), .y(y));
endmodule
