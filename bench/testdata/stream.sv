// A one-entry stream stage: takes in_data when in_valid && in_ready and
// offers in_data + 1 on the output until out_ready takes it. sum is the
// comb sum of the two data buses, for delta-step and ReadOnly specs.
module stream (
    input  logic        clk,
    input  logic        rst_n,
    input  logic        in_valid,
    output logic        in_ready,
    input  logic [7:0]  in_data,
    output logic        out_valid,
    input  logic        out_ready,
    output logic [7:0]  out_data,
    output logic [15:0] taken,
    output logic [8:0]  sum
);
  assign in_ready = !out_valid || out_ready;
  assign sum = in_data + out_data;

  always_ff @(posedge clk or negedge rst_n)
    if (!rst_n) begin
      out_valid <= 1'b0;
      out_data  <= '0;
      taken     <= '0;
    end else if (in_valid && in_ready) begin
      out_valid <= 1'b1;
      out_data  <= in_data + 8'd1;
      taken     <= taken + 16'd1;
    end else if (out_ready) begin
      out_valid <= 1'b0;
    end
endmodule
