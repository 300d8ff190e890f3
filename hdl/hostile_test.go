package hdl

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// loadDir writes files into a temporary directory and loads the first one
// from disk, the way weft lint does; names in the diagnostics are relative
// to that directory.
func loadDir(t *testing.T, opts PreprocessOptions, files ...[2]string) (*SourceText, []string, string) {
	t.Helper()
	dir := t.TempDir()
	for _, f := range files {
		if err := os.WriteFile(filepath.Join(dir, f[0]), []byte(f[1]), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	fs := NewFileSet()
	diags := NewDiagnostics(fs)
	st := Load(fs, []Input{{Name: filepath.Join(dir, files[0][0])}}, opts, diags)
	var got []string
	for _, d := range diags.List {
		got = append(got, strings.ReplaceAll(fmt.Sprintf("%s: %s: %s", d.Pos, d.Severity, d.Msg), dir+string(filepath.Separator), ""))
	}
	return st, got, dir
}

func TestIncludeNonRegularFile(t *testing.T) {
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skip("no /dev/zero")
	}
	_, got, _ := loadDir(t, PreprocessOptions{}, [2]string{"top.sv", "// zeros\n  `include \"/dev/zero\"\nmodule t; endmodule\n"})
	want := "top.sv:2:3: error: include file /dev/zero is not a regular file (a character device); weft reads only regular files"
	if len(got) != 1 || got[0] != want {
		t.Errorf("got %q\nwant %q", got, want)
	}

	// A directory found on the include path is not skipped over: it is
	// named, with where it was found.
	d := t.TempDir()
	if err := os.Mkdir(filepath.Join(d, "defs.svh"), 0o755); err != nil {
		t.Fatal(err)
	}
	_, got, _ = loadDir(t, PreprocessOptions{IncludeDirs: []string{d}}, [2]string{"top.sv", "`include \"defs.svh\"\nmodule t; endmodule\n"})
	want = "top.sv:1:1: error: include file " + filepath.Join(d, "defs.svh") + " is not a regular file (a directory); weft reads only regular files"
	if len(got) != 1 || got[0] != want {
		t.Errorf("got %q\nwant %q", got, want)
	}
}

func TestInputNonRegularFile(t *testing.T) {
	d := t.TempDir()
	fs := NewFileSet()
	diags := NewDiagnostics(fs)
	Load(fs, []Input{{Name: d}}, PreprocessOptions{}, diags)
	want := d + ": error: not a regular file (a directory); weft reads only regular files"
	if err := diags.Err(); err == nil || err.Error() != want {
		t.Errorf("got %v\nwant %s", err, want)
	}
}

func TestFileSizeLimit(t *testing.T) {
	body := "module t;\n" + strings.Repeat("  // padding padding padding\n", 20) + "endmodule\n"
	opts := PreprocessOptions{MaxFileBytes: 200}
	_, got, _ := loadDir(t, opts, [2]string{"top.sv", body})
	want := "top.sv: error: the file is larger than 200 bytes, the limit on source files (raise it with --max-source-mb)"
	if len(got) != 1 || got[0] != want {
		t.Errorf("input: got %q\nwant %q", got, want)
	}

	_, got, _ = loadDir(t, opts, [2]string{"top.sv", "\n `include \"big.svh\"\n"}, [2]string{"big.svh", body})
	want = "top.sv:2:2: error: include file big.svh is larger than 200 bytes, the limit on source files (raise it with --max-source-mb)"
	if len(got) != 1 || got[0] != want {
		t.Errorf("include: got %q\nwant %q", got, want)
	}

	// Up to the limit is fine, and the limit holds for a custom ReadFile.
	if _, got, _ := loadDir(t, PreprocessOptions{MaxFileBytes: int64(len(body))}, [2]string{"top.sv", body}); len(got) != 0 {
		t.Errorf("at the limit: %q", got)
	}
	fs := NewFileSet()
	diags := NewDiagnostics(fs)
	Load(fs, []Input{{Name: "m.sv"}}, PreprocessOptions{MaxFileBytes: 10, ReadFile: ppMapReader(map[string]string{"m.sv": body})}, diags)
	if err := diags.Err(); err == nil || !strings.Contains(err.Error(), "m.sv: error: the file is larger than 10 bytes") {
		t.Errorf("custom ReadFile: %v", err)
	}
}

func TestLeadingBOMSkipped(t *testing.T) {
	const bom = "\xef\xbb\xbf"
	st, _, err := ParseString("bom.sv", bom+"module t;\nendmodule\n")
	if err != nil || len(st.Modules) != 1 {
		t.Fatalf("a file starting with a BOM: %v", err)
	}
	// Columns on the first line count from after the mark, as editors
	// show them, and the quoted line does not hold it.
	_, _, err = ParseString("bom.sv", bom+"module t; assign x = 8'b102; endmodule\n")
	list, _ := err.(*ErrorList)
	if list == nil || len(list.List) != 1 {
		t.Fatalf("want one error, got %v", err)
	}
	d := list.First()
	if got := fmt.Sprintf("%s: %s", d.Pos, d.Msg); got != "bom.sv:1:27: invalid digit '2' in binary literal 8'b102" || strings.Contains(d.LineText, bom) {
		t.Errorf("got %s, line %q", got, d.LineText)
	}
	// Included files may start with one too.
	_, got, _ := loadDir(t, PreprocessOptions{}, [2]string{"top.sv", bom + "`include \"defs.svh\"\nmodule t; logic [`W-1:0] x; endmodule\n"}, [2]string{"defs.svh", bom + "`define W 8\n"})
	if len(got) != 0 {
		t.Errorf("included file with a BOM: %q", got)
	}
}

// A non-ASCII character outside strings and comments is one error naming
// it, not one per byte; a BOM there is named as such.
func TestLexNonASCII(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"a \xef\xbb\xbf b", "lex.sv:1:3: error: unexpected byte 0xef: a UTF-8 byte-order mark (0xef 0xbb 0xbf), which weft skips only at the start of a file"},
		{"logic \xc3\xa9t\xc3\xa9;", "lex.sv:1:7: error: unexpected byte 0xc3: the non-ASCII character 'é' (U+00E9); outside strings and comments, SystemVerilog source is ASCII"},
		{"a \xe2\x80\x8b= b;", "lex.sv:1:3: error: unexpected byte 0xe2: the non-ASCII character U+200B; outside strings and comments, SystemVerilog source is ASCII"},
		{"a \xff\xfe\x00\x01 b", "lex.sv:1:3: error: unexpected byte 0xff: not ASCII, nor UTF-8 text (outside strings and comments, SystemVerilog source is ASCII)"},
		{"a \x00\x00\x00 b", "lex.sv:1:3: error: unexpected character 0x00"},
	} {
		_, diags := lexString(t, tc.in)
		var got []string
		for _, d := range diags.List {
			got = append(got, fmt.Sprintf("%s: %s: %s", d.Pos, d.Severity, d.Msg))
		}
		// "tét" has two runs: one error each.
		n := strings.Count(tc.in, "\xc3")
		if n == 0 {
			n = 1
		}
		if len(got) != n || got[0] != tc.want {
			t.Errorf("%q:\n got %q\nwant %d error(s), the first %q", tc.in, got, n, tc.want)
		}
	}
	// In strings and comments, UTF-8 is text.
	if _, diags := lexString(t, "// café \xef\xbb\xbf\nx = \"naïve\"; /* ü */"); diags.Err() != nil {
		t.Errorf("UTF-8 in a comment or string: %v", diags.Err())
	}
}
