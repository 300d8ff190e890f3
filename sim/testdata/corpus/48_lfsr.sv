// LFSR stimulus: a Fibonacci and a Galois LFSR, a CRC-8 over the LFSR
// bytes, and a parity tree.
module t(input logic clk);
  logic [15:0] fib = 16'hace1;
  logic [15:0] gal = 16'h0001;
  logic [7:0] crc = 8'hff;
  int cyc = 0;
  function automatic logic [7:0] crc8(input logic [7:0] c, input logic [7:0] d);
    logic [7:0] x = c ^ d;
    for (int i = 0; i < 8; i++) x = x[7] ? (x << 1) ^ 8'h07 : x << 1;
    return x;
  endfunction
  always_ff @(posedge clk) begin
    cyc <= cyc + 1;
    fib <= {fib[14:0], fib[15] ^ fib[13] ^ fib[12] ^ fib[10]};
    gal <= gal[0] ? (gal >> 1) ^ 16'hb400 : gal >> 1;
    crc <= crc8(crc, fib[7:0]);
  end
  always @(posedge clk) begin
    $display("%0d: fib=%h gal=%h crc=%h par=%b", cyc, fib, gal, crc, ^{fib, gal});
    if (cyc == 20) $finish;
  end
endmodule
