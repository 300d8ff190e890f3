// A small DMA-style data mover in Verilog-2005 style: non-ANSI ports,
// reg/wire, asynchronous active-low reset, generate-for with genvar,
// functions with old-style argument declarations, tasks and attributes.
// Top module: dma_v. Parses cleanly with weft, Icarus and Verilator.

`define DMA_DATA_W 8
`define DMA_CHANNELS 4
`ifndef DMA_FIFO_DEPTH_LOG2
  `define DMA_FIFO_DEPTH_LOG2 3
`endif
`ifdef DMA_NO_PARITY
  `define DMA_PARITY_BIT 0
`else
  `define DMA_PARITY_BIT 1
`endif

// Synchronous FIFO with registered full/empty flags.
module fifo_v (clk, rst_n, push, pop, din, dout, full, empty, level);
  parameter WIDTH = `DMA_DATA_W;
  parameter DEPTH_LOG2 = `DMA_FIFO_DEPTH_LOG2;
  localparam DEPTH = 1 << DEPTH_LOG2;

  input clk;
  input rst_n;
  input push, pop;
  input [WIDTH-1:0] din;
  output [WIDTH-1:0] dout;
  output full;
  output empty;
  output [DEPTH_LOG2:0] level;

  (* ram_style = "distributed" *) reg [WIDTH-1:0] mem [0:DEPTH-1];
  reg [DEPTH_LOG2-1:0] wr_ptr, rd_ptr;
  reg [DEPTH_LOG2:0] count;
  wire do_push = push && (count != DEPTH);
  wire do_pop = pop && (count != 0);

  assign dout = mem[rd_ptr];
  assign full = (count == DEPTH);
  assign empty = (count == 0);
  assign level = count;

  always @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      wr_ptr <= {DEPTH_LOG2{1'b0}};
      rd_ptr <= {DEPTH_LOG2{1'b0}};
      count <= 0;
    end else begin
      if (do_push) begin
        mem[wr_ptr] <= din;
        wr_ptr <= wr_ptr + 1'b1;
      end
      if (do_pop)
        rd_ptr <= rd_ptr + 1'b1;
      case ({do_push, do_pop})
        2'b10: count <= count + 1'b1;
        2'b01: count <= count - 1'b1;
        default: count <= count;
      endcase
    end
  end
endmodule

// Round-robin arbiter: the request after the last grant wins.
module rr_arbiter_v (clk, rst_n, req, grant, valid);
  parameter N = `DMA_CHANNELS;
  input clk, rst_n;
  input [N-1:0] req;
  output reg [N-1:0] grant;
  output valid;

  reg [N-1:0] last;
  wire [2*N-1:0] double_req = {req, req};
  wire [2*N-1:0] double_grant;
  wire [N-1:0] mask_hi;

  // Thermometer mask of the positions above the last grant.
  genvar i;
  generate
    for (i = 0; i < N; i = i + 1) begin : g_mask
      if (i == 0) begin : g_first
        assign mask_hi[i] = 1'b0;
      end else begin : g_rest
        assign mask_hi[i] = |last[i-1:0];
      end
    end
  endgenerate

  assign double_grant = double_req & ~(double_req - {{N{1'b0}}, last});
  assign valid = |req;

  always @(posedge clk or negedge rst_n)
    if (!rst_n) begin
      grant <= {N{1'b0}};
      last <= {{(N-1){1'b0}}, 1'b1};
    end else begin
      grant <= double_grant[N-1:0] | double_grant[2*N-1:N];
      if (|req)
        last <= double_grant[N-1:0] | double_grant[2*N-1:N];
    end
endmodule

// Byte-wide CRC-8 (polynomial x^8 + x^2 + x + 1), old-style function.
module crc8_v (clk, rst_n, clear, en, data, crc);
  input clk, rst_n, clear, en;
  input [7:0] data;
  output [7:0] crc;
  reg [7:0] crc_q;

  function [7:0] crc8_step;
    input [7:0] crc_in;
    input [7:0] d;
    integer k;
    reg [7:0] c;
    begin
      c = crc_in ^ d;
      for (k = 0; k < 8; k = k + 1)
        c = c[7] ? ((c << 1) ^ 8'h07) : (c << 1);
      crc8_step = c;
    end
  endfunction

  function parity;
    input [7:0] v;
    parity = ^v;
  endfunction

  always @(posedge clk or negedge rst_n) begin
    if (!rst_n)
      crc_q <= 8'h00;
    else if (clear)
      crc_q <= 8'h00;
    else if (en)
      crc_q <= crc8_step(crc_q, data);
  end

  assign crc = crc_q;
endmodule

// Top level: per-channel FIFOs, an arbiter picking the channel to drain,
// and a CRC over everything that leaves.
module dma_v (clk, rst_n, ch_push, ch_data, ch_full, out_ready, out_valid,
              out_data, out_parity, out_channel, crc);
  parameter W = `DMA_DATA_W;
  parameter CH = `DMA_CHANNELS;
  localparam CH_BITS = (CH <= 2) ? 1 : (CH <= 4) ? 2 : 3;

  input clk;
  input rst_n;
  input [CH-1:0] ch_push;
  input [CH*W-1:0] ch_data;
  output [CH-1:0] ch_full;
  input out_ready;
  output reg out_valid;
  output reg [W-1:0] out_data;
  output reg out_parity;
  output reg [CH_BITS-1:0] out_channel;
  output [7:0] crc;

  wire [CH-1:0] empty;
  wire [CH-1:0] grant;
  wire arb_valid;
  wire [W-1:0] fifo_dout [0:CH-1];
  (* keep *) wire [CH-1:0] pop = grant & ~empty & {CH{out_ready}};
  reg [CH_BITS-1:0] sel;
  integer j;

  genvar c;
  generate
    for (c = 0; c < CH; c = c + 1) begin : g_ch
      fifo_v #(.WIDTH(W), .DEPTH_LOG2(`DMA_FIFO_DEPTH_LOG2)) u_fifo (
        .clk(clk), .rst_n(rst_n),
        .push(ch_push[c]), .pop(pop[c]),
        .din(ch_data[c*W +: W]), .dout(fifo_dout[c]),
        .full(ch_full[c]), .empty(empty[c]), .level()
      );
    end
  endgenerate

  rr_arbiter_v #(CH) u_arb (clk, rst_n, ~empty, grant, arb_valid);

  crc8_v u_crc (
    .clk(clk), .rst_n(rst_n), .clear(1'b0),
    .en(out_valid && out_ready), .data(out_data), .crc(crc)
  );

  // One-hot grant to an index.
  always @(grant) begin
    sel = 0;
    for (j = 0; j < CH; j = j + 1)
      if (grant[j]) sel = j;
  end

  always @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      out_valid <= 1'b0;
      out_data <= {W{1'b0}};
      out_parity <= 1'b0;
      out_channel <= 0;
    end else if (out_ready || !out_valid) begin
      out_valid <= arb_valid && |(grant & ~empty);
      out_data <= fifo_dout[sel];
`ifdef DMA_NO_PARITY
      out_parity <= 1'b0;
`else
      out_parity <= ^fifo_dout[sel];
`endif
      out_channel <= sel;
    end
  end

`ifdef DMA_TRACE
  task show;
    input [CH_BITS-1:0] ch;
    input [W-1:0] d;
    begin
      $display("%t dma: channel %0d data %h", $time, ch, d);
    end
  endtask

  always @(posedge clk)
    if (out_valid && out_ready)
      show(out_channel, out_data);
`endif
endmodule
