// golden: hand — Icarus 11 lacks arrays of interface ports; Verilator 5
// prints the same values (with the arbiter's loop reading a copy, as it
// cannot index an interface array with a loop variable).
// Arrays of interface ports with modports, bound element by element from
// the left to an instance array of the opposite direction, passed down a
// level, indexed by genvars and by an unrolled loop variable.
interface req_if #(parameter int W = 8);
  logic valid;
  logic [W-1:0] data;
  modport src (output valid, data);
  modport dst (input valid, data);
endinterface
module arb #(parameter int N = 3) (req_if.dst in [N], req_if.src out, input logic clk);
  logic [$clog2(N)-1:0] pick;
  always_comb begin
    pick = '0;
    for (int i = N - 1; i >= 0; i--) if (in[i].valid) pick = i[$clog2(N)-1:0];
  end
  logic [7:0] d [N];
  logic [N-1:0] v;
  for (genvar g = 0; g < N; g++) begin : cp
    assign d[g] = in[g].data;
    assign v[g] = in[g].valid;
  end
  assign out.valid = |v;
  assign out.data = d[pick];
endmodule
module pass (req_if.dst in [3], req_if.src out, input logic clk);
  arb #(.N(3)) u (.in(in), .out(out), .clk);
endmodule
module t(input logic clk);
  req_if reqs [2:0] ();
  req_if rsp ();
  pass p (.in(reqs), .out(rsp), .clk);
  int cyc = 0;
  for (genvar g = 0; g < 3; g++) begin : drv
    assign reqs[g].valid = cyc[g];
    assign reqs[g].data = 8'(16 * (g + 1) + cyc);
  end
  always @(negedge clk) begin
    cyc <= cyc + 1;
    $display("%0d: v=%b d=%h", cyc, rsp.valid, rsp.data);
    if (cyc == 7) $finish;
  end
endmodule
