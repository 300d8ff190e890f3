// perf/peers/counters.sv: N independent 32-bit counters, one always_ff per
// counter from a generate loop (the shape other simulators publish as a
// benchmark). Counter i adds i+1 each cycle, so every counter differs;
// `first` and `last` show two of them.
module counters #(
    parameter int N = 1000
) (
    input  logic        clk,
    input  logic        rst_n,
    output logic [31:0] first,
    output logic [31:0] last
);
  logic [31:0] cnt[N];

  for (genvar i = 0; i < N; i++) begin : g_cnt
    always_ff @(posedge clk or negedge rst_n) begin
      if (!rst_n) cnt[i] <= '0;
      else cnt[i] <= cnt[i] + 32'(i + 1);
    end
  end

  assign first = cnt[0];
  assign last  = cnt[N-1];
endmodule
