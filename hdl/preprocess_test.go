package hdl

import (
	"bytes"
	"fmt"
	"github.com/weft-hdl/weft/internal/bound"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// mapReader serves files from a map, as ReadFile, so tests touch no disk.
func ppMapReader(files map[string]string) func(string) ([]byte, error) {
	return func(path string) ([]byte, error) {
		if s, ok := files[filepath.ToSlash(path)]; ok {
			return []byte(s), nil
		}
		return nil, &fs.PathError{Op: "open", Path: path, Err: fs.ErrNotExist}
	}
}

type ppCase struct {
	name    string
	top     string // name of the single input; "top.sv" when empty
	src     string
	files   map[string]string
	dirs    []string
	defines map[string]string
	want    string   // expected Source.Text exactly
	errs    []string // "file:line:col: message", in order
}

func runPP(c ppCase) (*Source, *Diagnostics) {
	top := c.top
	if top == "" {
		top = "top.sv"
	}
	fset := NewFileSet()
	diags := NewDiagnostics(fset)
	opts := PreprocessOptions{IncludeDirs: c.dirs, Defines: c.defines, ReadFile: ppMapReader(c.files)}
	return Preprocess(fset, []Input{{Name: top, Src: []byte(c.src)}}, opts, diags), diags
}

func ppDiagStrings(ds *Diagnostics) []string {
	var out []string
	for _, d := range ds.List {
		out = append(out, fmt.Sprintf("%s: %s", d.Pos, d.Msg))
	}
	return out
}

var ppCases = []ppCase{
	{
		name: "plain text, comments and strings pass through",
		src:  "module m;\n  // c `x \"\n  /* `y\n */ wire \"`z // /*\";\nendmodule\n",
		want: "module m;\n  // c `x \"\n  /* `y\n */ wire \"`z // /*\";\nendmodule\n",
	},
	{
		name: "escaped identifier holding a backtick",
		src:  "wire \\a`b ;\n",
		want: "wire \\a`b ;\n",
	},
	{
		name: "missing final newline is added",
		src:  "wire a;",
		want: "wire a;\n",
	},
	{
		name: "object macro",
		src:  "`define W 8\nwire [`W-1:0] a;\n",
		want: "\nwire [8-1:0] a;\n",
	},
	{
		name: "trailing line comment is not part of the body",
		src:  "`define W 8 // width\nx `W y\n",
		want: "\nx 8 y\n",
	},
	{
		name: "block comment in body",
		src:  "`define A 1 /* c\n */+ 2\n`A\n",
		want: "\n\n1  + 2\n",
	},
	{
		name: "continuation lines keep their newlines",
		src:  "`define M(a) \\\n  a + \\\n  1\nq = `M(x);\n",
		want: "\n\n\nq = x + \n  1;\n",
	},
	{
		name: "line comment ending in backslash continues the body",
		src:  "`define M a // note \\\n b\n`M\n",
		want: "\n\na \n b\n",
	},
	{
		name: "empty and parenless definitions",
		src:  "`define E\n`define N()  n\n[`E] `N()\n",
		want: "\n\n[] n\n",
	},
	{
		name: "defaults",
		src:  "`define F(a, b=2) a+b\n`F(1) `F(1,) `F(1,3) `F(,5)\n",
		want: "\n1+2 1+2 1+3 +5\n",
	},
	{
		name: "default with nested comma",
		src:  "`define F(a, b=f(1,2)) a b\n`F(x)\n",
		want: "\nx f(1,2)\n",
	},
	{
		name: "stringify and escaped quotes",
		src:  "`define S(x) `\"x`\"\n`define Q(x) `\"a `\\`\"x`\\`\"`\"\n`S(hello) `Q(b)\n",
		want: "\n\n\"hello\" \"a \\\"b\\\"\"\n",
	},
	{
		// An argument written over several lines (a long assertion macro
		// call) must not put a line break inside the string literal.
		name: "stringify an argument spanning lines",
		src:  "`define S(x) `\"x`\"\n`define MSG(p) $info(`S(p))\n`MSG(a |->\n    b) `S(c\t\td)\n",
		want: "\n\n$info(\"a |-> b\") \"c\t\td\"\n",
	},
	{
		name: "no substitution inside plain strings",
		src:  "`define P(x) \"x // y\" x\n`P(1)\n",
		want: "\n\"x // y\" 1\n",
	},
	{
		name: "token pasting",
		src:  "`define CAT(a,b) a``b\n`define PFX(n) my_``n``_q\n`CAT(foo,bar) `CAT(x, _1) `PFX(sig)\n",
		want: "\n\nfoobar x_1 my_sig_q\n",
	},
	{
		name: "pasting builds a macro name",
		src:  "`define V_a 1\n`define GET(s) `V_``s\n`GET(a)\n",
		want: "\n\n1\n",
	},
	{
		name: "arguments split at top-level commas only",
		src:  "`define F(a,b) [a|b]\n`F((1,2), {3,4})\n`F(\"x,y\", f(5,[6,7]))\n",
		want: "\n[(1,2)|{3,4}]\n[\"x,y\"|f(5,[6,7])]\n",
	},
	{
		name: "comments inside arguments are dropped",
		src:  "`define F(a,b) a|b\n`F(1 // one, really\n, 2 /* two) */)\n",
		want: "\n1|2\n",
	},
	{
		name: "nested macros",
		src:  "`define A 1\n`define B (`A+`A)\n`define C(x) x*`B\n`C(`A) `C(`C(2))\n",
		want: "\n\n\n1*(1+1) 2*(1+1)*(1+1)\n",
	},
	{
		name: "macro defined after another macro that uses it",
		src:  "`define OUT `IN\n`define IN 7\n`OUT\n",
		want: "\n\n7\n",
	},
	{
		name: "ifdef elsif else chain",
		src:  "`define B\n`ifdef A\na\n`elsif B\nb\n`elsif C\nc\n`else\nd\n`endif\n",
		want: "\n\n\n\nb\n\n\n\n\n\n",
	},
	{
		name: "else branch",
		src:  "`ifdef A\na\n`elsif B\nb\n`else\nd\n`endif\n",
		want: "\n\n\n\n\nd\n\n",
	},
	{
		name: "nested ifdef in an inactive region",
		src:  "`ifdef X\n`ifdef Y\ny\n`else\ne\n`endif\n`else\nz\n`endif\n",
		want: "\n\n\n\n\n\n\nz\n\n",
	},
	{
		name: "ifndef and conditionals sharing a line with text",
		src:  "`ifndef X wire a; `else wire b; `endif wire c;\n",
		want: " wire a;  wire c;\n",
	},
	{
		name: "inactive region skips undefined macros and unknown directives",
		src:  "`ifdef X\n`NOPE `frob(\n`include \"missing.vh\"\n`endif\n",
		want: "\n\n\n\n",
	},
	{
		name: "inactive define with continuation does not end the region",
		src:  "`ifdef X\n`define Y \\\n`endif\n`endif\nok\n",
		want: "\n\n\n\nok\n",
	},
	{
		name:    "command-line defines",
		src:     "`ifdef X x `endif `W `MAX(1,2)\n",
		defines: map[string]string{"X": "", "W": "16", "MAX(a,b)": "((a)>(b)?(a):(b))"},
		want:    " x  16 ((1)>(2)?(1):(2))\n",
	},
	{
		name: "undef",
		src:  "`define A 1\n`undef A\n`ifdef A\nyes\n`else\nno\n`endif\n",
		want: "\n\n\n\n\nno\n\n",
	},
	{
		name: "undefineall",
		src:  "`define A\n`define B\n`undefineall\n`ifdef A a `endif `ifdef B b `endif\n",
		want: "\n\n\n \n",
	},
	{
		name: "redefinition replaces",
		src:  "`define A 1\n`define A 2\n`A\n",
		want: "\n\n2\n",
	},
	{
		name: "directives accepted and dropped",
		src: "`timescale 1ns/1ps\n`default_nettype none // dropped too\n`resetall\n`celldefine\nmodule m; endmodule\n" +
			"`endcelldefine\n`pragma protect begin\n`line 3 \"a//b.v\" 0\n`begin_keywords \"1800-2017\"\n`end_keywords\n",
		want: "\n\n\n\nmodule m; endmodule\n\n\n\n\n\n",
	},
	{
		name: "file and line",
		src:  "x\n`__LINE__ `__FILE__\n`define L `__LINE__\n`L\n",
		want: "x\n2 \"top.sv\"\n\n4\n",
	},
	{
		name: "conditionals inside a macro body",
		src:  "`define M `ifdef X x `else y `endif\n`M\n",
		want: "\n y \n",
	},
	{
		name:  "include searches the includer's dir, then IncludeDirs",
		top:   "src/top.sv",
		src:   "`include \"a.vh\"\n`include \"b.vh\"\n`include <a.vh>\n",
		dirs:  []string{"inc"},
		files: map[string]string{"inc/a.vh": "wire a;\n", "src/b.vh": "`include \"c.vh\"\nwire b;\n", "src/c.vh": "wire c;"},
		want:  "wire a;\n\nwire c;\n\nwire b;\n\nwire a;\n\n",
	},
	{
		name:  "include guard idiom",
		src:   "`include \"g.vh\"\n`include \"g.vh\"\n`ifdef G_VH ok `endif\n",
		files: map[string]string{"g.vh": "`ifndef G_VH\n`define G_VH\nwire g;\n`endif\n"},
		want:  "\n\nwire g;\n\n\n\n\n\n\n\n ok \n",
	},
	{
		name:  "include through a macro",
		src:   "`define F \"a.vh\"\n`include `F x\n",
		files: map[string]string{"a.vh": "wire a;\n"},
		want:  "\nwire a;\n x\n",
	},
	{
		name:  "defines from an include carry on",
		src:   "`include \"d.vh\"\n`D\n",
		files: map[string]string{"d.vh": "`define D 5\n"},
		want:  "\n\n5\n",
	},
	{
		name:  "include by absolute path, and __FILE__ inside it",
		src:   "`include \"/abs/x.vh\"\n",
		files: map[string]string{"/abs/x.vh": "`__FILE__ `__LINE__\n"},
		want:  "\"/abs/x.vh\" 1\n\n",
	},
	{
		name:  "include name from a macro with arguments",
		src:   "`define PATH(d, f) `\"d/f`\"\n`include `PATH(lib, y.vh)\n",
		files: map[string]string{"lib/y.vh": "wire y;\n"},
		want:  "\nwire y;\n\n",
	},
	{
		name: "CRLF line endings",
		src:  "`define A(x) x \\\r\n + 1\r\n`ifdef A\r\n`A(2)\r\n`endif\r\n",
		want: "\n\n\r\n2 \n + 1\r\n\r\n",
	},
	{
		name: "deep elsif chain takes only the first defined branch",
		src:  "`define C\n`define D\n`ifdef A a `elsif B b `elsif C c `elsif D d `else e `endif\n",
		want: "\n\n c \n",
	},

	// Errors.
	{
		name: "undefined macro",
		src:  "a `FOO b\n",
		want: "a  b\n",
		errs: []string{"top.sv:1:3: undefined macro `FOO"},
	},
	{
		name: "unknown directive",
		src:  "\n\t`foo_bar\n",
		want: "\n\t\n",
		errs: []string{"top.sv:2:2: undefined macro `foo_bar"},
	},
	{
		name: "else, elsif and endif without ifdef",
		src:  "x\n  `else\n`elsif A\n`endif\n",
		want: "x\n  \n\n\n",
		errs: []string{
			"top.sv:2:3: `else without `ifdef",
			"top.sv:3:1: `elsif without `ifdef",
			"top.sv:4:1: `endif without `ifdef",
		},
	},
	{
		name: "else after else",
		src:  "`ifdef A\n`else\n`else\n`elsif B\n`endif\n",
		want: "\n\n\n\n\n",
		errs: []string{
			"top.sv:3:1: second `else for `ifdef A",
			"top.sv:4:1: `elsif after `else of `ifdef A",
		},
	},
	{
		name: "missing endif",
		src:  "a\n`ifdef X\n`ifndef Y\n`endif\nb\n",
		want: "a\n\n\n\n\n",
		errs: []string{"top.sv:2:1: missing `endif: `ifdef X is still open at the end of the file"},
	},
	{
		name: "ifdef without a name",
		src:  "`ifdef\nx\n`endif\n",
		want: "\n\n\n",
		errs: []string{"top.sv:1:1: `ifdef needs a macro name: `ifdef NAME"},
	},
	{
		name: "include not found",
		src:  "\n `include \"nope.vh\"\n",
		dirs: []string{"inc1", "inc2"},
		want: "\n \n",
		errs: []string{`top.sv:2:2: include file "nope.vh" not found (searched ".", "inc1", "inc2"); add its directory to the include path`},
	},
	{
		name: "include without a file name",
		src:  "`include foo\n`include \"x\n",
		want: " foo\n\n",
		errs: []string{
			"top.sv:1:1: `include needs a file name: `include \"file.svh\"",
			"top.sv:2:1: `include file name is missing its closing \"",
		},
	},
	{
		name:  "include recursion",
		src:   "`include \"r.vh\"\nafter\n",
		files: map[string]string{"r.vh": "r\n`include \"r.vh\"\n"},
		want:  strings.Repeat("r\n", 64) + "\nafter\n",
		errs:  []string{"r.vh:2:1: `include \"r.vh\" nests more than 64 files deep (does a file include itself without an include guard?)"},
	},
	{
		name:  "error inside an included file",
		src:   "`include \"e.vh\"\n",
		files: map[string]string{"e.vh": "\n  `UNDEF\n"},
		want:  "\n  \n\n",
		errs:  []string{"e.vh:2:3: undefined macro `UNDEF"},
	},
	{
		name: "wrong argument count",
		src:  "`define F(a,b) a\n`F(1,2,3)\n`F(1)\n`define G() g\n`G(1)\n",
		want: "\n\n\n\n\n",
		errs: []string{
			"top.sv:2:1: macro `F expects 2 arguments, got 3",
			"top.sv:3:1: macro `F expects 2 arguments, got 1 (b has no default)",
			"top.sv:5:1: macro `G expects 0 arguments, got 1",
		},
	},
	{
		name: "missing argument list",
		src:  "`define F(a) a\n`F x\n",
		want: "\n x\n",
		errs: []string{"top.sv:2:1: macro `F takes arguments: use `F(...)"},
	},
	{
		name: "unterminated argument list",
		src:  "`define F(a) a\nx `F(1, (2)\n",
		want: "\nx (1, (2)\n",
		errs: []string{"top.sv:2:3: unterminated argument list for macro `F: missing ')'"},
	},
	{
		name: "define without a name",
		src:  "`define\n`define 9x\n",
		want: "\n\n",
		errs: []string{
			"top.sv:1:1: `define needs a macro name: `define NAME text",
			"top.sv:2:1: `define needs a macro name: `define NAME text",
		},
	},
	{
		name: "define of a directive name",
		src:  "`define include 1\n",
		want: "\n",
		errs: []string{"top.sv:1:1: cannot `define include: `include is a compiler directive"},
	},
	{
		name: "bad parameter lists",
		src:  "`define F(a 1\n`define G(a,a) a\n`define H(a b) a\n",
		want: "\n\n\n",
		errs: []string{
			"top.sv:1:1: bad parameter list in `define F: expected ',' or ')' after a",
			"top.sv:2:1: bad parameter list in `define G: parameter a appears twice",
			"top.sv:3:1: bad parameter list in `define H: expected ',' or ')' after a",
		},
	},
	{
		name: "unterminated parameter list",
		src:  "`define F(a,\n",
		want: "\n",
		errs: []string{"top.sv:1:1: unterminated parameter list in `define F: missing ')'"},
	},
	{
		name: "unterminated block comment",
		src:  "a\n  /* open\n\n",
		want: "a\n  /* open\n\n",
		errs: []string{"top.sv:2:3: unterminated block comment: missing */"},
	},
	{
		name: "unterminated block comment in a define",
		src:  "`define A 1 /* open\nx\n",
		want: "\n\n",
		errs: []string{"top.sv:1:13: unterminated block comment: missing */"},
	},
	{
		name: "stray backtick",
		src:  "a ` b\n",
		want: "a  b\n",
		errs: []string{"top.sv:1:3: stray '`': expected a directive or macro name after it"},
	},
	{
		name: "error inside an expansion is reported at the use",
		src:  "`define M(x) x `NOPE\n\n   `M(1)\n",
		want: "\n\n   1 \n",
		errs: []string{"top.sv:3:4: undefined macro `NOPE (in expansion of `M)"},
	},
	{
		name: "recursive macro",
		src:  "`define A `A\n`A\nok\n",
		want: "\n\nok\n",
		errs: []string{"top.sv:2:1: macro `A nests more than 64 expansions deep (does it expand to itself?)"},
	},
	{
		name: "mutually recursive macros with two uses each",
		src:  "`define A `B `B\n`define B `A `A\n`A x\n`B\n",
		want: "\n\n x\n\n",
		errs: []string{
			"top.sv:3:1: macro `A nests more than 64 expansions deep (does it expand to itself?)",
			"top.sv:4:1: macro `B nests more than 64 expansions deep (does it expand to itself?)",
		},
	},
	{
		name: "missing endif inside a macro expansion",
		src:  "`define M `ifdef X\n`M\n",
		want: "\n\n",
		errs: []string{"top.sv:2:1: missing `endif: `ifdef X is still open at the end of the macro expansion (in expansion of `M)"},
	},
	{
		name:    "bad command-line define",
		src:     "",
		defines: map[string]string{"9": "x", "A B": "1"},
		want:    "",
		errs: []string{
			"<command line>: -D 9: `define needs a macro name: `define NAME text",
			"<command line>: -D A B: not a macro name",
		},
	},
}

func TestPreprocess(t *testing.T) {
	for _, c := range ppCases {
		t.Run(c.name, func(t *testing.T) {
			src, diags := runPP(c)
			if got := string(src.Text); got != c.want {
				t.Errorf("text:\n got %q\nwant %q", got, c.want)
			}
			got := ppDiagStrings(diags)
			if strings.Join(got, "\n") != strings.Join(c.errs, "\n") {
				t.Errorf("diagnostics:\n got %q\nwant %q", got, c.errs)
			}
		})
	}
}

func TestPreprocessErrorFormat(t *testing.T) {
	_, diags := runPP(ppCase{src: "module m;\n\twire [`W:0] a;\nendmodule\n"})
	err := diags.Err()
	if err == nil {
		t.Fatal("no error")
	}
	want := "top.sv:2:8: error: undefined macro `W\n    \twire [`W:0] a;\n    \t      ^"
	if err.Error() != want {
		t.Errorf("got\n%s\nwant\n%s", err, want)
	}
}

// posOfText returns the position Source maps the n-th (0-based) occurrence
// of needle to.
func ppPosOfText(t *testing.T, s *Source, needle string, n int) Pos {
	t.Helper()
	off := 0
	for i := 0; ; i++ {
		k := bytes.Index(s.Text[off:], []byte(needle))
		if k < 0 {
			t.Fatalf("%q (occurrence %d) not in output %q", needle, n, s.Text)
		}
		if i == n {
			return s.PosAt(off + k)
		}
		off += k + 1
	}
}

func TestPreprocessPositions(t *testing.T) {
	src, diags := runPP(ppCase{
		src: "`define M(a) \\\n  (a + \\\n  1)\n" +
			"q = `M(\n  x\n  ); wire z;\n" +
			"`include \"a.vh\" wire after;\n" +
			"`ifdef NOPE\nskipped\n`endif\n" +
			"  last;\n",
		dirs:  []string{"inc"},
		files: map[string]string{"inc/a.vh": "// header\n  wire from_a;\n"},
	})
	if len(diags.List) > 0 {
		t.Fatalf("unexpected diagnostics: %q", ppDiagStrings(diags))
	}
	for _, c := range []struct {
		needle string
		n      int
		want   string
	}{
		{"q = ", 0, "top.sv:4:1"},
		{"x + ", 0, "top.sv:4:5"}, // the expansion is reported at the use
		{"1)", 0, "top.sv:4:5"},
		{"wire z", 0, "top.sv:6:6"},
		{"// header", 0, "inc/a.vh:1:1"},
		{"from_a", 0, "inc/a.vh:2:8"},
		{"after", 0, "top.sv:7:22"},
		{"last", 0, "top.sv:11:3"},
	} {
		if got := ppPosOfText(t, src, c.needle, c.n).String(); got != c.want {
			t.Errorf("PosAt(%q) = %s, want %s", c.needle, got, c.want)
		}
	}
	if src.Files.File("inc/a.vh") == nil {
		t.Error("included file not added to the FileSet")
	}
	// Every newline of the input survives, so the output has the input's
	// line structure apart from the multi-line macro use.
	if got := ppPosOfText(t, src, "\n", 0).String(); got != "top.sv:1:15" {
		t.Errorf("first newline maps to %s, want top.sv:1:15", got)
	}
}

func TestPreprocessIncludeErrorQuotesLine(t *testing.T) {
	_, diags := runPP(ppCase{src: "`include \"e.vh\"\n", files: map[string]string{"e.vh": "\n  `UNDEF\n"}})
	if len(diags.List) != 1 || diags.List[0].LineText != "  `UNDEF" {
		t.Fatalf("got %q", ppDiagStrings(diags))
	}
}

func TestPreprocessMultipleInputs(t *testing.T) {
	fset := NewFileSet()
	diags := NewDiagnostics(fset)
	files := map[string]string{"b.sv": "`W `V\n"}
	src := Preprocess(fset, []Input{
		{Name: "a.sv", Src: []byte("`define W 4")},
		{Name: "b.sv"}, // read through ReadFile
		{Name: "missing.sv"},
	}, PreprocessOptions{ReadFile: ppMapReader(files), Defines: map[string]string{"V": "v"}}, diags)
	if got, want := string(src.Text), "\n4 v\n"; got != want {
		t.Errorf("text %q, want %q", got, want)
	}
	got := ppDiagStrings(diags)
	if len(got) != 1 || !strings.HasPrefix(got[0], "missing.sv: cannot read missing.sv: ") {
		t.Errorf("diagnostics %q", got)
	}
	if fset.File("b.sv") == nil {
		t.Error("b.sv not added to the FileSet")
	}
}

func TestPreprocessRunawayExpansion(t *testing.T) {
	defer func(old int) { preprocessMacroLimit = old }(preprocessMacroLimit)
	var b strings.Builder
	b.WriteString("`define A0 xxxxxxxx\n")
	for i := 1; i <= 40; i++ {
		fmt.Fprintf(&b, "`define A%d `A%d `A%d\n", i, i-1, i-1)
	}
	b.WriteString("`A40\nafter\n")
	var src *Source
	var diags *Diagnostics
	ppBudgetWork(t, "2^40 expansions", &preprocessMacroLimit, 1<<20, ppExpansionCost, func() {
		src, diags = runPP(ppCase{src: b.String()})
	})
	got := ppDiagStrings(diags)
	if len(got) != 1 || !strings.Contains(got[0], "top.sv:42:1: preprocessing stopped") {
		t.Errorf("diagnostics %q", got)
	}
	if len(src.Text) > 2<<20 {
		t.Errorf("output %d bytes", len(src.Text))
	}
}

// Empty expansions produce no text but still cost time; the budget must
// count them, with the default limits.
func TestPreprocessRunawayEmptyExpansion(t *testing.T) {
	var b strings.Builder
	b.WriteString("`define A0\n")
	for i := 1; i <= 60; i++ {
		fmt.Fprintf(&b, "`define A%d `A%d`A%d\n", i, i-1, i-1)
	}
	b.WriteString("`A60\n")
	defer func(old int) { preprocessMacroLimit = old }(preprocessMacroLimit)
	var diags *Diagnostics
	ppBudgetWork(t, "2^60 empty expansions", &preprocessMacroLimit, preprocessMacroLimit, ppExpansionCost, func() {
		_, diags = runPP(ppCase{src: b.String()})
	})
	got := ppDiagStrings(diags)
	if len(got) != 1 || !strings.Contains(got[0], "top.sv:62:1: preprocessing stopped: macro expansions produced more than 64 MiB") {
		t.Errorf("diagnostics %q", got)
	}
}

// Includes that fan out without recursing: 2^30 includes unless the include
// budget stops them. (The default budget, 16 times this one, allows a
// million includes.)
func TestPreprocessRunawayIncludes(t *testing.T) {
	defer func(old int) { preprocessIncludeLimit = old }(preprocessIncludeLimit)
	files := map[string]string{"f0.vh": "x\n"}
	for i := 1; i <= 30; i++ {
		files[fmt.Sprintf("f%d.vh", i)] = fmt.Sprintf("`include \"f%d.vh\"\n`include \"f%d.vh\"\n", i-1, i-1)
	}
	var diags *Diagnostics
	ppBudgetWork(t, "2^30 includes", &preprocessIncludeLimit, 64<<20, ppIncludeCost, func() {
		_, diags = runPP(ppCase{src: "`include \"f30.vh\"\n", files: files})
	})
	got := ppDiagStrings(diags)
	if len(got) != 1 || !strings.Contains(got[0], "preprocessing stopped: included files produced more than 64 MiB") {
		t.Errorf("diagnostics %q", got)
	}
}

// Each unterminated call scans the rest of the file for its ')': past
// MaxErrors errors everything stops, or 10000 of them would scan it 10000
// times.
func TestPreprocessTooManyErrorsStops(t *testing.T) {
	src := strings.Repeat("`F(\n", 10000)
	stop := bound.HangGuard(t, "10000 unterminated macro calls")
	out, diags := runPP(ppCase{src: "`define F(x) x\n" + src + "after\n"})
	stop()
	if n := diags.ErrorCount(); n != MaxErrors {
		t.Errorf("%d errors, want %d", n, MaxErrors)
	}
	if bytes.Contains(out.Text, []byte("after")) {
		t.Error("preprocessing went on past the error limit to the end of the file")
	}
}

// bigSource is about size bytes of typical RTL with includes, macros and
// ifdefs.
func ppBigSource(size int) []byte {
	var b bytes.Buffer
	b.WriteString("`define WIDTH 32\n`define REG(name, w=`WIDTH) logic [w-1:0] name;\n`define ADD(a,b) ((a)+(b))\n")
	for i := 0; b.Len() < size; i++ {
		fmt.Fprintf(&b, "module m%d(input logic clk, output logic [`WIDTH-1:0] q);\n", i)
		fmt.Fprintf(&b, "  // counter %d with a \"string\" and `ifdef in a comment\n", i)
		b.WriteString("  `REG(cnt)\n  `REG(small, 8)\n")
		b.WriteString("`ifdef SIM\n  initial $display(\"hello `WIDTH\");\n`else\n  /* synthesis */\n`endif\n")
		b.WriteString("  always_ff @(posedge clk) cnt <= `ADD(cnt, 1);\n  assign q = cnt;\nendmodule\n\n")
	}
	return b.Bytes()
}

// Preprocessing takes time linear in the source: 8 times the source, about
// 8 times the CPU time, measured for the two sizes back to back so that a
// loaded machine slows both alike. (BenchmarkPreprocess1MB measures the
// real figure.)
func TestPreprocessLargeFileIsFast(t *testing.T) {
	src := ppBigSource(1 << 20)
	out, diags := runPP(ppCase{src: string(src)})
	if len(diags.List) > 0 {
		t.Fatalf("diagnostics: %q", ppDiagStrings(diags)[:1])
	}
	if len(out.Text) < len(src)/2 {
		t.Fatalf("output too short: %d bytes", len(out.Text))
	}
	small := ppBigSource(1 << 17)
	cSmall := bound.CPUPerRun(func() { runPP(ppCase{src: string(small)}) })
	cLarge := bound.CPUPerRun(func() { runPP(ppCase{src: string(src)}) })
	ratio := float64(cLarge) / float64(max(cSmall, time.Microsecond))
	t.Logf("%d bytes: %v of CPU, %d bytes: %v (%.1fx)", len(small), cSmall, len(src), cLarge, ratio)
	if ratio > 30 {
		t.Errorf("%d bytes take %.1f times the CPU time of %d bytes (%v, %v): not linear", len(src), ratio, len(small), cLarge, cSmall)
	}
}

// ppBudgetWork runs a runaway that a preprocessing budget stops, under
// budget *limit = full and 1/8 of it, and checks that its work, counted as
// heap allocations, follows the budget: in proportion to it, and within a
// few allocations for each unit the budget allows (an expansion or an
// include charged at least cost bytes). It restores nothing: the caller
// saves *limit.
func ppBudgetWork(t *testing.T, what string, limit *int, full, cost int, run func()) {
	t.Helper()
	*limit = full / 8
	small, _ := bound.Allocs(run)
	*limit = full
	stop := bound.HangGuard(t, what)
	large, _ := bound.Allocs(run)
	stop()
	units := uint64(full / cost)
	t.Logf("%s: %d allocations under a budget of %d KiB, %d under %d KiB (%d units)", what, small, full>>13, large, full>>10, units)
	if large > 20*small {
		t.Errorf("%s: %d allocations under a budget of %d KiB, %d under %d KiB: not in proportion", what, large, full>>10, small, full>>13)
	}
	if large > 16*units+10000 {
		t.Errorf("%s: %d allocations under a budget of %d units: does the budget count them all?", what, large, units)
	}
}

func BenchmarkPreprocess1MB(b *testing.B) {
	src := ppBigSource(1 << 20)
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		runPP(ppCase{src: string(src)})
	}
}

