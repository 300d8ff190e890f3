package elab

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/weft-hdl/weft/design"
	"github.com/weft-hdl/weft/hdl"
)

// loadDir parses every .sv/.v file of a directory (packages first).
func loadDir(t *testing.T, dir string) (*hdl.SourceText, *hdl.FileSet, bool) {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dir, "*.sv"))
	v, _ := filepath.Glob(filepath.Join(dir, "*.v"))
	files = append(files, v...)
	if len(files) == 0 {
		return nil, nil, false
	}
	sort.SliceStable(files, func(i, j int) bool {
		return strings.Contains(files[i], "pkg") && !strings.Contains(files[j], "pkg")
	})
	var inputs []hdl.Input
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		inputs = append(inputs, hdl.Input{Name: f, Src: src})
	}
	fs := hdl.NewFileSet()
	diags := hdl.NewDiagnostics(fs)
	st := hdl.Load(fs, inputs, hdl.PreprocessOptions{ReadFile: os.ReadFile}, diags)
	if diags.ErrorCount() > 0 {
		t.Fatalf("parse errors in %s: %v", dir, diags.Err())
	}
	return st, fs, true
}

// The example designs and the front end's test designs elaborate cleanly.
func TestExampleDesigns(t *testing.T) {
	dirs := []string{"../hdl/testdata/designs", "../examples/uart/rtl", "../examples/soc/rtl"}
	for _, dir := range dirs {
		t.Run(filepath.Base(filepath.Dir(dir))+"/"+filepath.Base(dir), func(t *testing.T) {
			if dir == "../hdl/testdata/designs" {
				// Two independent designs: elaborate each file alone.
				files, _ := filepath.Glob(filepath.Join(dir, "*"))
				for _, f := range files {
					src, _ := os.ReadFile(f)
					d := mustElab(t, string(src))
					t.Logf("%s: %s", filepath.Base(f), d.Summary())
				}
				return
			}
			st, fs, ok := loadDir(t, dir)
			if !ok {
				t.Fatalf("no sources in %s", dir)
			}
			diags := hdl.NewDiagnostics(fs)
			d := Elaborate(st, fs, Options{}, diags)
			for _, dg := range diags.List {
				t.Log(strings.SplitN(dg.Error(), "\n", 2)[0])
			}
			if d == nil {
				t.Fatalf("%s does not elaborate: %v", dir, diags.Err())
			}
			if errs := design.Check(d); len(errs) > 0 {
				t.Fatal(errs)
			}
			t.Logf("%s", d.Summary())
		})
	}
}
