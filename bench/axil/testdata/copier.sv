// An AXI4-Lite master: a pulse on start copies n 32-bit words from src
// to dst, one word at a time (read it, then write it with AW and W
// issued together, each held until its own handshake, then wait for B).
// done goes high when the last B arrived and stays high until the next
// start; err is high when any response was not OKAY. src and dst are
// taken word-aligned.
module axil_copier (
    input  logic        clk,
    input  logic        rst_n,
    input  logic        start,
    input  logic [31:0] src,
    input  logic [31:0] dst,
    input  logic [7:0]  n,
    output logic        done,
    output logic        err,
    output logic [31:0] m_axil_awaddr,
    output logic [2:0]  m_axil_awprot,
    output logic        m_axil_awvalid,
    input  logic        m_axil_awready,
    output logic [31:0] m_axil_wdata,
    output logic [3:0]  m_axil_wstrb,
    output logic        m_axil_wvalid,
    input  logic        m_axil_wready,
    input  logic [1:0]  m_axil_bresp,
    input  logic        m_axil_bvalid,
    output logic        m_axil_bready,
    output logic [31:0] m_axil_araddr,
    output logic [2:0]  m_axil_arprot,
    output logic        m_axil_arvalid,
    input  logic        m_axil_arready,
    input  logic [31:0] m_axil_rdata,
    input  logic [1:0]  m_axil_rresp,
    input  logic        m_axil_rvalid,
    output logic        m_axil_rready
);
  typedef enum logic [2:0] {IDLE, AR, R, W, B} state_t;
  state_t      state;
  logic [7:0]  left;
  logic [31:0] rd_addr, wr_addr;

  assign m_axil_awprot = 3'd0;
  assign m_axil_arprot = 3'd0;
  assign m_axil_wstrb  = 4'hf;
  assign m_axil_rready = (state == R);
  assign m_axil_bready = (state == B);

  always_ff @(posedge clk) begin
    if (!rst_n) begin
      state <= IDLE;
      done <= 1'b0;
      err <= 1'b0;
      m_axil_arvalid <= 1'b0;
      m_axil_awvalid <= 1'b0;
      m_axil_wvalid <= 1'b0;
    end else begin
      case (state)
        IDLE: if (start) begin
          done <= 1'b0;
          err <= 1'b0;
          left <= n;
          rd_addr <= {src[31:2], 2'b00};
          wr_addr <= {dst[31:2], 2'b00};
          if (n == 8'd0) done <= 1'b1;
          else begin
            state <= AR;
            m_axil_arvalid <= 1'b1;
            m_axil_araddr <= {src[31:2], 2'b00};
          end
        end
        AR: if (m_axil_arready) begin
          m_axil_arvalid <= 1'b0;
          state <= R;
        end
        R: if (m_axil_rvalid) begin
          if (m_axil_rresp != 2'd0) err <= 1'b1;
          m_axil_wdata <= m_axil_rdata;
          m_axil_awaddr <= wr_addr;
          m_axil_awvalid <= 1'b1;
          m_axil_wvalid <= 1'b1;
          state <= W;
        end
        W: begin
          if (m_axil_awready) m_axil_awvalid <= 1'b0;
          if (m_axil_wready) m_axil_wvalid <= 1'b0;
          if ((m_axil_awready || !m_axil_awvalid) && (m_axil_wready || !m_axil_wvalid))
            state <= B;
        end
        B: if (m_axil_bvalid) begin
          if (m_axil_bresp != 2'd0) err <= 1'b1;
          left <= left - 8'd1;
          rd_addr <= rd_addr + 32'd4;
          wr_addr <= wr_addr + 32'd4;
          if (left == 8'd1) begin
            state <= IDLE;
            done <= 1'b1;
          end else begin
            state <= AR;
            m_axil_arvalid <= 1'b1;
            m_axil_araddr <= rd_addr + 32'd4;
          end
        end
        default: state <= IDLE;
      endcase
    end
  end
endmodule
