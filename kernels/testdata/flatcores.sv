// Eight little cores written inline in one module (a generate loop), each
// with its own RAM: every flop is in the module's one trigger group.
module flatcores #(parameter int N = 8) (
    input  logic        clk,
    input  logic        rst_n,
    input  logic [31:0] in,
    output logic [31:0] sum
);
  logic [31:0] crcs [N];
  for (genvar g = 0; g < N; g++) begin : core
    localparam logic [31:0] SEED = 32'h9e37_79b9 * (g + 1);
    logic [3:0]  pc;
    logic [31:0] r [8];
    logic [31:0] ram [16];
    logic [15:0] insn;
    logic [31:0] a, b, res, crc_next, crc;
    always_comb begin
      insn = {pc, 3'(pc + 1), 3'(pc + 2), 6'(SEED)};
      a = r[insn[11:9]];
      b = r[insn[8:6]];
      unique case (insn[15:12] % 4)
        0: res = a + b + ram[pc];
        1: res = a ^ (b << 3);
        2: res = a * b;
        default: res = a - b ^ in;
      endcase
      crc_next = crc ^ res;
      for (int i = 0; i < 32; i++)
        crc_next = crc_next[0] ? (crc_next >> 1) ^ 32'hedb8_8320 : crc_next >> 1;
    end
    always_ff @(posedge clk) begin
      if (!rst_n) begin
        pc  <= '0;
        crc <= '1;
        for (int i = 0; i < 8; i++) r[i] <= SEED * 32'(i + 1);
      end else begin
        pc  <= pc + 4'd1;
        crc <= crc_next;
        r[insn[11:9]] <= res;
      end
    end
    always_ff @(posedge clk) begin
      if (rst_n) ram[pc] <= res ^ crc;
    end
    assign crcs[g] = crc;
  end
  always_comb begin
    sum = '0;
    for (int i = 0; i < N; i++) sum = sum ^ crcs[i];
  end
endmodule
