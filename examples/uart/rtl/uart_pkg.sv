// Shared types of the weft example UART: 8 data bits, no parity, 1 stop bit.
package uart_pkg;
  localparam int DATA_BITS = 8;

  typedef enum logic [1:0] {
    S_IDLE  = 2'd0,
    S_START = 2'd1,
    S_DATA  = 2'd2,
    S_STOP  = 2'd3
  } state_t;

  // One received character and its line status.
  typedef struct packed {
    logic                 frame_err;
    logic [DATA_BITS-1:0] data;
  } rx_char_t;
endpackage
