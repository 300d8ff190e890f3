// perf/peers/sec.sv: a single-error-correcting (Hamming) encoder and
// decoder over 64 data bits, written bit by bit as generated ECC code is:
// the parity-check matrix is a constant-initialized variable, the
// syndrome is built one bit at a time in nested loops, and the corrected
// word is rebuilt bit by bit. A 64-bit LFSR feeds the encoder; one code
// bit chosen by the LFSR is flipped before decoding; `errors` counts
// words the decoder failed to restore and `crc` folds every decoded word.
module sec (
    input  logic        clk,
    input  logic        rst_n,
    output logic [31:0] errors,
    output logic [31:0] crc
);
  localparam int K = 64;  // data bits
  localparam int R = 7;   // check bits: 2^7 >= 64 + 7 + 1
  localparam int N = K + R;

  logic [63:0] lfsr;
  always_ff @(posedge clk or negedge rst_n)
    if (!rst_n) lfsr <= 64'h0123_4567_89ab_cdef;
    else lfsr <= {lfsr[62:0], lfsr[63] ^ lfsr[62] ^ lfsr[60] ^ lfsr[59]};

  // Code bit positions 1..N; positions that are powers of two hold checks.
  logic [N-1:0] code, bad, fixed;
  logic [K-1:0] data_out;
  logic [R-1:0] syn;
  always_comb begin
    logic [N:1] pos_is_check;
    int d;
    pos_is_check = '0;
    for (int r = 0; r < R; r++) pos_is_check[1 << r] = 1'b1;
    // Encode: scatter the data bits, then each check bit is the parity of
    // the positions whose index has that bit set.
    d = 0;
    code = '0;
    for (int p = 1; p <= N; p++) begin
      if (!pos_is_check[p]) begin
        code[p-1] = lfsr[d];
        d++;
      end
    end
    for (int r = 0; r < R; r++) begin
      logic par;
      par = 1'b0;
      for (int p = 1; p <= N; p++) if (((p >> r) & 1) != 0) par = par ^ code[p-1];
      code[(1 << r) - 1] = par;
    end
    // Flip one bit (position from the LFSR, sometimes none).
    bad = code;
    if (lfsr[7:0] < 8'(N)) bad[lfsr[6:0]] = ~bad[lfsr[6:0]];
    // Decode: the syndrome names the flipped position.
    for (int r = 0; r < R; r++) begin
      syn[r] = 1'b0;
      for (int p = 1; p <= N; p++) if (((p >> r) & 1) != 0) syn[r] = syn[r] ^ bad[p-1];
    end
    fixed = bad;
    for (int p = 1; p <= N; p++) if (syn == R'(p)) fixed[p-1] = ~fixed[p-1];
    d = 0;
    data_out = '0;
    for (int p = 1; p <= N; p++) begin
      if (!pos_is_check[p]) begin
        data_out[d] = fixed[p-1];
        d++;
      end
    end
  end

  always_ff @(posedge clk or negedge rst_n)
    if (!rst_n) begin
      errors <= '0;
      crc <= '1;
    end else begin
      if (data_out != lfsr) errors <= errors + 1;
      crc <= {crc[30:0], 1'b0} ^ (crc[31] ? 32'h04C1_1DB7 : 32'h0) ^ data_out[31:0] ^ data_out[63:32];
    end
endmodule
