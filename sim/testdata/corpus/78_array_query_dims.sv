// golden: hand — Icarus 11 lacks $dimensions of a partly selected array,
// type arguments of array query functions and a dimension number that is
// not a constant; the values follow IEEE 1800 §20.7 (a 1-bit scalar has no
// dimension) and were checked against Verilator 5.006.
module t(input logic clk);
  logic [7:0] v;
  logic [3:0][7:0] pk;
  logic [3:0] m [2][3];
  logic [7:0][1:0] pa [4:1][0:2];
  logic sc;
  int i;
  byte by;
  typedef struct packed { logic [2:0] a; logic b; } st_t;
  st_t st;
  typedef enum logic [1:0] {A, B, C} e_t;
  e_t en;
  typedef logic [5:2][0:1] w_t;
  localparam int DM = $dimensions(m), UM = $unpacked_dimensions(pa), LP = $left(pa, 3);
  int d = 1;
  int cyc = 0;
  initial begin
    $display("dims v=%0d pk=%0d m=%0d pa=%0d sc=%0d i=%0d by=%0d st=%0d en=%0d", $dimensions(v), $dimensions(pk), $dimensions(m),
      $dimensions(pa), $dimensions(sc), $dimensions(i), $dimensions(by), $dimensions(st), $dimensions(en));
    $display("udims v=%0d pk=%0d m=%0d pa=%0d sc=%0d i=%0d", $unpacked_dimensions(v), $unpacked_dimensions(pk), $unpacked_dimensions(m),
      $unpacked_dimensions(pa), $unpacked_dimensions(sc), $unpacked_dimensions(i));
    $display("sel m0=%0d m00=%0d pa1=%0d pa10=%0d pa103=%0d pk2=%0d v3=%0d upa1=%0d", $dimensions(m[0]), $dimensions(m[0][1]), $dimensions(pa[1]),
      $dimensions(pa[1][0]), $dimensions(pa[1][0][3]), $dimensions(pk[2]), $dimensions(v[3]), $unpacked_dimensions(pa[1]));
    $display("expr add=%0d cmp=%0d cat=%0d", $dimensions(v + 8'd1), $dimensions(v == 8'd1), $dimensions({v, v}));
    $display("types w_t=%0d st_t=%0d int=%0d logic=%0d vec=%0d u=%0d left=%0d right=%0d", $dimensions(w_t), $dimensions(st_t), $dimensions(int),
      $dimensions(logic), $dimensions(logic [3:0]), $unpacked_dimensions(w_t), $left(w_t, 2), $right(w_t));
    $display("params DM=%0d UM=%0d LP=%0d", DM, UM, LP);
  end
  always @(posedge clk) begin
    cyc <= cyc + 1;
    d <= d == 4 ? 1 : d + 1;
    $display("d=%0d pa: left=%0d right=%0d low=%0d high=%0d inc=%0d size=%0d | m: left=%0d size=%0d | w_t: left=%0d inc=%0d", d,
      $left(pa, d), $right(pa, d), $low(pa, d), $high(pa, d), $increment(pa, d), $size(pa, d),
      $left(m, d - 1 + 1), $size(m, (d % 3) + 1), $left(w_t, d % 2 + 1), $increment(w_t, d % 2 + 1));
    if (cyc == 4) $finish;
  end
endmodule
