// pipe: a two-stage register pipeline on a stream without ready (the
// consumer always accepts): what enters at in_* leaves at out_* two
// cycles later, data inverted so that a pass-through cannot fake it.
module pipe #(
    parameter int WIDTH = 12
) (
    input  logic             clk,
    input  logic             rst_n,
    input  logic [WIDTH-1:0] in_data,
    input  logic             in_valid,
    output logic [WIDTH-1:0] out_data,
    output logic             out_valid
);
  logic [WIDTH-1:0] d1;
  logic             v1;

  always_ff @(posedge clk or negedge rst_n)
    if (!rst_n) begin
      v1        <= 1'b0;
      out_valid <= 1'b0;
    end else begin
      v1        <= in_valid;
      out_valid <= v1;
    end

  always_ff @(posedge clk) begin
    d1       <= in_data;
    out_data <= ~d1;
  end
endmodule
