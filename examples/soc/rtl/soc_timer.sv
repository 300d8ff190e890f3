// soc_timer.sv -- 32-bit timer with prescaler, compare register and a sticky
// match flag that can drive an interrupt line.
//
//   COUNT advances by one every PRESC+1 cycles while CTRL.enable is set. On the
//   tick where COUNT == CMP the flag in STATUS sets (write 1 to clear) and,
//   with CTRL.auto_clr, COUNT restarts from 0. irq = flag & CTRL.irq_en.
`include "soc_compat.svh"

module soc_timer
  import soc_pkg::*;
#(
    parameter int PRESC_W = 16
) (
    input  `SOC_VAR logic     clk,
    input  `SOC_VAR logic     rst_n,
    input  `SOC_VAR bus_req_t req,
    output bus_rsp_t          rsp,
    output logic              irq
);
  timer_ctrl_t        ctrl_q;
  logic [PRESC_W-1:0] presc_q;
  logic [PRESC_W-1:0] pdiv_q;
  word_t              count_q;
  word_t              cmp_q;
  logic               flag_q;
  logic               rvalid_q;
  word_t              rdata_q;

  logic  wr;
  logic  rd;
  word_t wval;                 // the written register after the byte merge
  word_t rval;
  logic  tick;
  logic  hit;

  assign wr   = req.valid & req.we;
  assign rd   = req.valid & ~req.we;
  assign tick = ctrl_q.enable && (pdiv_q == presc_q);
  assign hit  = tick && (count_q == cmp_q);

  always_comb begin
    rval = '0;
    unique case (req.addr[4:2])
      TMR_CTRL:   rval = 32'(ctrl_q);
      TMR_PRESC:  rval = 32'(presc_q);
      TMR_COUNT:  rval = count_q;
      TMR_CMP:    rval = cmp_q;
      TMR_STATUS: rval = {31'd0, flag_q};
      default:    rval = '0;
    endcase
    wval = apply_be(rval, req.wdata, req.be);
  end

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      ctrl_q  <= '0;
      presc_q <= '0;
      pdiv_q  <= '0;
      count_q <= '0;
      cmp_q   <= '1;
      flag_q  <= 1'b0;
    end else begin
      // prescaler and counter
      if (!ctrl_q.enable || tick)
        pdiv_q <= '0;
      else
        pdiv_q <= pdiv_q + 1'b1;

      if (wr && req.addr[4:2] == TMR_COUNT)
        count_q <= wval;
      else if (hit && ctrl_q.auto_clr)
        count_q <= '0;
      else if (tick)
        count_q <= count_q + 1'b1;

      // a match wins over a clear in the same cycle
      `SOC_PRIORITY if (hit)
        flag_q <= 1'b1;
      else if (wr && req.addr[4:2] == TMR_STATUS && req.wdata[0] && req.be[0])
        flag_q <= 1'b0;

      if (wr && req.addr[4:2] == TMR_CTRL)
        ctrl_q <= wval[$bits(timer_ctrl_t)-1:0];
      if (wr && req.addr[4:2] == TMR_PRESC)
        presc_q <= wval[PRESC_W-1:0];
      if (wr && req.addr[4:2] == TMR_CMP)
        cmp_q <= wval;
    end
  end

  // bus response: always ready, answers the next cycle
  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      rvalid_q <= 1'b0;
      rdata_q  <= '0;
    end else begin
      rvalid_q <= req.valid;
      if (rd)
        rdata_q <= rval;
    end
  end

  always_comb begin
    rsp        = '0;
    rsp.ready  = 1'b1;
    rsp.rvalid = rvalid_q;
    rsp.rdata  = rdata_q;
  end

  assign irq = flag_q & ctrl_q.irq_en;

  wire unused_ok = &{1'b0, req.addr[XLEN-1:5], req.addr[1:0], wval[XLEN-1:PRESC_W]};

endmodule
