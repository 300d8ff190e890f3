package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Every file in testdata/bad carries its expected first diagnostic on line 1:
//
//	// want: LINE:COL: MESSAGE
//	// want: -: MESSAGE          (about the file as a whole: no position)
//
// and may name extra lint flags on line 2 (a limit lowered so that a test
// of the limit runs fast):
//
//	// flags: --max-generate-iterations 4096
//
// The test asserts that `weft lint FILE` fails and that its first error is
// exactly FILE:LINE:COL: error: MESSAGE, with the source line and a caret
// (FILE: error: MESSAGE, without them, for "-").
func TestLintBadInputs(t *testing.T) {
	files, err := filepath.Glob("testdata/bad/*.sv")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 30 {
		t.Fatalf("expected at least 30 bad inputs, found %d", len(files))
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".sv"), func(t *testing.T) {
			want, severity, caret := wantLine(t, file)
			if severity == "warning" {
				checkWarning(t, file, want)
				return
			}
			args := append([]string{"lint"}, lintFlags(t, file)...)
			var stdout, stderr bytes.Buffer
			code := run(append(args, file), &stdout, &stderr)
			if code != 1 {
				t.Fatalf("exit code %d, want 1\nstdout:\n%s\nstderr:\n%s", code, stdout.String(), stderr.String())
			}
			first := firstError(stderr.String())
			if first != want {
				t.Errorf("first error\n got: %s\nwant: %s\nfull stderr:\n%s", first, want, stderr.String())
			}
			if caret && !hasCaret(stderr.String()) {
				t.Errorf("diagnostic lacks the source line and caret:\n%s", stderr.String())
			}
		})
	}
}

// checkWarning asserts that FILE lints clean but for the wanted warning,
// and fails under -Werror.
func checkWarning(t *testing.T, file, want string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	if code := run([]string{"lint", file}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit code %d, want 0 (a warning only)\n%s", code, stderr.String())
	}
	first := strings.SplitN(stderr.String(), "\n", 2)[0]
	if first != want {
		t.Errorf("first warning\n got: %s\nwant: %s", first, want)
	}
	if !hasCaret(stderr.String()) {
		t.Errorf("diagnostic lacks the source line and caret:\n%s", stderr.String())
	}
	stderr.Reset()
	if code := run([]string{"lint", "-Werror", file}, &stdout, &stderr); code != 1 {
		t.Errorf("-Werror: exit code %d, want 1\n%s", code, stderr.String())
	}
}

// wantLine returns the diagnostic "FILE:LINE:COL: SEVERITY: MESSAGE" that the
// file's first line asks for, which is "// want: LINE:COL: MESSAGE" for
// errors and "// want-warning: LINE:COL: MESSAGE" for warnings; caret says
// whether it quotes a source line (not for the position "-"). A leading
// byte-order mark is skipped, as weft skips it.
func wantLine(t *testing.T, file string) (want, severity string, caret bool) {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Scan()
	line := strings.TrimPrefix(sc.Text(), "\ufeff")
	severity = "error"
	rest, ok := strings.CutPrefix(line, "// want: ")
	if !ok {
		severity = "warning"
		rest, ok = strings.CutPrefix(line, "// want-warning: ")
	}
	if !ok {
		t.Fatalf("%s: first line must be '// want: LINE:COL: MESSAGE', got %q", file, line)
	}
	pos, msg, ok := cutPos(rest)
	if !ok {
		t.Fatalf("%s: malformed want line %q", file, line)
	}
	if pos == "-" {
		return fmt.Sprintf("%s: %s: %s", file, severity, msg), severity, false
	}
	return fmt.Sprintf("%s:%s: %s: %s", file, pos, severity, msg), severity, true
}

// lintFlags returns the flags named on line 2 of FILE, if any.
func lintFlags(t *testing.T, file string) []string {
	t.Helper()
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitN(string(src), "\n", 3)
	if len(lines) < 2 {
		return nil
	}
	rest, ok := strings.CutPrefix(lines[1], "// flags: ")
	if !ok {
		return nil
	}
	return strings.Fields(rest)
}

func cutPos(s string) (pos, msg string, ok bool) {
	parts := strings.SplitN(s, ": ", 2)
	if len(parts) != 2 {
		return "", "", false
	}
	return parts[0], parts[1], true
}

func firstError(stderr string) string {
	for _, l := range strings.Split(stderr, "\n") {
		if strings.Contains(l, ": error: ") {
			return l
		}
	}
	return ""
}

func hasCaret(stderr string) bool {
	for _, l := range strings.Split(stderr, "\n") {
		if strings.TrimSpace(l) == "^" {
			return true
		}
	}
	return false
}

// The bundled designs lint clean, with the counts their READMEs promise.
func TestLintExamples(t *testing.T) {
	for _, tc := range []struct {
		globs []string
		want  string
	}{
		{[]string{"../../examples/uart/rtl/*.sv"}, "ok: top uart_top: 4 modules, 5 instances, 49 homes, 22 flops (155 flop bits), "},
		{[]string{"../../examples/soc/rtl/*.sv", "../../examples/soc/rtl/*.v"}, "ok: top soc_top: 10 modules, 10 instances, 213 homes, 77 flops (34441 flop bits), "},
	} {
		var files []string
		for _, g := range tc.globs {
			m, _ := filepath.Glob(g)
			files = append(files, m...)
		}
		var stdout, stderr bytes.Buffer
		code := run(append([]string{"lint"}, files...), &stdout, &stderr)
		if code != 0 {
			t.Fatalf("exit %d\n%s", code, stderr.String())
		}
		if !strings.HasPrefix(stdout.String(), tc.want) {
			t.Errorf("summary: %q, want prefix %q", stdout.String(), tc.want)
		}
	}
}

func TestLintUsageErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		code int
		msg  string
	}{
		{nil, 2, "usage: weft"},
		{[]string{"frobnicate"}, 2, `unknown command "frobnicate"`},
		{[]string{"lint"}, 2, "no input files"},
		{[]string{"lint", "-D", "=3", "x.sv"}, 2, "expected NAME=VALUE"},
		{[]string{"lint", "does-not-exist.sv"}, 1, "does-not-exist.sv"},
	} {
		var stdout, stderr bytes.Buffer
		code := run(tc.args, &stdout, &stderr)
		if code != tc.code || !strings.Contains(stderr.String(), tc.msg) {
			t.Errorf("weft %v: exit %d, stderr %q; want exit %d containing %q", tc.args, code, stderr.String(), tc.code, tc.msg)
		}
	}
}
