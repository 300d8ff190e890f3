package main

import (
	"strings"
	"testing"
)

// lintCodeCases are, per warning code, a design that triggers it (with
// the first warning's position), one that must stay quiet (the false
// positives thought of), and the line before which a lint_off comment
// turns the warning off.
var lintCodeCases = []struct {
	code      string
	trigger   string
	at        string // LINE:COL of the first warning
	msg       string // part of its message
	quiet     string
	offBefore int // line of the trigger the warning is reported on
}{
	{
		code: "WIDTHTRUNC",
		trigger: `module t(input logic clk, input logic [7:0] a, output logic [3:0] y);
  always_ff @(posedge clk) y <= a;
endmodule
`,
		at:  "2:33",
		msg: "'y' is 4 bits wide but is assigned a 8-bit value: the upper 4 bits are lost; take the low bits explicitly (a part-select, or the size cast 4'(a)) or widen 'y'",
		quiet: `module t(input logic clk, input logic [7:0] a, output logic [3:0] y, output logic [3:0] z);
  always_ff @(posedge clk) y <= y + 1;
  always_comb begin
    z = 0;
    if (a[0]) z = 4'hf;
    if (a[1]) z = -1;
    if (a[2]) z = a[7:4] ^ 4'd9;
  end
endmodule
`,
		offBefore: 2,
	},
	{
		code: "COMBLOOP",
		trigger: `module t(input logic [3:0] a, input logic s, output logic [3:0] y);
  logic [3:0] p, q;
  assign p = s ? q : a;
  always_comb q = p + 1;
  assign y = q;
endmodule
`,
		at:  "3:3",
		msg: "combinational loop through t.p, t.q, in assign (FILE:3:3), always_comb (FILE:4:3)",
		quiet: `module t(input logic [7:0] a, b, input logic s, output logic [8:0] c, output logic [1:0] v);
  assign c[0] = s;
  assign c[8:1] = (a & b) | ((a ^ b) & c[7:0]);
  assign v[0] = v[1];
  assign v[1] = s;
endmodule
`,
		offBefore: 3,
	},
	{
		code: "MULTIDRIVEN",
		trigger: `module t(input logic clk, input logic [3:0] d, output logic [7:0] q);
  always_ff @(posedge clk) q[3:0] <= d;
  always_ff @(negedge clk) q[7:4] <= d;
endmodule
`,
		at:  "1:67",
		msg: "'t.q' is driven by processes of different kinds or clocks: always_ff @(posedge t.clk) (FILE:2:3) drives t.q[3:0] and always_ff @(negedge t.clk) (FILE:3:3) drives t.q[7:4]; drive all of it on one clock, or split it into one signal per clock",
		quiet: `module t(input logic clk, input logic [3:0] d, output logic [7:0] q, output logic [7:0] w);
  always_ff @(posedge clk) q[3:0] <= d;
  always_ff @(posedge clk) q[7:4] <= d;
  assign w[3:0] = d;
  always_comb w[7:4] = ~d;
endmodule
`,
		offBefore: 1,
	},
	{
		code: "PINMISSING",
		trigger: `module c(input logic a, output logic y);
  assign y = a;
endmodule
module t(output logic y);
  c u(.y(y));
endmodule
`,
		at:  "5:5",
		msg: "input port 'a' of 'u' is not connected; it reads 0",
		quiet: `module c(input logic a, output logic y);
  assign y = a;
endmodule
module t(input logic a, output logic y);
  c u(.a(a), .y(y));
endmodule
`,
		offBefore: 5,
	},
	{
		code: "XZCONST",
		trigger: `module t(input logic [1:0] s, input logic [3:0] a, output logic [3:0] y);
  always_comb
    case (s)
      2'd0: y = a;
      2'd1: y = ~a;
      default: y = 4'bx;
    endcase
endmodule
`,
		at:  "6:20",
		msg: "x or z bits of a constant read as 0 at run time; weft is 2-state, as Verilator with --x-assign 0",
		quiet: `module t(input logic [3:0] a, output logic e, w, c, output logic [3:0] p);
  localparam logic [3:0] DC = 4'b1x0z;
  assign e = a === 4'bx001;
  assign w = a ==? DC;
  assign p = (4'b1x01 & 4'b0011) | {3'b0, DC === 4'b1x0z};
  always_comb
    casez (a)
      4'b1???: c = 1;
      default: c = 0;
    endcase
endmodule
`,
		offBefore: 6,
	},
}

// withLine inserts text as a new line before line n (1-based).
func withLine(src string, n int, text string) string {
	lines := strings.SplitAfter(src, "\n")
	return strings.Join(lines[:n-1], "") + text + "\n" + strings.Join(lines[n-1:], "")
}

