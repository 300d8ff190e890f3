// Two counters on two clocks with resets of both polarities, a loopback
// path for wires, and system tasks the bench must surface.
module twoclk (
    input  logic        clka,
    input  logic        clkb,
    input  logic        rst_n,   // resets na (active low, asynchronous)
    input  logic        rst,     // resets nb (active high, asynchronous)
    input  logic [1:0]  mode,    // 1: $fatal, 2: $finish, 3: $error when na == 3
    input  logic        d,       // wired from q by the bench
    output logic [31:0] na,
    output logic [31:0] nb,
    output logic        q,       // na[1]
    output logic        e,       // d, through comb logic
    output logic        never,   // stays 0
    output logic signed [7:0] s8 // -na
);
  always_ff @(posedge clka or negedge rst_n)
    if (!rst_n) na <= '0;
    else begin
      na <= na + 1;
      if (mode == 2'd1 && na == 3) $fatal(1, "boom at na=%0d", na);
      if (mode == 2'd2 && na == 3) $finish;
      if (mode == 2'd3 && na == 3) $error("bad na=%0d", na);
    end

  always_ff @(posedge clkb or posedge rst)
    if (rst) nb <= '0;
    else nb <= nb + 1;

  assign q = na[1];
  assign e = d;
  assign never = 1'b0;
  assign s8 = -na[7:0];
endmodule
