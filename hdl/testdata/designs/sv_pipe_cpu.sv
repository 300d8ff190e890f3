// A tiny three-stage pipelined accumulator CPU in Verilator-style
// SystemVerilog: a package with enum/struct typedefs and functions,
// `input var logic` ports, always_ff/always_comb, unique case, generate
// loops without `generate`, packed multi-dimensional arrays. No interfaces.
// Top module: pipe_cpu.

package cpu_pkg;
  localparam int XLEN = 16;
  localparam int NREGS = 8;
  localparam int RIDX = $clog2(NREGS);

  typedef logic [XLEN-1:0] word_t;
  typedef logic [RIDX-1:0] ridx_t;

  typedef enum logic [3:0] {
    OP_NOP  = 4'h0,
    OP_ADD  = 4'h1,
    OP_SUB  = 4'h2,
    OP_AND  = 4'h3,
    OP_OR   = 4'h4,
    OP_XOR  = 4'h5,
    OP_SHL  = 4'h6,
    OP_SHR  = 4'h7,
    OP_LI   = 4'h8,
    OP_MUL  = 4'h9,
    OP_BEQZ = 4'hA,
    OP_HALT = 4'hF
  } opcode_e;

  typedef struct packed {
    opcode_e op;
    ridx_t   rd;
    ridx_t   rs1;
    ridx_t   rs2;
    logic [2:0] imm;
  } instr_t;

  typedef struct packed {
    logic    valid;
    opcode_e op;
    ridx_t   rd;
    word_t   a;
    word_t   b;
  } ex_req_t;

  function automatic instr_t decode(input logic [15:0] raw);
    instr_t i;
    i = instr_t'(raw);
    return i;
  endfunction

  function automatic logic writes_rd(opcode_e op);
    return !(op inside {OP_NOP, OP_BEQZ, OP_HALT});
  endfunction
endpackage : cpu_pkg

module regfile
  import cpu_pkg::*;
