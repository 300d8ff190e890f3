package elab

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"

	"github.com/weft-hdl/weft/hdl"
)

// warningsOf elaborates src and returns its warnings as "LINE:COL CODE".
func warningsOf(t *testing.T, src string) []string {
	t.Helper()
	d, diags := elabString(t, src, Options{})
	if d == nil || diags.ErrorCount() > 0 {
		t.Fatalf("elaboration failed: %v", diags.Err())
	}
	var out []string
	for _, w := range diags.Warnings() {
		out = append(out, itoa(w.Pos.Line)+":"+itoa(w.Pos.Col)+" "+w.Code)
	}
	return out
}

func TestWidthTrunc(t *testing.T) {
	src := `module t(input logic clk, input logic [7:0] a, input logic [3:0] b,
         output logic [3:0] y, output logic [3:0] z, output logic [3:0] q, output logic [1:0] y2);
  integer i;
  assign y = a;
  always_ff @(posedge clk) begin
    q <= b ? a : b;
    q <= i;
    q <= 16;
    q <= {b, 1'b0};
  end
  always_comb begin
    automatic logic [1:0] n = b;
    z = n;
  end
  function automatic logic [1:0] f(input logic [3:0] v);
    return v;
  endfunction
  assign y2 = f(b);
endmodule
`
	got := strings.Join(warningsOf(t, src), ", ")
	want := "4:14 WIDTHTRUNC, 6:10 WIDTHTRUNC, 7:10 WIDTHTRUNC, 8:10 WIDTHTRUNC, 9:10 WIDTHTRUNC, 12:31 WIDTHTRUNC, 16:12 WIDTHTRUNC"
	if got != want {
		t.Errorf("warnings\n got: %s\nwant: %s", got, want)
	}
}

// What Verilator leaves alone: constants that fit, unsized literals in
// arithmetic, fills, selects of the right width, comparisons, and
// operators whose operands fit.
func TestWidthTruncQuiet(t *testing.T) {
	src := `module t(input logic clk, input logic [7:0] a, input logic [3:0] b, output logic [3:0] y, output logic z);
  localparam int N = 5;
  logic [3:0] cnt;
  logic [7:0] w;
  always_ff @(posedge clk) begin
    cnt <= cnt + 1;
    cnt <= cnt + N;
    cnt <= 0;
    cnt <= -1;
    cnt <= 15;
    cnt <= 4'hf;
    cnt <= b << 1;
    cnt <= a[3:0];
    cnt <= '1;
    cnt <= $clog2(N);
    cnt <= {b[1:0], 2'b0};
    cnt++;
    cnt += 2;
  end
  assign w = {a[3:0], b};
  assign y = cnt - 1;
  assign z = a == 8'd3;
endmodule
`
	if got := warningsOf(t, src); len(got) != 0 {
		t.Errorf("unexpected warnings %v", got)
	}
}

func TestWidthTruncParam(t *testing.T) {
	src := `module c #(parameter logic [3:0] P = 4'd1, parameter int Q = 300) (output logic [3:0] y);
  assign y = P;
endmodule
module t(output logic [3:0] y, output logic [3:0] z);
  parameter logic [3:0] A = 8'hff;
  parameter logic [3:0] B = 15;
  c #(.P(20)) u(.y(y));
  c #(.P(7)) v(.y(z));
endmodule
`
	got := strings.Join(warningsOf(t, src), ", ")
	want := "7:10 WIDTHTRUNC, 5:29 WIDTHTRUNC"
	if got != want {
		t.Errorf("warnings\n got: %s\nwant: %s", got, want)
	}
}

func TestWidthTruncMessage(t *testing.T) {
	src := `module t(input logic [7:0] a, output logic [3:0] y, output logic [3:0] z);
  assign y = a;
  assign z = 17;
endmodule
`
	_, diags := elabString(t, src, Options{})
	ws := diags.Warnings()
	if len(ws) != 2 {
		t.Fatalf("warnings %v", ws)
	}
	for i, want := range []string{
		"t.sv:2:14: warning: 'y' is 4 bits wide but is assigned a 8-bit value: the upper 4 bits are lost; take the low bits explicitly (a part-select, or the size cast 4'(a)) or widen 'y' [WIDTHTRUNC]",
		"t.sv:3:14: warning: 'z' is 4 bits wide but is assigned 17, which needs 5 bits: it becomes 1; write a value that fits or widen 'z' [WIDTHTRUNC]",
	} {
		if got := strings.SplitN(ws[i].Error(), "\n", 2)[0]; got != want {
			t.Errorf("got  %s\nwant %s", got, want)
		}
	}
}

func TestWidthTruncSuppressed(t *testing.T) {
	src := `module t(input logic [7:0] a, output logic [3:0] y, output logic [3:0] z, output logic [3:0] w);
  // weft lint_off WIDTHTRUNC
  assign y = a;
  // weft lint_on WIDTHTRUNC
  assign z = a;
  assign w = a; /* verilator lint_off WIDTH */
endmodule
`
	if got := strings.Join(warningsOf(t, src), ", "); got != "5:14 WIDTHTRUNC" {
		t.Errorf("warnings %s, want only line 5's", got)
	}
	st, fs, err := hdl.ParseString("t.sv", src)
	if err != nil {
		t.Fatal(err)
	}
	diags := hdl.NewDiagnostics(fs)
	if err := diags.Suppress(hdl.CodeWidthTrunc); err != nil {
		t.Fatal(err)
	}
	if Elaborate(st, fs, Options{}, diags) == nil || len(diags.Warnings()) != 0 || diags.Suppressed != 3 {
		t.Errorf("-Wno-WIDTHTRUNC: warnings %v, suppressed %d", diags.Warnings(), diags.Suppressed)
	}
}

// The existing warnings carry codes too.
func TestElabWarningCodes(t *testing.T) {
	src := `module c(input logic [3:0] a, input logic b, output logic [3:0] y);
  assign y = a;
endmodule
module t(input logic clk, input logic [7:0] x, output logic [3:0] y);
  logic [1:0] s, r;
  c u(.a(x), .y(y));
  always_comb s <= x[1:0];
  always @(posedge x) r <= 0;
endmodule
`
	got := strings.Join(warningsOf(t, src), ", ")
	for _, want := range []string{"6:10 WIDTHTRUNC", "6:5 PINMISSING", "7:15 COMBDLY", "8:20 EDGEWIDTH"} {
		if !strings.Contains(got, want) {
			t.Errorf("warnings %s lack %s", got, want)
		}
	}
}

// TestWarningsHaveCodes keeps every warning of elab coded: warnf and
// warnOnce (no code) are only there so that work in flight builds.
func TestWarningsHaveCodes(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		file, err := parser.ParseFile(fset, f, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(file, func(n ast.Node) bool {
			fd, ok := n.(*ast.FuncDecl)
			if ok && (fd.Name.Name == "warnf" || fd.Name.Name == "warnOnce") {
				return false
			}
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			if sel, ok := call.Fun.(*ast.SelectorExpr); ok {
				switch sel.Sel.Name {
				case "warnf", "warnOnce", "Warnf":
					t.Errorf("%s: %s without a code; use warnc or warnOnceC with one of hdl's Code constants", fset.Position(call.Pos()), sel.Sel.Name)
				}
			}
			return true
		})
	}
}
