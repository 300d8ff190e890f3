// want: 4:37: '**' on constants: constant evaluation needs more than 34359738368 bits in this elaboration (elab.Limits.ConstBits; raise it with --max-const-bits)
module top(output logic y);
  localparam logic [16777215:0] A = '1;
  localparam logic [16777215:0] B = A ** A;
  assign y = B[0];
endmodule
