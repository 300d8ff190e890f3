// want: 2:1: missing `endif: `ifdef FOO is still open at the end of the file
`ifdef FOO
module top;
endmodule
