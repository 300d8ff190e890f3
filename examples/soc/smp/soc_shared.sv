// soc_shared.sv -- the block every hart shares, behind a round-robin arbiter.
//
// Each tile drives one request (held until its gnt bit); the arbiter grants
// one per cycle, the granted access takes effect at that clock edge and its
// answer (rvalid to that hart, rdata/err broadcast) comes the cycle after.
// Since only one access happens per cycle, FETCH_INC is atomic.
//
// Word index (byte offset / 4) inside the 1 KiB block at 0x2000_0000:
//   0x00         PUTC       w: $write("%c", low byte)          r: 0
//   0x01         TIME       r: cycles since reset release      w: ignored
//   0x02         FINISH     w: print, $finish                  r: 0
//   0x40..0x7F   shared RAM, 64 words, byte enables (offsets 0x100..0x1FF)
//   0x80..0x87   FETCH_INC[k]: r returns the value and adds 1, w sets it
//   0xC0..0xC7   COUNTER[k]:   the same 8 counters, plain r/w
//   anything else: bus error
module soc_shared #(
    parameter int NCORES = 4
) (
    input  logic                  clk,
    input  logic                  rst_n,        // synchronised, active low
    // one request per hart, flattened: hart i uses [i], [i*4 +: 4], ...
    input  logic [NCORES-1:0]     req,
    input  logic [NCORES-1:0]     we,
    input  logic [NCORES*4-1:0]   be,
    input  logic [NCORES*8-1:0]   widx,
    input  logic [NCORES*32-1:0]  wdata,
    output logic [NCORES-1:0]     gnt,
    output logic [NCORES-1:0]     rvalid,
    output logic                  err,          // with rvalid, to every hart
    output logic [31:0]           rdata         // with rvalid, to every hart
);
  localparam int IW = (NCORES > 1) ? $clog2(NCORES) : 1;

  // ------------------------------------------------------------ arbiter --
  // Round robin: the first requester after the last one granted, wrapping.
  logic [IW-1:0] last_q;
  logic [IW-1:0] pick;
  logic          any;
  logic [IW-1:0] lo;        // lowest requester
  logic [IW-1:0] hi;        // lowest requester above last_q
  logic          hi_ok;

  always_comb begin
    lo    = '0;
    hi    = '0;
    hi_ok = 1'b0;
    any   = 1'b0;
    for (int i = NCORES - 1; i >= 0; i--) begin
      if (req[i]) begin
        any = 1'b1;
        lo  = IW'(i);
        if (IW'(i) > last_q) begin
          hi    = IW'(i);
          hi_ok = 1'b1;
        end
      end
    end
    pick = hi_ok ? hi : lo;
  end

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n)
      last_q <= IW'(NCORES - 1);     // hart 0 wins first
    else if (any)
      last_q <= pick;
  end

  always_comb begin
    gnt = '0;
    for (int i = 0; i < NCORES; i++)
      if (any && (IW'(i) == pick))
        gnt[i] = 1'b1;
  end

  // the granted request
  logic        a_we;
  logic [3:0]  a_be;
  logic [7:0]  a_widx;
  logic [31:0] a_wdata;
  logic [31:0] a_wmask;

  always_comb begin
    a_we    = 1'b0;
    a_be    = '0;
    a_widx  = '0;
    a_wdata = '0;
    for (int i = 0; i < NCORES; i++) begin
      if (IW'(i) == pick) begin
        a_we    = we[i];
        a_be    = be[i*4 +: 4];
        a_widx  = widx[i*8 +: 8];
        a_wdata = wdata[i*32 +: 32];
      end
    end
    for (int b = 0; b < 4; b++)
      a_wmask[b*8 +: 8] = {8{a_be[b]}};
  end

  // ------------------------------------------------------------ decode --
  logic is_putc, is_time, is_fin, is_ram, is_fi, is_cnt, is_ok;

  assign is_putc = (a_widx == 8'h00);
  assign is_time = (a_widx == 8'h01);
  assign is_fin  = (a_widx == 8'h02);
  assign is_ram  = (a_widx[7:6] == 2'b01);
  assign is_fi   = (a_widx[7:3] == 5'b1000_0);
  assign is_cnt  = (a_widx[7:3] == 5'b1100_0);
  assign is_ok   = is_putc | is_time | is_fin | is_ram | is_fi | is_cnt;

  // ------------------------------------------------------------- state --
  logic [31:0] time_q;
  logic [31:0] sram[64];
  logic [31:0] cnt_q[8];
  logic [31:0] rval;

  initial begin
    for (int w = 0; w < 64; w++)
      sram[w] = '0;
  end

  always_comb begin
    rval = '0;
    if (is_time)
      rval = time_q;
    else if (is_ram)
      rval = sram[a_widx[5:0]];
    else if (is_fi || is_cnt)
      rval = cnt_q[a_widx[2:0]];
  end

  always_ff @(posedge clk) begin
    if (any && a_we && is_ram)
      sram[a_widx[5:0]] <= (sram[a_widx[5:0]] & ~a_wmask) | (a_wdata & a_wmask);
  end

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      time_q <= '0;
      for (int k = 0; k < 8; k++)
        cnt_q[k] <= '0;
    end else begin
      time_q <= time_q + 32'd1;
      if (any && (is_fi || is_cnt)) begin
        if (a_we)
          cnt_q[a_widx[2:0]] <= (cnt_q[a_widx[2:0]] & ~a_wmask) | (a_wdata & a_wmask);
        else if (is_fi)
          cnt_q[a_widx[2:0]] <= cnt_q[a_widx[2:0]] + 32'd1;
      end
    end
  end

  // ---------------------------------------------------------- response --
  logic [NCORES-1:0] rvalid_q;
  logic              err_q;
  logic [31:0]       rdata_q;

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      rvalid_q <= '0;
      err_q    <= 1'b0;
      rdata_q  <= '0;
    end else begin
      rvalid_q <= gnt;
      err_q    <= any && !is_ok;
      if (any && !a_we)
        rdata_q <= rval;
    end
  end

  assign rvalid = rvalid_q;
  assign err    = err_q;
  assign rdata  = rdata_q;

  // --------------------------------------------------------- side effects --
  always @(posedge clk) begin
    if (any && a_we && is_putc)
      $write("%c", a_wdata[7:0]);
    if (any && a_we && is_fin) begin
      $display("[soc] finish: code=0x%08x", a_wdata);
      $finish;
    end
  end

endmodule
