// want: 2:23: inout ports are not supported yet (port 'pad')
module top(inout wire pad);
endmodule
