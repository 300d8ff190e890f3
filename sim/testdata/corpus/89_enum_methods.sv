// golden: hand — Icarus 11 cannot cast to an enum type; Verilator 5 prints
// the same values.
// Enum methods first, last, num, next and prev with a step (wrapping
// around), and next of a value that is no constant of the enum (0).
module t(input logic clk);
  typedef enum logic [2:0] {A = 3'd1, B = 3'd2, C = 3'd5, D = 3'd6} st_t;
  st_t s = A, n1, p1, n2, p3, bad;
  logic [2:0] raw = 3'd3;
  int num;
  always_comb begin
    n1 = s.next();
    p1 = s.prev();
    n2 = s.next(2);
    p3 = s.prev(3);
    num = s.num();
    bad = st_t'(raw);
    bad = bad.next();
  end
  int cyc = 0;
  always @(posedge clk) begin
    cyc <= cyc + 1;
    s <= s.next();
    $display("%0d s=%0d n1=%0d p1=%0d n2=%0d p3=%0d num=%0d first=%0d last=%0d bad=%0d", cyc, s, n1, p1, n2, p3, num, s.first(), s.last(), bad);
    if (cyc == 4) $finish;
  end
endmodule
