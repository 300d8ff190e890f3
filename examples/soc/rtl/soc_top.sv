// soc_top.sv -- the weft example SoC: an RV32I core (Verilog-2005, rv_*.v)
// with a dual-port RAM, a bus decoder and four peripherals (SystemVerilog).
//
//          +---------+ i_*  +-----------------------------+
//          | rv_core |----->| soc_ram  (instruction port) |
//          |         | d_*  |                             |
//          |         |--+   |          (data port)        |
//          +---------+  |   +-----------------------------+
//                       |            ^ s_req[SLV_RAM]
//                       v            |
//                   +---------+------+--> soc_timer   (irq[0])
//                   | soc_bus |---------> soc_gpio    (gpio_o, gpio_i, irq[1])
//                   +---------+---------> soc_uart_lite (uart_tx)
//                             +---------> soc_simctrl (finish, putc)
//
// The core starts at RESET_PC = 0 from the RAM image FIRMWARE. The path is
// handed to $readmemh as is, so it is relative to the simulator's working
// directory; the default suits a run from the weft repository root.
//
// A few spellings here are chosen so that Icarus Verilog 11 accepts the file:
// FIRMWARE is an untyped parameter (no `parameter string`), RESET_PC and
// `result` are spelled logic [..] rather than word_t, and the bus fans its
// request out as one struct plus a one-hot select (no unpacked-array output
// ports). See also soc_compat.svh.
`include "soc_compat.svh"

module soc_top
  import soc_pkg::*;
#(
    parameter int          RAM_WORDS   = 1024,  // >= 1024: firmware data sits at 0x800..0xfff
    parameter              FIRMWARE    = "examples/soc/rtl/firmware.hex",
    parameter int          GPIO_W      = 8,     // 1..32
    parameter int          UART_CLKDIV = 3,     // reset value of the UART's DIV
    parameter logic [31:0] RESET_PC    = 32'h0000_0000
) (
    input  `SOC_VAR logic              clk,
    input  `SOC_VAR logic              rst_n,
    input  `SOC_VAR logic [GPIO_W-1:0] gpio_i,
    output logic      [GPIO_W-1:0]     gpio_o,
    output logic                       uart_tx,
    output logic      [1:0]            irq,        // {gpio, timer}
    output logic                       halted,     // core stopped (ebreak, fault)
    output logic                       finished,   // firmware wrote FINISH
    output logic      [31:0]           result      // the value it wrote
);
  // ------------------------------------------------------------ reset --
  // Asynchronous assertion, synchronous release.
  logic [1:0] rst_sync_q;
  logic       rst_n_core;

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n)
      rst_sync_q <= '0;
    else
      rst_sync_q <= {rst_sync_q[0], 1'b1};
  end
  assign rst_n_core = rst_sync_q[1];

  // ------------------------------------------------------------- core --
  logic     i_req;
  word_t    i_addr;
  logic     i_rvalid;
  word_t    i_rdata;
  logic     d_req;
  logic     d_we;
  strb_t    d_be;
  word_t    d_addr;
  word_t    d_wdata;
  word_t    instret;
  bus_req_t m_req;
  bus_rsp_t m_rsp;

  rv_core #(
      .RESET_PC(RESET_PC)
  ) u_core (
      .clk     (clk),
      .rst_n   (rst_n_core),
      .i_req   (i_req),
      .i_addr  (i_addr),
      .i_gnt   (1'b1),
      .i_rvalid(i_rvalid),
      .i_rdata (i_rdata),
      .d_req   (d_req),
      .d_we    (d_we),
      .d_be    (d_be),
      .d_addr  (d_addr),
      .d_wdata (d_wdata),
      .d_gnt   (m_rsp.ready),
      .d_rvalid(m_rsp.rvalid),
      .d_rdata (m_rsp.rdata),
      .d_err   (m_rsp.err),
      .halted  (halted),
      .instret (instret)
  );

  always_comb begin
    m_req       = '0;
    m_req.valid = d_req;
    m_req.we    = d_we;
    m_req.be    = d_be;
    m_req.addr  = d_addr;
    m_req.wdata = d_wdata;
  end

  // -------------------------------------------------------------- bus --
  bus_req_t              bus_req;
  logic [NUM_SLAVES-1:0] bus_sel;
  bus_req_t              s_req[NUM_SLAVES];
  bus_rsp_t              s_rsp[NUM_SLAVES];

  soc_bus u_bus (
      .clk  (clk),
      .rst_n(rst_n_core),
      .m_req(m_req),
      .m_rsp(m_rsp),
      .s_req(bus_req),
      .s_sel(bus_sel),
      .s_rsp(s_rsp)
  );

  for (genvar i = 0; i < NUM_SLAVES; i++) begin : g_slave_req
    assign s_req[i] = req_gate(bus_req, bus_sel[i]);
  end

  // ------------------------------------------------------------ slaves --
  soc_ram #(
      .DEPTH    (RAM_WORDS),
      .INIT_FILE(FIRMWARE)
  ) u_ram (
      .clk     (clk),
      .rst_n   (rst_n_core),
      .i_req   (i_req),
      .i_addr  (i_addr),
      .i_rvalid(i_rvalid),
      .i_rdata (i_rdata),
      .d_req   (s_req[SLV_RAM]),
      .d_rsp   (s_rsp[SLV_RAM])
  );

  soc_timer #(
      .PRESC_W(16)
  ) u_timer (
      .clk  (clk),
      .rst_n(rst_n_core),
      .req  (s_req[SLV_TIMER]),
      .rsp  (s_rsp[SLV_TIMER]),
      .irq  (irq[0])
  );

  soc_gpio #(
      .WIDTH(GPIO_W)
  ) u_gpio (
      .clk   (clk),
      .rst_n (rst_n_core),
      .req   (s_req[SLV_GPIO]),
      .rsp   (s_rsp[SLV_GPIO]),
      .gpio_i(gpio_i),
      .gpio_o(gpio_o),
      .irq   (irq[1])
  );

  soc_uart_lite #(
      .DEFAULT_DIV(UART_CLKDIV)
  ) u_uart (
      .clk  (clk),
      .rst_n(rst_n_core),
      .req  (s_req[SLV_UART]),
      .rsp  (s_rsp[SLV_UART]),
      .tx   (uart_tx)
  );

  soc_simctrl u_sim (
      .clk     (clk),
      .rst_n   (rst_n_core),
      .req     (s_req[SLV_SIM]),
      .rsp     (s_rsp[SLV_SIM]),
      .instret (instret),
      .finished(finished),
      .result  (result)
  );

endmodule
