// want: 3:20: unterminated string literal
module top;
  initial $display("hello);
endmodule
