package hdl

import (
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

var updateGolden = flag.Bool("update", false, "rewrite the golden files in testdata/parse")

// checkGolden compares got with testdata/parse/<name>.golden.
func checkGolden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", "parse", name+".golden")
	if *updateGolden {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./hdl/ -run Golden -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs from %s (run with -update after checking the change):\n%s", name, path, firstDiff(got, string(want)))
	}
}

func firstDiff(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := 0; i < len(g) || i < len(w); i++ {
		var gl, wl string
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if gl != wl {
			return "line " + strconv.Itoa(i+1) + ":\n got: " + gl + "\nwant: " + wl
		}
	}
	return ""
}

// loadFiles runs the real front end (preprocessor included) on files.
func loadFiles(t *testing.T, defines map[string]string, files ...string) (*SourceText, *Diagnostics) {
	t.Helper()
	var inputs []Input
	for _, f := range files {
		inputs = append(inputs, Input{Name: f})
	}
	fs := NewFileSet()
	diags := NewDiagnostics(fs)
	st := Load(fs, inputs, PreprocessOptions{Defines: defines}, diags)
	return st, diags
}

func TestGoldenParse(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "parse", "*.sv"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no inputs: %v", err)
	}
	for _, f := range files {
		st, diags := loadFiles(t, nil, f)
		if err := diags.Err(); err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		name := strings.TrimSuffix(filepath.Base(f), ".sv")
		checkGolden(t, name, Dump(st)+"\n")
	}
}

// TestDesigns parses the realistic designs (which elaboration tests reuse)
// with their configuration macros on and off.
func TestDesigns(t *testing.T) {
	tests := []struct {
		golden  string
		file    string
		defines map[string]string
		modules []string
	}{
		{"design_v2005_dma", "v2005_dma.v", nil, []string{"fifo_v", "rr_arbiter_v", "crc8_v", "dma_v"}},
		{"design_v2005_dma_trace", "v2005_dma.v", map[string]string{"DMA_TRACE": "", "DMA_NO_PARITY": "", "DMA_FIFO_DEPTH_LOG2": "2"}, []string{"fifo_v", "rr_arbiter_v", "crc8_v", "dma_v"}},
		{"design_sv_pipe_cpu", "sv_pipe_cpu.sv", nil, []string{"regfile", "alu", "pipe_cpu"}},
		{"design_sv_pipe_cpu_synth", "sv_pipe_cpu.sv", map[string]string{"SYNTHESIS": ""}, []string{"regfile", "alu", "pipe_cpu"}},
	}
	for _, tc := range tests {
		st, diags := loadFiles(t, tc.defines, filepath.Join("testdata", "designs", tc.file))
		if len(diags.List) != 0 {
			t.Errorf("%s: diagnostics:\n%v", tc.golden, (&ErrorList{List: diags.List}).Error())
			continue
		}
		var names []string
		for _, m := range st.Modules {
			names = append(names, m.Name)
		}
		if strings.Join(names, " ") != strings.Join(tc.modules, " ") {
			t.Errorf("%s: modules %v, want %v", tc.golden, names, tc.modules)
		}
		if d := Dump(st); strings.Contains(d, "<nil>") || strings.Contains(d, "unsupported") {
			t.Errorf("%s: the design should parse into supported nodes only", tc.golden)
		}
		checkGolden(t, tc.golden, Dump(st)+"\n")
	}
}
