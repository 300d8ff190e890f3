// want: 4:3: 'top.b' is driven by more than one process: top:assign@3 (testdata/bad/multiple_drivers.sv:3:3) and top:assign@4 (testdata/bad/multiple_drivers.sv:4:3)
module top(input logic [3:0] a, output logic [3:0] b);
  assign b = a;
  assign b = ~a;
endmodule
