// want: 3:3: unterminated block comment: missing */
module top(output logic b);
  /* this comment never ends
  assign b = 1'b0;
endmodule
