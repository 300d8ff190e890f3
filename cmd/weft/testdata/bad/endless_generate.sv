// want: 4:3: generate loop 'g' runs more than 65536 iterations
module top(output logic b);
  genvar i;
  for (i = 0; i >= 0; i = i + 1) begin : g
  end
  assign b = 1'b0;
endmodule
