// tb_smp.sv -- Icarus / Verilator test bench for soc_smp: a clock, a reset
// and the top's parameters passed through, so they can be overridden with
// `iverilog -P tb_smp.NCORES=2` or `verilator -GNCORES=2`. The run ends with
// the $finish of soc_smp (or of a FINISH write); MAX_CYCLES is a safety net.
module tb_smp #(
    parameter int          NCORES     = 4,
    parameter int          RAM_WORDS  = 4096,
    parameter              FIRMWARE   = "examples/soc/fw/smp.hex",
    parameter logic [31:0] FW_ARG     = 32'h0,
    parameter int          MAX_CYCLES = 2000000
);
  logic        clk = 1'b0;
  logic        rst_n = 1'b0;
  logic        finished;
  logic        pass;
  logic        halted_any;
  logic [31:0] result;
  int          ncyc = 0;

  /* verilator lint_off BLKSEQ */
  always #5 clk = ~clk;
  /* verilator lint_on BLKSEQ */
  initial #23 rst_n = 1'b1;

  soc_smp #(
      .NCORES   (NCORES),
      .RAM_WORDS(RAM_WORDS),
      .FIRMWARE (FIRMWARE),
      .FW_ARG   (FW_ARG)
  ) dut (
      .clk       (clk),
      .rst_n     (rst_n),
      .finished  (finished),
      .pass      (pass),
      .halted_any(halted_any),
      .result    (result)
  );

  always @(posedge clk) begin
    ncyc <= ncyc + 1;
    if (ncyc == MAX_CYCLES) begin
      $display("[tb] timeout after %0d cycles", MAX_CYCLES);
      $finish;
    end
  end

  wire unused_ok = &{1'b0, finished, pass, halted_any, result};
endmodule
