// want: 2:1: include file "nowhere.svh" not found (searched "testdata/bad"); add its directory to the include path
`include "nowhere.svh"
module top;
endmodule
