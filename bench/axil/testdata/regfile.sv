// An AXI4-Lite register file: 16 32-bit registers at 0x00..0x3c.
//   0x00 ID      read-only, 32'hA11E_0010
//   0x04 NOTS    read-only, the complement of register 2 (so a read
//                shows a write landed without being writable itself)
//   0x08..0x3c   read/write, byte lanes per wstrb, reset to 0
// A write to a read-only register answers SLVERR and changes nothing;
// an address at or above 0x40 answers DECERR (reads return 0).
// AW and W are taken independently, in either order, one of each held
// until the write is done; the B and R channels hold one response each.
module axil_regfile (
    input  logic        clk,
    input  logic        rst_n,
    input  logic [7:0]  s_axil_awaddr,
    input  logic [2:0]  s_axil_awprot,
    input  logic        s_axil_awvalid,
    output logic        s_axil_awready,
    input  logic [31:0] s_axil_wdata,
    input  logic [3:0]  s_axil_wstrb,
    input  logic        s_axil_wvalid,
    output logic        s_axil_wready,
    output logic [1:0]  s_axil_bresp,
    output logic        s_axil_bvalid,
    input  logic        s_axil_bready,
    input  logic [7:0]  s_axil_araddr,
    input  logic [2:0]  s_axil_arprot,
    input  logic        s_axil_arvalid,
    output logic        s_axil_arready,
    output logic [31:0] s_axil_rdata,
    output logic [1:0]  s_axil_rresp,
    output logic        s_axil_rvalid,
    input  logic        s_axil_rready
);
  localparam logic [1:0] OKAY = 2'd0, SLVERR = 2'd2, DECERR = 2'd3;

  logic [31:0] regs [16];
  logic        aw_full, w_full;
  logic [7:0]  aw_addr;
  logic [31:0] w_data;
  logic [3:0]  w_strb;
  logic        do_write;
  logic [3:0]  widx, ridx;

  assign s_axil_awready = !aw_full;
  assign s_axil_wready  = !w_full;
  assign s_axil_arready = !s_axil_rvalid;
  assign do_write = aw_full && w_full && !s_axil_bvalid;
  assign widx = aw_addr[5:2];
  assign ridx = s_axil_araddr[5:2];

  always_ff @(posedge clk) begin
    if (!rst_n) begin
      aw_full <= 1'b0;
      w_full <= 1'b0;
      s_axil_bvalid <= 1'b0;
      s_axil_bresp <= OKAY;
      for (int i = 0; i < 16; i++) regs[i] <= '0;
    end else begin
      if (s_axil_awvalid && s_axil_awready) begin
        aw_full <= 1'b1;
        aw_addr <= s_axil_awaddr;
      end
      if (s_axil_wvalid && s_axil_wready) begin
        w_full <= 1'b1;
        w_data <= s_axil_wdata;
        w_strb <= s_axil_wstrb;
      end
      if (s_axil_bvalid && s_axil_bready) s_axil_bvalid <= 1'b0;
      if (do_write) begin
        aw_full <= 1'b0;
        w_full <= 1'b0;
        s_axil_bvalid <= 1'b1;
        if (aw_addr >= 8'h40) s_axil_bresp <= DECERR;
        else if (widx < 4'd2) s_axil_bresp <= SLVERR;
        else begin
          s_axil_bresp <= OKAY;
          for (int i = 0; i < 4; i++)
            if (w_strb[i]) regs[widx][8*i +: 8] <= w_data[8*i +: 8];
        end
      end
    end
  end

  always_ff @(posedge clk) begin
    if (!rst_n) begin
      s_axil_rvalid <= 1'b0;
      s_axil_rdata <= '0;
      s_axil_rresp <= OKAY;
    end else if (s_axil_arvalid && s_axil_arready) begin
      s_axil_rvalid <= 1'b1;
      if (s_axil_araddr >= 8'h40) begin
        s_axil_rdata <= '0;
        s_axil_rresp <= DECERR;
      end else begin
        s_axil_rresp <= OKAY;
        case (ridx)
          4'd0: s_axil_rdata <= 32'hA11E_0010;
          4'd1: s_axil_rdata <= ~regs[2];
          default: s_axil_rdata <= regs[ridx];
        endcase
      end
    end else if (s_axil_rready) begin
      s_axil_rvalid <= 1'b0;
    end
  end
endmodule
