// perf/peers/flops4k.sv: a throughput design with 128 x 32-bit registers
// (4,096 flops). Each register is updated every cycle from a shift/xor/add
// mix of itself and its neighbour; `sum` is the xor-reduction of all of them.
module flops4k #(
    parameter int N = 128
) (
    input  logic        clk,
    input  logic        rst_n,
    output logic [31:0] sum
);
  logic [31:0] r[N];

  for (genvar i = 0; i < N; i++) begin : g_reg
    always_ff @(posedge clk or negedge rst_n) begin
      if (!rst_n) r[i] <= 32'(i) * 32'h9E37_79B9 + 32'h1234_5678;
      else r[i] <= (r[i] << 3) ^ (r[i] >> 5) ^ (r[(i + 1) % N] + 32'(i));
    end
  end

  always_comb begin
    sum = '0;
    for (int i = 0; i < N; i++) sum = sum ^ r[i];
  end
endmodule
