// Parameters: defaults, overrides by name and by position, typed and
// untyped parameters, localparams derived from parameters, and a
// parameter used as a width.
module acc #(parameter int W = 4, parameter logic [W-1:0] STEP = 1, parameter INIT = 3)
            (input logic clk, output logic [W-1:0] q);
  localparam int TOP = (1 << W) - 1;
  initial q = INIT;
  always_ff @(posedge clk) q <= (q == TOP[W-1:0]) ? '0 : q + STEP;
endmodule

module t(input logic clk);
  logic [3:0] q0;
  logic [5:0] q1;
  logic [7:0] q2;
  int cyc = 0;
  acc u0(.clk(clk), .q(q0));
  acc #(.W(6), .STEP(6'd9)) u1(.clk(clk), .q(q1));
  acc #(8, 8'd100, 250) u2(.clk(clk), .q(q2));
  always_ff @(posedge clk) cyc <= cyc + 1;
  always @(posedge clk) begin
    $display("%0d: q0=%0d q1=%0d q2=%0d", cyc, q0, q1, q2);
    if (cyc == 12) $finish;
  end
endmodule
