// rv_core.v -- a small multi-cycle RV32I core (Verilog-2005 style).
//
// One instruction at a time through a small state machine:
//
//   FETCH  drive i_req/i_addr=pc until the memory grants it
//   IWAIT  wait for i_rvalid, latch the instruction word into ir
//   EXEC   decode ir, read rs1/rs2, run the ALU; ALU ops, jumps and branches
//          write back and pick the next pc here; loads and stores register
//          their bus request and go on to MEM
//   MEM    drive d_req until the bus grants it
//   MWAIT  wait for d_rvalid; loads sign/zero-extend and write rd
//
// so an ALU/jump/branch instruction takes 3 cycles and a load/store 5 when the
// memories answer in one cycle. ECALL, EBREAK, illegal encodings, misaligned
// jump targets or data accesses and bus errors all stop the core in HALT.
//
// RV_M = 1 adds the M extension (MUL, MULH, MULHSU, MULHU, DIV, DIVU, REM,
// REMU). The multiplier and divider are combinational and finish in EXEC, so
// these take 3 cycles like any ALU op and add no state. With RV_M = 0 (the
// default) their encodings are illegal and the logic is not built.
//
// Bus ports (instruction and data alike): a request is held until *_gnt; the
// response comes later with *_rvalid (and d_err). d_addr is word aligned and
// d_be marks the byte lanes; store data is already replicated onto the lanes.
`include "rv_defines.vh"

module rv_core(clk, rst_n,
               i_req, i_addr, i_gnt, i_rvalid, i_rdata,
               d_req, d_we, d_be, d_addr, d_wdata, d_gnt, d_rvalid, d_rdata, d_err,
               halted, instret);
  parameter [31:0] RESET_PC = 32'h0000_0000;
  parameter        RV_M     = 0;       // 1: RV32IM, 0: RV32I

  input         clk;
  input         rst_n;
  // instruction port
  output        i_req;
  output [31:0] i_addr;
  input         i_gnt;
  input         i_rvalid;
  input  [31:0] i_rdata;
  // data port
  output        d_req;
  output        d_we;
  output [3:0]  d_be;
  output [31:0] d_addr;
  output [31:0] d_wdata;
  input         d_gnt;
  input         d_rvalid;
  input  [31:0] d_rdata;
  input         d_err;
  // status
  output        halted;
  output [31:0] instret;

  // ------------------------------------------------------------- states --
  localparam [2:0] S_FETCH = 3'd0,
                   S_IWAIT = 3'd1,
                   S_EXEC  = 3'd2,
                   S_MEM   = 3'd3,
                   S_MWAIT = 3'd4,
                   S_HALT  = 3'd5;

  reg  [2:0]  state;
  reg  [31:0] pc;
  reg  [31:0] ir;
  reg  [31:0] instret;
  reg         d_we_q;
  reg  [3:0]  d_be_q;
  reg  [31:0] d_addr_q;
  reg  [31:0] d_wdata_q;
  reg  [1:0]  mem_off_q;     // byte offset of the pending load

  // ---------------------------------------------------------- immediates --
  function [31:0] sext12;
    input [11:0] v;
    begin
      sext12 = {{20{v[11]}}, v};
    end
  endfunction

  function [31:0] imm_s;
    input [6:0] hi;            // ir[31:25]
    input [4:0] lo;            // ir[11:7]
    begin
      imm_s = sext12({hi, lo});
    end
  endfunction

  function [31:0] imm_b;
    input [6:0] hi;            // ir[31:25]
    input [4:0] lo;            // ir[11:7]
    begin
      imm_b = {{20{hi[6]}}, lo[0], hi[5:0], lo[4:1], 1'b0};
    end
  endfunction

  function [31:0] imm_u;
    input [19:0] v;            // ir[31:12]
    begin
      imm_u = {v, 12'h000};
    end
  endfunction

  function [31:0] imm_j;
    input [19:0] v;            // ir[31:12]
    begin
      imm_j = {{12{v[19]}}, v[7:0], v[8], v[18:9], 1'b0};
    end
  endfunction

  // ---------------------------------------------------------- ir fields --
  wire [6:0] opcode = ir[6:0];
  wire [4:0] rd     = ir[11:7];
  wire [2:0] funct3 = ir[14:12];
  wire [4:0] rs1    = ir[19:15];
  wire [4:0] rs2    = ir[24:20];
  wire [6:0] funct7 = ir[31:25];

  // ------------------------------------------------------------- decode --
  reg [`ALU_OP_W-1:0] alu_op;
  reg                 alu_a_pc;    // operand a = pc instead of rs1
  reg                 alu_b_imm;   // operand b = imm instead of rs2
  reg                 rd_we;
  reg [1:0]           wb_sel;
  reg [31:0]          imm;
  reg                 is_load;
  reg                 is_store;
  reg                 is_branch;
  reg                 is_jal;
  reg                 is_jalr;
  reg                 is_sys;      // ECALL / EBREAK: stop
  reg                 illegal;

  // Human-readable mnemonic of the instruction in EXEC, for waveforms.
  /* verilator lint_off UNUSED */
  (* keep *) reg [127:0] dbg_op;
  /* verilator lint_on UNUSED */

  // Sets the datapath controls of one instruction class. No timing inside,
  // so it can be called from the combinational decoder below.
  task ctl;
    input [`ALU_OP_W-1:0] aop;
    input                 a_pc;
    input                 b_imm;
    input                 wb;
    begin
      alu_op    = aop;
      alu_a_pc  = a_pc;
      alu_b_imm = b_imm;
      rd_we     = wb;
    end
  endtask

  always @* begin
    ctl(`ALU_ADD, 1'b0, 1'b0, 1'b0);
    wb_sel    = `WB_ALU;
    imm       = sext12(ir[31:20]);
    is_load   = 1'b0;
    is_store  = 1'b0;
    is_branch = 1'b0;
    is_jal    = 1'b0;
    is_jalr   = 1'b0;
    is_sys    = 1'b0;
    illegal   = 1'b0;
    dbg_op    = "???";

    casez ({funct7, funct3, opcode})
      // ---- upper immediates and jumps
      {7'b???????, 3'b???, `OP_LUI}: begin
        ctl(`ALU_PASSB, 1'b0, 1'b1, 1'b1);  imm = imm_u(ir[31:12]); dbg_op = "lui";
      end
      {7'b???????, 3'b???, `OP_AUIPC}: begin
        ctl(`ALU_ADD, 1'b1, 1'b1, 1'b1);    imm = imm_u(ir[31:12]); dbg_op = "auipc";
      end
      {7'b???????, 3'b???, `OP_JAL}: begin
        ctl(`ALU_ADD, 1'b1, 1'b1, 1'b1);    imm = imm_j(ir[31:12]); dbg_op = "jal";
        is_jal = 1'b1; wb_sel = `WB_PC4;
      end
      {7'b???????, 3'b000, `OP_JALR}: begin
        ctl(`ALU_ADD, 1'b0, 1'b1, 1'b1);    dbg_op = "jalr";
        is_jalr = 1'b1; wb_sel = `WB_PC4;
      end
      // ---- conditional branches: ALU compares rs1 with rs2
      {7'b???????, `F3_BEQ,  `OP_BRANCH},
      {7'b???????, `F3_BNE,  `OP_BRANCH},
      {7'b???????, `F3_BLT,  `OP_BRANCH},
      {7'b???????, `F3_BGE,  `OP_BRANCH},
      {7'b???????, `F3_BLTU, `OP_BRANCH},
      {7'b???????, `F3_BGEU, `OP_BRANCH}: begin
        ctl(`ALU_SUB, 1'b0, 1'b0, 1'b0);    imm = imm_b(ir[31:25], ir[11:7]); dbg_op = "branch";
        is_branch = 1'b1;
      end
      // ---- loads and stores
      {7'b???????, `F3_B,  `OP_LOAD},
      {7'b???????, `F3_H,  `OP_LOAD},
      {7'b???????, `F3_W,  `OP_LOAD},
      {7'b???????, `F3_BU, `OP_LOAD},
      {7'b???????, `F3_HU, `OP_LOAD}: begin
        ctl(`ALU_ADD, 1'b0, 1'b1, 1'b1);    dbg_op = "load";
        is_load = 1'b1; wb_sel = `WB_LOAD;
      end
      {7'b???????, `F3_B, `OP_STORE},
      {7'b???????, `F3_H, `OP_STORE},
      {7'b???????, `F3_W, `OP_STORE}: begin
        ctl(`ALU_ADD, 1'b0, 1'b1, 1'b0);    imm = imm_s(ir[31:25], ir[11:7]); dbg_op = "store";
        is_store = 1'b1;
      end
      // ---- register-immediate
      {7'b???????, 3'b000, `OP_IMM}: begin ctl(`ALU_ADD,  1'b0, 1'b1, 1'b1); dbg_op = "addi";  end
      {7'b???????, 3'b010, `OP_IMM}: begin ctl(`ALU_SLT,  1'b0, 1'b1, 1'b1); dbg_op = "slti";  end
      {7'b???????, 3'b011, `OP_IMM}: begin ctl(`ALU_SLTU, 1'b0, 1'b1, 1'b1); dbg_op = "sltiu"; end
      {7'b???????, 3'b100, `OP_IMM}: begin ctl(`ALU_XOR,  1'b0, 1'b1, 1'b1); dbg_op = "xori";  end
      {7'b???????, 3'b110, `OP_IMM}: begin ctl(`ALU_OR,   1'b0, 1'b1, 1'b1); dbg_op = "ori";   end
      {7'b???????, 3'b111, `OP_IMM}: begin ctl(`ALU_AND,  1'b0, 1'b1, 1'b1); dbg_op = "andi";  end
      {7'b0000000, 3'b001, `OP_IMM}: begin ctl(`ALU_SLL,  1'b0, 1'b1, 1'b1); dbg_op = "slli";  end
      {7'b0000000, 3'b101, `OP_IMM}: begin ctl(`ALU_SRL,  1'b0, 1'b1, 1'b1); dbg_op = "srli";  end
      {7'b0100000, 3'b101, `OP_IMM}: begin ctl(`ALU_SRA,  1'b0, 1'b1, 1'b1); dbg_op = "srai";  end
      // ---- register-register
      {7'b0000000, 3'b000, `OP_REG}: begin ctl(`ALU_ADD,  1'b0, 1'b0, 1'b1); dbg_op = "add";   end
      {7'b0100000, 3'b000, `OP_REG}: begin ctl(`ALU_SUB,  1'b0, 1'b0, 1'b1); dbg_op = "sub";   end
      {7'b0000000, 3'b001, `OP_REG}: begin ctl(`ALU_SLL,  1'b0, 1'b0, 1'b1); dbg_op = "sll";   end
      {7'b0000000, 3'b010, `OP_REG}: begin ctl(`ALU_SLT,  1'b0, 1'b0, 1'b1); dbg_op = "slt";   end
      {7'b0000000, 3'b011, `OP_REG}: begin ctl(`ALU_SLTU, 1'b0, 1'b0, 1'b1); dbg_op = "sltu";  end
      {7'b0000000, 3'b100, `OP_REG}: begin ctl(`ALU_XOR,  1'b0, 1'b0, 1'b1); dbg_op = "xor";   end
      {7'b0000000, 3'b101, `OP_REG}: begin ctl(`ALU_SRL,  1'b0, 1'b0, 1'b1); dbg_op = "srl";   end
      {7'b0100000, 3'b101, `OP_REG}: begin ctl(`ALU_SRA,  1'b0, 1'b0, 1'b1); dbg_op = "sra";   end
      {7'b0000000, 3'b110, `OP_REG}: begin ctl(`ALU_OR,   1'b0, 1'b0, 1'b1); dbg_op = "or";    end
      {7'b0000000, 3'b111, `OP_REG}: begin ctl(`ALU_AND,  1'b0, 1'b0, 1'b1); dbg_op = "and";   end
      // ---- M extension: the result comes from the mul/div unit
      {`F7_MULDIV, 3'b???, `OP_REG}: begin
        if (RV_M != 0) begin
          ctl(`ALU_ADD, 1'b0, 1'b0, 1'b1);  dbg_op = "muldiv";
          wb_sel = `WB_MUL;
        end else begin
          illegal = 1'b1;
          dbg_op  = "illegal";
        end
      end
      // ---- misc
      {7'b???????, 3'b000, `OP_FENCE}: begin
        dbg_op = "fence";                   // no caches, one access at a time: a no-op
      end
      {7'b???????, 3'b000, `OP_SYSTEM}: begin
        is_sys = 1'b1;
        dbg_op = ir[20] ? "ebreak" : "ecall";
      end
      default: begin
        illegal = 1'b1;
        dbg_op  = "illegal";
      end
    endcase
  end

  // ----------------------------------------------------------- datapath --
  wire [31:0] rs1_v;
  wire [31:0] rs2_v;
  wire [31:0] alu_y;
  wire        cmp_eq;
  wire        cmp_lt;
  wire        cmp_ltu;
  wire        rf_we;
  reg  [31:0] rf_wdata;

  rv_regfile #(.XLEN(32), .NREGS(32)) u_rf (
    .clk    (clk),
    .rst_n  (rst_n),
    .raddr1 (rs1),
    .rdata1 (rs1_v),
    .raddr2 (rs2),
    .rdata2 (rs2_v),
    .we     (rf_we),
    .waddr  (rd),
    .wdata  (rf_wdata)
  );

  wire [31:0] alu_a = alu_a_pc  ? pc  : rs1_v;
  wire [31:0] alu_b = alu_b_imm ? imm : rs2_v;

  rv_alu #(.XLEN(32)) u_alu (
    .a   (alu_a),
    .b   (alu_b),
    .op  (alu_op),
    .y   (alu_y),
    .eq  (cmp_eq),
    .lt  (cmp_lt),
    .ltu (cmp_ltu)
  );

  wire [31:0] pc_plus4 = pc + 32'd4;

  reg br_taken;
  always @* begin
    case (funct3)
      `F3_BEQ:  br_taken = cmp_eq;
      `F3_BNE:  br_taken = !cmp_eq;
      `F3_BLT:  br_taken = cmp_lt;
      `F3_BGE:  br_taken = !cmp_lt;
      `F3_BLTU: br_taken = cmp_ltu;
      `F3_BGEU: br_taken = !cmp_ltu;
      default:  br_taken = 1'b0;
    endcase
  end

  // Branch targets need their own adder: the ALU is busy comparing.
  wire [31:0] br_target = pc + imm;

  reg [31:0] next_pc;
  always @* begin
    if (is_jal)
      next_pc = alu_y;
    else if (is_jalr)
      next_pc = {alu_y[31:1], 1'b0};
    else if (is_branch && br_taken)
      next_pc = br_target;
    else
      next_pc = pc_plus4;
  end

  // ------------------------------------------------- store lanes / faults --
  integer    lane;
  reg [31:0] st_data;
  reg [3:0]  st_be;
  reg        mis_data;
  always @* begin
    for (lane = 0; lane < 4; lane = lane + 1) begin
      case (funct3[1:0])
        2'b00:   st_data[lane*8 +: 8] = rs2_v[7:0];
        2'b01:   st_data[lane*8 +: 8] = rs2_v[(lane % 2)*8 +: 8];
        default: st_data[lane*8 +: 8] = rs2_v[lane*8 +: 8];
      endcase
    end
    case (funct3[1:0])
      2'b00: begin
        st_be    = 4'b0001 << alu_y[1:0];
        mis_data = 1'b0;
      end
      2'b01: begin
        st_be    = alu_y[1] ? 4'b1100 : 4'b0011;
        mis_data = alu_y[0];
      end
      default: begin
        st_be    = 4'b1111;
        mis_data = (alu_y[1:0] != 2'b00);
      end
    endcase
  end

  wire mis_fetch = next_pc[1] | next_pc[0];
  wire is_mem    = is_load | is_store;
  wire stop_now  = is_sys | illegal | (is_mem ? mis_data : mis_fetch);

  // ---------------------------------------------------------- load data --
  reg  [15:0] ld_lo;          // addressed byte/half moved down to bit 0
  reg  [31:0] ld_val;
  always @* begin
    case (mem_off_q)
      2'd0:    ld_lo = d_rdata[15:0];
      2'd1:    ld_lo = d_rdata[23:8];
      2'd2:    ld_lo = d_rdata[31:16];
      default: ld_lo = {8'h00, d_rdata[31:24]};
    endcase
    case (funct3)
      `F3_B:   ld_val = {{24{ld_lo[7]}},  ld_lo[7:0]};
      `F3_H:   ld_val = {{16{ld_lo[15]}}, ld_lo[15:0]};
      `F3_BU:  ld_val = {24'h000000, ld_lo[7:0]};
      `F3_HU:  ld_val = {16'h0000,   ld_lo[15:0]};
      default: ld_val = d_rdata;
    endcase
  end

  // ----------------------------------------------------------- write-back --
  assign rf_we = ((state == S_EXEC)  && rd_we && !is_load && !stop_now) ||
                 ((state == S_MWAIT) && d_rvalid && !d_err && is_load);
  // rf_wdata, the write-back mux, is driven in the generate block below:
  // one version with the mul/div result, one without.

  // ---------------------------------------------------- M extension unit --
  // Combinational, operands straight from the register file, op in funct3.
  // It shares a generate block with the write-back mux, so that RV_M = 0
  // builds exactly the nets and processes of the plain RV32I core.
  // Division is done on magnitudes with a divisor that is never zero, and
  // the RISC-V special cases are selected explicitly:
  //   x / 0      = all ones (DIV and DIVU),  x % 0 = x
  //   -2^31 / -1 = -2^31,                    -2^31 % -1 = 0
  // (the second falls out of the magnitude form: |-2^31| = 2^31 fits 32 bits
  // unsigned, 2^31 / 1 = 2^31 and the quotient keeps its sign).
  generate
    if (RV_M != 0) begin : g_mext
      // funct3: 000 MUL 001 MULH 010 MULHSU 011 MULHU 100 DIV 101 DIVU 110 REM 111 REMU
      wire        is_div  = funct3[2];
      wire        a_sgn   = is_div ? !funct3[0] : (funct3[1:0] == 2'b01) || (funct3[1:0] == 2'b10);
      wire        b_sgn   = is_div ? !funct3[0] : (funct3[1:0] == 2'b01);
      wire        a_neg   = a_sgn & rs1_v[31];
      wire        b_neg   = b_sgn & rs2_v[31];

      // multiply: 64-bit operands, sign- or zero-extended; the low 64 bits
      // of their product are right for every signedness combination
      wire [63:0] mul_a   = {{32{a_neg}}, rs1_v};
      wire [63:0] mul_b   = {{32{b_neg}}, rs2_v};
      wire [63:0] prod    = mul_a * mul_b;

      // divide
      wire [31:0] a_mag   = a_neg ? (~rs1_v + 32'd1) : rs1_v;
      wire [31:0] b_mag   = b_neg ? (~rs2_v + 32'd1) : rs2_v;
      wire        b_zero  = (rs2_v == 32'd0);
      wire [31:0] b_safe  = b_zero ? 32'd1 : b_mag;
      wire [31:0] q_mag   = a_mag / b_safe;
      wire [31:0] r_mag   = a_mag - q_mag * b_safe;
      wire [31:0] q_sgn   = (a_neg ^ b_neg) ? (~q_mag + 32'd1) : q_mag;
      wire [31:0] r_sgn   = a_neg ? (~r_mag + 32'd1) : r_mag;
      wire [31:0] quot    = b_zero ? 32'hFFFF_FFFF : q_sgn;
      wire [31:0] rem     = b_zero ? rs1_v : r_sgn;

      reg  [31:0] md_y;
      always @* begin
        case (funct3)
          3'b000:  md_y = prod[31:0];
          3'b001:  md_y = prod[63:32];
          3'b010:  md_y = prod[63:32];
          3'b011:  md_y = prod[63:32];
          3'b100:  md_y = quot;
          3'b101:  md_y = quot;
          default: md_y = rem;
        endcase
      end

      // write-back mux with the mul/div result
      always @* begin
        case (wb_sel)
          `WB_PC4:  rf_wdata = pc_plus4;
          `WB_LOAD: rf_wdata = ld_val;
          `WB_MUL:  rf_wdata = md_y;
          default:  rf_wdata = alu_y;
        endcase
      end
    end else begin : g_no_mext
      // write-back mux of RV32I
      always @* begin
        case (wb_sel)
          `WB_PC4:  rf_wdata = pc_plus4;
          `WB_LOAD: rf_wdata = ld_val;
          default:  rf_wdata = alu_y;
        endcase
      end
    end
  endgenerate

  // ------------------------------------------------------- state machine --
  always @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      state     <= S_FETCH;
      pc        <= RESET_PC;
      ir        <= `RV_NOP;
      instret   <= 32'd0;
      d_we_q    <= 1'b0;
      d_be_q    <= 4'b0000;
      d_addr_q  <= 32'd0;
      d_wdata_q <= 32'd0;
      mem_off_q <= 2'b00;
    end else begin
      (* parallel_case *)
      case (state)
        S_FETCH: begin
          if (i_gnt)
            state <= S_IWAIT;
        end
        S_IWAIT: begin
          if (i_rvalid) begin
            ir    <= i_rdata;
            state <= S_EXEC;
          end
        end
        S_EXEC: begin
          if (stop_now) begin
            state <= S_HALT;
          end else if (is_mem) begin
            d_we_q    <= is_store;
            d_be_q    <= st_be;
            d_addr_q  <= {alu_y[31:2], 2'b00};
            d_wdata_q <= st_data;
            mem_off_q <= alu_y[1:0];
            state     <= S_MEM;
          end else begin
            pc      <= next_pc;
            instret <= instret + 32'd1;
            state   <= S_FETCH;
          end
        end
        S_MEM: begin
          if (d_gnt)
            state <= S_MWAIT;
        end
        S_MWAIT: begin
          if (d_rvalid) begin
            if (d_err) begin
              state <= S_HALT;
            end else begin
              pc      <= pc_plus4;
              instret <= instret + 32'd1;
              state   <= S_FETCH;
            end
          end
        end
        default: begin
          state <= S_HALT;                 // S_HALT and the unused codes
        end
      endcase
    end
  end

  assign i_req   = (state == S_FETCH);
  assign i_addr  = pc;
  assign d_req   = (state == S_MEM);
  assign d_we    = d_we_q;
  assign d_be    = d_be_q;
  assign d_addr  = d_addr_q;
  assign d_wdata = d_wdata_q;
  assign halted  = (state == S_HALT);

`ifdef RV_TRACE
  always @(posedge clk) begin
    if (state == S_EXEC)
      $display("[rv_core] pc=%08h ir=%08h %0s%s", pc, ir, dbg_op,
               stop_now ? "  -> halt" : "");
    if ((state == S_MWAIT) && d_rvalid)
      $display("[rv_core]   %s addr=%08h be=%b data=%08h%s", d_we_q ? "st" : "ld",
               d_addr_q, d_be_q, d_we_q ? d_wdata_q : d_rdata, d_err ? " BUS ERROR" : "");
  end
`endif

endmodule
