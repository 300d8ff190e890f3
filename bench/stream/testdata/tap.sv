// tap: a bus whose every signal the test bench drives, so that a spec
// can break the valid/ready rules on purpose and watch the Checker
// report it. taken counts the handshakes, so the bus has a consumer.
module tap (
    input  logic        clk,
    input  logic [7:0]  t_data,
    input  logic        t_valid,
    input  logic        t_ready,
    output logic [15:0] taken
);
  initial taken = '0;
  always_ff @(posedge clk)
    if (t_valid && t_ready) taken <= taken + 16'd1;
endmodule
