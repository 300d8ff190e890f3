// for loops in comb and clocked logic: popcount, bit reversal, a running
// sum with an int loop variable, and a loop with a descending count.
module t(input logic clk);
  logic [15:0] v = 16'h0001;
  logic [4:0] pop;
  logic [15:0] rev;
  logic [7:0] lead;
  int cyc = 0;
  always_comb begin
    pop = '0;
    for (int i = 0; i < 16; i++) pop = pop + v[i];
    for (int i = 0; i < 16; i = i + 1) rev[i] = v[15 - i];
    lead = 8'd16;
    for (int i = 0; i <= 15; i++)
      if (v[i]) lead = 8'(15 - i);   // the last hit is the top set bit
  end
  logic [31:0] acc = 32'd0;
  always_ff @(posedge clk) begin
    cyc <= cyc + 1;
    v <= v * 16'd5 + 16'h1234;
    for (int k = 3; k >= 0; k--) acc <= acc + k * cyc;   // NBA: only the last (k=0) counts
  end
  always @(posedge clk) begin
    $display("%0d: v=%b pop=%0d rev=%b lead=%0d acc=%0d", cyc, v, pop, rev, lead, acc);
    if (cyc == 10) $finish;
  end
endmodule
