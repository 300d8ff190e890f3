// Enumerations: a state machine with explicit and implicit values, enum
// compared against literals, and casts.
module t(input logic clk);
  typedef enum logic [2:0] { IDLE, LOAD = 3'd3, RUN, DONE = 3'd7 } state_t;
  state_t st = IDLE;
  logic [3:0] n = 4'd0;
  int cyc = 0;
  always_ff @(posedge clk) begin
    cyc <= cyc + 1;
    case (st)
      IDLE: st <= LOAD;
      LOAD: begin st <= RUN; n <= 4'd0; end
      RUN: begin
        n <= n + 4'd1;
        if (n == 4'd2) st <= DONE;
      end
      DONE: st <= IDLE;
      default: st <= IDLE;
    endcase
  end
  always @(posedge clk) begin
    $display("%0d: st=%0d n=%0d run=%b gt=%b", cyc, st, n, st == RUN, st > LOAD);
    if (cyc == 14) $finish;
  end
endmodule
