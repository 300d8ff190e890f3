// golden: hand (Icarus 11 has no parameters of struct type; Verilator 5.006
// prints the same)
// An assignment pattern as an arm of ?: takes the type of the assignment's
// target, as Ibex writes `c ? A : '{irq_ext: 1'b0, ...}`; nested too.
module t(input logic clk);
  typedef struct packed { logic irq_ext; logic [2:0] code; } irq_t;
  localparam irq_t A = '{irq_ext: 1'b1, code: 3'd5};
  logic c = 0;
  irq_t r;
  always @(posedge clk) begin
    r = c ? A : '{irq_ext: 1'b0, code: 3'd2};
    $display("c=%0d r=%b", c, r);
    r = c ? '{default: '1} : (!c ? A : '{irq_ext: 1'b0, code: 3'd7});
    $display("c=%0d r=%b", c, r);
    c <= ~c;
    if (c) $finish;
  end
endmodule
