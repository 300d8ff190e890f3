// Recursive constant functions evaluated in parameters and widths,
// $clog2, and parameters derived from parameters.
module t(input logic clk);
  function automatic int fact(input int n);
    if (n <= 1) return 1;
    return n * fact(n - 1);
  endfunction
  function automatic int fib(input int n);
    return n < 2 ? n : fib(n - 1) + fib(n - 2);
  endfunction
  function automatic int clog2r(input int n);
    return n <= 1 ? 0 : 1 + clog2r((n + 1) / 2);
  endfunction
  localparam int F5 = fact(5);
  localparam int FIB10 = fib(10);
  localparam logic [7:0] FIB7 = fib(7);
  localparam int DEPTH = 37;
  localparam int AW = clog2r(DEPTH);
  localparam int AW2 = $clog2(DEPTH);
  logic [AW-1:0] addr = '0;
  logic [fib(6)-1:0] w = '1;
  int cyc = 0;
  always_ff @(posedge clk) begin
    cyc <= cyc + 1;
    addr <= addr + 1'b1;
  end
  always @(posedge clk) begin
    $display("%0d: F5=%0d FIB10=%0d AW=%0d AW2=%0d addr=%0d w=%b bits=%0d FIB7=%0d", cyc, F5, FIB10, AW, AW2,
             addr, w, $bits(w), FIB7);
    if (cyc == 7) $finish;
  end
endmodule
