// axi_traffic is an AXI4 master (a traffic generator) for the bench/axi
// specs. From a few config inputs (the 4 KiB page it works in, a seed for
// the data pattern, the ID it uses, whether it throttles bready/rready) it
// writes a table of bursts (INCR of several lengths and sizes, narrow and
// unaligned ones, WRAP, FIXED, sparse strobes), then reads every burst back
// and counts the beats that differ from what it wrote.
//
// The channels run independently, as in a real master: the AW channel
// issues every address without waiting for data, the W channel sends data
// in table order (possibly before its AW), B responses are counted, and
// only then are the reads issued the same way. So the slave sees several
// outstanding transactions.
//
// Every byte it writes at address a is pat(a) = a[7:0] ^ {a[10:8], 5'b0}
// ^ seed, XORed with the beat number for FIXED bursts (each beat of a
// FIXED burst overwrites the same bytes, so the last beat's value is what
// stays). Lanes a strobe mask turns off are never written and read back
// as zero (the RAM starts zeroed). One ID for every transaction, so the
// master may rely on responses in issue order.
module axi_traffic (
    input  logic        clk,
    input  logic        rst_n,
    input  logic        start,
    input  logic [3:0]  page,
    input  logic [7:0]  seed,
    input  logic [3:0]  id,
    input  logic        throttle,
    output logic        busy,
    output logic        done,
    output logic [15:0] mismatches,
    output logic [15:0] resp_errors,

    output logic [3:0]  m_axi_awid,
    output logic [15:0] m_axi_awaddr,
    output logic [7:0]  m_axi_awlen,
    output logic [2:0]  m_axi_awsize,
    output logic [1:0]  m_axi_awburst,
    output logic        m_axi_awvalid,
    input  logic        m_axi_awready,
    output logic [31:0] m_axi_wdata,
    output logic [3:0]  m_axi_wstrb,
    output logic        m_axi_wlast,
    output logic        m_axi_wvalid,
    input  logic        m_axi_wready,
    input  logic [3:0]  m_axi_bid,
    input  logic [1:0]  m_axi_bresp,
    input  logic        m_axi_bvalid,
    output logic        m_axi_bready,
    output logic [3:0]  m_axi_arid,
    output logic [15:0] m_axi_araddr,
    output logic [7:0]  m_axi_arlen,
    output logic [2:0]  m_axi_arsize,
    output logic [1:0]  m_axi_arburst,
    output logic        m_axi_arvalid,
    input  logic        m_axi_arready,
    input  logic [3:0]  m_axi_rid,
    input  logic [31:0] m_axi_rdata,
    input  logic [1:0]  m_axi_rresp,
    input  logic        m_axi_rlast,
    input  logic        m_axi_rvalid,
    output logic        m_axi_rready
);
  localparam logic [1:0] FIXED = 2'd0, INCR = 2'd1, WRAP = 2'd2;
  localparam int NOPS = 14;

  typedef struct packed {
    logic [11:0] off;    // byte address within the page
    logic [7:0]  len;    // AxLEN: beats - 1
    logic [2:0]  size;   // AxSIZE: log2 of the bytes per beat
    logic [1:0]  burst;
    logic [3:0]  smask;  // byte lanes the strobes may enable
  } op_t;

  // The burst table. The Go spec (ram_test.go, trafficOps) describes the
  // same bursts to compute the memory image it expects.
  function automatic op_t op(input logic [3:0] i);
    case (i)
      4'd0:  op = {12'h000, 8'd0,  3'd2, INCR,  4'hF};  // single beat
      4'd1:  op = {12'h010, 8'd3,  3'd2, INCR,  4'hF};
      4'd2:  op = {12'h040, 8'd15, 3'd2, INCR,  4'hF};
      4'd3:  op = {12'h100, 8'd7,  3'd1, INCR,  4'hF};  // narrow: halfwords
      4'd4:  op = {12'h203, 8'd4,  3'd0, INCR,  4'hF};  // narrow: bytes, odd lane
      4'd5:  op = {12'h308, 8'd3,  3'd2, WRAP,  4'hF};  // wraps at 0x300..0x30f
      4'd6:  op = {12'h414, 8'd7,  3'd2, WRAP,  4'hF};  // wraps at 0x400..0x41f
      4'd7:  op = {12'h500, 8'd3,  3'd2, FIXED, 4'hF};
      4'd8:  op = {12'h603, 8'd3,  3'd2, INCR,  4'hF};  // unaligned start
      4'd9:  op = {12'h700, 8'd31, 3'd2, INCR,  4'h5};  // sparse strobes
      4'd10: op = {12'h842, 8'd1,  3'd1, WRAP,  4'hF};  // narrow wrap at 0x840..0x843
      4'd11: op = {12'hff0, 8'd3,  3'd2, INCR,  4'hF};  // ends at the 4 KiB boundary
      4'd12: op = {12'h906, 8'd15, 3'd1, WRAP,  4'hF};  // wraps at 0x900..0x91f
      4'd13: op = {12'ha01, 8'd2,  3'd0, FIXED, 4'hF};  // narrow FIXED
      default: op = '0;
    endcase
  endfunction

  // beat_addr is the address of beat n of o, as AXI4 defines it (A3.4.1).
  function automatic logic [11:0] beat_addr(input op_t o, input logic [7:0] n);
    logic [11:0] nb, span, lo;
    nb = 12'd1 << o.size;
    span = nb * ({4'd0, o.len} + 12'd1);
    lo = o.off & ~(span - 12'd1);
    case (o.burst)
      FIXED:   beat_addr = o.off;
      WRAP:    beat_addr = lo | ((o.off + {4'd0, n} * nb) & (span - 12'd1));
      default: beat_addr = (n == 8'd0) ? o.off : (o.off & ~(nb - 12'd1)) + {4'd0, n} * nb;
    endcase
  endfunction

  function automatic logic [7:0] pat(input logic [11:0] a, input logic [7:0] sd);
    pat = a[7:0] ^ {a[10:8], 5'b0} ^ sd;
  endfunction

  // lanes are the byte lanes beat address a of size s moves.
  function automatic logic [3:0] lanes(input logic [11:0] a, input logic [2:0] s);
    logic [1:0] lo, hi;
    lo = a[1:0];
    hi = (a[1:0] & ~((2'd1 << s) - 2'd1)) + ((2'd1 << s) - 2'd1);
    if (s >= 3'd2) hi = 2'd3;
    for (int k = 0; k < 4; k++) lanes[k] = (2'(k) >= lo) && (2'(k) <= hi);
  endfunction

  // data is the bus word for beat address a: every lane carries the
  // pattern of its byte address, XORed with x.
  function automatic logic [31:0] data(input logic [11:0] a, input logic [7:0] x, input logic [7:0] sd);
    for (int k = 0; k < 4; k++) data[8*k+:8] = pat({a[11:2], 2'(k)}, sd) ^ x;
  endfunction

  typedef enum logic [1:0] { IDLE, WRITE, READ, DONE } phase_t;
  phase_t phase;
  logic [4:0] aw_i, w_i, b_n, ar_i, r_i;
  logic [7:0] w_beat, r_beat;
  logic [7:0] lfsr;

  op_t aw_op, w_op, ar_op, r_op;
  assign aw_op = op(aw_i[3:0]);
  assign w_op  = op(w_i[3:0]);
  assign ar_op = op(ar_i[3:0]);
  assign r_op  = op(r_i[3:0]);

  logic [11:0] w_addr, r_addr;
  assign w_addr = beat_addr(w_op, w_beat);
  assign r_addr = beat_addr(r_op, r_beat);

  assign busy = (phase == WRITE) || (phase == READ);

  assign m_axi_awid    = id;
  assign m_axi_awaddr  = {page, aw_op.off};
  assign m_axi_awlen   = aw_op.len;
  assign m_axi_awsize  = aw_op.size;
  assign m_axi_awburst = aw_op.burst;
  assign m_axi_awvalid = (phase == WRITE) && (aw_i < 5'(NOPS));

  assign m_axi_wdata  = data(w_addr, (w_op.burst == FIXED) ? w_beat : 8'd0, seed);
  assign m_axi_wstrb  = lanes(w_addr, w_op.size) & w_op.smask;
  assign m_axi_wlast  = (w_beat == w_op.len);
  assign m_axi_wvalid = (phase == WRITE) && (w_i < 5'(NOPS));

  assign m_axi_bready = !throttle || lfsr[0] || lfsr[2];

  assign m_axi_arid    = id;
  assign m_axi_araddr  = {page, ar_op.off};
  assign m_axi_arlen   = ar_op.len;
  assign m_axi_arsize  = ar_op.size;
  assign m_axi_arburst = ar_op.burst;
  assign m_axi_arvalid = (phase == READ) && (ar_i < 5'(NOPS));

  assign m_axi_rready = (phase == READ) && (!throttle || lfsr[1] || lfsr[3]);

  // What beat r_beat of r_op should read: the pattern on the lanes the
  // burst wrote (the last beat's XOR for FIXED), zero on masked lanes.
  logic [3:0] r_lanes;
  logic [31:0] r_want;
  logic r_bad;
  assign r_lanes = lanes(r_addr, r_op.size);
  assign r_want = data(r_addr, (r_op.burst == FIXED) ? r_op.len : 8'd0, seed);
  always_comb begin
    r_bad = (m_axi_rid != id) || (m_axi_rlast != (r_beat == r_op.len));
    for (int k = 0; k < 4; k++)
      if (r_lanes[k] && m_axi_rdata[8*k+:8] != (r_op.smask[k] ? r_want[8*k+:8] : 8'd0)) r_bad = 1'b1;
  end

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      phase <= IDLE;
      aw_i <= '0; w_i <= '0; b_n <= '0; ar_i <= '0; r_i <= '0;
      w_beat <= '0; r_beat <= '0;
      lfsr <= 8'h1;
      done <= 1'b0;
      mismatches <= '0;
      resp_errors <= '0;
    end else begin
      lfsr <= {lfsr[6:0], lfsr[7] ^ lfsr[5] ^ lfsr[4] ^ lfsr[3]};
      case (phase)
        IDLE, DONE: if (start) begin
          phase <= WRITE;
          aw_i <= '0; w_i <= '0; b_n <= '0; ar_i <= '0; r_i <= '0;
          w_beat <= '0; r_beat <= '0;
          lfsr <= {seed[6:0], 1'b1};
          done <= 1'b0;
          mismatches <= '0;
          resp_errors <= '0;
        end
        WRITE: begin
          if (m_axi_awvalid && m_axi_awready) aw_i <= aw_i + 5'd1;
          if (m_axi_wvalid && m_axi_wready) begin
            if (m_axi_wlast) begin
              w_i <= w_i + 5'd1;
              w_beat <= '0;
            end else w_beat <= w_beat + 8'd1;
          end
          if (m_axi_bvalid && m_axi_bready) begin
            b_n <= b_n + 5'd1;
            if (m_axi_bresp != 2'b00) resp_errors <= resp_errors + 16'd1;
            if (m_axi_bid != id) mismatches <= mismatches + 16'd1;
            if (b_n == 5'(NOPS - 1)) phase <= READ;
          end
        end
        READ: begin
          if (m_axi_arvalid && m_axi_arready) ar_i <= ar_i + 5'd1;
          if (m_axi_rvalid && m_axi_rready) begin
            if (m_axi_rresp != 2'b00) resp_errors <= resp_errors + 16'd1;
            if (r_bad) mismatches <= mismatches + 16'd1;
            if (r_beat == r_op.len) begin
              r_i <= r_i + 5'd1;
              r_beat <= '0;
              if (r_i == 5'(NOPS - 1)) begin
                phase <= DONE;
                done <= 1'b1;
              end
            end else r_beat <= r_beat + 8'd1;
          end
        end
      endcase
    end
  end
endmodule
