package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/weft-hdl/weft/internal/gendesign"
)

// generatedDesign writes a design of n leaf instances spread over rows of 10,
// with a generate loop, a function, a package and always_ff/always_comb
// processes in each leaf, and returns its path and line count.
func generatedDesign(b *testing.B, n int) (string, int) {
	src := gendesign.Rows(n)
	path := filepath.Join(b.TempDir(), "big_top.sv")
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		b.Fatal(err)
	}
	return path, strings.Count(src, "\n")
}

// BenchmarkLintGenerated1000Instances measures the whole front end
// (preprocess, parse, elaborate) on a design with 1000 leaf instances.
// lines/s counts source lines; the elaborated lines (instances × leaf body)
// are what dominates, so elab-lines/s is reported too.
func BenchmarkLintGenerated1000Instances(b *testing.B) {
	path, lines := generatedDesign(b, 1000)
	df := &designFlags{defines: newDefineFlag("-D"), params: newDefineFlag("-G")}
	b.ResetTimer()
	for b.Loop() {
		d, diags := loadDesign([]string{path}, df, nil)
		if err := diags.Err(); err != nil {
			b.Fatal(err)
		}
		if len(d.Instances) < 1000 {
			b.Fatalf("only %d instances", len(d.Instances))
		}
	}
	perOp := b.Elapsed().Seconds() / float64(b.N)
	b.ReportMetric(float64(lines)/perOp, "lines/s")
	b.ReportMetric(float64(1000*30)/perOp, "elab-lines/s")
}
