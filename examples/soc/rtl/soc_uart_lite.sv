// soc_uart_lite.sv -- transmit-only UART, 8 data bits, no parity, 1 stop bit,
// LSB first. DIV+1 clock cycles per bit. A byte written to DATA while the
// transmitter is busy is dropped; software polls STATUS.busy first.
`include "soc_compat.svh"

module soc_uart_lite
  import soc_pkg::*;
#(
    parameter int DIV_W       = 16,
    parameter int DEFAULT_DIV = 15
) (
    input  `SOC_VAR logic     clk,
    input  `SOC_VAR logic     rst_n,
    input  `SOC_VAR bus_req_t req,
    output bus_rsp_t          rsp,
    output logic              tx
);
  uart_state_e      state_q;
  logic [DIV_W-1:0] div_q;
  logic [DIV_W-1:0] baud_q;
  logic [2:0]       bit_q;
  logic [7:0]       shift_q;
  logic [7:0]       last_q;
  logic [15:0]      sent_q;
  logic             tx_q;
  logic             rvalid_q;
  word_t            rdata_q;

  logic             wr;
  logic             bit_end;
  logic             start;
  word_t            rval;

  assign wr      = req.valid & req.we;
  assign bit_end = (baud_q == div_q);
  assign start   = wr && (req.addr[4:2] == UART_DATA) && req.be[0] && (state_q == TX_IDLE);

  always_comb begin
    unique case (req.addr[4:2])
      UART_DATA:   rval = 32'(last_q);
      UART_STATUS: rval = {31'd0, state_q != TX_IDLE};
      UART_DIV:    rval = 32'(div_q);
      UART_COUNT:  rval = 32'(sent_q);
      default:     rval = '0;
    endcase
  end

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      state_q <= TX_IDLE;
      div_q   <= DIV_W'(DEFAULT_DIV);
      baud_q  <= '0;
      bit_q   <= '0;
      shift_q <= '0;
      last_q  <= '0;
      sent_q  <= '0;
      tx_q    <= 1'b1;
    end else begin
      if (wr && req.addr[4:2] == UART_DIV)
        div_q <= DIV_W'(apply_be(32'(div_q), req.wdata, req.be));

      baud_q <= (state_q == TX_IDLE || bit_end) ? '0 : baud_q + 1'b1;

      unique case (state_q)
        TX_IDLE: begin
          tx_q <= 1'b1;
          if (start) begin
            shift_q <= req.wdata[7:0];
            last_q  <= req.wdata[7:0];
            tx_q    <= 1'b0;                  // start bit
            state_q <= TX_START;
          end
        end
        TX_START: begin
          if (bit_end) begin
            tx_q    <= shift_q[0];
            bit_q   <= '0;
            state_q <= TX_DATA;
          end
        end
        TX_DATA: begin
          if (bit_end) begin
            if (bit_q == 3'd7) begin
              tx_q    <= 1'b1;                // stop bit
              state_q <= TX_STOP;
            end else begin
              tx_q    <= shift_q[bit_q + 3'd1];
              bit_q   <= bit_q + 3'd1;
            end
          end
        end
        TX_STOP: begin
          if (bit_end) begin
            sent_q  <= sent_q + 16'd1;
            state_q <= TX_IDLE;
          end
        end
        default: state_q <= TX_IDLE;
      endcase
    end
  end

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      rvalid_q <= 1'b0;
      rdata_q  <= '0;
    end else begin
      rvalid_q <= req.valid;
      if (req.valid && !req.we)
        rdata_q <= rval;
    end
  end

  always_comb begin
    rsp        = '0;
    rsp.ready  = 1'b1;
    rsp.rvalid = rvalid_q;
    rsp.rdata  = rdata_q;
  end

  assign tx = tx_q;

  wire unused_ok = &{1'b0, req.addr[XLEN-1:5], req.addr[1:0], req.wdata[XLEN-1:8]};

endmodule
