// soc_ram.sv -- dual-port word RAM: a read-only instruction port for the
// core's fetch unit and a read/write bus port with byte enables. Both ports
// answer one cycle after the request. The contents are zeroed and then loaded
// from INIT_FILE ($readmemh, one 32-bit word per line) at time zero.
//
// Written as flops on purpose (no vendor macro): DEPTH words of 32 bits are
// DEPTH*32 flop bits, which is what makes the SoC a useful simulator load.
`include "soc_compat.svh"

module soc_ram
  import soc_pkg::*;
#(
    parameter int DEPTH     = 1024,
    parameter     INIT_FILE = ""
) (
    input  `SOC_VAR logic     clk,
    input  `SOC_VAR logic     rst_n,
    // instruction port
    input  `SOC_VAR logic     i_req,
    input  `SOC_VAR word_t    i_addr,
    output logic              i_rvalid,
    output word_t             i_rdata,
    // data port
    input  `SOC_VAR bus_req_t d_req,
    output bus_rsp_t          d_rsp
);
  localparam int AW = $clog2(DEPTH);

  word_t            mem[DEPTH];
  logic [3:0][7:0]  wdata_bytes;
  logic [AW-1:0]    i_idx;
  logic [AW-1:0]    d_idx;
  strb_t            d_be;
  logic             d_rvalid_q;
  word_t            d_rdata_q;

  assign i_idx       = i_addr[2 +: AW];
  assign d_idx       = d_req.addr[2 +: AW];
  assign d_be        = d_req.be;
  assign wdata_bytes = d_req.wdata;

  initial begin
    for (int w = 0; w < DEPTH; w++)
      mem[w] = '0;
    if (INIT_FILE != "")
      $readmemh(INIT_FILE, mem);
  end

  // Byte-lane writes. No reset: memories keep their contents.
  always_ff @(posedge clk) begin
    if (d_req.valid && d_req.we) begin
      for (int b = 0; b < $bits(strb_t); b++)
        if (d_be[b])
          mem[d_idx][b*8 +: 8] <= wdata_bytes[b];
    end
  end

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      i_rvalid   <= 1'b0;
      i_rdata    <= '0;
      d_rvalid_q <= 1'b0;
      d_rdata_q  <= '0;
    end else begin
      i_rvalid   <= i_req;
      d_rvalid_q <= d_req.valid;
      if (i_req)
        i_rdata <= mem[i_idx];
      if (d_req.valid && !d_req.we)
        d_rdata_q <= mem[d_idx];
    end
  end

  always_comb begin
    d_rsp        = '0;
    d_rsp.ready  = 1'b1;
    d_rsp.rvalid = d_rvalid_q;
    d_rsp.rdata  = d_rdata_q;
  end

  // Address bits above the RAM alias and the byte offset are ignored.
  wire unused_addr_ok = &{1'b0, i_addr[XLEN-1:AW+2], i_addr[1:0],
                          d_req.addr[XLEN-1:AW+2], d_req.addr[1:0]};

endmodule
