// Every construct of weft's synthesizable subset, for the golden dump.
`define WIDTH 8

package pkg;
  typedef enum logic [1:0] {IDLE, BUSY = 2'd2, DONE} state_e;
  typedef struct packed signed {
    logic [3:0] hi;
    logic [3:0] lo;
  } pair_t;
  typedef union packed {
    pair_t p;
    logic [7:0] raw;
  } word_u;
  parameter int DEPTH = 4;
  function automatic int add1(int x);
    return x + 1;
  endfunction
endpackage : pkg

module leaf #(parameter W = `WIDTH, D = 2, type T = logic [W-1:0]) (
  input  wire        clk,
  input  var T       d,
  output logic [W-1:0] q,
  output reg   [3:0] r,
  output logic       arr [D]
);
  always_ff @(posedge clk) q <= d;
  assign r = 4'(q);
  assign arr = '{default: '0};
endmodule : leaf

module top
  import pkg::*;
#(
  parameter int N = 4,
  localparam int LOG = $clog2(N)
) (
  input  logic                 clk,
  input  logic                 rst_n,
  input  logic [N-1:0][7:0]    din,
  output logic [7:0]           dout,
  output state_e               st
);
  logic [7:0] mem [0:N-1];
  logic [LOG-1:0] idx;
  pair_t pr;
  word_u wu;
  integer k;
  genvar g;
  wire [7:0] w0 = din[0], w1;
  assign w1 = din[1], dout = mem[idx];
  assign #1 pr = pair_t'(w0);

  // Instances: named, positional, implicit, wildcard, arrays, overrides.
  leaf #(8, .D(2)) u_a (.clk(clk), .d(w0), .q(), .r(), .arr());
  leaf #(.W(8), .T(logic [7:0])) u_b (clk, w1, , , );
  leaf u_c [1:0] (.clk, .d(w0), .*);

  generate
    for (g = 0; g < N; g = g + 1) begin : g_mem
      always_ff @(posedge clk or negedge rst_n)
        if (!rst_n) mem[g] <= '0;
        else mem[g] <= din[g];
    end
  endgenerate

  for (genvar i = 0; i < 2; i++) begin : g_two
    if (i == 0) begin : g_first
      assign wu.raw = din[i];
    end else if (i == 1) begin : g_second
      leaf #(8) u (.*);
    end else begin
    end
  end

  case (N)
    1: begin : g_one end
    2, 4: begin : g_pow2 end
    default: begin : g_other end
  endcase

  always_comb begin
    st = IDLE;
    unique case (idx) inside
      0, 1: st = BUSY;
      [2:3]: st = DONE;
      default: st = IDLE;
    endcase
    priority casez (din[0])
      8'b1???_????: k = 7;
      8'b01??_????: k = 6;
      default: k = 0;
    endcase
  end

  always @(posedge clk or negedge rst_n) begin : seq
    automatic int cnt = 0;
    if (!rst_n) begin
      idx <= '0;
    end else begin
      idx <= idx + 1'b1;
      for (int j = 0; j < N; j++) begin
        if (din[j] inside {8'h00, [8'hF0:8'hFF]}) continue;
        cnt += 1;
        if (cnt > 2) break;
      end
    end
  end : seq

  function automatic logic [7:0] rev(input logic [7:0] a);
    for (int b = 0; b < 8; b++) rev[b] = a[7-b];
  endfunction : rev

  function [7:0] old_style;
    input [7:0] a;
    input [7:0] b;
    reg [7:0] t;
    begin
      t = a ^ b;
      old_style = t;
    end
  endfunction

  function void note(input int v);
    $display("v=%0d", v);
  endfunction

  task automatic pulse(input int n);
    repeat (n) @(posedge clk);
  endtask

  initial begin
    void'(add1(3));
    note(rev(8'h01) + old_style(8'h0f, 8'hf0));
    k = {4{1'b1}} | {N{1'b0}} | {pr.hi, pr.lo} | signed'(k) | unsigned'(k) | (N+1)'(k);
    k = (k > 0) ? k ** 2 : -k;
    k = $bits(logic [3:0]) + $bits(pair_t) + $size(mem) + $countones(din[0]);
    k = pkg::add1(k) + pkg::DEPTH;
    k = int'(pr.hi[2]) + din[1][3:0] + din[k*8 +: 8] + din[k -: 1];
    while (k > 0) k--;
    do k++; while (k < 3);
    forever begin
      #5;
      if ($onehot(k)) $finish;
      else if ($onehot0(k)) $stop;
    end
  end

  final $display("done %s", "ok");
endmodule : top
