// want: 5:7: delay controls are not supported yet (weft simulates RTL; drive time from the Go test bench)
module top(input logic clk, input logic a, output logic b);
  always_ff @(posedge clk) begin
    b <= a;
      #5 b <= ~a;
  end
endmodule
