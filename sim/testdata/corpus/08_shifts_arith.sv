// Arithmetic shifts: >>> fills with the sign bit only for signed operands;
// <<< is the same as <<; shifts >= width give 0 or all sign bits.
module t(input logic clk);
  logic signed [7:0] s = -8'sd100;
  logic [7:0] u = 8'd156;
  logic [3:0] n = 4'd0;
  int cyc = 0;
  always_ff @(posedge clk) begin
    cyc <= cyc + 1;
    n <= n + 4'd1;
    if (n == 4'd11) s <= 8'sd77;
  end
  always @(posedge clk) begin
    $display("%0d: n=%0d s>>>n=%b u>>>n=%b s>>n=%b s<<<n=%b u<<<n=%b dec=%0d", cyc, n,
             s >>> n, u >>> n, s >> n, s <<< n, u <<< n, s >>> n);
    $display("   us=%b su=%b", $unsigned(s) >>> n, $signed(u) >>> n);
    if (cyc == 15) $finish;
  end
endmodule
