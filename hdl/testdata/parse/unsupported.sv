// Constructs weft recognises but does not support: they parse into
// Unsupported, UnsupportedStmt or Assertion nodes and parsing goes on.
interface bus_if (input logic clk);
  logic valid;
  modport master (output valid);
  clocking cb @(posedge clk);
    input valid;
  endclocking
endinterface : bus_if

class packet;
  rand bit [7:0] data;
  function new();
    data = 0;
  endfunction
endclass

program prog;
  initial $display("program");
endprogram

module u (bus_if.master b, input logic clk, input logic a);
  defparam sub.W = 3;
  and g0 (y, a, clk);
  property p_stable;
    @(posedge clk) a |=> $stable(a);
  endproperty
  sequence s_ab;
    a ##1 clk;
  endsequence
  covergroup cg @(posedge clk);
    coverpoint a;
  endgroup
  a_stable: assert property (p_stable) else $error("unstable");
  cover property (@(posedge clk) a);
  event ev;
  initial begin
    fork
      #1 a = 1;
      begin #2 a = 0; end
    join
    -> ev;
    @(ev) a = 1;
    wait (a) a = 0;
    disable fork;
    assert (a == 0) else $fatal(1, "a");
    #(10) $finish;
  end
endmodule
