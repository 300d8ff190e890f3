// UART transmitter: idles high, sends start bit, 8 data bits LSB first, stop bit.
// Each bit lasts `divisor` clock cycles.
module uart_tx
  import uart_pkg::*;
#(
    parameter int DIV_W = 16
) (
    input  logic             clk,
    input  logic             rst_n,
    input  logic [DIV_W-1:0] divisor,
    input  logic             start,
    input  logic [      7:0] data,
    output logic             busy,
    output logic             txd
);
  state_t state;
  logic [DIV_W-1:0] baud_cnt;
  logic [2:0] bit_idx;
  logic [7:0] shreg;

  wire bit_done = (baud_cnt == divisor - 1'b1);

  assign busy = (state != S_IDLE);

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      state <= S_IDLE;
      baud_cnt <= '0;
      bit_idx <= '0;
      shreg <= '0;
      txd <= 1'b1;
    end else begin
      baud_cnt <= (state == S_IDLE || bit_done) ? '0 : baud_cnt + 1'b1;
      unique case (state)
        S_IDLE: begin
          txd <= 1'b1;
          if (start) begin
            shreg <= data;
            state <= S_START;
            txd   <= 1'b0;
          end
        end
        S_START:
        if (bit_done) begin
          state <= S_DATA;
          bit_idx <= '0;
          txd <= shreg[0];
        end
        S_DATA:
        if (bit_done) begin
          if (bit_idx == 3'd7) begin
            state <= S_STOP;
            txd   <= 1'b1;
          end else begin
            bit_idx <= bit_idx + 1'b1;
            txd <= shreg[bit_idx+1];
          end
        end
        S_STOP:
        if (bit_done) begin
          state <= S_IDLE;
          txd   <= 1'b1;
        end
      endcase
    end
  end
endmodule
