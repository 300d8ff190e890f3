// golden: hand — Icarus 11 does not implement explicit lifetimes ("sorry:
// overriding the default variable lifetime is not yet supported").
// IEEE 1800-2017 6.8/6.21: the initializer of a static variable runs once,
// before any procedure starts; an automatic variable's runs on every entry.
// So m counts 11, 12, 13, ... and z stays 4; the static function local
// starts at 100 once and accumulates, the automatic one does not.
module t(input logic clk);
  int cyc = 0;
  logic [7:0] r_static = 8'd0, r_auto = 8'd0;
  function int f_static(input int x);
    static int acc = 100;
    acc = acc + x;
    return acc;
  endfunction
  function automatic int f_auto(input int x);
    automatic int acc = 100;
    acc = acc + x;
    return acc;
  endfunction
  always_ff @(posedge clk) begin
    static int m = 10;
    automatic int z = 3;
    cyc <= cyc + 1;
    m = m + 1;
    z = z + 1;
    r_static <= 8'(m);
    r_auto <= 8'(z);
  end
  always @(posedge clk) begin
    $display("%0d: r_static=%0d r_auto=%0d f_static=%0d f_auto=%0d", cyc, r_static, r_auto, f_static(1), f_auto(1));
    if (cyc == 4) $finish;
  end
endmodule
