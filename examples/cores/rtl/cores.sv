// cores.sv -- sixteen independent little CPUs on one clock: the weft
// example for partitioned simulation. Each core runs the same looping
// program on its own registers from its own seed; nothing but the clock,
// the reset and the broadcast input `in` connects them, and `sum` only
// observes them. A partitioner can give every lane whole cores.
//
// A core is a 32-bit machine with 8 registers and a 16-word program ROM.
// Instruction: op[15:12] rd[11:9] rs[8:6] imm[5:0].
//   0 ADDI rd = rs + imm     1 ADD rd = rd + rs     2 XOR rd = rd ^ rs
//   3 SHL  rd = rs << imm    4 MUL rd = rd * rs     5 MIX rd = rot(rs) ^ SEED
//   6 IN   rd = in ^ rs      7 BNZ if (rd != 0) pc = imm
//   8 SUB  rd = rd - rs
// Every cycle the core also folds its result into a CRC-32 (a bitwise loop
// in comb logic), which gives each core a datapath worth splitting off.
module cores_cpu #(
    parameter logic [31:0] SEED = 32'h1
) (
    input  logic        clk,
    input  logic        rst_n,
    input  logic [31:0] in,
    output logic [31:0] crc
);
  logic [3:0]  pc;
  logic [31:0] r [8];
  logic [15:0] insn;
  logic [31:0] a, b, imm, res, crc_next;
  logic        taken;

  // The program: stir the registers with the input until the low six bits
  // of r1 + r2 are zero (about one pass in 64), then start over.
  always_comb begin
    unique case (pc)
      4'd0:    insn = {4'h0, 3'd1, 3'd0, 6'(SEED)};  // r1 = r0 + seed
      4'd1:    insn = {4'h6, 3'd2, 3'd2, 6'd0};      // r2 = in ^ r2
      4'd2:    insn = {4'h5, 3'd3, 3'd2, 6'd0};      // r3 = rot(r2) ^ SEED
      4'd3:    insn = {4'h4, 3'd3, 3'd1, 6'd0};      // r3 = r3 * r1
      4'd4:    insn = {4'h1, 3'd4, 3'd3, 6'd0};      // r4 = r4 + r3
      4'd5:    insn = {4'h3, 3'd5, 3'd4, 6'd7};      // r5 = r4 << 7
      4'd6:    insn = {4'h2, 3'd5, 3'd3, 6'd0};      // r5 = r5 ^ r3
      4'd7:    insn = {4'h8, 3'd6, 3'd5, 6'd0};      // r6 = r6 - r5
      4'd8:    insn = {4'h1, 3'd7, 3'd6, 6'd0};      // r7 = r7 + r6
      4'd9:    insn = {4'h1, 3'd1, 3'd2, 6'd0};      // r1 = r1 + r2
      4'd10:   insn = {4'h3, 3'd1, 3'd1, 6'd26};     // r1 = r1 << 26 (low bits)
      4'd11:   insn = {4'h7, 3'd1, 3'd0, 6'd1};      // if r1 != 0 goto 1
      default: insn = {4'h7, 3'd7, 3'd0, 6'd0};      // if r7 != 0 goto 0
    endcase
  end

  always_comb begin
    a     = r[insn[11:9]];
    b     = r[insn[8:6]];
    imm   = {26'd0, insn[5:0]};
    taken = 1'b0;
    unique case (insn[15:12])
      4'h0:    res = b + imm;
      4'h1:    res = a + b;
      4'h2:    res = a ^ b;
      4'h3:    res = b << insn[4:0];
      4'h4:    res = a * b;
      4'h5:    res = {b[30:0], b[31]} ^ SEED;
      4'h6:    res = in ^ b;
      4'h7: begin
        res   = a;
        taken = a != 32'd0;
      end
      default: res = a - b;
    endcase
  end

  always_comb begin
    crc_next = crc ^ res;
    for (int i = 0; i < 32; i++)
      crc_next = crc_next[0] ? (crc_next >> 1) ^ 32'hedb8_8320 : crc_next >> 1;
  end

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      pc  <= '0;
      crc <= '1;
      for (int i = 0; i < 8; i++) r[i] <= SEED * 32'(i + 1);
    end else begin
      pc  <= taken ? insn[3:0] : pc + 4'd1;
      crc <= crc_next;
      if (insn[15:12] != 4'h7) r[insn[11:9]] <= res;
    end
  end
endmodule

module cores #(
    parameter int N = 16
) (
    input  logic        clk,
    input  logic        rst_n,
    input  logic [31:0] in,
    output logic [31:0] sum
);
  logic [31:0] crcs [N];
  for (genvar i = 0; i < N; i++) begin : g
    cores_cpu #(.SEED(32'h9e37_79b9 * (i + 1))) cpu (.clk, .rst_n, .in, .crc(crcs[i]));
  end
  always_comb begin
    sum = '0;
    for (int i = 0; i < N; i++) sum = sum ^ crcs[i];
  end
endmodule
