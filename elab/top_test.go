package elab

import (
	"os"
	"strings"
	"testing"

	"github.com/weft-hdl/weft/hdl"
)

func TestNoModuleNamesTheFiles(t *testing.T) {
	const none = "t.sv: error: no module to elaborate: the file has no module declaration"
	expectError(t, "", Options{}, none)
	expectError(t, "// only a comment\n", Options{}, none)
	expectError(t, "package p;\n  localparam int W = 8;\nendpackage\n", Options{}, none)
	expectError(t, "", Options{Top: "t"}, "t.sv: error: unknown top module 't': no module to elaborate: the file has no module declaration")
	expectError(t, "interface bus;\n  logic v;\nendinterface\n", Options{},
		"t.sv: error: no module to elaborate: the file declares only interfaces (bus), and the top must be a module")

	fs := hdl.NewFileSet()
	diags := hdl.NewDiagnostics(fs)
	st := hdl.Load(fs, []hdl.Input{{Name: "a.sv", Src: []byte("")}, {Name: "b.sv", Src: []byte("// nothing\n")}}, hdl.PreprocessOptions{}, diags)
	if d := Elaborate(st, fs, Options{}, diags); d != nil {
		t.Fatal("a design from no module")
	}
	want := "a.sv: error: no module to elaborate: none of the files a.sv, b.sv has a module declaration"
	if err := diags.Err(); err == nil || err.Error() != want {
		t.Errorf("got %v\nwant %s", err, want)
	}
}

func TestInstantiationCycleLeavesNoTop(t *testing.T) {
	const tail = "; no module is left to be the top (if a generate condition ends the recursion, name the top with --top)"
	expectError(t, "module t;\n  t u();\nendmodule\n", Options{},
		"t.sv:2:3: error: module 't' instantiates itself (t -> t)"+tail)
	expectError(t, "module t #(parameter N = 1);\n  if (N > 0) begin : g\n    t #(N - 1) u();\n  end\nendmodule\n", Options{},
		"t.sv:3:5: error: module 't' instantiates itself (t -> t)"+tail)
	// leaf is instantiated by the cycle but is no part of it.
	expectError(t, "module a;\n  leaf l();\n  b u();\nendmodule\nmodule b;\n  a u();\nendmodule\nmodule leaf;\nendmodule\n", Options{},
		"t.sv:3:3: error: modules 'a' and 'b' instantiate each other (a -> b -> a)"+tail)
	// The cycle is named from its module declared first.
	expectError(t, "module b;\n  c u();\nendmodule\nmodule a;\n  b u();\nendmodule\nmodule c;\n  a u();\nendmodule\n", Options{},
		"t.sv:2:3: error: modules b, c, a instantiate one another in a cycle (b -> c -> a -> b)"+tail)
}

// What the hint says works: recursion that a generate condition ends
// elaborates once the top is named.
func TestRecursiveTopWithTopFlag(t *testing.T) {
	d, diags := elabString(t, "module t #(parameter N = 2);\n  if (N > 0) begin : g\n    t #(N - 1) u();\n  end\nendmodule\n", Options{Top: "t"})
	if err := diags.Err(); err != nil || d == nil {
		t.Fatalf("--top t: %v", err)
	}
	if n := len(d.Instances); n != 3 {
		t.Errorf("%d instances, want 3", n)
	}
}

func TestReadmemNonRegularFile(t *testing.T) {
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skip("no /dev/zero")
	}
	src := "module t;\n  logic [7:0] m [0:3];\n  initial $readmemh(\"/dev/zero\", m);\nendmodule\n"
	expectError(t, src, Options{}, "t.sv:3:11: error: $readmemh file /dev/zero is not a regular file (a character device); weft reads only regular files")
	dir := t.TempDir()
	expectError(t, strings.ReplaceAll(src, "/dev/zero", dir), Options{}, "t.sv:3:11: error: $readmemh file "+dir+" is not a regular file (a directory); weft reads only regular files")
}
