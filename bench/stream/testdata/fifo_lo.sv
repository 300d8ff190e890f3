// fifo_lo: the same FIFO behind active-low valid and ready and an
// active-high reset, for the components' polarity options.
module fifo_lo #(
    parameter int WIDTH = 8,
    parameter int UW    = 4,
    parameter int DEPTH = 4
) (
    input  logic             clk,
    input  logic             rst,
    input  logic [WIDTH-1:0] in_data,
    input  logic [UW-1:0]    in_user,
    input  logic             in_valid_n,
    output logic             in_ready_n,
    output logic [WIDTH-1:0] out_data,
    output logic [UW-1:0]    out_user,
    output logic             out_valid_n,
    input  logic             out_ready_n
);
  logic in_ready, out_valid;

  fifo #(.WIDTH(WIDTH), .UW(UW), .DEPTH(DEPTH)) u_fifo (
      .clk      (clk),
      .rst_n    (!rst),
      .in_data  (in_data),
      .in_user  (in_user),
      .in_valid (!in_valid_n),
      .in_ready (in_ready),
      .out_data (out_data),
      .out_user (out_user),
      .out_valid(out_valid),
      .out_ready(!out_ready_n)
  );

  assign in_ready_n  = !in_ready;
  assign out_valid_n = !out_valid;
endmodule
