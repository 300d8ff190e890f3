// golden: hand — Icarus 11 lacks modport imports ("sorry: modport task/function
// ports are not yet supported"); the expected output is Verilator 5's, identical.
// Interfaces: parameters used in a port's type, modports, a function
// imported through a modport, interface instance arrays, an always_ff
// inside the interface, reads and writes through ports and from the parent.
interface apb_if #(parameter int AW = 8, parameter int DW = 16) (input logic clk);
  logic [AW-1:0] paddr;
  logic [DW-1:0] pwdata, prdata;
  logic psel, penable, pwrite, pready;
  int transfers = 0;
  function automatic logic busy();
    return psel & ~pready;
  endfunction
  always_ff @(posedge clk) if (psel && penable && pready) transfers <= transfers + 1;
  modport master (output paddr, pwdata, psel, penable, pwrite, input prdata, pready, import busy);
  modport slave (input paddr, pwdata, psel, penable, pwrite, output prdata, pready);
endinterface

module regs (apb_if.slave s, input logic clk);
  logic [s.DW-1:0] mem [4];
  assign s.pready = 1'b1;
  always_ff @(posedge clk)
    if (s.psel && s.penable && s.pwrite) mem[s.paddr[1:0]] <= s.pwdata;
  assign s.prdata = mem[s.paddr[1:0]];
endmodule

module master (apb_if.master m, input logic clk, output logic [15:0] last);
  logic [3:0] step = 0;
  always_ff @(posedge clk) begin
    step <= step + 1;
    m.psel <= step < 8;
    m.penable <= step[0];
    m.pwrite <= step < 4;
    m.paddr <= {6'd0, step[2:1]};
    m.pwdata <= 16'h100 + step;
    if (m.penable) last <= m.prdata;
  end
endmodule

module t(input logic clk);
  apb_if #(.DW(16)) bus (.clk(clk));
  apb_if #(.AW(4)) others [1:0] (.clk(clk));
  logic [15:0] last;
  master u_m (.m(bus), .clk, .last);
  regs u_s (.s(bus.slave), .clk);
  assign others[0].paddr = 4'd3;
  assign others[1].paddr = others[0].paddr + 4'd1;
  int cyc = 0;
  always @(negedge clk) begin
    cyc <= cyc + 1;
    $display("%0d: psel=%b pen=%b pw=%b addr=%h wd=%h rd=%h last=%h n=%0d busy=%b o=%h %h W=%0d",
      cyc, bus.psel, bus.penable, bus.pwrite, bus.paddr, bus.pwdata, bus.prdata, last, bus.transfers,
      bus.busy(), others[0].paddr, others[1].paddr, $bits(others[1].paddr));
    if (cyc == 10) $finish;
  end
endmodule
