// rv_alu.v -- RV32I integer ALU (Verilog-2005 style).
//
// One adder/subtractor, one shifter and the logic ops. The shifter comes in two
// flavours: with RV_FAST_SHIFT defined the synthesis tool gets plain << >> >>>
// operators; otherwise a five-stage logarithmic right shifter is built with a
// generate loop, and left shifts reuse it by reversing the operand bits.
`include "rv_defines.vh"

module rv_alu(a, b, op, y, eq, lt, ltu);
  parameter XLEN = 32;

  input  [XLEN-1:0]        a;
  input  [XLEN-1:0]        b;
  input  [`ALU_OP_W-1:0]   op;
  output [XLEN-1:0]        y;
  output                   eq;
  output                   lt;
  output                   ltu;

  reg    [XLEN-1:0]        y;
  reg                      eq;
  reg                      lt;
  reg                      ltu;

  localparam SHW = 5;                  // shift amount width for XLEN = 32

  // ------------------------------------------------------------ compare --
  // Written with an explicit (complete) sensitivity list on purpose.
  reg  [XLEN:0] diff;
  always @(a or b) begin
    diff = {1'b0, a} - {1'b0, b};
    eq   = (a == b);
    ltu  = diff[XLEN];
    // signed less-than from the unsigned borrow and the two sign bits
    lt   = (a[XLEN-1] ^ b[XLEN-1]) ? a[XLEN-1] : diff[XLEN];
  end

  // ------------------------------------------------------------ shifter --
  wire [SHW-1:0]  shamt = b[SHW-1:0];
  wire [XLEN-1:0] sh_left;
  wire [XLEN-1:0] sh_right;

`ifdef RV_FAST_SHIFT
  // sra_y gets its own assignment: inside ?: with the unsigned a >> shamt,
  // $signed(a) >>> shamt would be evaluated unsigned, i.e. as a logical shift.
  wire [XLEN-1:0] sra_y = $signed(a) >>> shamt;
  assign sh_left  = a << shamt;
  assign sh_right = (op == `ALU_SRA) ? sra_y : (a >> shamt);
`else
  wire            is_left = (op == `ALU_SLL);
  wire            fill    = (op == `ALU_SRA) & a[XLEN-1];
  wire [XLEN-1:0] a_rev;
  wire [XLEN-1:0] stage [0:SHW] /* verilator split_var */;
  wire [XLEN-1:0] res_rev;

  genvar gi;
  generate
    for (gi = 0; gi < XLEN; gi = gi + 1) begin : g_rev
      assign a_rev[gi]   = a[XLEN-1-gi];
      assign res_rev[gi] = stage[SHW][XLEN-1-gi];
    end

    assign stage[0] = is_left ? a_rev : a;

    for (gi = 0; gi < SHW; gi = gi + 1) begin : g_stage
      localparam DIST = 1 << gi;
      assign stage[gi+1] = shamt[gi] ? {{DIST{fill}}, stage[gi][XLEN-1:DIST]}
                                     : stage[gi];
    end
  endgenerate

  assign sh_left  = res_rev;
  assign sh_right = stage[SHW];
`endif

  // --------------------------------------------------------- result mux --
  always @* begin
    y = {XLEN{1'b0}};
    (* full_case, parallel_case *)
    case (op)
      `ALU_ADD:   y = a + b;
      `ALU_SUB:   y = diff[XLEN-1:0];
      `ALU_SLL:   y = sh_left;
      `ALU_SLT:   y = {{(XLEN-1){1'b0}}, lt};
      `ALU_SLTU:  y = {{(XLEN-1){1'b0}}, ltu};
      `ALU_XOR:   y = a ^ b;
      `ALU_SRL:   y = sh_right;
      `ALU_SRA:   y = sh_right;
      `ALU_OR:    y = a | b;
      `ALU_AND:   y = a & b;
      `ALU_PASSB: y = b;
      default:    y = {XLEN{1'b0}};
    endcase
  end

endmodule
