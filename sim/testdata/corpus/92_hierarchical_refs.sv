// golden: hand — Icarus 11 reads x from the never-written memory words
// early on; Verilator 5 prints the same values.
// Hierarchical references down into module instances: reads of a child's
// and grandchild's variables, generate scopes and memories, from processes,
// continuous assignments and port connections.
module leaf #(parameter int K = 3) (input logic clk, input logic [7:0] in);
  logic [7:0] acc = 0;
  logic [7:0] mem [4];
  always_ff @(posedge clk) begin
    acc <= acc + in + K[7:0];
    mem[acc[1:0]] <= in;
  end
  for (genvar g = 0; g < 2; g++) begin : gen
    logic [7:0] tap;
    assign tap = acc + 8'(g);
  end
endmodule
module mid (input logic clk);
  logic [7:0] feed = 8'd1;
  leaf #(.K(5)) l (.clk, .in(feed));
  always_ff @(posedge clk) feed <= l.acc ^ 8'h0f;
endmodule
module t(input logic clk);
  mid m (.clk);
  leaf l2 (.clk, .in(m.l.acc));
  localparam int KK = 5;
  logic [7:0] peek;
  assign peek = m.l.gen[1].tap + l2.mem[1];
  int cyc = 0;
  always @(negedge clk) begin
    cyc <= cyc + 1;
    $display("%0d: acc=%h feed=%h l2=%h peek=%h KK=%0d", cyc, m.l.acc, m.feed, l2.acc, peek, KK);
    if (cyc == 5) $finish;
  end
endmodule
