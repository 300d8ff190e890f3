// Four independent cores on one clock: each mixes its own state through a
// little comb datapath, so a partitioner can give each lane whole cores.
module core #(parameter logic [15:0] SEED = 16'h1) (
  input  logic        clk,
  input  logic        rst_n,
  input  logic [7:0]  in,
  output logic [15:0] acc
);
  logic [15:0] lfsr, mixed, next;
  assign mixed = (lfsr ^ {in, in}) + (acc >> 3);
  assign next  = mixed[0] ? mixed * 16'd5 : mixed + 16'd7;
  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      lfsr <= SEED;
      acc  <= '0;
    end else begin
      lfsr <= {lfsr[14:0], lfsr[15] ^ lfsr[13] ^ lfsr[12] ^ lfsr[10]};
      acc  <= acc + next;
    end
  end
endmodule

module cores (
  input  logic        clk,
  input  logic        rst_n,
  input  logic [7:0]  in,
  output logic [15:0] sum
);
  logic [15:0] acc [4];
  core #(.SEED(16'h1)) c0 (.clk, .rst_n, .in, .acc(acc[0]));
  core #(.SEED(16'h2)) c1 (.clk, .rst_n, .in, .acc(acc[1]));
  core #(.SEED(16'h3)) c2 (.clk, .rst_n, .in, .acc(acc[2]));
  core #(.SEED(16'h4)) c3 (.clk, .rst_n, .in, .acc(acc[3]));
  assign sum = acc[0] ^ acc[1] ^ acc[2] ^ acc[3];
endmodule
