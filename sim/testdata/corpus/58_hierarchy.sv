// Three levels of hierarchy: parameters passed down, %m naming each
// instance, outputs of different widths, and displays from submodules
// (on different edges or cycles, so their order is defined).
module leaf #(parameter int ID = 0, parameter int W = 4) (input logic clk, input logic [W-1:0] d, output logic [W:0] q);
  initial q = '0;
  always_ff @(posedge clk) q <= d + W'(ID);
  always @(posedge q[0]) if (ID == 3) $display("  %m: q=%0d W=%0d", q, W);   // after the clk edge
endmodule

module mid #(parameter int BASE = 0) (input logic clk, input logic [5:0] d, output logic [7:0] sum, input int cyc);
  logic [4:0] qa;
  logic [6:0] qb;
  leaf #(.ID(BASE + 1))       la(.clk(clk), .d(d[3:0]), .q(qa));
  leaf #(.ID(BASE + 2), .W(6)) lb(.clk(clk), .d(d), .q(qb));
  assign sum = qa + qb;
  always @(negedge clk) if (cyc % 3 == BASE) $display("  %m: qa=%0d qb=%0d", qa, qb);
endmodule

module t(input logic clk);
  logic [5:0] d = 6'd1;
  logic [7:0] s0, s1;
  int cyc = 0;
  mid #(.BASE(0)) m0(.clk(clk), .d(d), .sum(s0), .cyc(cyc));
  mid #(.BASE(1)) m1(.clk(clk), .d(~d), .sum(s1), .cyc(cyc));
  always_ff @(posedge clk) begin
    cyc <= cyc + 1;
    d <= d + 6'd11;
  end
  always @(posedge clk) begin
    $display("%0d: d=%0d s0=%0d s1=%0d in %m", cyc, d, s0, s1);
    if (cyc == 7) $finish;
  end
endmodule
