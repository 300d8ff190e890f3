// perf/peers/macloop.sv: a 4,096-bit packed register updated through an
// always @* for-loop of 128 32-bit multiply-accumulate lanes, each also
// reading its neighbour; `sum` xors the lanes.
module macloop (
    input  logic        clk,
    input  logic        rst_n,
    output logic [31:0] sum
);
  logic [4095:0] state, next;
  always @* begin
    for (int i = 0; i < 128; i++)
      next[i*32+:32] = state[i*32+:32] * 32'd1103515245 + state[((i+1)%128)*32+:32] + 32'(i);
  end
  always_ff @(posedge clk or negedge rst_n)
    if (!rst_n) state <= {128{32'h1234_5679}};
    else state <= next;
  always_comb begin
    sum = '0;
    for (int i = 0; i < 128; i++) sum = sum ^ state[i*32+:32];
  end
endmodule
