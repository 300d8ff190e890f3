// want: 5:3: generate loop 'g': the generate loops of this design run more than 4096 iterations in all (elab.Limits.GenerateIterations; raise it with --max-generate-iterations)
// flags: --max-generate-iterations 4096
module top(output logic b);
  genvar i;
  for (i = 0; i >= 0; i = i + 1) begin : g
  end
  assign b = 1'b0;
endmodule
