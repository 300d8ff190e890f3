// A case label with x or z bits never matches a 2-state subject (nor, in
// casez, a label with x bits); weft warns and drops it (regression: such a
// label matched as if its x/z bits were 0).
module t(input logic clk);
  logic [3:0] a = 4'b1000;
  logic [1:0] y, z, w;
  always_comb case (a) 4'b1x0z: y = 1; default: y = 3; endcase
  always_comb casez (a) 4'b1x0?: z = 1; 4'b10??: z = 2; default: z = 3; endcase
  always_comb case (a) 4'b0000, 4'b10x0: w = 1; 4'b1000: w = 2; default: w = 3; endcase
  always @(posedge clk) begin
    $display("y=%0d z=%0d w=%0d", y, z, w);
    $finish;
  end
endmodule
