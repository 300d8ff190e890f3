// golden: hand — Icarus 11 lacks modport imports and Verilator 5 generic
// interface ports; with the generic ports spelled bus_if, Verilator 5 prints
// the same values (the g= line's place among same-edge displays aside).
// Generic interface ports (interface, interface.mp), an interface port
// passed down a level, a task imported through a modport and called from
// the parent, $bits of a member through a port in a localparam, and
// interface instances inside a generate loop.
interface bus_if (input logic clk);
  logic [7:0] data;
  logic valid, ready;
  task automatic put(input logic [7:0] d);
    data = d;
    valid = 1'b1;
  endtask
  modport src (output data, valid, input ready, import put);
  modport dst (input data, valid, output ready);
endinterface

module sink (interface.dst d, input logic clk, output logic [7:0] got);
  localparam int W = $bits(d.data);
  assign d.ready = 1'b1;
  always_ff @(posedge clk) if (d.valid && d.ready) got <= d.data + W[7:0];
endmodule

module relay (bus_if.dst in, interface out, input logic clk, output logic [7:0] got);
  sink u (.d(in), .clk, .got);
endmodule

module t(input logic clk);
  bus_if a (.clk(clk));
  bus_if b (.clk(clk));
  logic [7:0] got;
  int cyc = 0;
  relay r (.in(a), .out(b), .clk, .got);
  always_comb begin
    a.valid = 1'b0;
    a.data = 8'd0;
    if (cyc[0]) a.put(cyc[7:0]);
  end
  always @(negedge clk) begin
    cyc <= cyc + 1;
    $display("%0d: v=%b d=%h r=%b got=%h", cyc, a.valid, a.data, a.ready, got);
    if (cyc == 6) $finish;
  end
  generate
    for (genvar i = 0; i < 2; i++) begin : g
      bus_if gi (.clk(clk));
      assign gi.data = 8'(i + 5);
    end
  endgenerate
  always @(negedge clk) if (cyc == 0) $display("g=%h %h", g[0].gi.data, g[1].gi.data);
endmodule
