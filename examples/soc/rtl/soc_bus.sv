// soc_bus.sv -- address decoder and response mux between the core's data port
// and the slaves. The request is broadcast with a one-hot select per slave
// (req_gate() in soc_pkg turns the pair into one slave's request). One request
// is in flight at a time: the decoder remembers which slave accepted it and
// routes that slave's response back. Addresses that hit no slave are accepted
// by an internal error slave that answers with err set.
`include "soc_compat.svh"

module soc_bus
  import soc_pkg::*;
#(
    parameter logic [31:0] ERR_RDATA = 32'hBAD0_ADD7
) (
    input  `SOC_VAR logic             clk,
    input  `SOC_VAR logic             rst_n,
    // master side
    input  `SOC_VAR bus_req_t         m_req,
    output bus_rsp_t                  m_rsp,
    // slave side: s_sel and s_rsp are indexed by slave_e
    output bus_req_t                  s_req,
    output logic     [NUM_SLAVES-1:0] s_sel,
    input  `SOC_VAR bus_rsp_t         s_rsp[NUM_SLAVES]
);
  slave_e sel;        // target of the request on m_req
  slave_e sel_q;      // slave that owes the next response
  logic   err_q;      // the error slave owes a response
  logic   accept;

  assign sel = addr_decode(m_req.addr[XLEN-1:8]);

  // ----------------------------------------------------------- fan-out --
  assign s_req = m_req;
  for (genvar i = 0; i < NUM_SLAVES; i++) begin : g_select
    assign s_sel[i] = m_req.valid && (32'(sel) == i);
  end

  // ------------------------------------------------------ response mux --
  // The slaves' response fields, gathered into packed vectors.
  logic [NUM_SLAVES-1:0]           s_ready;
  logic [NUM_SLAVES-1:0]           s_rvalid;
  logic [NUM_SLAVES-1:0]           s_err;
  logic [NUM_SLAVES-1:0][XLEN-1:0] s_rdata;

  for (genvar i = 0; i < NUM_SLAVES; i++) begin : g_gather
    bus_rsp_t rsp;
    assign rsp         = s_rsp[i];
    assign s_ready[i]  = rsp.ready;
    assign s_rvalid[i] = rsp.rvalid;
    assign s_err[i]    = rsp.err;
    assign s_rdata[i]  = rsp.rdata;
  end

  always_comb begin
    m_rsp = '0;

    // request channel: who accepts
    if (sel == SLV_NONE) begin
      m_rsp.ready = 1'b1;
    end else begin
      for (int i = 0; i < NUM_SLAVES; i++)
        if (32'(sel) == i)
          m_rsp.ready = s_ready[i];
    end

    // response channel: who answers
    `SOC_PRIORITY if (err_q) begin
      m_rsp.rvalid = 1'b1;
      m_rsp.err    = 1'b1;
      m_rsp.rdata  = ERR_RDATA;
    end else if (sel_q != SLV_NONE) begin
      for (int i = 0; i < NUM_SLAVES; i++) begin
        if (32'(sel_q) == i) begin
          m_rsp.rvalid = s_rvalid[i];
          m_rsp.err    = s_err[i];
          m_rsp.rdata  = s_rdata[i];
        end
      end
    end
  end

  assign accept = m_req.valid & m_rsp.ready;

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      sel_q <= SLV_NONE;
      err_q <= 1'b0;
    end else begin
      if (accept)
        sel_q <= sel;
      err_q <= accept && (sel == SLV_NONE);
    end
  end

endmodule
