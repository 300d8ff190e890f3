// golden: hand — Icarus 11 lacks unpacked array arguments of functions
// and tasks; the values follow IEEE 1800 §13.5 and §7.6 (arrays passed by
// value, elements paired left to right whatever the directions of the two
// ranges) and were checked against Verilator 5.006.
module t(input logic clk);
  function automatic logic [7:0] sum(input logic [7:0] a [4]);
    logic [7:0] s = 0;
    for (int i = 0; i < 4; i++) s += a[i];
    return s;
  endfunction
  // [0:3]: a[0] is the leftmost element of whatever array is passed.
  function automatic logic [7:0] first(input logic [7:0] a [0:3]);
    return a[0];
  endfunction
  function automatic logic [7:0] wsum(input logic [7:0] a [2][3]);
    logic [7:0] s = 0;
    for (int i = 0; i < 2; i++)
      for (int j = 0; j < 3; j++) s += a[i][j] * 8'(i * 3 + j + 1);
    return s;
  endfunction
  // Rows of a two-dimensional argument passed on to another function.
  function automatic int rows(input logic [7:0] a [2][4]);
    return sum(a[0]) * 1000 + sum(a[1]);
  endfunction
  // The argument is a copy: writing it leaves the caller's array alone.
  function automatic logic [7:0] clobber(input logic [7:0] a [4]);
    a[0] = 8'd200;
    return a[0] + a[1];
  endfunction
  task automatic fill(input logic [7:0] base, output logic [7:0] o [4]);
    for (int i = 0; i < 4; i++) o[i] = base + 8'(i);
  endtask
  // An output copied back on an early return as well.
  task automatic bump(inout logic [7:0] o [4]);
    for (int i = 0; i < 4; i++) o[i] = o[i] + 8'd10;
    if (o[0] > 8'd20) return;
    o[3] = 8'd99;
  endtask
  function automatic int csum(input int a [3]);
    return a[0] * 100 + a[1] * 10 + a[2];
  endfunction
  localparam int P [3] = '{1, 2, 3};
  localparam int S = csum(P);
  localparam int S2 = csum('{4, 5, 6});
  logic [7:0] m [4] = '{8'd10, 8'd20, 8'd30, 8'd40};
  logic [7:0] r [3:0];
  logic [7:0] q [4];
  logic [7:0] m2 [2][3] = '{'{8'd1, 8'd2, 8'd3}, '{8'd4, 8'd5, 8'd6}};
  logic [7:0] m3 [2][4] = '{'{8'd1, 8'd2, 8'd3, 8'd4}, '{8'd5, 8'd6, 8'd7, 8'd8}};
  logic [7:0] y;
  assign y = sum(m);
  int cyc = 0;
  always @(posedge clk) begin
    cyc <= cyc + 1;
    r = m;
    $display("%0d: y=%0d first(m)=%0d first(r)=%0d sum+1=%0d wsum=%0d rows=%0d clobber=%0d m[0]=%0d S=%0d S2=%0d named=%0d",
      cyc, y, first(m), first(r), sum(m) + 8'd1, wsum(m2), rows(m3), clobber(m), m[0], S, S2, csum(.a('{7, 8, 9})));
    fill(8'd3 * 8'(cyc), q);
    $display("   q=%0d %0d %0d %0d", q[0], q[1], q[2], q[3]);
    fill(8'd5, r);
    $display("   r=%0d %0d %0d %0d", r[0], r[1], r[2], r[3]);
    bump(q);
    $display("   q=%0d %0d %0d %0d", q[0], q[1], q[2], q[3]);
    m[cyc % 4] <= m[cyc % 4] + 8'd1;
    m3[1][cyc % 4] <= 8'(cyc);
    if (cyc == 5) $finish;
  end
endmodule
