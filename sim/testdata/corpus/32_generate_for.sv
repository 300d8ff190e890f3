// Generate for loops: a chain of stages built with a genvar, named blocks,
// per-iteration parameters and wires, a generated XOR tree, nested loops
// with a localparam read through hierarchical names, and an array of
// instances whose port slices the connected vector.
module stage #(parameter int K = 0) (input logic clk, input logic [7:0] d, output logic [7:0] q);
  initial q = 8'(K);
  always_ff @(posedge clk) q <= d + 8'(K);
endmodule

module inc(input logic [3:0] a, output logic [3:0] y);
  assign y = a + 4'd1;
endmodule

module t(input logic clk);
  localparam int N = 4;
  logic [7:0] src = 8'd1;
  logic [7:0] chain [0:N];
  logic [7:0] x;
  logic [15:0] a = 16'h1234, y;
  int cyc = 0;
  assign chain[0] = src;
  for (genvar i = 0; i < N; i++) begin : g
    stage #(.K(i * 10)) s(.clk(clk), .d(chain[i]), .q(chain[i + 1]));
  end
  genvar j;
  generate
    for (j = 0; j < 8; j = j + 1) begin : bits
      wire b = ^chain[N][j:0];
      assign x[j] = b;
    end
  endgenerate
  for (genvar p = 0; p < 2; p++) begin : o
    for (genvar q = 0; q < 2; q++) begin : n
      localparam int K = p * 2 + q;
      logic [3:0] z;
      assign z = a[K * 4 +: 4] ^ 4'(K);
    end
  end
  inc u[3:0] (.a(a), .y(y));
  always_ff @(posedge clk) begin
    cyc <= cyc + 1;
    src <= src + 8'd3;
    a <= a * 16'd3 + 16'd1;
  end
  always @(posedge clk) begin
    $display("%0d: src=%0d c1=%0d c2=%0d c3=%0d c4=%0d x=%b", cyc, src, chain[1], chain[2], chain[3], chain[4], x);
    $display("   a=%h y=%h z=%h%h%h%h", a, y, o[1].n[1].z, o[1].n[0].z, o[0].n[1].z, o[0].n[0].z);
    if (cyc == 8) $finish;
  end
endmodule
