// soc_simctrl.sv -- simulation control registers. Firmware ends a simulation
// by writing its result to FINISH, which prints one line and calls $finish
// (when FINISH_EN is set). PUTC prints a character. Not synthesizable in
// intent, but built only from constructs every simulator and linter accepts.
`include "soc_compat.svh"

module soc_simctrl
  import soc_pkg::*;
#(
    parameter bit FINISH_EN = 1'b1
) (
    input  `SOC_VAR logic     clk,
    input  `SOC_VAR logic     rst_n,
    input  `SOC_VAR bus_req_t req,
    output bus_rsp_t          rsp,
    input  `SOC_VAR word_t    instret,
    output logic              finished,
    output word_t             result
);
  word_t cycles_q;
  word_t scratch_q;
  logic  finished_q;
  word_t result_q;
  logic  rvalid_q;
  word_t rdata_q;

  logic  wr;
  logic  fin_wr;
  word_t rval;
  word_t wval;

  assign wr     = req.valid & req.we;
  assign fin_wr = wr && (req.addr[4:2] == SIM_FINISH);
  assign wval   = apply_be('0, req.wdata, req.be);

  always_comb begin
    unique case (req.addr[4:2])
      SIM_FINISH:  rval = result_q;
      SIM_CYCLES:  rval = cycles_q;
      SIM_INSTRET: rval = instret;
      SIM_SCRATCH: rval = scratch_q;
      default:     rval = '0;
    endcase
  end

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      cycles_q   <= '0;
      scratch_q  <= '0;
      finished_q <= 1'b0;
      result_q   <= '0;
    end else begin
      cycles_q <= cycles_q + 1'b1;
      if (wr && req.addr[4:2] == SIM_SCRATCH)
        scratch_q <= apply_be(scratch_q, req.wdata, req.be);
      if (fin_wr) begin
        finished_q <= 1'b1;
        result_q   <= wval;
      end
    end
  end

  // The simulator-facing side effects: simulation-only code, so a plain always.
  always @(posedge clk) begin
    if (wr && req.addr[4:2] == SIM_PUTC)
      $write("%c", req.wdata[7:0]);
    if (fin_wr) begin
      $display("[soc] finish: result=0x%08h cycles=%0d instret=%0d", wval, cycles_q, instret);
      if (FINISH_EN)
        $finish;
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

  assign finished = finished_q;
  assign result   = result_q;

  wire unused_ok = &{1'b0, req.addr[XLEN-1:5], req.addr[1:0]};

endmodule
