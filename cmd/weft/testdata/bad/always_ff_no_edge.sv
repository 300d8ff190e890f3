// want: 3:13: always_ff needs edge events only, such as @(posedge clk or negedge rst_n)
module top(input logic a, output logic b);
  always_ff @(a) b <= a;
endmodule
