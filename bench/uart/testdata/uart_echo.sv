// uart_echo: a UART whose frame format is set at run time (5..9 data bits,
// none/even/odd/mark/space parity, one or two stop bits), for the frame
// formats examples/uart does not have. What the receiver takes in it
// pushes into a FIFO and the transmitter sends back out, so a spec checks
// both directions: a source on rxd, rx_valid/rx_data for what the
// receiver decoded, and a sink on txd for what the transmitter sent.
module uart_echo #(
    parameter int DEPTH = 8
) (
    input  logic        clk,
    input  logic        rst_n,
    input  logic [15:0] divisor,    // clock cycles per bit, >= 4
    input  logic [ 3:0] data_bits,  // 5..9
    input  logic [ 2:0] parity,     // 0 none, 1 even, 2 odd, 3 mark, 4 space
    input  logic        two_stop,
    input  logic        tx_en,      // low: the transmitter waits between frames
    input  logic        rxd,
    output logic        txd,
    output logic        rx_valid,   // one-cycle pulse per good character
    output logic [ 8:0] rx_data,
    output logic [ 7:0] rx_errors,  // characters dropped: bad parity or a low stop bit
    output logic        overflow    // the FIFO was full when a character came
);
  typedef enum logic [2:0] {
    IDLE,
    START,
    DATA,
    PARITY,
    STOP
  } state_t;

  // The parity bit a character needs in the configured mode.
  function automatic logic parity_bit(input logic [8:0] d, input logic [2:0] mode);
    case (mode)
      3'd1: return ^d;  // even: the ones, parity included, are even
      3'd2: return ~^d;  // odd
      3'd3: return 1'b1;  // mark
      default: return 1'b0;  // space (and none: unused)
    endcase
  endfunction

  // ---- receiver ----
  logic [1:0] sync;
  wire rx = sync[1];
  state_t rs;
  logic [15:0] rcnt;
  logic [3:0] ridx;
  logic [8:0] rsh;
  logic rperr;

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) sync <= 2'b11;
    else sync <= {sync[0], rxd};
  end

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      rs <= IDLE;
      rcnt <= '0;
      ridx <= '0;
      rsh <= '0;
      rperr <= 1'b0;
      rx_valid <= 1'b0;
      rx_data <= '0;
      rx_errors <= '0;
    end else begin
      rx_valid <= 1'b0;
      rcnt <= rcnt + 1'b1;
      case (rs)
        IDLE: begin
          rcnt <= '0;
          if (!rx) rs <= START;
        end
        START:
        // The middle of the start bit: still low, or it was a glitch.
        if (rcnt == (divisor >> 1) - 1'b1) begin
          rcnt <= '0;
          ridx <= '0;
          rsh <= '0;
          rperr <= 1'b0;
          rs <= rx ? IDLE : DATA;
        end
        DATA:
        if (rcnt == divisor - 1'b1) begin
          rcnt <= '0;
          rsh[ridx] <= rx;
          ridx <= ridx + 1'b1;
          if (ridx == data_bits - 1'b1) rs <= (parity == 3'd0) ? STOP : PARITY;
        end
        PARITY:
        if (rcnt == divisor - 1'b1) begin
          rcnt <= '0;
          rperr <= (rx != parity_bit(rsh, parity));
          rs <= STOP;
        end
        STOP:
        // Only the first stop bit is checked, as receivers do.
        if (rcnt == divisor - 1'b1) begin
          rs <= IDLE;
          if (rx && !rperr) begin
            rx_valid <= 1'b1;
            rx_data  <= rsh;
          end else rx_errors <= rx_errors + 1'b1;
        end
        default: rs <= IDLE;
      endcase
    end
  end

  // ---- FIFO between them ----
  localparam int AW = $clog2(DEPTH);
  logic [8:0] mem[DEPTH];
  logic [AW-1:0] wp, rp;
  logic [AW:0] count;
  logic pop;
  wire empty = (count == 0);
  wire full = (count == (AW + 1)'(DEPTH));
  wire push = rx_valid && !full;

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      wp <= '0;
      rp <= '0;
      count <= '0;
      overflow <= 1'b0;
    end else begin
      if (rx_valid && full) overflow <= 1'b1;
      if (push) begin
        mem[wp] <= rx_data;
        wp <= wp + 1'b1;
      end
      if (pop) rp <= rp + 1'b1;
      count <= count + (AW + 1)'(push) - (AW + 1)'(pop);
    end
  end

  // ---- transmitter ----
  state_t ts;
  logic [15:0] tcnt;
  logic [3:0] tidx;
  logic [8:0] tsh;
  logic tstop2;
  wire tdone = (tcnt == divisor - 1'b1);

  assign pop = (ts == IDLE) && !empty && tx_en;

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      ts <= IDLE;
      tcnt <= '0;
      tidx <= '0;
      tsh <= '0;
      tstop2 <= 1'b0;
      txd <= 1'b1;
    end else begin
      tcnt <= (ts == IDLE || tdone) ? '0 : tcnt + 1'b1;
      case (ts)
        IDLE: begin
          txd <= 1'b1;
          if (pop) begin
            tsh <= mem[rp];
            txd <= 1'b0;
            ts  <= START;
          end
        end
        START:
        if (tdone) begin
          tidx <= '0;
          txd <= tsh[0];
          ts <= DATA;
        end
        DATA:
        if (tdone) begin
          if (tidx == data_bits - 1'b1) begin
            tstop2 <= 1'b0;
            if (parity == 3'd0) begin
              txd <= 1'b1;
              ts  <= STOP;
            end else begin
              txd <= parity_bit(tsh, parity);
              ts  <= PARITY;
            end
          end else begin
            tidx <= tidx + 1'b1;
            txd <= tsh[tidx+1'b1];
          end
        end
        PARITY:
        if (tdone) begin
          txd <= 1'b1;
          ts  <= STOP;
        end
        STOP:
        if (tdone) begin
          if (two_stop && !tstop2) tstop2 <= 1'b1;
          else ts <= IDLE;
        end
        default: ts <= IDLE;
      endcase
    end
  end
endmodule