func TestLintWarningCodes(t *testing.T) {
	for _, tc := range lintCodeCases {
		t.Run(tc.code, func(t *testing.T) {
			f := writeSV(t, tc.trigger)
			code, _, errs := weft("lint", f)
			first := strings.SplitN(errs, "\n", 2)[0]
			want := f + ":" + tc.at + ": warning: " + strings.ReplaceAll(tc.msg, "FILE", f)
			if code != 0 || !strings.HasPrefix(first, want) || !strings.HasSuffix(first, " ["+tc.code+"]") {
				t.Fatalf("exit %d, first line\n got: %s\nwant: %s... [%s]\nstderr:\n%s", code, first, want, tc.code, errs)
			}
			if strings.Count(errs, ": warning: ") != 1 || !hasCaret(errs) {
				t.Errorf("want one warning with its caret line:\n%s", errs)
			}

			q := writeSV(t, tc.quiet)
			if code, _, errs := weft("lint", "-Werror", q); code != 0 {
				t.Errorf("quiet design: exit %d\n%s", code, errs)
			}

			for _, args := range [][]string{{"-Wno-" + tc.code, f}, {f, "-Wno", tc.code}, {"--Wno-all", f}} {
				if code, _, errs := weft(append([]string{"lint", "-Werror"}, args...)...); code != 0 || errs != "" {
					t.Errorf("lint -Werror %v: exit %d\n%s", args, code, errs)
				}
			}
			other := "IMPLICIT"
			if code, _, errs := weft("lint", "-Wno-"+other, f); code != 0 || !strings.Contains(errs, "["+tc.code+"]") {
				t.Errorf("-Wno-%s turned off %s: exit %d\n%s", other, tc.code, code, errs)
			}

			off := writeSV(t, withLine(tc.trigger, tc.offBefore, "// weft lint_off "+tc.code))
			if code, _, errs := weft("lint", "-Werror", off); code != 0 {
				t.Errorf("lint_off: exit %d\n%s", code, errs)
			}
			offOn := writeSV(t, withLine(withLine(tc.trigger, tc.offBefore, "/* weft lint_on "+tc.code+" */"), 1, "// weft lint_off "+tc.code))
			if _, _, errs := weft("lint", offOn); strings.Count(errs, "["+tc.code+"]") != 1 {
				t.Errorf("lint_on before the line: want the warning back\n%s", errs)
			}
		})
	}
}

func TestLintWarningFlags(t *testing.T) {
	f := writeSV(t, lintCodeCases[0].trigger)
	code, _, errs := weft("lint", "-Wno-WIDTHTRUNK", f)
	if code != 2 || !strings.Contains(errs, "-Wno-WIDTHTRUNK: unknown warning code") || !strings.Contains(errs, "WIDTHTRUNC") {
		t.Errorf("misspelt code: exit %d\n%s", code, errs)
	}
	code, _, errs = weft("lint", "-h")
	for _, want := range []string{"-Wno-CODE", "// weft lint_off CODE", "COMBLOOP ", "INPUTWRITE ", "MULTIDRIVEN ", "WIDTHTRUNC ", "-Wno-all"} {
		if code != 0 || !strings.Contains(errs, want) {
			t.Errorf("lint -h (exit %d) lacks %q:\n%s", code, want, errs)
		}
	}
	// A misspelt code in a comment is itself a warning.
	bad := writeSV(t, "// weft lint_off WIDHTTRUNC\n"+lintCodeCases[0].trigger)
	if _, _, errs := weft("lint", bad); !strings.Contains(errs, "unknown warning code WIDHTTRUNC in a lint comment") || !strings.Contains(errs, "[LINTCOMMENT]") {
		t.Errorf("misspelt lint_off:\n%s", errs)
	}
}

// The direct ways of writing an input port are elaboration errors; the
// INPUTWRITE check (package lint) covers the rest.
func TestLintInputWriteErrors(t *testing.T) {
	for _, src := range []string{
		`module t(input logic clk, input logic [3:0] a, output logic [3:0] y);
  always_ff @(posedge clk) a <= 4'd1;
  assign y = a;
endmodule
`,
		`module s(output logic [3:0] q);
  assign q = 4'd5;
endmodule
module m(input logic [7:0] a, output logic [7:0] y);
  s u(.q(a[3:0]));
  assign y = a;
endmodule
module t(input logic [7:0] i, output logic [7:0] o);
  m u(.a(i), .y(o));
endmodule
`,
	} {
		f := writeSV(t, src)
		if code, _, errs := weft("lint", f); code != 1 || !strings.Contains(errs, "cannot assign to input port 'a'") {
			t.Errorf("exit %d\n%s", code, errs)
		}
	}
}

// weft run prints the same warnings, and honours -Wno-CODE and lint_off.
func TestRunWarningCodes(t *testing.T) {
	src := `module t(input logic clk, input logic [7:0] a, output logic [3:0] y);
  always_ff @(posedge clk) y <= a;
endmodule
`
	f := writeSV(t, src)
	code, _, errs := weft("run", "--cycles", "2", f)
	if code != 0 || !strings.Contains(errs, "warning: 'y' is 4 bits wide") || !strings.Contains(errs, "[WIDTHTRUNC]") {
		t.Errorf("exit %d\n%s", code, errs)
	}
	if code, _, errs := weft("run", "--cycles", "2", "-Wno-WIDTHTRUNC", f); code != 0 || strings.Contains(errs, "warning") {
		t.Errorf("-Wno-WIDTHTRUNC: exit %d\n%s", code, errs)
	}
	off := writeSV(t, "// weft lint_off WIDTHTRUNC\n"+src)
	if code, _, errs := weft("run", "--cycles", "2", off); code != 0 || strings.Contains(errs, "warning") {
		t.Errorf("lint_off: exit %d\n%s", code, errs)
	}
	if code, _, errs := weft("run", "--cycles", "2", "-Wno-NOPE", f); code != 2 {
		t.Errorf("unknown code: exit %d\n%s", code, errs)
	}
}
