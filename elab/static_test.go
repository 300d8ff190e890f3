package elab

import (
	"strings"
	"testing"

	"github.com/weft-hdl/weft/design"
	"github.com/weft-hdl/weft/hdl"
)

func warnings(diags *hdl.Diagnostics) []string {
	var out []string
	for _, dg := range diags.List {
		if dg.Severity == hdl.SeverityWarning {
			out = append(out, dg.Msg)
		}
	}
	return out
}

// Static function and task variables whose value a call can observe from
// an earlier call become KindStatic homes (IEEE 1800-2017 §13.3.1); the
// others, automatic ones and for-loop variables stay per-call templates.
func TestStaticFunctionLocals(t *testing.T) {
	d := mustElab(t, `
module m(input logic clk, input logic [7:0] a, output logic [15:0] y, output logic [15:0] z);
  function logic [15:0] acc(input logic [7:0] x);
    static logic [15:0] sum = 16'd100;
    logic [15:0] tmp;
    tmp = x;
    for (int i = 0; i < 2; i++) tmp = tmp + 1;
    sum = sum + tmp;
    return sum;
  endfunction
  function automatic logic [15:0] acc_auto(input logic [7:0] x);
    logic [15:0] sum = 16'd100;
    sum = sum + x;
    return sum;
  endfunction
  always_ff @(posedge clk) y <= acc(a);
  always_ff @(posedge clk) z <= acc_auto(a);
endmodule`)
	h := home(t, d, "m.acc.sum")
	if h.Kind != design.KindStatic || h.Init == nil || h.Init.Value.Int64() != 100 {
		t.Fatalf("m.acc.sum: kind %s init %v", h.Kind, h.Init)
	}
	for _, p := range []string{"m.acc.tmp", "m.acc.i", "m.acc_auto.sum", "m.acc.x"} {
		if _, ok := d.Lookup(p); ok {
			t.Errorf("%s is a design home; want a per-call template", p)
		}
	}
	// The process calling acc reads and writes the static variable.
	p := procWriting(t, d, "m.y")
	var r, w bool
	for _, a := range p.Reads {
		r = r || a.Home == h
	}
	for _, a := range p.Writes {
		w = w || a.Home == h
	}
	if !r || !w {
		t.Errorf("process %s: reads static %v, writes %v", p.Name, r, w)
	}
}

// Two processes calling a static function share its variables: a warning,
// not a multiple-driver error.
func TestStaticFunctionSharedByProcesses(t *testing.T) {
	d, diags := elabString(t, `
module m(input logic clk, output logic [7:0] y, output logic [7:0] z);
  task bump(output logic [7:0] n);
    logic [7:0] cnt;
    cnt = cnt + 1;
    n = cnt;
  endtask
  always @(posedge clk) bump(y);
  always @(posedge clk) bump(z);
endmodule`, Options{})
	if d == nil || diags.ErrorCount() > 0 {
		t.Fatalf("errors: %v", diags.List)
	}
	if ws := warnings(diags); len(ws) != 1 || !strings.Contains(ws[0], "static variable 'm.bump.cnt' is shared") {
		t.Fatalf("warnings %q", ws)
	}
}

// The initializer of a static block variable is its initial value (run
// once); without the static keyword it warns, as Icarus does; automatic
// and for-loop variables are initialized on every entry.
func TestStaticBlockInit(t *testing.T) {
	d, diags := elabString(t, `
module m(input logic clk, output logic [7:0] y);
  always_ff @(posedge clk) begin
    static logic [7:0] a = 8'd10;
    logic [7:0] b = 8'd20;
    automatic logic [7:0] c = 8'd30;
    a = a + b + c;
    for (int i = 0; i < 4; i++) a = a + 1;
    y <= a;
  end
endmodule`, Options{})
	if d == nil || diags.ErrorCount() > 0 {
		t.Fatalf("errors: %v", diags.List)
	}
	ws := warnings(diags)
	if len(ws) != 1 || !strings.Contains(ws[0], "'b' is static") {
		t.Fatalf("warnings %q", ws)
	}
	var inits []string
	for _, h := range d.Homes {
		if h.Kind == design.KindBlockLocal && h.Init != nil {
			inits = append(inits, h.Name+"="+h.Init.Value.String())
		}
	}
	if got := strings.Join(inits, " "); got != "a=10 b=20" {
		t.Errorf("initial values %q, want a=10 b=20", got)
	}
	body := design.StmtString(procWriting(t, d, "m.y").Body, 0)
	if strings.Contains(body, "8'd10") || strings.Contains(body, "8'd20") || !strings.Contains(body, "30") {
		t.Errorf("body:\n%s", body)
	}
}

// A package function's static variable is one home (no instance); an
// initial block folded at elaboration time leaves it in Init; a constant
// call starts from the initial values.
func TestStaticPackageFunction(t *testing.T) {
	d := mustElab(t, `
package pk;
  function int cnt(input int x);
    int c;
    c = c + x;
    return c;
  endfunction
endpackage
module m(input logic clk, output int y);
  localparam int P = pk::cnt(3) + pk::cnt(4);
  int v;
  initial v = pk::cnt(5);
  always_ff @(posedge clk) y <= pk::cnt(P);
endmodule`)
	h := home(t, d, "pk::cnt.c")
	if h.Kind != design.KindStatic || h.Inst != nil || h.Init == nil || h.Init.Value.Int64() != 5 {
		t.Fatalf("pk::cnt.c: kind %s inst %v init %v", h.Kind, h.Inst, h.Init)
	}
	if v := home(t, d, "m.v"); v.Init == nil || v.Init.Value.Int64() != 5 {
		t.Errorf("m.v init %v, want 5", v.Init)
	}
	if p := d.Top.Params; len(p) != 1 || p[0].Int().Int64() != 7 {
		t.Errorf("params %v, want P = 7", p)
	}
}
