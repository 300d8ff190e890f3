// The weft example UART: a transmit FIFO feeding the transmitter and a
// receiver feeding a receive FIFO. Loop txd back to rxd to test it.
module uart_top
  import uart_pkg::*;
#(
    parameter int DIV_W      = 16,
    parameter int FIFO_DEPTH = 4
) (
    input  logic             clk,
    input  logic             rst_n,
    input  logic [DIV_W-1:0] divisor,     // clock cycles per bit, >= 2
    // transmit side
    input  logic [      7:0] tx_data,
    input  logic             tx_valid,    // push tx_data when tx_ready
    output logic             tx_ready,
    output logic             txd,
    // receive side
    input  logic             rxd,
    output logic [      7:0] rx_data,
    output logic             rx_frame_err,
    output logic             rx_valid,    // a character is waiting
    input  logic             rx_ready,    // pop it
    output logic             rx_overflow
);
  logic tx_empty, tx_full, tx_busy, tx_start;
  logic [7:0] tx_head;
  logic tx_overflow_unused;

  // The FIFO takes a push while full when it pops in the same cycle, so
  // ready says so too: a push without ready would break the valid/ready
  // handshake (a source holding valid would push its beat twice).
  assign tx_ready = !tx_full || tx_start;
  assign tx_start = !tx_empty && !tx_busy;

  uart_fifo #(
      .WIDTH(8),
      .DEPTH(FIFO_DEPTH)
  ) u_tx_fifo (
      .clk,
      .rst_n,
      .push(tx_valid),
      .push_data(tx_data),
      .pop(tx_start),
      .pop_data(tx_head),
      .empty(tx_empty),
      .full(tx_full),
      .overflow(tx_overflow_unused)
  );

  uart_tx #(.DIV_W(DIV_W)) u_tx (
      .clk,
      .rst_n,
      .divisor,
      .start(tx_start),
      .data (tx_head),
      .busy (tx_busy),
      .txd
  );

  logic rx_char_valid;
  rx_char_t rx_char;
  logic rx_empty, rx_full_unused;
  rx_char_t rx_head;

  uart_rx #(.DIV_W(DIV_W)) u_rx (
      .clk,
      .rst_n,
      .divisor,
      .rxd,
      .valid(rx_char_valid),
      .char_out(rx_char)
  );

  uart_fifo #(
      .WIDTH($bits(rx_char_t)),
      .DEPTH(FIFO_DEPTH)
  ) u_rx_fifo (
      .clk(clk),
      .rst_n(rst_n),
      .push(rx_char_valid),
      .push_data(rx_char),
      .pop(rx_ready),
      .pop_data(rx_head),
      .empty(rx_empty),
      .full(rx_full_unused),
      .overflow(rx_overflow)
  );

  assign rx_valid = !rx_empty;
  assign rx_data = rx_head.data;
  assign rx_frame_err = rx_head.frame_err;
endmodule
