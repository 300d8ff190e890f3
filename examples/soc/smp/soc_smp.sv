// soc_smp.sv -- an SMP system of NCORES RV32IM harts (rv_core with RV_M=1).
//
//   rst_n -> 2-flop synchroniser -> rst_n_s (every block)
//
//   +------------------------- soc_tile[i], i = 0..NCORES-1 ---+
//   | rv_core (RV32IM) --i_*--> local RAM (RAM_WORDS x 32, FIRMWARE)
//   |          --d_*--> decode: 0x0xxx_xxxx local RAM (data port)
//   |                           0x1000_00xx local regs, $display RESULT
//   |                           0x2000_0xxx ---------------------------+
//   |                           else: bus error                       |
//   +-----------------------------------------------------------------|+
//                                                                     v
//   +------------------------- soc_shared -----------------------------+
//   | round-robin arbiter (1 grant/cycle) -> PUTC, TIME, FINISH,       |
//   |   64-word shared RAM, 8 FETCH_INC / plain counters               |
//   +------------------------------------------------------------------+
//
// The end of the run: once every hart has written its RESULT register the
// top prints "[soc] all N harts done: PASS" (every result 0) or "...: FAIL"
// and calls $finish. If instead every hart has stopped but some halted
// without a RESULT (ebreak/ecall, illegal instruction, fault), it prints
// "[soc] all N harts stopped, not all done: FAIL" and finishes too.
// `result` is the OR of all harts' results (0 exactly when all passed).
//
// FIRMWARE is an untyped parameter so that Icarus Verilog 11 accepts it.
module soc_smp #(
    parameter int          NCORES    = 4,        // 1..16
    parameter int          RAM_WORDS = 4096,     // per hart, a power of two
    parameter              FIRMWARE  = "examples/soc/fw/smp.hex",
    parameter logic [31:0] FW_ARG    = 32'h0
) (
    input  logic        clk,
    input  logic        rst_n,
    output logic        finished,    // every hart wrote RESULT
    output logic        pass,        // finished and every result == 0
    output logic        halted_any,  // some core is stopped
    output logic [31:0] result       // OR of the harts' results
);
  // ------------------------------------------------------------ reset --
  // Asynchronous assertion, synchronous release (like soc_top).
  logic [1:0] rst_sync_q;
  logic       rst_n_s;

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n)
      rst_sync_q <= '0;
    else
      rst_sync_q <= {rst_sync_q[0], 1'b1};
  end
  assign rst_n_s = rst_sync_q[1];

  // ------------------------------------------------------------ tiles --
  logic [NCORES-1:0]    sh_req;
  logic [NCORES-1:0]    sh_we;
  logic [NCORES*4-1:0]  sh_be;
  logic [NCORES*8-1:0]  sh_widx;
  logic [NCORES*32-1:0] sh_wdata;
  logic [NCORES-1:0]    sh_gnt;
  logic [NCORES-1:0]    sh_rvalid;
  logic                 sh_err;
  logic [31:0]          sh_rdata;

  logic [NCORES-1:0]    done;
  logic [NCORES-1:0]    halted;
  logic [NCORES-1:0]    stopped;
  logic [NCORES*32-1:0] results;

  for (genvar i = 0; i < NCORES; i++) begin : g_tile
    soc_tile #(
        .HARTID   (i),
        .NCORES   (NCORES),
        .RAM_WORDS(RAM_WORDS),
        .FIRMWARE (FIRMWARE),
        .FW_ARG   (FW_ARG)
    ) u_tile (
        .clk      (clk),
        .rst_n    (rst_n_s),
        .sh_req   (sh_req[i]),
        .sh_we    (sh_we[i]),
        .sh_be    (sh_be[i*4 +: 4]),
        .sh_widx  (sh_widx[i*8 +: 8]),
        .sh_wdata (sh_wdata[i*32 +: 32]),
        .sh_gnt   (sh_gnt[i]),
        .sh_rvalid(sh_rvalid[i]),
        .sh_err   (sh_err),
        .sh_rdata (sh_rdata),
        .done     (done[i]),
        .result   (results[i*32 +: 32]),
        .halted   (halted[i]),
        .stopped  (stopped[i])
    );
  end

  // ----------------------------------------------------------- shared --
  soc_shared #(
      .NCORES(NCORES)
  ) u_shared (
      .clk   (clk),
      .rst_n (rst_n_s),
      .req   (sh_req),
      .we    (sh_we),
      .be    (sh_be),
      .widx  (sh_widx),
      .wdata (sh_wdata),
      .gnt   (sh_gnt),
      .rvalid(sh_rvalid),
      .err   (sh_err),
      .rdata (sh_rdata)
  );

  // ----------------------------------------------------------- status --
  always_comb begin
    result = '0;
    for (int i = 0; i < NCORES; i++)
      result = result | results[i*32 +: 32];
  end

  assign finished   = &done;
  assign pass       = finished && (result == 32'd0);
  assign halted_any = |halted;

  // done/stopped are flops set at the edge that printed the hart's line, so
  // this line always comes one cycle after the last of them.
  always @(posedge clk) begin
    if (finished) begin
      if (pass)
        $display("[soc] all %0d harts done: PASS", NCORES);
      else
        $display("[soc] all %0d harts done: FAIL", NCORES);
      $finish;
    end else if (&stopped) begin
      $display("[soc] all %0d harts stopped, not all done: FAIL", NCORES);
      $finish;
    end
  end

endmodule
