// want: 3:3: module 'top' instantiates itself (top -> top); no module is left to be the top (if a generate condition ends the recursion, name the top with --top)
module top(input logic a, output logic y);
  top u_again (.a(a), .y(y));
endmodule
