// UART receiver: synchronises rxd, detects the start bit, samples each bit in
// its middle and flags a framing error when the stop bit reads low.
module uart_rx
  import uart_pkg::*;
#(
    parameter int DIV_W = 16
) (
    input  logic             clk,
    input  logic             rst_n,
    input  logic [DIV_W-1:0] divisor,
    input  logic             rxd,
    output logic             valid,      // one-cycle pulse
    output rx_char_t         char_out
);
  logic [1:0] sync;
  wire rx = sync[1];

  state_t state;
  logic [DIV_W-1:0] baud_cnt;
  logic [2:0] bit_idx;
  logic [7:0] shreg;

  wire half_bit = (baud_cnt == (divisor >> 1));
  wire full_bit = (baud_cnt == divisor - 1'b1);

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) sync <= 2'b11;
    else sync <= {sync[0], rxd};
  end

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      state <= S_IDLE;
      baud_cnt <= '0;
      bit_idx <= '0;
      shreg <= '0;
      valid <= 1'b0;
      char_out <= '0;
    end else begin
      valid <= 1'b0;
      case (state)
        S_IDLE: begin
          baud_cnt <= '0;
          if (!rx) state <= S_START;
        end
        S_START: begin
          // Re-check the start bit in its middle so a glitch is ignored.
          if (half_bit) begin
            baud_cnt <= '0;
            state <= rx ? S_IDLE : S_DATA;
            bit_idx <= '0;
          end else baud_cnt <= baud_cnt + 1'b1;
        end
        S_DATA: begin
          if (full_bit) begin
            baud_cnt <= '0;
            shreg <= {rx, shreg[7:1]};
            if (bit_idx == 3'd7) state <= S_STOP;
            bit_idx <= bit_idx + 1'b1;
          end else baud_cnt <= baud_cnt + 1'b1;
        end
        S_STOP: begin
          if (full_bit) begin
            state <= S_IDLE;
            valid <= 1'b1;
            char_out.data <= shreg;
            char_out.frame_err <= !rx;
          end else baud_cnt <= baud_cnt + 1'b1;
        end
      endcase
    end
  end
endmodule
