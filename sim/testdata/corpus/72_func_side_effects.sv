// A function's writes to module variables take effect even when the call
// has constant arguments (regression: such calls were folded to their
// result and the writes were lost).
module t(input logic clk);
  logic hit, r, hit2, r2, u;
  int n = 0;
  function automatic logic mark(); hit = 1'b1; return 1'b1; endfunction
  function automatic logic mark2(); hit2 = 1'b1; return 1'b1; endfunction
  function automatic int bump(); n = n + 1; return n; endfunction
  always_comb begin hit = 0; r = mark(); end
  initial begin hit2 = 0; u = 0; r2 = 0; end
  int cyc = 0, got;
  always_ff @(posedge clk) r2 <= u || mark2();
  always @(posedge clk) got = bump();
  always @(negedge clk) begin
    cyc <= cyc + 1;
    $display("hit=%b r=%b hit2=%b r2=%b n=%0d got=%0d", hit, r, hit2, r2, n, got);
    if (cyc == 2) $finish;
  end
endmodule
