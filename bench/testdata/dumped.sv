`timescale 1ns/100ps
// A counter that asks for its own waveform, as a Verilog test bench does.
module dumped (
    input  logic       clk,
    input  logic       rst_n,
    output logic [3:0] count
);
  initial begin
    $dumpfile("DUMPFILE");
    $dumpvars(0, dumped);
  end
  always_ff @(posedge clk or negedge rst_n)
    if (!rst_n) count <= '0;
    else count <= count + 4'd1;
endmodule
