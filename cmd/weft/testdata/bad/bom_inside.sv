// want: 3:10: unexpected byte 0xef: a UTF-8 byte-order mark (0xef 0xbb 0xbf), which weft skips only at the start of a file
module top(input logic a, output logic y);
  assign ﻿y = a;
endmodule
