// want: 5:14: struct 'p' has no member 'z'
module top(input logic [7:0] a, output logic [3:0] b);
  typedef struct packed { logic [3:0] x; logic [3:0] y; } pair_t;
  pair_t p;
  assign b = p.z;
  assign p = a;
endmodule
