// rv_defines.vh -- shared encodings of the weft example RV32I core.
//
// Included by rv_core.v, rv_alu.v and rv_regfile.v. Plain Verilog-2005 text
// macros; the include guard lets every file pull it in on its own.
`ifndef RV_DEFINES_VH
`define RV_DEFINES_VH

// ---------------------------------------------------------------- opcodes --
`define OP_LUI     7'b0110111
`define OP_AUIPC   7'b0010111
`define OP_JAL     7'b1101111
`define OP_JALR    7'b1100111
`define OP_BRANCH  7'b1100011
`define OP_LOAD    7'b0000011
`define OP_STORE   7'b0100011
`define OP_IMM     7'b0010011
`define OP_REG     7'b0110011
`define OP_FENCE   7'b0001111
`define OP_SYSTEM  7'b1110011

// funct7 of the M extension's register-register ops (with OP_REG)
`define F7_MULDIV  7'b0000001

// ------------------------------------------------------- funct3: branches --
`define F3_BEQ     3'b000
`define F3_BNE     3'b001
`define F3_BLT     3'b100
`define F3_BGE     3'b101
`define F3_BLTU    3'b110
`define F3_BGEU    3'b111

// ------------------------------------------------- funct3: loads / stores --
`define F3_B       3'b000
`define F3_H       3'b001
`define F3_W       3'b010
`define F3_BU      3'b100
`define F3_HU      3'b101

// -------------------------------------------------------------- ALU ops --
`define ALU_OP_W   4
`define ALU_ADD    4'd0
`define ALU_SUB    4'd1
`define ALU_SLL    4'd2
`define ALU_SLT    4'd3
`define ALU_SLTU   4'd4
`define ALU_XOR    4'd5
`define ALU_SRL    4'd6
`define ALU_SRA    4'd7
`define ALU_OR     4'd8
`define ALU_AND    4'd9
`define ALU_PASSB  4'd10

// ------------------------------------------------- write-back selection --
`define WB_ALU     2'd0
`define WB_PC4     2'd1
`define WB_LOAD    2'd2
`define WB_MUL     2'd3

// Instruction word that the core treats as "nothing fetched yet" (addi x0,x0,0).
`define RV_NOP     32'h0000_0013

`endif // RV_DEFINES_VH
