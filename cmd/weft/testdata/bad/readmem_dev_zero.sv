// want: 4:11: $readmemh file /dev/zero is not a regular file (a character device); weft reads only regular files
module top(input logic [3:0] a, output logic [7:0] q);
  logic [7:0] mem [0:15];
  initial $readmemh("/dev/zero", mem);
  assign q = mem[a];
endmodule
