// golden: hand (Icarus 11 cannot parse an enum whose base is a type name;
// Verilator 5.006 agrees with this output)
// An enum whose base type is a typedef'd vector, as Ibex declares its
// actions (`typedef enum action_mask_t {...} action_e;`), and one whose
// base is a package's type: the items take the base's width and values.
package p;
  typedef logic [2:0] sel_t;
endpackage
module t(input logic clk);
  typedef logic [3:0] action_mask_t;
  typedef enum action_mask_t {Clr = 4'h1, Set = 4'h2, Tog = 4'h4} action_e;
  typedef enum p::sel_t {A, B, C = 3'd6} sel_e;
  action_e a = Set;
  sel_e s = A;
  always @(posedge clk) begin
    $display("a=%0d bits=%0d next=%0d s=%0d bits=%0d last=%0d", a, $bits(a), a.next(), s, $bits(s), s.last());
    a <= a.next();
    s <= s.next();
    if (a == Tog) $finish;
  end
endmodule
