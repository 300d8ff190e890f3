// golden: hand (Icarus 11 sizes $bits of a concatenation of variables as 0
// in a localparam; IEEE 1800 20.6.2 and Verilator: the expression's width)
// $bits of an expression in a constant context is the expression's width:
// concatenations, replications, operators and selects of variables size
// localparams and declarations.
module t(input logic clk);
  logic [31:0] a = 32'h1234_5678, b = 32'h9abc_def0;
  localparam int CAT = $bits({a, b});
  localparam int REP = $bits({4{a}});
  localparam int LIT = $bits({a, 8'h0});
  localparam int XOR = $bits(a ^ b);
  localparam int ONE = $bits({a});
  localparam int SUM = $bits(a[7:0] + b);
  logic [$bits({a, b})-1:0] wide;
  always @(posedge clk) begin
    wide = {a, b};
    $display("cat=%0d rep=%0d lit=%0d xor=%0d one=%0d sum=%0d wide=%0d", CAT, REP, LIT, XOR, ONE, SUM, $bits(wide));
    $display("wide=%h run-time cat=%0d", wide, $bits({a, b}));
    $finish;
  end
endmodule
