package elab

import (
	"fmt"
	"strings"
	"testing"

	"github.com/weft-hdl/weft/hdl"
)

// Constant expressions with x and z bits fold exactly (IEEE 1800's
// four-state tables): each was once read with its x bits as 0, silently.
func TestXZConstantsFoldExactly(t *testing.T) {
	cases := []struct {
		expr string
		want int64
	}{
		{"(2'b1x === 2'b10)", 0},
		{"(2'b1x !== 2'b10)", 1},
		{"(2'b1x === 2'b1x)", 1},
		{"(4'bz === 4'bx)", 0},
		{"((2'b1x == 2'b10) === 1'bx)", 1},
		{"(2'b1x == 2'b00)", 0},
		{"((1'bx < 1'b1) === 1'bx)", 1},
		{"((&1'bx) === 1'bx)", 1},
		{"((&4'b0x11) === 1'b0)", 1},
		{"((|4'b1x00) === 1'b1)", 1},
		{"((4'b1x01 & 4'b0011) === 4'b0001)", 1},
		{"((4'b0001 + 4'b000x) === 4'bxxxx)", 1},
		{"((4'b1x10 ==? 4'b1010) === 1'bx)", 1},
		{"(4'b1010 ==? 4'b1x1z)", 1},
		{"((1'bx ? 4'b1100 : 4'b1010) === 4'b1xx0)", 1},
		{"((4'b1x01 << 1) === 4'bx010)", 1},
		{"($isunknown(4'b10x0))", 1},
		{"($isunknown(4'b1010))", 0},
		{"($countbits(8'bxxxx_1111, 'x) == 4)", 1},
		{"(('bx) === 64'hx)", 1}, // an unsized x extends to the context width
		{"((1'bx && 1'b0) === 1'b0)", 1},
		{"((1'bx || 1'b0) === 1'bx)", 1},
		{"(PX === 4'b1x0z)", 1},
		{"(PXE === 8'b00001x0z)", 1},
		{"(PSE === 8'bxxxxx001)", 1},
	}
	var b strings.Builder
	b.WriteString("module t;\n  localparam logic [3:0] PX = 4'b1x0z;\n  localparam logic [7:0] PXE = PX;\n")
	b.WriteString("  localparam logic signed [3:0] PS = 4'bx001;\n  localparam logic [7:0] PSE = PS;\n")
	for i, c := range cases {
		fmt.Fprintf(&b, "  localparam logic [0:0] R%d = %s;\n", i, c.expr)
	}
	b.WriteString("endmodule\n")
	d := mustElab(t, b.String())
	for i, c := range cases {
		p, ok := d.Top.Param(fmt.Sprintf("R%d", i))
		if !ok {
			t.Fatalf("no parameter R%d", i)
		}
		if got := p.Int().Int64(); got != c.want {
			t.Errorf("%s = %d, want %d", c.expr, got, c.want)
		}
	}
}

// A case statement with a constant subject matches x and z bits exactly:
// case compares with ===, casez and casex treat z (and x) as don't-care.
func TestXZCaseOfConstants(t *testing.T) {
	cases := []struct {
		stmt string
		want string
	}{
		{"case (1'bx) 1'bx: y = 1; default: y = 0; endcase", "1'sd1"},
		{"case (2'b1x) 2'b10: y = 1; default: y = 0; endcase", "1'sd0"},
		{"case (1'bx == 1'bx) 1'bx: y = 1; default: y = 0; endcase", "1'sd1"},
		{"case (&1'bx) 1'bx: y = 1; default: y = 0; endcase", "1'sd1"},
		{"case (1'bx < 1'b1) 1'bx: y = 1; default: y = 0; endcase", "1'sd1"},
		{"casez (4'b1z01) 4'b1001: y = 1; default: y = 0; endcase", "1'sd1"},
		{"casez (4'b1x01) 4'b1001: y = 1; default: y = 0; endcase", "1'sd0"},
		{"casex (4'b1x01) 4'b1101: y = 1; default: y = 0; endcase", "1'sd1"},
		{"if (1'bx) y = 1; else y = 0;", "1'sd0"},
	}
	for _, c := range cases {
		d := mustElab(t, "module t(output logic y);\n  always_comb begin\n    "+c.stmt+"\n  end\nendmodule\n")
		if got := rhsOf(t, d, "t.y"); got != c.want {
			t.Errorf("%s: y = %s, want %s", c.stmt, got, c.want)
		}
	}
}

