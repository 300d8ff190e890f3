// want: 4:5: unterminated 'case': expected 'endcase' before 'end'
module top(input logic [1:0] a, output logic b);
  always_comb begin
    case (a)
      2'd0: b = 1'b0;
  end
endmodule
