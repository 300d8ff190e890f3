// String literals as values: packed into bit vectors (8 bits a char,
// right-aligned, zero-padded on the left), compared, concatenated,
// indexed by byte, and printed with %s and %h.
module t(input logic clk);
  logic [8*5-1:0] hello = "hello";
  logic [8*8-1:0] padded = "hi";
  logic [8*3-1:0] cut = "abcdef";      // truncated: keeps the last 3 chars
  logic [8*6-1:0] word;
  logic [7:0] ch;
  logic [2:0] i = 3'd0;
  int cyc = 0;
  assign word = {hello[15:0], "!", "?!?"};
  assign ch = hello[8 * i +: 8];
  always_ff @(posedge clk) begin
    cyc <= cyc + 1;
    i <= (i == 3'd4) ? 3'd0 : i + 3'd1;
    if (cyc == 2) hello <= "HELLO";
    if (cyc == 4) hello[7:0] <= "x";
  end
  always @(posedge clk) begin
    $display("%0d: [%s] [%s] [%s] [%s] ch=%c/%h eq=%b hx=%h", cyc, hello, padded, cut, word, ch, ch,
             hello == "hello", padded);
    if (cyc == 6) $finish;
  end
endmodule
