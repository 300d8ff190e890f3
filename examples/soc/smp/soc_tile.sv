// soc_tile.sv -- one hart of the SMP SoC: an RV32IM rv_core, its private
// dual-port RAM and its local registers. Everything a hart does on its own
// (fetch, local loads/stores, RESULT and its $display, the halt report) stays
// inside this module; only accesses to the shared block (0x2000_0000) leave
// it, through the sh_* port to the arbiter in soc_shared.
//
// Data-side address decode (d_addr is word aligned):
//   0x0000_0000 .. 0x0FFF_FFFF  local RAM, index = word address mod RAM_WORDS
//   0x1000_0000 .. 0x1000_0013  local registers (HARTID NHARTS FW_ARG CYCLE RESULT)
//   0x2000_0000 .. 0x2000_03FF  shared block (held until sh_gnt)
//   anything else               bus error, answered here
// Instruction fetches always read the local RAM (any address, aliased).
// Local accesses are granted at once and answered the next cycle.
module soc_tile #(
    parameter int          HARTID    = 0,
    parameter int          NCORES    = 4,
    parameter int          RAM_WORDS = 4096,   // a power of two
    parameter              FIRMWARE  = "",
    parameter logic [31:0] FW_ARG    = 32'h0
) (
    input  logic        clk,
    input  logic        rst_n,       // synchronised, active low
    // shared-block port (one request held until sh_gnt, answer later)
    output logic        sh_req,
    output logic        sh_we,
    output logic [3:0]  sh_be,
    output logic [7:0]  sh_widx,     // word index inside the 1 KiB shared block
    output logic [31:0] sh_wdata,
    input  logic        sh_gnt,
    input  logic        sh_rvalid,
    input  logic        sh_err,
    input  logic [31:0] sh_rdata,
    // status
    output logic        done,        // RESULT was written
    output logic [31:0] result,      // the value written (0 until then)
    output logic        halted,      // the core is stopped
    output logic        stopped      // done, or halted and reported
);
  localparam int AW = $clog2(RAM_WORDS);

  // local register word indices (address bits [4:2])
  localparam logic [2:0] R_HARTID = 3'd0,
                         R_NHARTS = 3'd1,
                         R_FWARG  = 3'd2,
                         R_CYCLE  = 3'd3,
                         R_RESULT = 3'd4;

  // ------------------------------------------------------------- core --
  logic        i_req;
  logic [31:0] i_addr;
  logic        i_rvalid_q;
  logic [31:0] i_rdata_q;
  logic        d_req;
  logic        d_we;
  logic [3:0]  d_be;
  logic [31:0] d_addr;
  logic [31:0] d_wdata;
  logic        d_gnt;
  logic        d_rvalid;
  logic [31:0] d_rdata;
  logic        d_err;
  logic [31:0] instret;

  rv_core #(
      .RESET_PC(32'h0000_0000),
      .RV_M    (1)
  ) u_core (
      .clk     (clk),
      .rst_n   (rst_n),
      .i_req   (i_req),
      .i_addr  (i_addr),
      .i_gnt   (1'b1),
      .i_rvalid(i_rvalid_q),
      .i_rdata (i_rdata_q),
      .d_req   (d_req),
      .d_we    (d_we),
      .d_be    (d_be),
      .d_addr  (d_addr),
      .d_wdata (d_wdata),
      .d_gnt   (d_gnt),
      .d_rvalid(d_rvalid),
      .d_rdata (d_rdata),
      .d_err   (d_err),
      .halted  (halted),
      .instret (instret)
  );

  // ----------------------------------------------------------- decode --
  logic sel_ram;
  logic sel_loc;
  logic sel_sh;
  logic loc_req;        // a request answered inside the tile (RAM, regs, error)

  assign sel_ram = (d_addr[31:28] == 4'h0);
  assign sel_loc = (d_addr[31:5] == 27'h080_0000) && (d_addr[4:2] <= R_RESULT);
  assign sel_sh  = (d_addr[31:10] == 22'h08_0000);
  assign loc_req = d_req && !sel_sh;

  assign sh_req   = d_req && sel_sh;
  assign sh_we    = d_we;
  assign sh_be    = d_be;
  assign sh_widx  = d_addr[9:2];
  assign sh_wdata = d_wdata;
  assign d_gnt    = sel_sh ? sh_gnt : 1'b1;

  // -------------------------------------------------------------- RAM --
  logic [31:0]   mem[RAM_WORDS];
  logic [AW-1:0] i_idx;
  logic [AW-1:0] d_idx;

  assign i_idx = i_addr[2 +: AW];
  assign d_idx = d_addr[2 +: AW];

  initial begin
    for (int w = 0; w < RAM_WORDS; w++)
      mem[w] = '0;
    if (FIRMWARE != "")
      $readmemh(FIRMWARE, mem);
  end

  always_ff @(posedge clk) begin
    if (d_req && sel_ram && d_we) begin
      for (int b = 0; b < 4; b++)
        if (d_be[b])
          mem[d_idx][b*8 +: 8] <= d_wdata[b*8 +: 8];
    end
  end

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      i_rvalid_q <= 1'b0;
      i_rdata_q  <= '0;
    end else begin
      i_rvalid_q <= i_req;
      if (i_req)
        i_rdata_q <= mem[i_idx];
    end
  end

  // -------------------------------------------------- local registers --
  logic [31:0] cycle_q;
  logic        done_q;
  logic [31:0] result_q;
  logic        halt_rep_q;     // the halt was reported (or needs no report)
  logic [31:0] loc_rval;
  logic [31:0] wval;
  logic        res_wr;

  always_comb begin
    case (d_addr[4:2])
      R_HARTID: loc_rval = 32'(HARTID);
      R_NHARTS: loc_rval = 32'(NCORES);
      R_FWARG:  loc_rval = FW_ARG;
      R_CYCLE:  loc_rval = cycle_q;
      default:  loc_rval = result_q;
    endcase
  end

  // byte-enable merge onto zero: a sb/sh of RESULT writes just those lanes
  always_comb begin
    for (int b = 0; b < 4; b++)
      wval[b*8 +: 8] = d_be[b] ? d_wdata[b*8 +: 8] : 8'h00;
  end

  assign res_wr = d_req && sel_loc && d_we && (d_addr[4:2] == R_RESULT) && !done_q;

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      cycle_q    <= '0;
      done_q     <= 1'b0;
      result_q   <= '0;
      halt_rep_q <= 1'b0;
    end else begin
      cycle_q <= cycle_q + 32'd1;
      if (res_wr) begin
        done_q   <= 1'b1;
        result_q <= wval;
      end
      if (halted)
        halt_rep_q <= 1'b1;
    end
  end

  // simulation-side reports of this hart
  always @(posedge clk) begin
    if (res_wr)
      $display("[soc] hart %0d result=0x%08x cycles=%0d", HARTID, wval, cycle_q);
    if (halted && !halt_rep_q && !done_q)
      $display("[soc] hart %0d halted at pc=0x%08x", HARTID, i_addr);
  end

  // ------------------------------------------------- local responses --
  logic        loc_rvalid_q;
  logic        loc_err_q;
  logic [31:0] loc_rdata_q;

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      loc_rvalid_q <= 1'b0;
      loc_err_q    <= 1'b0;
      loc_rdata_q  <= '0;
    end else begin
      loc_rvalid_q <= loc_req;
      loc_err_q    <= loc_req && !sel_ram && !sel_loc;
      if (loc_req && !d_we)
        loc_rdata_q <= sel_ram ? mem[d_idx] : loc_rval;
    end
  end

  assign d_rvalid = loc_rvalid_q | sh_rvalid;
  assign d_err    = loc_rvalid_q ? loc_err_q : sh_err;
  assign d_rdata  = loc_rvalid_q ? loc_rdata_q : sh_rdata;

  assign done    = done_q;
  assign result  = result_q;
  assign stopped = done_q | halt_rep_q;

  // instret is not used; the pc is read off i_addr (== pc)
  wire unused_ok = &{1'b0, instret, i_addr[31:AW+2], i_addr[1:0], d_addr[1:0]};

endmodule
