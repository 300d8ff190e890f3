// soc_pkg.sv -- types, memory map and helpers shared by the weft example SoC.
//
// Memory map (byte addresses):
//   0x0000_0000 .. 0x0FFF_FFFF  RAM, RAM_WORDS*4 bytes, aliased over the region
//   0x1000_0000 .. 0x1000_00FF  timer
//   0x1000_0100 .. 0x1000_01FF  GPIO
//   0x1000_0200 .. 0x1000_02FF  UART transmitter
//   0x1000_0300 .. 0x1000_03FF  simulation control (finish / putc / counters)
//   anything else               bus error (the core halts)
package soc_pkg;

  localparam int XLEN  = 32;
  localparam int NBYTE = XLEN / 8;

  typedef logic [XLEN-1:0]  word_t;
  typedef logic [NBYTE-1:0] strb_t;

  // ------------------------------------------------------------------ bus --
  // One master (the core's data port), one outstanding request. A request is
  // held until `ready`; the slave answers in a later cycle with `rvalid`.
  typedef struct packed {
    logic  valid;
    logic  we;
    strb_t be;
    word_t addr;      // word aligned
    word_t wdata;     // already replicated onto the byte lanes
  } bus_req_t;

  typedef struct packed {
    logic  ready;
    logic  rvalid;
    logic  err;
    word_t rdata;
  } bus_rsp_t;

  typedef enum logic [2:0] {
    SLV_RAM   = 3'd0,
    SLV_TIMER = 3'd1,
    SLV_GPIO  = 3'd2,
    SLV_UART  = 3'd3,
    SLV_SIM   = 3'd4,
    SLV_NONE  = 3'd7
  } slave_e;

  localparam int NUM_SLAVES = 5;      // SLV_RAM .. SLV_SIM

  localparam word_t PERIPH_BASE = 32'h1000_0000;

  // Slave selected by an address; the low 8 bits never matter.
  function automatic slave_e addr_decode(logic [XLEN-1:8] page);
    if (page[31:28] == 4'h0)
      return SLV_RAM;
    if (page[31:12] != PERIPH_BASE[31:12])
      return SLV_NONE;
    unique case (page[11:8])
      4'h0:    return SLV_TIMER;
      4'h1:    return SLV_GPIO;
      4'h2:    return SLV_UART;
      4'h3:    return SLV_SIM;
      default: return SLV_NONE;
    endcase
  endfunction

  // The request a slave sees: the master's, valid only when it is selected.
  function automatic bus_req_t req_gate(bus_req_t r, logic sel);
    bus_req_t g = r;
    g.valid = r.valid & sel;
    return g;
  endfunction

  // Byte-enable merge of a register write.
  function automatic word_t apply_be(word_t old, word_t wdata, strb_t be);
    word_t r = old;
    for (int i = 0; i < NBYTE; i++)
      if (be[i])
        r[i*8 +: 8] = wdata[i*8 +: 8];
    return r;
  endfunction

  // ------------------------------------------------------- peripheral regs --
  // Word index (addr[4:2]) of each register inside a peripheral's slot.
  typedef enum logic [2:0] {
    TMR_CTRL   = 3'd0,   // rw  timer_ctrl_t
    TMR_PRESC  = 3'd1,   // rw  count advances every PRESC+1 cycles
    TMR_COUNT  = 3'd2,   // rw
    TMR_CMP    = 3'd3,   // rw  flag sets when COUNT == CMP on a tick
    TMR_STATUS = 3'd4    // r/w1c  bit 0: match flag
  } timer_reg_e;

  typedef struct packed {
    logic irq_en;        // bit 2: drive irq from the match flag
    logic auto_clr;      // bit 1: COUNT restarts from 0 after a match
    logic enable;        // bit 0
  } timer_ctrl_t;

  typedef enum logic [2:0] {
    GPIO_OUT  = 3'd0,    // rw
    GPIO_IN   = 3'd1,    // r   synchronised pins
    GPIO_SET  = 3'd2,    // w   OUT |= wdata
    GPIO_CLR  = 3'd3,    // w   OUT &= ~wdata
    GPIO_TGL  = 3'd4,    // w   OUT ^= wdata
    GPIO_RISE = 3'd5     // r/w1c  sticky rising-edge flags of IN
  } gpio_reg_e;

  typedef enum logic [2:0] {
    UART_DATA   = 3'd0,  // w: send a byte (dropped while busy), r: last byte
    UART_STATUS = 3'd1,  // r   bit 0: busy
    UART_DIV    = 3'd2,  // rw  clock cycles per bit minus one
    UART_COUNT  = 3'd3   // r   bytes sent since reset
  } uart_reg_e;

  typedef enum logic [1:0] {
    TX_IDLE  = 2'd0,
    TX_START = 2'd1,
    TX_DATA  = 2'd2,
    TX_STOP  = 2'd3
  } uart_state_e;

  typedef enum logic [2:0] {
    SIM_FINISH  = 3'd0,  // w   print the result and end the simulation
    SIM_PUTC    = 3'd1,  // w   print one character
    SIM_CYCLES  = 3'd2,  // r   clock cycles since reset
    SIM_INSTRET = 3'd3,  // r   instructions retired by the core
    SIM_SCRATCH = 3'd4   // rw
  } sim_reg_e;

endpackage