func FuzzPreprocess(f *testing.F) {
	for _, c := range ppCases {
		inc := ""
		for _, s := range c.files {
			inc = s
			break
		}
		f.Add([]byte(c.src), []byte(inc))
	}
	f.Add([]byte("`include \"a.vh\"\n`include \"b.vh\"\n"), []byte("`define X(a,b=`\"q`\") a``b\n`X(1)"))
	f.Fuzz(func(t *testing.T, top, inc []byte) {
		defer func(m, i int) { preprocessMacroLimit, preprocessIncludeLimit = m, i }(preprocessMacroLimit, preprocessIncludeLimit)
		preprocessMacroLimit, preprocessIncludeLimit = 1<<20, 1<<20
		files := map[string]string{"a.vh": string(inc), "inc/b.vh": string(top)}
		fset := NewFileSet()
		diags := NewDiagnostics(fset)
		opts := PreprocessOptions{
			IncludeDirs: []string{"inc"},
			Defines:     map[string]string{"D": "1", "F(x,y=2)": "x+y"},
			ReadFile:    ppMapReader(files),
		}
		src := Preprocess(fset, []Input{{Name: "top.sv", Src: top}, {Name: "two.sv", Src: inc}}, opts, diags)
		// The budgets bound the work, and so the text it makes: the
		// inputs (and an include may read them again), plus what the
		// budgets allow.
		if most := 4*(len(top)+len(inc)) + preprocessMacroLimit + preprocessIncludeLimit + 4096; len(src.Text) > most {
			t.Fatalf("%d bytes of output from %d bytes of input, more than %d", len(src.Text), len(top)+len(inc), most)
		}
		step := 1 + len(src.Text)/4096
		for off := 0; off <= len(src.Text); off += step {
			if p := src.PosAt(off); len(src.Text) > 0 && !p.IsValid() {
				t.Fatalf("PosAt(%d) = %v", off, p)
			}
		}
		for _, d := range diags.List {
			if !d.Pos.IsValid() && d.Pos.File != "<command line>" {
				t.Fatalf("diagnostic without a position: %v", d)
			}
			_ = d.Error()
		}
		// Without backticks the preprocessor must not change anything.
		if !bytes.ContainsRune(top, '`') && !bytes.ContainsRune(inc, '`') {
			want := ppWithNewline(top) + ppWithNewline(inc)
			if string(src.Text) != want {
				t.Fatalf("text changed:\n got %q\nwant %q", src.Text, want)
			}
			f := fset.File("top.sv")
			for off := range len(top) {
				if got, want := src.PosAt(off), f.PosOf(off); got != want {
					t.Fatalf("PosAt(%d) = %v, want %v", off, got, want)
				}
			}
		}
	})
}

func ppWithNewline(b []byte) string {
	if len(b) > 0 && b[len(b)-1] != '\n' {
		return string(b) + "\n"
	}
	return string(b)
}
