// Functions: automatic functions with several arguments, early return,
// local variables, function calls inside functions, argument width
// conversion, a void function, and functions taking and returning a
// packed struct and a packed array (assigning to the function name).
module t(input logic clk);
  logic [7:0] a = 8'd7, b = 8'd200;
  int cyc = 0;
  int log_n = 0;
  function automatic logic [7:0] max8(input logic [7:0] x, input logic [7:0] y);
    if (x > y) return x;
    return y;
  endfunction
  function automatic logic [8:0] add_sat(input logic [7:0] x, y);
    logic [8:0] s;
    s = x + y;
    if (s > 9'd255) s = 9'd255;
    return s;
  endfunction
  function automatic logic [3:0] nib(input logic [3:0] x);   // truncates its argument
    nib = ~x;
  endfunction
  function automatic int mix(input int x);
    return max8(x[7:0], 8'd100) + add_sat(x[7:0], x[15:8]);
  endfunction
  function automatic void bump(input int by);
    log_n = log_n + by;
  endfunction
  typedef struct packed { logic [3:0] hi, lo; } pair_t;
  function automatic pair_t swap(input pair_t p);
    swap.hi = p.lo;
    swap.lo = p.hi;
  endfunction
  function automatic logic [3:0][7:0] rev4(input logic [3:0][7:0] x);
    for (int i = 0; i < 4; i++) rev4[i] = x[3 - i];
  endfunction
  pair_t sp;
  logic [31:0] rw;
  assign sp = swap(a);
  assign rw = rev4({a, b, a ^ b, 8'h5a});
  always_ff @(posedge clk) begin
    cyc <= cyc + 1;
    a <= a + 8'd41;
    b <= b + 8'd7;
  end
  always @(posedge clk) begin
    bump(cyc);
    $display("%0d: a=%0d b=%0d max=%0d sat=%0d nib=%h mix=%0d log=%0d", cyc, a, b, max8(a, b), add_sat(a, b),
             nib(a), mix({16'd0, b, a}), log_n);
    $display("   swap=%h rev=%h", sp, rw);
    if (cyc == 9) $finish;
  end
endmodule
