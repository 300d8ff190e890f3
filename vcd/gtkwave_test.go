package vcd_test

import (
	"bytes"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"testing"

	"github.com/weft-hdl/weft/compile"
	"github.com/weft-hdl/weft/vcd"
)

// TestGTKWaveRoundTrip converts dumps to GTKWave's FST format and back
// (vcd2fst, fst2vcd from Debian's gtkwave package): GTKWave's own VCD
// reader must see the same variables and the same values at every time as
// this package's test reader. vcd2fst accepts nearly anything, so the
// check is the comparison, not its exit status. Skipped when the tools are
// missing.
func TestGTKWaveRoundTrip(t *testing.T) {
	for _, tool := range []string{"vcd2fst", "fst2vcd"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s not installed (apt-get install gtkwave): GTKWave round trip skipped", tool)
		}
	}
	cases := []struct {
		name string
		p    func(t *testing.T) *compile.Program
	}{
		{"hier", func(t *testing.T) *compile.Program { return buildSrc(t, "top", hierSrc) }},
		{"uart", func(t *testing.T) *compile.Program { return build(t, uartBuilder()) }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := c.p(t)
			dir := t.TempDir()
			path := filepath.Join(dir, "w.vcd")
			w, err := vcd.Create(path, p.Sim, vcd.Options{Arrays: true})
			if err != nil {
				t.Fatal(err)
			}
			drive(t, p.Sim, w, randomStimulus(p.Sim, rand.New(rand.NewPCG(5, 6)), 1000, 200), nil)
			text, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			ours := mustParse(t, text)
			fst := filepath.Join(dir, "w.fst")
			if out, err := exec.Command("vcd2fst", path, fst).CombinedOutput(); err != nil {
				t.Fatalf("vcd2fst: %v\n%s", err, out)
			}
			back, err := exec.Command("fst2vcd", fst).Output()
			if err != nil {
				t.Fatalf("fst2vcd: %v", err)
			}
			theirs, err := parseVCD(bytes.NewReader(back))
			if err != nil {
				t.Fatalf("fst2vcd's output does not parse: %v", err)
			}
			var a, b []string
			var pairs []sameName
			for n := range ours.vars {
				a = append(a, n)
				pairs = append(pairs, sameName{n, n})
			}
			for n := range theirs.vars {
				b = append(b, n)
			}
			sort.Strings(a)
			sort.Strings(b)
			if len(a) != len(b) {
				t.Fatalf("GTKWave sees %d variables, we wrote %d:\n%v\n%v", len(b), len(a), b, a)
			}
			for i := range a {
				if a[i] != b[i] || ours.vars[a[i]].width != theirs.vars[b[i]].width {
					t.Fatalf("GTKWave sees %s (%d bits) where we wrote %s (%d bits)", b[i], theirs.vars[b[i]].width, a[i], ours.vars[a[i]].width)
				}
			}
			// Aliases: GTKWave keeps one code for the names we gave one.
			for _, n := range a {
				for _, m := range a {
					if (ours.vars[n].id == ours.vars[m].id) != (theirs.vars[n].id == theirs.vars[m].id) {
						t.Errorf("%s and %s share a code in one file only", n, m)
					}
				}
			}
			if diffs := compareDumps(ours, theirs, pairs, 0); len(diffs) > 0 {
				t.Errorf("GTKWave reads other values:\n%s", report(diffs, 10))
			}
			if len(ours.times) < 100 {
				t.Errorf("only %d times written: the stimulus checks too little", len(ours.times))
			}
		})
	}
}