// Against a 2-state run-time value: === with an x constant is never true,
// ==? masks the constant's x and z bits, a case label with an x bit never
// matches, and none of these warn; a constant whose x bits reach run-time
// state does, at the literal.
func TestXZAgainstRunTimeValues(t *testing.T) {
	d, diags := elabString(t, `
module t(input logic [3:0] a, output logic e, n, w, c, output logic [3:0] y);
  localparam logic [3:0] W = 4'b1x0z;
  assign e = a === 4'bx001;
  assign n = a !== 4'bx001;
  assign w = a ==? W;
  always_comb begin
    c = 0;
    case (a) 4'b1x01: c = 1; default: c = 0; endcase
  end
  assign y = 'x;
endmodule`, Options{})
	if d == nil {
		t.Fatalf("elaboration failed: %v", diags.List)
	}
	if got := rhsOf(t, d, "t.e"); got != "1'd0" {
		t.Errorf("a === 4'bx001 is %s, want 1'd0", got)
	}
	if got := rhsOf(t, d, "t.n"); got != "1'd1" {
		t.Errorf("a !== 4'bx001 is %s, want 1'd1", got)
	}
	if got := rhsOf(t, d, "t.w"); !strings.Contains(got, "4'd10") || !strings.Contains(got, "4'd8") {
		t.Errorf("a ==? W is %s, want (a & 4'b1010) == 4'b1000", got)
	}
	var xz, casex []string
	for _, dg := range diags.List {
		switch dg.Code {
		case hdl.CodeXZConst:
			xz = append(xz, dg.Pos.String())
		case hdl.CodeCaseWithX:
			casex = append(casex, dg.Pos.String())
		}
	}
	if len(xz) != 1 || xz[0] != "t.sv:11:14" {
		t.Errorf("XZCONST warnings at %v, want one at t.sv:11:14 (assign y = 'x)", xz)
	}
	if len(casex) != 1 || casex[0] != "t.sv:9:14" {
		t.Errorf("CASEWITHX warnings at %v, want one at t.sv:9:14", casex)
	}
}

// A variable initialized with x bits starts with them as 0 and says so.
func TestXZInitialValueWarns(t *testing.T) {
	d, diags := elabString(t, `
module t(input logic [3:0] a, output logic m);
  logic [3:0] b = 4'bx001;
  assign m = a ==? b;
endmodule`, Options{})
	if d == nil {
		t.Fatalf("elaboration failed: %v", diags.List)
	}
	if in := home(t, d, "t.b").Init; in == nil || in.Value.Int64() != 1 {
		t.Errorf("b starts at %v, want 1 (the x bit reads as 0)", in)
	}
	found := false
	for _, dg := range diags.List {
		found = found || dg.Code == hdl.CodeXZConst && dg.Pos.String() == "t.sv:3:19"
	}
	if !found {
		t.Errorf("no XZCONST warning at t.sv:3:19; diagnostics: %v", diags.List)
	}
}

// A constant function does not run on x: it is refused, with the reason.
func TestXZIntoConstantFunction(t *testing.T) {
	_, diags := elabString(t, `
module t;
  function automatic int f(input logic [3:0] v); return v + 1; endfunction
  localparam int P = f(4'b1x00);
endmodule`, Options{})
	found := false
	for _, dg := range diags.List {
		found = found || dg.Severity == hdl.SeverityError && strings.Contains(dg.Msg, "x or z bits")
	}
	if !found {
		t.Errorf("no error for a constant function called with x bits; diagnostics: %v", diags.List)
	}
}
