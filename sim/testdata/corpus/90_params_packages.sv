// golden: hand — Icarus 11 cannot parse type parameters with a typed
// default; Verilator 5 prints the same values.
// Package types and functions, a type parameter with a typed value
// parameter, an unpacked array parameter overridden by an assignment
// pattern, nested generate scopes referring to the previous iteration,
// packed multi-dimensional selects.
package p;
  localparam int W = 6;
  typedef logic [W-1:0] w_t;
  function automatic w_t inc(w_t x); return x + 1; endfunction
endpackage
module sub #(parameter type T = logic [3:0], parameter T INIT = '0, parameter int A [3] = '{1, 2, 3}) (output T y, output int s);
  assign y = INIT;
  assign s = A[0] + A[1] * 10 + A[2] * 100;
endmodule
module t(input logic clk);
  import p::*;
  w_t v = 6'd62;
  logic [3:0][7:0] pk = 32'h44332211;
  logic [7:0] mem [0:3][0:1];
  logic [15:0] yy; int ss, ss2;
  logic [3:0] y2;
  sub #(.T(logic [15:0]), .INIT(16'hbeef), .A('{4, 5, 6})) u1 (.y(yy), .s(ss));
  sub u2 (.y(y2), .s(ss2));
  genvar g;
  generate
    for (g = 0; g < 3; g++) begin : lvl
      localparam int K = g * 2;
      logic [7:0] q;
      if (g > 0) begin : inner
        assign q = lvl[g-1].q + K;
      end else begin : inner
        assign q = 8'd1;
      end
    end
  endgenerate
  int i = 1;
  always_comb begin
    for (int a = 0; a < 4; a++) for (int b = 0; b < 2; b++) mem[a][b] = 8'(a * 16 + b);
  end
  int cyc = 0;
  always @(posedge clk) begin
    cyc <= cyc + 1;
    $display("v=%0d inc=%0d pk1=%h pks=%h dyn=%h yy=%h ss=%0d y2=%h ss2=%0d q=%0d %0d bits=%0d", v, inc(v), pk[1], pk[2:1], pk[i +: 2], yy, ss, y2, ss2, lvl[2].q, lvl[1].q, $bits(w_t));
    $display("mem=%h %h %h", mem[3][1], mem[i][i], mem[2][0]);
    if (cyc == 1) $finish;
  end
endmodule
