// axi_port is a bare AXI4 port: every signal is a top-level input, so a
// spec can play the master from Go (tb.Set on the master's signals) and
// the RAM drives the slave's. It lets the specs make protocol errors on
// purpose and check the RAM's responses beat by beat. beats counts the
// W and R handshakes, so the design has an output and some logic.
module axi_port #(
    parameter int DATA_W = 32
) (
    input  logic                clk,
    input  logic                rst_n,
    input  logic [3:0]          s_axi_awid,
    input  logic [31:0]         s_axi_awaddr,
    input  logic [7:0]          s_axi_awlen,
    input  logic [2:0]          s_axi_awsize,
    input  logic [1:0]          s_axi_awburst,
    input  logic                s_axi_awvalid,
    input  logic                s_axi_awready,
    input  logic [DATA_W-1:0]   s_axi_wdata,
    input  logic [DATA_W/8-1:0] s_axi_wstrb,
    input  logic                s_axi_wlast,
    input  logic                s_axi_wvalid,
    input  logic                s_axi_wready,
    input  logic [3:0]          s_axi_bid,
    input  logic [1:0]          s_axi_bresp,
    input  logic                s_axi_bvalid,
    input  logic                s_axi_bready,
    input  logic [3:0]          s_axi_arid,
    input  logic [31:0]         s_axi_araddr,
    input  logic [7:0]          s_axi_arlen,
    input  logic [2:0]          s_axi_arsize,
    input  logic [1:0]          s_axi_arburst,
    input  logic                s_axi_arvalid,
    input  logic                s_axi_arready,
    input  logic [3:0]          s_axi_rid,
    input  logic [DATA_W-1:0]   s_axi_rdata,
    input  logic [1:0]          s_axi_rresp,
    input  logic                s_axi_rlast,
    input  logic                s_axi_rvalid,
    input  logic                s_axi_rready,
    output logic [31:0]         beats
);
  always_ff @(posedge clk or negedge rst_n)
    if (!rst_n) beats <= '0;
    else beats <= beats + 32'(s_axi_wvalid && s_axi_wready) + 32'(s_axi_rvalid && s_axi_rready);
endmodule
