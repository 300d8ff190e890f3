// Context-determined widths: the carry of an 8-bit add survives only when
// the context is wider than 8 bits.
module t(input logic clk);
  logic [7:0] a = 8'd200, b = 8'd100;
  logic [7:0] s8;
  logic [8:0] s9;
  logic [15:0] s16;
  int cyc = 0;
  assign s8 = a + b;
  assign s9 = a + b;
  assign s16 = (a + b) >> 1;          // 16-bit context: carry kept, then shifted
  always_ff @(posedge clk) begin
    cyc <= cyc + 1;
    a <= a + 8'd37;
    b <= b * 8'd3 + 8'd1;
  end
  always @(posedge clk) begin
    $display("%0d: a=%0d b=%0d s8=%0d s9=%0d s16=%0d", cyc, a, b, s8, s9, s16);
    // self-determined in $display: 8 bits; widened by a 9-bit operand
    $display("   self=%0d wide=%0d gt8=%0d gt9=%0d", (a + b) >> 1, (a + b + 9'd0) >> 1,
             a + b > 8'd250, a + b > 9'd255);
    if (cyc == 12) $finish;
  end
endmodule
