// Wires an AXI4-Lite slave port straight to a master port, so that a
// bench Master and a bench RAM talk to each other through the design:
// every handshake goes through RTL wires, in the same cycle. The cycle
// counter gives the design a flop on clk: the bench samples pre-edge
// values (tb.PreEdge) only at evaluations where an edge fires a process,
// and a design of wires alone has none.
module axil_passthru #(parameter int DW = 32, parameter int AW = 16) (
    input  logic            clk,
    input  logic            rst_n,
    output logic [31:0]     cycles,
    input  logic [AW-1:0]   s_axil_awaddr,
    input  logic            s_axil_awvalid,
    output logic            s_axil_awready,
    input  logic [DW-1:0]   s_axil_wdata,
    input  logic [DW/8-1:0] s_axil_wstrb,
    input  logic            s_axil_wvalid,
    output logic            s_axil_wready,
    output logic [1:0]      s_axil_bresp,
    output logic            s_axil_bvalid,
    input  logic            s_axil_bready,
    input  logic [AW-1:0]   s_axil_araddr,
    input  logic            s_axil_arvalid,
    output logic            s_axil_arready,
    output logic [DW-1:0]   s_axil_rdata,
    output logic [1:0]      s_axil_rresp,
    output logic            s_axil_rvalid,
    input  logic            s_axil_rready,
    output logic [AW-1:0]   m_axil_awaddr,
    output logic            m_axil_awvalid,
    input  logic            m_axil_awready,
    output logic [DW-1:0]   m_axil_wdata,
    output logic [DW/8-1:0] m_axil_wstrb,
    output logic            m_axil_wvalid,
    input  logic            m_axil_wready,
    input  logic [1:0]      m_axil_bresp,
    input  logic            m_axil_bvalid,
    output logic            m_axil_bready,
    output logic [AW-1:0]   m_axil_araddr,
    output logic            m_axil_arvalid,
    input  logic            m_axil_arready,
    input  logic [DW-1:0]   m_axil_rdata,
    input  logic [1:0]      m_axil_rresp,
    input  logic            m_axil_rvalid,
    output logic            m_axil_rready
);
  always_ff @(posedge clk) cycles <= rst_n ? cycles + 32'd1 : '0;

  assign m_axil_awaddr  = s_axil_awaddr;
  assign m_axil_awvalid = s_axil_awvalid;
  assign s_axil_awready = m_axil_awready;
  assign m_axil_wdata   = s_axil_wdata;
  assign m_axil_wstrb   = s_axil_wstrb;
  assign m_axil_wvalid  = s_axil_wvalid;
  assign s_axil_wready  = m_axil_wready;
  assign s_axil_bresp   = m_axil_bresp;
  assign s_axil_bvalid  = m_axil_bvalid;
  assign m_axil_bready  = s_axil_bready;
  assign m_axil_araddr  = s_axil_araddr;
  assign m_axil_arvalid = s_axil_arvalid;
  assign s_axil_arready = m_axil_arready;
  assign s_axil_rdata   = m_axil_rdata;
  assign s_axil_rresp   = m_axil_rresp;
  assign s_axil_rvalid  = m_axil_rvalid;
  assign m_axil_rready  = s_axil_rready;
endmodule
