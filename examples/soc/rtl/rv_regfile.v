// rv_regfile.v -- RV32I integer register file (Verilog-2005 style).
//
// Two asynchronous read ports, one synchronous write port. x0 reads as zero
// and has no storage; every other register is its own generate block with its
// own asynchronously reset flops, so NREGS-1 registers of XLEN bits each.
`include "rv_defines.vh"

module rv_regfile(clk, rst_n, raddr1, rdata1, raddr2, rdata2, we, waddr, wdata);
  parameter XLEN  = 32;
  parameter NREGS = 32;

  // Constant function in the old style: ceil(log2(v)), at least 1.
  function integer clog2;
    input integer v;
    integer n;
    begin
      clog2 = 1;
      for (n = 2; n < v; n = n * 2)
        clog2 = clog2 + 1;
    end
  endfunction

  localparam AW = clog2(NREGS);

  input             clk;
  input             rst_n;
  input  [AW-1:0]   raddr1;
  output [XLEN-1:0] rdata1;
  input  [AW-1:0]   raddr2;
  output [XLEN-1:0] rdata2;
  input             we;
  input  [AW-1:0]   waddr;
  input  [XLEN-1:0] wdata;

  wire   [XLEN-1:0] regs [0:NREGS-1];

  assign regs[0] = {XLEN{1'b0}};

  genvar r;
  generate
    for (r = 1; r < NREGS; r = r + 1) begin : g_x
      reg [XLEN-1:0] q;
      always @(posedge clk or negedge rst_n) begin
        if (!rst_n)
          q <= {XLEN{1'b0}};
        else if (we && (waddr == r))
          q <= wdata;
      end
      assign regs[r] = q;
    end
  endgenerate

  assign rdata1 = regs[raddr1];
  assign rdata2 = regs[raddr2];

endmodule
