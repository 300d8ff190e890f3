// perf/peers/mac64.sv: 64 multiply-accumulate units (32x32-bit products
// into 64-bit accumulators) fed from an LFSR; the accumulators are folded
// by an adder tree into `sum` and by a rotate-xor tree into `mix`.
module mac64 #(
    parameter int N = 64
) (
    input  logic        clk,
    input  logic        rst_n,
    output logic [63:0] sum,
    output logic [63:0] mix
);
  logic [31:0] lfsr;
  always_ff @(posedge clk or negedge rst_n)
    if (!rst_n) lfsr <= 32'hACE1_1234;
    else lfsr <= {lfsr[30:0], lfsr[31] ^ lfsr[21] ^ lfsr[1] ^ lfsr[0]};

  logic [63:0] acc[N];
  for (genvar i = 0; i < N; i++) begin : g_mac
    wire [31:0] a = lfsr ^ (32'(i) * 32'h9E37_79B9);
    wire [31:0] b = {lfsr[15:0], lfsr[31:16]} + 32'(i);
    always_ff @(posedge clk or negedge rst_n)
      if (!rst_n) acc[i] <= '0;
      else acc[i] <= acc[i] + 64'(a) * 64'(b);
  end

  always_comb begin
    logic [63:0] add_t[N];
    logic [63:0] xor_t[N];
    for (int i = 0; i < N; i++) begin
      add_t[i] = acc[i];
      xor_t[i] = acc[i] ^ (acc[i] >> 7);
    end
    for (int w = N / 2; w >= 1; w = w / 2) begin
      for (int i = 0; i < w; i++) begin
        add_t[i] = add_t[2*i] + add_t[2*i+1];
        xor_t[i] = xor_t[2*i] ^ {xor_t[2*i+1][0], xor_t[2*i+1][63:1]};
      end
    end
    sum = add_t[0];
    mix = xor_t[0];
  end
endmodule
