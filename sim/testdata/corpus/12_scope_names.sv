// %m names the scope that calls the display (IEEE 1800-2017 21.2.1.6):
// the module instance, and within it a generate block, a named block, a
// task or a function. Each display runs on its own cycle, so the order
// is defined.
module leaf(input logic clk, input int cyc);
  always @(posedge clk) if (cyc == 1) $display("%0d leaf: %m", cyc);
endmodule

module t(input logic clk);
  int cyc = 0;
  always_ff @(posedge clk) cyc <= cyc + 1;
  for (genvar i = 0; i < 2; i++) begin : g
    if (i == 1) begin : inner
      leaf l(.clk(clk), .cyc(cyc));
    end
    always @(negedge clk) if (cyc == i + 2) $display("%0d gen: %m", cyc);
  end
  task show;
    $display("%0d task: %m", cyc);
  endtask
  function automatic int twice(input int x);
    $display("%0d function: %m", cyc);
    return 2 * x;
  endfunction
  always @(negedge clk) begin : named
    if (cyc == 4) show;
    if (cyc == 5) $display("%0d value %0d", cyc, twice(21));
    if (cyc == 6) $display("%0d named block: %m", cyc);
  end
  always @(negedge clk) begin
    if (cyc == 7) $display("%0d module: %m", cyc);
    if (cyc == 8) $finish;
  end
endmodule
