package elab

import (
	"slices"
	"strings"
	"testing"

	"github.com/weft-hdl/weft/design"
)

// TestSysTaskScope: each system task records the hierarchical scope %m
// prints: the instance path plus generate blocks, named blocks and the
// task or function that encloses it.
func TestSysTaskScope(t *testing.T) {
	d := mustElab(t, `
package pk;
  function automatic int pf(input int x);
    $display("pkg");
    return x;
  endfunction
endpackage
module leaf(input logic clk);
  always @(posedge clk) $display("leaf");
endmodule
module t(input logic clk);
  int cyc = 0, r;
  for (genvar i = 0; i < 2; i++) begin : g
    if (i == 1) begin : inner
      leaf l(.clk(clk));
    end
    always @(negedge clk) if (cyc == i) $display("gen%0d", i);
  end
  if (1) begin
    always @(negedge clk) $display("genblk");
  end
  task show;
    $display("task");
    begin : tb
      $display("task block");
    end
  endtask
  function automatic int twice(input int x);
    $display("function");
    return 2 * x;
  endfunction
  always @(posedge clk) begin : named
    cyc <= cyc + 1;
    show;
    r = twice(cyc) + pk::pf(cyc);
    begin : inner
      $display("nested");
    end
    begin
      int z;
      $display("unnamed");
    end
  end
  always @(posedge clk) $display("module");
endmodule`)
	got := map[string][]string{}
	visit := func(body design.Stmt) {
		design.WalkStmt(body, func(s design.Stmt) bool {
			if st, ok := s.(*design.SysTask); ok {
				got[st.Format] = append(got[st.Format], st.Scope)
			}
			return true
		})
	}
	for _, p := range d.Processes() {
		visit(p.Body)
	}
	for _, f := range d.Functions {
		visit(f.Body)
	}
	want := map[string]string{
		"leaf":       "t.g[1].inner.l",
		"gen%0d":     "t.g[0] t.g[1]",
		"genblk":     "t.genblk2",
		"task":       "t.show",
		"task block": "t.show.tb",
		"function":   "t.twice",
		"pkg":        "pk.pf",
		"nested":     "t.named.inner",
		"unnamed":    "t.named",
		"module":     "t",
	}
	for f, w := range want {
		if g, ok := got[f]; !ok {
			t.Errorf("no $display(%q) found", f)
		} else if slices.Sort(g); strings.Join(g, " ") != w {
			t.Errorf("$display(%q): Scope %q, want %q", f, g, w)
		}
	}
}
