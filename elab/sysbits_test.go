package elab

import (
	"testing"

	"github.com/weft-hdl/weft/hdl"
)

// $bits of an expression is the expression's width in a constant context
// too: a localparam sized by $bits({a, b}) once counted each variable as
// one bit (Ibex sizes its lockstep buffer this way).
func TestBitsOfExpressionIsConstant(t *testing.T) {
	d := mustElab(t, `
module t(input logic [31:0] a, b, output logic [$bits({a, b})-1:0] o);
  localparam int CAT = $bits({a, b});
  localparam int REP = $bits({4{a}});
  localparam int LIT = $bits({a, 8'h0});
  localparam int XOR = $bits(a ^ b);
  localparam int ONE = $bits({a});
  localparam int SUM = $bits(a[7:0] + b);
  localparam int SEL = $bits(a[7:0]);
  assign o = {a, b};
endmodule`)
	want := map[string]int64{"CAT": 64, "REP": 128, "LIT": 40, "XOR": 32, "ONE": 32, "SUM": 32, "SEL": 8}
	for name, w := range want {
		p, ok := d.Top.Param(name)
		if !ok {
			t.Fatalf("no parameter %s", name)
		}
		if got := p.Int().Int64(); got != w {
			t.Errorf("%s = %d, want %d", name, got, w)
		}
	}
	if h := home(t, d, "t.o"); h.Width != 64 {
		t.Errorf("o is %d bits, want 64", h.Width)
	}
}

// A name $bits cannot resolve is an error, not a 1-bit operand.
func TestBitsOfUnknownName(t *testing.T) {
	_, diags := elabString(t, `
module t(input logic [31:0] a);
  localparam int W = $bits({a, nosuch});
endmodule`, Options{})
	found := false
	for _, dg := range diags.List {
		found = found || dg.Severity == hdl.SeverityError && dg.Msg == "unknown identifier 'nosuch'"
	}
	if !found {
		t.Errorf("no error for the unknown name; diagnostics: %v", diags.List)
	}
}
