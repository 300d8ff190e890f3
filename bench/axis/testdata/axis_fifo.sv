// axis_fifo: a synchronous AXI4-Stream FIFO of DEPTH beats (not
// packet-aware: a beat leaves as soon as it is stored). Every sideband
// signal travels with its beat. tready is high while a slot is free and
// tvalid while a beat is stored, so both sides see backpressure.
module axis_fifo #(
    parameter int DATA_W = 32,
    parameter int ID_W   = 4,
    parameter int DEST_W = 3,
    parameter int USER_W = 5,
    parameter int DEPTH  = 4   // a power of two
) (
    input  logic                  clk,
    input  logic                  rst_n,

    input  logic [DATA_W-1:0]     s_axis_tdata,
    input  logic [DATA_W/8-1:0]   s_axis_tkeep,
    input  logic [DATA_W/8-1:0]   s_axis_tstrb,
    input  logic                  s_axis_tlast,
    input  logic [ID_W-1:0]       s_axis_tid,
    input  logic [DEST_W-1:0]     s_axis_tdest,
    input  logic [USER_W-1:0]     s_axis_tuser,
    input  logic                  s_axis_tvalid,
    output logic                  s_axis_tready,

    output logic [DATA_W-1:0]     m_axis_tdata,
    output logic [DATA_W/8-1:0]   m_axis_tkeep,
    output logic [DATA_W/8-1:0]   m_axis_tstrb,
    output logic                  m_axis_tlast,
    output logic [ID_W-1:0]       m_axis_tid,
    output logic [DEST_W-1:0]     m_axis_tdest,
    output logic [USER_W-1:0]     m_axis_tuser,
    output logic                  m_axis_tvalid,
    input  logic                  m_axis_tready
);
  localparam int KEEP_W = DATA_W / 8;
  localparam int AW = $clog2(DEPTH);

  typedef struct packed {
    logic [DATA_W-1:0] data;
    logic [KEEP_W-1:0] keep;
    logic [KEEP_W-1:0] strb;
    logic              last;
    logic [ID_W-1:0]   id;
    logic [DEST_W-1:0] dest;
    logic [USER_W-1:0] user;
  } beat_t;

  beat_t mem[DEPTH];
  // One extra pointer bit tells full from empty.
  logic [AW:0] wr_ptr, rd_ptr;
  beat_t in_beat, head;

  wire push = s_axis_tvalid && s_axis_tready;
  wire pop  = m_axis_tvalid && m_axis_tready;

  assign s_axis_tready = (wr_ptr - rd_ptr) != (AW + 1)'(DEPTH);
  assign m_axis_tvalid = wr_ptr != rd_ptr;

  always_comb begin
    in_beat.data = s_axis_tdata;
    in_beat.keep = s_axis_tkeep;
    in_beat.strb = s_axis_tstrb;
    in_beat.last = s_axis_tlast;
    in_beat.id   = s_axis_tid;
    in_beat.dest = s_axis_tdest;
    in_beat.user = s_axis_tuser;
  end

  assign head = mem[rd_ptr[AW-1:0]];
  assign m_axis_tdata = head.data;
  assign m_axis_tkeep = head.keep;
  assign m_axis_tstrb = head.strb;
  assign m_axis_tlast = head.last;
  assign m_axis_tid   = head.id;
  assign m_axis_tdest = head.dest;
  assign m_axis_tuser = head.user;

  always_ff @(posedge clk or negedge rst_n)
    if (!rst_n) begin
      wr_ptr <= '0;
      rd_ptr <= '0;
    end else begin
      if (push) wr_ptr <= wr_ptr + 1'b1;
      if (pop)  rd_ptr <= rd_ptr + 1'b1;
    end

  // The storage has no reset: only the pointers say what it holds.
  always_ff @(posedge clk)
    if (push && rst_n) mem[wr_ptr[AW-1:0]] <= in_beat;
endmodule

