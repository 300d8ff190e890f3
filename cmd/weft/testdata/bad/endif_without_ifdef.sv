// want: 3:1: `endif without `ifdef
module top;
`endif
endmodule
