// perf/peers/fifo.sv: the UART example's FIFO (32 bits wide, 16 deep)
// driven by an LFSR that decides each cycle whether to push and pop;
// `checksum` folds every popped word, `pops` counts them.
module fifo (
    input  logic        clk,
    input  logic        rst_n,
    output logic [31:0] checksum,
    output logic [31:0] pops
);
  logic [31:0] lfsr;
  always_ff @(posedge clk or negedge rst_n)
    if (!rst_n) lfsr <= 32'h1;
    else lfsr <= {lfsr[30:0], lfsr[31] ^ lfsr[21] ^ lfsr[1] ^ lfsr[0]};

  logic [31:0] pop_data;
  logic empty;
  wire push = lfsr[3] | lfsr[7];
  wire pop = lfsr[5] & ~empty;
  uart_fifo #(.WIDTH(32), .DEPTH(16)) u_fifo (
      .clk, .rst_n, .push, .push_data(lfsr ^ 32'h5A5A_0F0F), .pop, .pop_data, .empty,
      .full(), .overflow());

  always_ff @(posedge clk or negedge rst_n)
    if (!rst_n) begin
      checksum <= '0;
      pops <= '0;
    end else if (pop) begin
      checksum <= {checksum[30:0], checksum[31]} ^ pop_data;
      pops <= pops + 1;
    end
endmodule
