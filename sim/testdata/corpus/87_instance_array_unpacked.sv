// golden: hand — Icarus 11 cannot connect an unpacked array to an instance
// array ("needs an array index"); Verilator 5 prints the same values.
// An instance array connected to unpacked arrays with one element per
// instance: elements pair with instances left to right (IEEE 1800
// §23.3.3.5), whatever the directions of the two ranges.
module Inv(input logic [3:0] a, output logic [3:0] y);
  assign y = ~a;
endmodule
module t(input logic clk);
  logic [3:0] ins [1:0];
  logic [3:0] lanes [1:0];
  logic [3:0] rev [0:1];
  logic [3:0] outs2 [0:1];
  initial begin ins[0] = 4'h1; ins[1] = 4'h2; rev[0] = 4'h3; rev[1] = 4'h4; end
  Inv u[1:0](.a(ins), .y(lanes));
  Inv v[1:0](.a(rev), .y(outs2));
  always @(posedge clk) begin
    $display("lanes=%h %h outs2[0]=%h outs2[1]=%h", lanes[1], lanes[0], outs2[0], outs2[1]);
    $finish;
  end
endmodule
