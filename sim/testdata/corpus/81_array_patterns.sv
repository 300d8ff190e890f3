// golden: hand — Icarus 11 lacks unpacked arrays as the items and the
// default of an assignment pattern (and defaults in array patterns); the
// values follow IEEE 1800 §10.9.1 (an item or the default may be an array
// of the element type; elements pair left to right) and were checked
// against Verilator 5.006.
module t(input logic clk);
  logic [3:0] m [2][2];
  logic [3:0] n [1:0][0:1];
  logic [3:0] c [2][2][2];
  logic [3:0] row [2] = '{4'd1, 4'd2};
  logic [3:0] rev [1:0];
  localparam logic [3:0] PR [2] = '{4'd11, 4'd12};
  logic [3:0] pm [2][2] = '{PR, '{4'd13, 4'd14}};
  logic [3:0] cm [2][2];
  assign cm = '{row, '{4'd5, 4'd6}};
  int cyc = 0;
  always @(posedge clk) begin
    cyc <= cyc + 1;
    rev = row;
    m = '{row, '{4'd3, 4'd4}};
    $display("%0d: a %0d %0d %0d %0d", cyc, m[0][0], m[0][1], m[1][0], m[1][1]);
    m = '{default: rev};
    $display("   b %0d %0d %0d %0d", m[0][0], m[0][1], m[1][0], m[1][1]);
    m = '{1: row, default: '{4'd9, 4'd10}};
    $display("   c %0d %0d %0d %0d", m[0][0], m[0][1], m[1][0], m[1][1]);
    m = '{default: '{4'd7, 4'd8}};
    $display("   d %0d %0d %0d %0d", m[0][0], m[0][1], m[1][0], m[1][1]);
    n = '{row, rev};
    $display("   e %0d %0d %0d %0d", n[0][0], n[0][1], n[1][0], n[1][1]);
    c = '{m, '{default: PR}};
    $display("   f %0d %0d %0d %0d %0d %0d %0d %0d", c[0][0][0], c[0][0][1], c[0][1][0], c[0][1][1], c[1][0][0], c[1][0][1], c[1][1][0], c[1][1][1]);
    $display("   g %0d %0d %0d %0d | %0d %0d %0d %0d", pm[0][0], pm[0][1], pm[1][0], pm[1][1], cm[0][0], cm[0][1], cm[1][0], cm[1][1]);
    row[cyc % 2] <= row[cyc % 2] + 4'd1;
    if (cyc == 2) $finish;
  end
endmodule
