// A typed parameter's value is assigned to its declared type: '1 fills the
// width, operands are extended to it before the operation, and an override
// is converted the same way (regression: these used to be evaluated
// self-determined, giving F=1, S=0, Q=1 and a 1-bit MAX_COUNT).
module cnt #(parameter int WIDTH = 4, parameter bit [WIDTH-1:0] MAX_COUNT = '1,
             parameter logic [7:0] P = 8'd3)
            (output logic [31:0] m, output logic [7:0] p);
  assign m = MAX_COUNT;
  assign p = P;
endmodule
module t(input logic clk);
  localparam logic [7:0] F = '1;
  localparam logic [3:0] N = 4'hf;
  localparam logic [7:0] S = N + 4'd1;
  localparam logic signed [3:0] Q = '1;
  localparam int QI = Q;
  localparam logic [255:0] W = '1;
  localparam logic [15:0] G = {4'ha, 4'hb} << 4;
  logic [255:0] v = {256{1'b1}};
  logic [7:0] m;
  always_comb case (v) W: m = 8'd1; default: m = 8'd2; endcase
  logic [31:0] m1, m2;
  logic [7:0] p1, p2;
  cnt #(.WIDTH(32)) u1(.m(m1), .p(p1));
  cnt #(.WIDTH(6), .P('1)) u2(.m(m2), .p(p2));
  always @(posedge clk) begin
    $display("F=%h S=%0d Q=%0d QI=%0d G=%h m=%0d", F, S, Q, QI, G, m);
    $display("m1=%h m2=%h p1=%h p2=%h", m1, m2, p1, p2);
    $finish;
  end
endmodule