#(
  parameter int N = NREGS
) (
  input  var logic  clk,
  input  var logic  rst_n,
  input  var ridx_t ra1,
  input  var ridx_t ra2,
  output word_t     rd1,
  output word_t     rd2,
  input  var logic  we,
  input  var ridx_t wa,
  input  var word_t wd
);
  word_t regs [N];

  // r0 reads as zero; writes to it are dropped.
  assign rd1 = (ra1 == '0) ? '0 : regs[ra1];
  assign rd2 = (ra2 == '0) ? '0 : regs[ra2];

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      for (int i = 0; i < N; i++) regs[i] <= '0;
    end else if (we && wa != '0) begin
      regs[wa] <= wd;
    end
  end
endmodule : regfile

module alu
  import cpu_pkg::*;
(
  input  opcode_e   op,
  input  word_t     a,
  input  word_t     b,
  output word_t     y,
  output logic      zero
);
  logic [2*XLEN-1:0] prod;

  always_comb begin
    prod = a * b;
    y = '0;
    unique case (op)
      OP_ADD:          y = a + b;
      OP_SUB:          y = a - b;
      OP_AND:          y = a & b;
      OP_OR:           y = a | b;
      OP_XOR:          y = a ^ b;
      OP_SHL:          y = a << b[3:0];
      OP_SHR:          y = a >> b[3:0];
      OP_LI:           y = b;
      OP_MUL:          y = prod[XLEN-1:0];
      OP_NOP, OP_BEQZ,
      OP_HALT:         y = a;
      default:         y = 'x;
    endcase
  end

  assign zero = (y == '0);
endmodule : alu

module pipe_cpu
  import cpu_pkg::*;
#(
  parameter int IMEM_WORDS = 32,
  parameter logic [15:0] RESET_PC = 16'h0000
) (
  input  var logic                      clk,
  input  var logic                      rst_n,
  // Instruction memory write port, used by the test bench to load code.
  input  var logic                      imem_we,
  input  var logic [$clog2(IMEM_WORDS)-1:0] imem_wa,
  input  var logic [15:0]               imem_wd,
  output logic                          halted,
  output word_t                         acc,
  output logic [3:0][7:0]               trace
);
  localparam int PCW = $clog2(IMEM_WORDS);

  logic [15:0] imem [IMEM_WORDS];
  logic [PCW-1:0] pc_q, pc_d;

  // Fetch/decode register.
  instr_t  id_instr_q;
  logic    id_valid_q;
  // Decode/execute register.
  ex_req_t ex_q, ex_d;

  word_t rd1, rd2, alu_y;
  logic  alu_zero;
  logic  stall, flush, halt_q;
  logic  wb_we;
  ridx_t wb_wa;
  word_t wb_wd;

  always_ff @(posedge clk) begin
    if (imem_we) imem[imem_wa] <= imem_wd;
  end

  regfile #(.N(NREGS)) u_rf (
    .clk, .rst_n,
    .ra1(id_instr_q.rs1), .ra2(id_instr_q.rs2),
    .rd1, .rd2,
    .we(wb_we), .wa(wb_wa), .wd(wb_wd)
  );

  alu u_alu (.op(ex_q.op), .a(ex_q.a), .b(ex_q.b), .y(alu_y), .zero(alu_zero));

  // Hazard: execute writes the register decode wants to read.
  always_comb begin
    stall = 1'b0;
    if (ex_q.valid && writes_rd(ex_q.op) && ex_q.rd != '0) begin
      stall = (ex_q.rd == id_instr_q.rs1) || (ex_q.rd == id_instr_q.rs2);
    end
    flush = ex_q.valid && ex_q.op == OP_BEQZ && alu_zero;
  end

  always_comb begin
    pc_d = pc_q;
    if (flush) begin
      pc_d = PCW'(ex_q.b);
    end else if (!stall && !halt_q) begin
      pc_d = pc_q + 1'b1;
    end
  end

  always_comb begin
    ex_d = '{default: '0};
    if (id_valid_q && !stall && !flush) begin
      ex_d.valid = 1'b1;
      ex_d.op    = id_instr_q.op;
      ex_d.rd    = id_instr_q.rd;
      ex_d.a     = rd1;
      ex_d.b     = (id_instr_q.op == OP_LI || id_instr_q.op == OP_BEQZ)
                   ? word_t'({id_instr_q.rs2, id_instr_q.imm})
                   : rd2;
    end
  end

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      pc_q       <= RESET_PC[PCW-1:0];
      id_valid_q <= 1'b0;
      id_instr_q <= '0;
      ex_q       <= '0;
      halt_q     <= 1'b0;
    end else begin
      pc_q <= pc_d;
      if (flush) begin
        id_valid_q <= 1'b0;
      end else if (!stall) begin
        id_valid_q <= !halt_q;
        id_instr_q <= decode(imem[pc_q]);
      end
      ex_q <= ex_d;
      if (ex_q.valid && ex_q.op == OP_HALT) halt_q <= 1'b1;
    end
  end

  assign wb_we = ex_q.valid && writes_rd(ex_q.op);
  assign wb_wa = ex_q.rd;
  assign wb_wd = alu_y;
  assign halted = halt_q;

  // Accumulator view of register 1 and a byte trace of the last results.
  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      acc <= '0;
    end else if (wb_we && wb_wa == ridx_t'(1)) begin
      acc <= wb_wd;
    end
  end

  for (genvar i = 0; i < 4; i++) begin : g_trace
    if (i == 0) begin : g_head
      always_ff @(posedge clk or negedge rst_n) begin
        if (!rst_n) trace[i] <= '0;
        else if (wb_we) trace[i] <= wb_wd[7:0];
      end
    end else begin : g_shift
      always_ff @(posedge clk or negedge rst_n) begin
        if (!rst_n) trace[i] <= '0;
        else if (wb_we) trace[i] <= trace[i-1];
      end
    end
  end : g_trace

`ifndef SYNTHESIS
  final begin
    $display("pipe_cpu: pc=%0d halted=%0b acc=%h", pc_q, halt_q, acc);
  end
`endif
endmodule : pipe_cpu
