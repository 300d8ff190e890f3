// golden: hand — Icarus 11 and Verilator 5 both mis-size these; IEEE 1800
// §27.5 evaluates a generate case like a case statement (§12.5.1: the
// subject and every label in one context, unsigned when any is unsigned),
// and $size of a function result counts its leftmost packed dimension.
// Regression: generate case compared each label on its own (y was 1) and
// $size(f()) gave the width (12).
module t(input logic clk);
  logic y, z, yp;
  function automatic logic [2:0][3:0] f(); return 12'habc; endfunction
  localparam int SZ = $size(f());
  localparam int BI = $bits(f());
  generate
    case (4'shf)
      8'shff: assign y = 1;
      8'h00: assign y = 1;
      default: assign y = 0;
    endcase
    case (4'shf)
      8'shff: assign z = 1;
      default: assign z = 0;
    endcase
  endgenerate
  always_comb
    case (4'shf)
      8'shff: yp = 1;
      8'h00: yp = 1;
      default: yp = 0;
    endcase
  always @(posedge clk) begin
    $display("y=%b z=%b yp=%b SZ=%0d BI=%0d", y, z, yp, SZ, BI);
    $finish;
  end
endmodule
