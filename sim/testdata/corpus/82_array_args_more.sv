// golden: hand — neither Icarus 11 nor Verilator 5.006 takes these: a
// default value for an unpacked array argument, an element row of a
// two-dimensional array as an inout array argument, a recursive constant
// function with an array argument, an array default that IEEE 1800
// §10.9.1 applies recursively to the subarrays it matches, nested pattern
// defaults, and an array query whose dimension number is out of range at
// run time ('x in IEEE 1800 §20.7, read as 0 by 2-state weft). The values
// were worked out by hand from the standard.
module t(input logic clk);
  function automatic int pair(input int a [2] = '{7, 8});
    return a[0] * 10 + a[1];
  endfunction
  task automatic rot(inout int a [4]);
    int t0 = a[0];
    for (int i = 0; i < 3; i++) a[i] = a[i + 1];
    a[3] = t0;
  endtask
  function automatic int tri_sum(input int a [3]);
    if (a[0] == 0) return a[1] + a[2];
    return a[0] + tri_sum('{a[0] - 1, a[1], a[2]});
  endfunction
  localparam int TS = tri_sum('{4, 100, 1000});
  for (genvar g = 0; g < 2; g++) begin : gen
    localparam int L = tri_sum('{g + 1, g, 0});
    initial $display("gen[%0d].L=%0d", g, L);
  end
  int mm [2][4] = '{'{1, 2, 3, 4}, '{5, 6, 7, 8}};
  logic [3:0] row [2] = '{4'd1, 4'd2};
  logic [3:0] c [2][2][2];
  logic [3:0] m [2][2];
  int d = 0;
  int cyc = 0;
  always @(posedge clk) begin
    cyc <= cyc + 1;
    d <= d + 1;
    $display("%0d: pair()=%0d pair(..)=%0d TS=%0d left(m,%0d)=%0d size(c,%0d)=%0d", cyc, pair(), pair('{cyc, 3}), TS, d, $left(m, d), d, $size(c, d));
    rot(mm[1]);
    $display("   mm[0]=%0d %0d %0d %0d mm[1]=%0d %0d %0d %0d", mm[0][0], mm[0][1], mm[0][2], mm[0][3], mm[1][0], mm[1][1], mm[1][2], mm[1][3]);
    c = '{default: row};
    $display("   c=%0d %0d %0d %0d %0d %0d %0d %0d", c[0][0][0], c[0][0][1], c[0][1][0], c[0][1][1], c[1][0][0], c[1][0][1], c[1][1][0], c[1][1][1]);
    m = '{0: '{default: 4'd1}, default: 4'd2};
    $display("   m=%0d %0d %0d %0d", m[0][0], m[0][1], m[1][0], m[1][1]);
    m = '{'{0: 4'd3, default: row[0]}, '{default: 4'd5}};
    $display("   m=%0d %0d %0d %0d", m[0][0], m[0][1], m[1][0], m[1][1]);
    row[cyc % 2] <= row[cyc % 2] + 4'd1;
    if (cyc == 4) $finish;
  end
endmodule
