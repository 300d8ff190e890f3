// want: 3:3: unknown module 'fifo' (instantiated as 'u_fifo')
module top(input logic a, output logic b);
  fifo u_fifo (.a(a), .b(b));
endmodule
