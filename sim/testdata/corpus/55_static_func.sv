// Lifetimes (IEEE 1800-2017 6.21): a function or task declared without
// automatic is static, so its local variables keep their values from call
// to call (acc accumulates, calls counts); a variable declared in a
// clocked block is static too. (Automatic locals, fresh on every call, are
// in 28_func_auto and 60_static_init; Icarus 11 returns 0 from an
// automatic function with an uninitialized local called in $display.)
module t(input logic clk);
  int cyc = 0;
  logic [7:0] blk = 8'd0;
  function int acc_static(input int x);
    int acc;
    acc = acc + x;
    return acc;
  endfunction
  task count_calls(output int n);
    int calls;
    calls = calls + 1;
    n = calls;
  endtask
  always_ff @(posedge clk) begin
    int k;
    cyc <= cyc + 1;
    k = k + 3;
    blk <= 8'(k);
  end
  always @(posedge clk) begin
    int n;
    count_calls(n);
    $display("%0d: static=%0d calls=%0d blk=%0d", cyc, acc_static(cyc + 1), n, blk);
    if (cyc == 5) $finish;
  end
endmodule