// axis_fifo_nokeep: the FIFO on a bus with tdata, tlast and the
// handshake only (whole beats, no sideband).
module axis_fifo_nokeep #(parameter int DATA_W = 32) (
    input  logic              clk,
    input  logic              rst_n,
    input  logic [DATA_W-1:0] s_axis_tdata,
    input  logic              s_axis_tlast,
    input  logic              s_axis_tvalid,
    output logic              s_axis_tready,
    output logic [DATA_W-1:0] m_axis_tdata,
    output logic              m_axis_tlast,
    output logic              m_axis_tvalid,
    input  logic              m_axis_tready
);
  axis_fifo #(.DATA_W(DATA_W)) u_fifo (
      .clk, .rst_n,
      .s_axis_tdata, .s_axis_tkeep('1), .s_axis_tstrb('1), .s_axis_tlast,
      .s_axis_tid('0), .s_axis_tdest('0), .s_axis_tuser('0),
      .s_axis_tvalid, .s_axis_tready,
      .m_axis_tdata, .m_axis_tkeep(), .m_axis_tstrb(), .m_axis_tlast,
      .m_axis_tid(), .m_axis_tdest(), .m_axis_tuser(),
      .m_axis_tvalid, .m_axis_tready
  );
endmodule

// axis_fifo_nolast: a bus without tlast (every beat is a packet) but
// with tkeep, so a beat may carry fewer bytes than the bus is wide.
module axis_fifo_nolast #(parameter int DATA_W = 16) (
    input  logic                clk,
    input  logic                rst_n,
    input  logic [DATA_W-1:0]   s_axis_tdata,
    input  logic [DATA_W/8-1:0] s_axis_tkeep,
    input  logic                s_axis_tvalid,
    output logic                s_axis_tready,
    output logic [DATA_W-1:0]   m_axis_tdata,
    output logic [DATA_W/8-1:0] m_axis_tkeep,
    output logic                m_axis_tvalid,
    input  logic                m_axis_tready
);
  axis_fifo #(.DATA_W(DATA_W)) u_fifo (
      .clk, .rst_n,
      .s_axis_tdata, .s_axis_tkeep, .s_axis_tstrb(s_axis_tkeep), .s_axis_tlast(1'b1),
      .s_axis_tid('0), .s_axis_tdest('0), .s_axis_tuser('0),
      .s_axis_tvalid, .s_axis_tready,
      .m_axis_tdata, .m_axis_tkeep, .m_axis_tstrb(), .m_axis_tlast(),
      .m_axis_tid(), .m_axis_tdest(), .m_axis_tuser(),
      .m_axis_tvalid, .m_axis_tready
  );
endmodule

// axis_fifo_strb: a bus with tstrb but no tkeep (every byte is kept:
// tstrb low marks a position byte).
module axis_fifo_strb #(parameter int DATA_W = 32) (
    input  logic                clk,
    input  logic                rst_n,
    input  logic [DATA_W-1:0]   s_axis_tdata,
    input  logic [DATA_W/8-1:0] s_axis_tstrb,
    input  logic                s_axis_tlast,
    input  logic                s_axis_tvalid,
    output logic                s_axis_tready,
    output logic [DATA_W-1:0]   m_axis_tdata,
    output logic [DATA_W/8-1:0] m_axis_tstrb,
    output logic                m_axis_tlast,
    output logic                m_axis_tvalid,
    input  logic                m_axis_tready
);
  axis_fifo #(.DATA_W(DATA_W)) u_fifo (
      .clk, .rst_n,
      .s_axis_tdata, .s_axis_tkeep('1), .s_axis_tstrb, .s_axis_tlast,
      .s_axis_tid('0), .s_axis_tdest('0), .s_axis_tuser('0),
      .s_axis_tvalid, .s_axis_tready,
      .m_axis_tdata, .m_axis_tkeep(), .m_axis_tstrb, .m_axis_tlast,
      .m_axis_tid(), .m_axis_tdest(), .m_axis_tuser(),
      .m_axis_tvalid, .m_axis_tready
  );
endmodule
