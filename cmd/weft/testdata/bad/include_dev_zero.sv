// want: 2:1: include file /dev/zero is not a regular file (a character device); weft reads only regular files
`include "/dev/zero"
module top;
endmodule
