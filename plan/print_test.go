package plan

import (
	"bytes"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden")

// golden compares got with testdata/name, or rewrites it with -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	file := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(file, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("%v (run go test ./plan/ -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs (go test ./plan/ -update rewrites it); got:\n%s", file, got)
	}
}

func TestFprintGolden(t *testing.T) {
	var b bytes.Buffer
	if err := samplePlan(t).Fprint(&b); err != nil {
		t.Fatal(err)
	}
	golden(t, "sample.golden", b.Bytes())
	for i, line := range strings.Split(b.String(), "\n") {
		if strings.TrimRight(line, " \t") != line {
			t.Errorf("line %d has trailing blanks: %q", i+1, line)
		}
		if strings.Contains(line, "\t") {
			t.Errorf("line %d has a tab: %q", i+1, line)
		}
	}
	if s := samplePlan(t).String(); s != b.String() {
		t.Errorf("String() differs from Fprint")
	}
}

func TestFprintContents(t *testing.T) {
	out := samplePlan(t).String()
	for _, want := range []string{
		"plan top: 3 lanes, sync cost 20, layout segmented, 3 kernels",
		"* items",
		"reason: items 240 + 20 beats single 400 by 35%",
		"waits L1:1",
		"est 150-180",
		`mem\tloop "m"`,
		"sequential kernel only",
		"lane 2: idle",
		"top.a, top.b, top.c, top.d and 2 more",
		"[640,768)",
		"multi",
		"shared",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

func TestEmptyPlan(t *testing.T) {
	for _, p := range []*Plan{{}, {Top: "top", Lanes: 2, Layout: LayoutPacked}} {
		var b bytes.Buffer
		if err := p.Fprint(&b); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(b.String(), "0 kernels") || !strings.Contains(b.String(), "segments: none") {
			t.Errorf("empty plan printed as\n%s", b.String())
		}
		b.Reset()
		if err := p.SVG(&b); err != nil {
			t.Fatal(err)
		}
		checkXML(t, b.Bytes())
	}
}

// A kernel whose Chosen names no candidate and whose partition is empty
// is still printed.
func TestFprintOddKernels(t *testing.T) {
	p := &Plan{Top: "t", Lanes: 2, Kernels: []*Kernel{
		{Name: "settle", Chosen: "ghost", Lanes: [][]Task{{}, {}}},
		{Name: "line\nbreak", Candidates: []Candidate{{Name: "items"}}},
	}}
	out := p.String()
	for _, want := range []string{"chosen ghost: no tasks", "(chosen ghost is not among the candidates)", "candidates: none", `kernel line\nbreak`} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errBroken }

var errBroken = errors.New("broken")

func TestWriteErrors(t *testing.T) {
	p := samplePlan(t)
	if err := p.Fprint(failWriter{}); !errors.Is(err, errBroken) {
		t.Errorf("Fprint error = %v, want %v", err, errBroken)
	}
	if err := p.SVG(failWriter{}); !errors.Is(err, errBroken) {
		t.Errorf("SVG error = %v, want %v", err, errBroken)
	}
}
