// while, do-while and repeat loops, in functions and in a clocked block.
// (break and continue, which Icarus 11 lacks, are in 65_break_continue.)
module t(input logic clk);
  logic [7:0] v = 8'd1;
  int cyc = 0;
  function automatic int log2floor(input logic [7:0] x);
    int n = -1;
    while (x != 0) begin
      x = x >> 1;
      n++;
    end
    return n;
  endfunction
  function automatic int collatz(input int x);
    int steps = 0;
    do begin
      if (x % 2 == 0) x = x / 2;
      else x = 3 * x + 1;
      steps++;
    end while (x != 1);
    return steps;
  endfunction
  logic [15:0] r = 16'd1;
  always_ff @(posedge clk) begin
    logic [15:0] tmp;
    cyc <= cyc + 1;
    v <= v + 8'd13;
    tmp = r;
    repeat (3) tmp = tmp * 16'd3;   // blocking inside repeat
    repeat (v[1:0]) tmp = tmp + 16'd1;
    r <= tmp;
  end
  always @(posedge clk) begin
    $display("%0d: v=%0d log2=%0d collatz=%0d r=%0d", cyc, v, log2floor(v), collatz(v + 1), r);
    if (cyc == 10) $finish;
  end
endmodule
