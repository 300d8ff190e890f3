package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestLintEmptyFile(t *testing.T) {
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty.sv")
	other := filepath.Join(dir, "other.sv")
	for _, f := range []string{empty, other} {
		if err := os.WriteFile(f, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		files []string
		want  string
	}{
		{[]string{empty}, empty + ": error: no module to elaborate: the file has no module declaration"},
		{[]string{empty, other}, empty + ": error: no module to elaborate: none of the files " + empty + ", " + other + " has a module declaration"},
	} {
		code, _, stderr := weft(append([]string{"lint"}, tc.files...)...)
		if code != 1 || firstError(stderr) != tc.want {
			t.Errorf("lint %v: exit %d\n got: %s\nwant: %s", tc.files, code, firstError(stderr), tc.want)
		}
	}
}

// A source file over --max-source-mb is refused by name; the flag raises
// the limit.
func TestMaxSourceFlag(t *testing.T) {
	pad := strings.Repeat("// "+strings.Repeat("x", 60)+"\n", (2<<20)/64)
	f := writeSV(t, "module top(input logic a, output logic y);\n"+pad+"  assign y = a;\nendmodule\n")
	code, _, stderr := weft("lint", "--max-source-mb", "1", f)
	want := f + ": error: the file is larger than 1 MiB, the limit on source files (raise it with --max-source-mb)"
	if code != 1 || firstError(stderr) != want {
		t.Errorf("exit %d\n got: %s\nwant: %s", code, firstError(stderr), want)
	}
	if code, _, stderr := weft("lint", "--max-source-mb", "3", f); code != 0 {
		t.Errorf("--max-source-mb 3: exit %d\n%s", code, stderr)
	}
	for _, bad := range []string{"0", "-1", "lots", "2000000"} {
		if code, _, stderr := weft("lint", "--max-source-mb", bad, f); code != 2 || !strings.Contains(stderr, "want a whole number of MiB") {
			t.Errorf("--max-source-mb %s: exit %d\n%s", bad, code, stderr)
		}
	}
}

// A $readmemh file over --max-memfile-mb stops weft run with its name and
// the call's position; the flag raises the limit.
func TestMaxMemFileFlag(t *testing.T) {
	dir := t.TempDir()
	hex := filepath.Join(dir, "m.hex")
	text := "01 02 03 04\n" + strings.Repeat("// "+strings.Repeat("-", 60)+"\n", (3<<20)/(2*64))
	if err := os.WriteFile(hex, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	sv := filepath.Join(dir, "d.sv")
	src := "module top(input logic clk, output logic [7:0] q);\n  logic [7:0] mem [0:3];\n  initial $readmemh(\"m.hex\", mem);\n  assign q = mem[3];\nendmodule\n"
	if err := os.WriteFile(sv, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := weft("run", "--cycles", "1", "--max-memfile-mb", "1", sv)
	want := sv + ":3:11: $readmemh file " + hex + " is larger than 1 MiB, the limit on memory files (raise it with --max-memfile-mb)"
	if code != 1 || !strings.Contains(stderr, want) {
		t.Errorf("exit %d, want stderr to hold\n%s\ngot:\n%s", code, want, stderr)
	}
	code, stdout, stderr := weft("run", "--cycles", "1", "--max-memfile-mb", "2", "--print", "q", sv)
	if code != 0 || !strings.Contains(stdout, "q=0x04") {
		t.Errorf("--max-memfile-mb 2: exit %d\nstdout: %s\nstderr: %s", code, stdout, stderr)
	}
}
