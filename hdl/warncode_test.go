package hdl

import (
	"strings"
	"testing"
)

func TestWarningFormatHasCode(t *testing.T) {
	fs := NewFileSet()
	fs.Add("t.sv", []byte("module m;\nendmodule\n"))
	ds := NewDiagnostics(fs)
	ds.Warnc(Pos{File: "t.sv", Line: 1, Col: 8}, CodeWidthTrunc, "bits are lost")
	want := "t.sv:1:8: warning: bits are lost [WIDTHTRUNC]\n    module m;\n           ^"
	if got := ds.List[0].Error(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	ds.Errorf(Pos{File: "t.sv", Line: 2, Col: 1}, "broken")
	if got := ds.List[1].Error(); strings.Contains(got, "[") {
		t.Errorf("an error has no code: %s", got)
	}
}

func TestSuppressCodes(t *testing.T) {
	ds := NewDiagnostics(nil)
	if err := ds.Suppress("NOSUCHCODE"); err == nil || !strings.Contains(err.Error(), "WIDTHTRUNC") {
		t.Errorf("an unknown code must be an error listing the known ones, got %v", err)
	}
	if err := ds.Suppress(CodeWidthTrunc); err != nil {
		t.Fatal(err)
	}
	p := Pos{File: "t.sv", Line: 1, Col: 1}
	ds.Warnc(p, CodeWidthTrunc, "off")
	ds.Warnc(p, CodeCombLoop, "on")
	if len(ds.List) != 1 || ds.List[0].Code != CodeCombLoop || ds.Suppressed != 1 {
		t.Errorf("got %d diagnostics (%d suppressed), want the COMBLOOP one", len(ds.List), ds.Suppressed)
	}
	if err := ds.Suppress(CodeAll); err != nil {
		t.Fatal(err)
	}
	ds.Warnc(p, CodeCombLoop, "now off too")
	ds.Errorf(p, "errors are never suppressed")
	if len(ds.List) != 2 || ds.List[1].Severity != SeverityError {
		t.Errorf("-Wno-all: got %v", ds.List)
	}
}

// lintLines loads src and reports, for each line in lines, whether a
// warning with code reported on that line is kept.
func lintLines(t *testing.T, src, code string, lines ...int) []bool {
	t.Helper()
	fs := NewFileSet()
	ds := NewDiagnostics(fs)
	Load(fs, []Input{{Name: "t.sv", Src: []byte(src)}}, PreprocessOptions{}, ds)
	if ds.ErrorCount() > 0 {
		t.Fatalf("load: %v", ds.Err())
	}
	var kept []bool
	for _, l := range lines {
		n := len(ds.List)
		ds.Warnc(Pos{File: "t.sv", Line: l, Col: 1}, code, "w")
		kept = append(kept, len(ds.List) > n)
	}
	return kept
}

func TestLintOffComments(t *testing.T) {
	src := `module m;                                   // 1
  logic a;                                     // 2
  // weft lint_off WIDTHTRUNC                  // 3
  logic b;                                     // 4
  /* weft lint_on WIDTHTRUNC */                // 5
  logic c;                                     // 6
  // weft lint_off COMBLOOP, MULTIDRIVEN -- the loop settles   // 7
  // verilator lint_off WIDTH                  // 8
  logic d;                                     // 9
  // weft lint_on                              // 10
  logic e;                                     // 11
endmodule
`
	check := func(code string, want ...bool) {
		t.Helper()
		got := lintLines(t, src, code, 2, 3, 4, 6, 7, 9, 11)
		for i := range want {
			if got[i] != want[i] {
				t.Errorf("%s: kept on lines 2,3,4,6,7,9,11 = %v, want %v", code, got, want)
				return
			}
		}
	}
	check(CodeWidthTrunc, true, false, false, true, true, false, true)
	check(CodeCombLoop, true, true, true, true, false, false, true)
	check(CodeMultiDriven, true, true, true, true, false, false, true)
	check(CodeWidthExpand, true, true, true, true, true, false, true)
	check(CodePinMissing, true, true, true, true, true, true, true)
}

func TestLintOffAll(t *testing.T) {
	src := "module m;\n// weft lint_off\nendmodule\n"
	if got := lintLines(t, src, CodeImplicit, 1, 2, 3); got[0] != true || got[1] || got[2] {
		t.Errorf("lint_off without a code: kept %v, want [true false false]", got)
	}
	// A directive in one file does not reach another.
	fs := NewFileSet()
	ds := NewDiagnostics(fs)
	Load(fs, []Input{{Name: "a.sv", Src: []byte("// weft lint_off all\n")}, {Name: "b.sv", Src: []byte("module m; endmodule\n")}}, PreprocessOptions{}, ds)
	ds.Warnc(Pos{File: "b.sv", Line: 1, Col: 1}, CodeImplicit, "w")
	if len(ds.List) != 1 {
		t.Errorf("lint_off in a.sv turned off a warning in b.sv")
	}
}

func TestLintCommentUnknownCode(t *testing.T) {
	fs := NewFileSet()
	ds := NewDiagnostics(fs)
	Load(fs, []Input{{Name: "t.sv", Src: []byte("// weft lint_off WIDTHTRUNK\n// verilator lint_off UNUSEDSIGNAL\nmodule m; endmodule\n")}}, PreprocessOptions{}, ds)
	ws := ds.Warnings()
	if len(ws) != 1 || ws[0].Code != CodeLintComment || ws[0].Pos.Line != 1 || !strings.Contains(ws[0].Msg, "WIDTHTRUNK") {
		t.Errorf("want one LINTCOMMENT warning on line 1 (Verilator's own codes are left alone), got %v", ws)
	}
}

// The lexer's and the preprocessor's warnings come before the lexer has
// read a later lint_off on the same line; they are dropped afterwards.
func TestLintOffReachesEarlyWarnings(t *testing.T) {
	src := "module m; localparam P = 4'hff; // weft lint_off WIDTHTRUNC\nendmodule\n"
	fs := NewFileSet()
	ds := NewDiagnostics(fs)
	Load(fs, []Input{{Name: "t.sv", Src: []byte(src)}}, PreprocessOptions{}, ds)
	if len(ds.Warnings()) != 0 || ds.Suppressed != 1 {
		t.Errorf("warnings %v, suppressed %d", ds.Warnings(), ds.Suppressed)
	}
}

func TestWarningCodesDocumented(t *testing.T) {
	for _, c := range WarningCodes() {
		if c.Doc == "" || strings.ToUpper(c.Code) != c.Code {
			t.Errorf("code %q: %q", c.Code, c.Doc)
		}
	}
	for v, ws := range verilatorCodes {
		for _, w := range ws {
			if !KnownCode(w) {
				t.Errorf("Verilator's %s maps to unknown %s", v, w)
			}
		}
	}
}
