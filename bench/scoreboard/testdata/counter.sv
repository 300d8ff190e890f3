// A counter behind a valid strobe: every cycle en is high it presents the
// next count on data with valid high, the cycle after. The scoreboard's
// tests watch it as a stream of numbers 0, 1, 2, ...
module counter (
    input  logic       clk,
    input  logic       rst_n,
    input  logic       en,
    output logic       valid,
    output logic [7:0] data
);
  logic [7:0] next;

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      next  <= '0;
      valid <= 1'b0;
      data  <= '0;
    end else begin
      valid <= en;
      if (en) begin
        data <= next;
        next <= next + 1'b1;
      end
    end
  end
endmodule
