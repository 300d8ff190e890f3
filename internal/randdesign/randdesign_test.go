package randdesign_test

import (
	"bytes"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/weft-hdl/weft/compile"
	"github.com/weft-hdl/weft/internal/randdesign"
)

// TestGenerateElaborates builds 24 designs (4 of them of other sizes):
// every one must compile without errors.
func TestGenerateElaborates(t *testing.T) {
	sizes := []randdesign.Options{
		{},
		{Modules: 1, Depth: 2, MaxWidth: 32},
		{Modules: 6, Depth: 4, Signals: 3, Flops: 2},
		{Depth: 1, MaxWidth: 64, Inputs: 1},
	}
	for seed := uint64(0); seed < 24; seed++ {
		o := randdesign.Options{}
		if seed >= 20 {
			o = sizes[seed%uint64(len(sizes))]
		}
		d := randdesign.Generate(seed, o)
		p, err := compile.NewBuilder().Source("rand.sv", d.Source).Top(d.Top).Backend(compile.BackendInterp).Output(&bytes.Buffer{}).Build()
		if err != nil {
			t.Errorf("seed %d (%+v): %v\n%s", seed, o, err, d.Source)
			continue
		}
		if len(p.Warnings) > 0 && testing.Verbose() {
			t.Logf("seed %d: %d warnings, first: %s", seed, len(p.Warnings), p.Warnings[0])
		}
		for _, n := range append(append([]string{}, d.Clocks...), d.Resets...) {
			if h, ok := p.Sim.Lookup(n); !ok || !p.Sim.IsTopInput(h) || h.Width != 1 {
				t.Errorf("seed %d: %s is not a 1-bit top input", seed, n)
			}
		}
		for _, in := range d.Inputs {
			if h, ok := p.Sim.Lookup(in.Name); !ok || !p.Sim.IsTopInput(h) || h.Width != in.Width {
				t.Errorf("seed %d: input %s is not a %d-bit top input", seed, in.Name, in.Width)
			}
		}
		p.Close()
	}
}

// TestGenerateDeterministic checks that a seed always gives the same
// design and that seeds differ.
func TestGenerateDeterministic(t *testing.T) {
	seen := map[string]uint64{}
	for seed := uint64(0); seed < 20; seed++ {
		a := randdesign.Generate(seed, randdesign.Options{})
		b := randdesign.Generate(seed, randdesign.Options{})
		if a.Source != b.Source || a.Top != b.Top || len(a.Inputs) != len(b.Inputs) {
			t.Fatalf("seed %d: two designs differ", seed)
		}
		if s, ok := seen[a.Source]; ok {
			t.Errorf("seeds %d and %d give the same design", s, seed)
		}
		seen[a.Source] = seed
	}
}

var rangeRE = regexp.MustCompile(`logic \[(\d+):0\]`)

// TestGenerateFeatures checks that the default options exercise the
// required features across a few seeds, and that designs stay moderate.
func TestGenerateFeatures(t *testing.T) {
	features := map[string]string{
		"generate-for instance": "begin : gi",
		"element writer":        "] = ",
		"async reset":           "negedge rst_n",
		"clk2":                  "@(posedge clk2",
		"display":               "$display(",
		"function":              "function automatic",
		"always_comb":           "always_comb",
		"case":                  "case (",
		"for loop":              "for (int i",
		"generate-for flops":    "begin : gf",
		"generate-for comb":     "begin : gc",
		"indexed part-select":   " +: ",
	}
	count := map[string]int{}
	wide := 0
	for seed := uint64(0); seed < 20; seed++ {
		d := randdesign.Generate(seed, randdesign.Options{})
		for name, s := range features {
			if strings.Contains(d.Source, s) {
				count[name]++
			}
		}
		for _, m := range rangeRE.FindAllStringSubmatch(d.Source, -1) {
			if hi, _ := strconv.Atoi(m[1]); hi >= 64 {
				wide++
				break
			}
		}
		if n := strings.Count(d.Source, "\n"); n < 50 || n > 450 {
			t.Errorf("seed %d: %d lines", seed, n)
		}
		if c := strings.Count(d.Source, "\nmodule "); c < 3 {
			t.Errorf("seed %d: only %d modules", seed, c)
		}
	}
	for name := range features {
		if count[name] == 0 {
			t.Errorf("no design of 20 has a %s", name)
		}
	}
	if wide == 0 {
		t.Errorf("no design of 20 has a value over 64 bits")
	}
	t.Logf("features in 20 designs: %v; %d with wide values", count, wide)
}
