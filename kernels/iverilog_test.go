package kernels

import (
	"fmt"
	"math/big"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/weft-hdl/weft/design"
	"github.com/weft-hdl/weft/hdl"
	"github.com/weft-hdl/weft/internal/icarus"
	"github.com/weft-hdl/weft/slt"
)

// A differential test drives the same random stimulus through Icarus
// Verilog and through the kernels (interp driver), printing every output
// in hex each half cycle, and compares the text. The same stimulus also
// runs through the design.Machine reference (refSim), which is compared
// on every home after every step.

type port struct {
	name   string
	width  int
	input  bool
	signed bool
}

func topPorts(d *design.Design) []port {
	var ps []port
	for _, h := range d.Top.Homes {
		switch h.Kind {
		case design.KindInput:
			ps = append(ps, port{h.Name, h.Width, true, h.Signed})
		case design.KindOutput:
			ps = append(ps, port{h.Name, h.Width, false, h.Signed})
		}
	}
	return ps
}

type diffCase struct {
	name     string
	top      string
	srcs     []string // module sources (the DUT and its children)
	params   map[string]string
	clk      string // "" for a combinational design
	cycles   int
	seed     int64
	gen      map[string]func(k int, r *rand.Rand, w int) *big.Int // per-input stimulus (default: random)
	noRef    bool                                                 // skip the design.Machine reference
	skip     int                                                  // output lines not compared with Icarus (flops still x there); default 1 when clocked
	noIcarus bool
}

func randBits(r *rand.Rand, w int) *big.Int {
	v := new(big.Int)
	for i := 0; i < w; i += 32 {
		v.Lsh(v, 32)
		v.Or(v, big.NewInt(int64(r.Uint32())))
	}
	v = design.Mask(v, w)
	// bias towards interesting values
	switch r.Intn(8) {
	case 0:
		return new(big.Int)
	case 1:
		return design.Ones(w)
	case 2:
		return new(big.Int).Lsh(big.NewInt(1), uint(r.Intn(w)))
	case 3:
		return big.NewInt(int64(r.Intn(4)) & int64(design.Ones(min(w, 62)).Int64()))
	}
	return v
}

// stimulus returns cycles × inputs values (clock excluded).
func (c *diffCase) stimulus(ps []port) [][]*big.Int {
	r := rand.New(rand.NewSource(c.seed))
	out := make([][]*big.Int, c.cycles)
	for k := range out {
		for _, p := range ps {
			if !p.input || p.name == c.clk {
				continue
			}
			var v *big.Int
			if g := c.gen[p.name]; g != nil {
				v = design.Mask(g(k, r, p.width), p.width)
			} else {
				v = randBits(r, p.width)
			}
			out[k] = append(out[k], v)
		}
	}
	return out
}

func (c *diffCase) testbench(ps []port, stim [][]*big.Int) string {
	var b strings.Builder
	b.WriteString("`timescale 1ns/1ns\nmodule tb;\n")
	var outs []string
	for _, p := range ps {
		decl := "wire"
		if p.input {
			decl = "reg"
		}
		if p.width > 1 {
			fmt.Fprintf(&b, "  %s [%d:0] %s", decl, p.width-1, p.name)
		} else {
			fmt.Fprintf(&b, "  %s %s", decl, p.name)
		}
		if p.input {
			b.WriteString(" = 0")
		} else {
			outs = append(outs, p.name)
		}
		b.WriteString(";\n")
	}
	fmt.Fprintf(&b, "  %s", c.top)
	if len(c.params) > 0 {
		var ps []string
		for _, k := range sortedKeys(c.params) {
			ps = append(ps, fmt.Sprintf(".%s(%s)", k, c.params[k]))
		}
		fmt.Fprintf(&b, " #(%s)", strings.Join(ps, ", "))
	}
	b.WriteString(" dut(")
	for i, p := range ps {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, ".%s(%s)", p.name, p.name)
	}
	b.WriteString(");\n")
	fmtStr := strings.TrimSpace(strings.Repeat("%h ", len(outs)))
	disp := fmt.Sprintf("$display(\"%s\", %s);", fmtStr, strings.Join(outs, ", "))
	b.WriteString("  initial begin\n")
	for k, vals := range stim {
		i := 0
		for _, p := range ps {
			if !p.input || p.name == c.clk {
				continue
			}
			fmt.Fprintf(&b, "    %s = %d'h%s;\n", p.name, p.width, vals[i].Text(16))
			i++
		}
		fmt.Fprintf(&b, "    #1 %s\n", disp)
		if c.clk != "" {
			fmt.Fprintf(&b, "    %s = 1; #1 %s\n    %s = 0; #1;\n", c.clk, disp, c.clk)
		}
		_ = k
	}
	b.WriteString("    $finish;\n  end\nendmodule\n")
	return b.String()
}

func runIcarus(t *testing.T, srcs []string, tb string) string {
	t.Helper()
	dir := t.TempDir()
	var files []string
	all := append([]string(nil), srcs...)
	if tb != "" {
		all = append(all, tb)
	}
	for i, s := range all {
		f := filepath.Join(dir, fmt.Sprintf("f%d.sv", i))
		if err := os.WriteFile(f, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	vvp, err := icarus.Compile(dir, "", files...)
	if err != nil {
		t.Fatal(err)
	}
	out, err := icarus.Run(vvp, "")
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, l := range strings.Split(string(out), "\n") {
		if strings.Contains(l, "$finish called") || strings.HasPrefix(l, "VCD") || l == "" {
			continue
		}
		lines = append(lines, l)
	}
	return strings.Join(lines, "\n")
}

func hasIcarus() bool { return icarus.Available() == nil }

// runDiff runs a differential case: weft vs design.Machine (every home,
// every step) and weft vs Icarus (printed outputs).
func runDiff(t *testing.T, c diffCase) {
	t.Helper()
	var inputs []hdl.Input
	for i, s := range c.srcs {
		inputs = append(inputs, hdl.Input{Name: fmt.Sprintf("%s%d.sv", c.name, i), Src: []byte(s)})
	}
	d := elabInputs(t, c.top, c.params, inputs)
	p := mustBuild(t, d, Options{})
	ps := topPorts(d)
	stim := c.stimulus(ps)
	dr := newDriver(t, p)
	// The same program without sir/opt, and with generic Event + Settle
	// instead of Fused(e), must agree on every home.
	alt := newDriver(t, mustBuild(t, d, Options{NoOpt: true}))
	alt.fused = false
	// And built for size (ifs converted, fused kernels assembled from
	// parts), as large designs are.
	conv := newDriver(t, mustBuild(t, d, Options{LargeMinInsts: -1}))
	convGeneric := newDriver(t, mustBuild(t, d, Options{LargeMinInsts: -1}))
	convGeneric.fused = false
	// Every non-blocking target staged (none updated in place) and copied
	// in whole, every process lowered alone (no merged runs).
	staged := newDriver(t, mustBuild(t, d, Options{Slt: slt.Options{StageAll: true}, NoMerge: true, NoMustWrite: true}))
	drivers := []*driver{dr, alt, conv, convGeneric, staged}
	var ref *refSim
	if !c.noRef {
		ref = newRefSim(t, d)
		if !compareState(t, dr, ref, "init") {
			t.FailNow()
		}
	}
	var lines []string
	show := func() {
		var vs []string
		for _, pt := range ps {
			if !pt.input {
				vs = append(vs, hexOf(dr.get(pt.name), pt.width))
			}
		}
		lines = append(lines, strings.Join(vs, " "))
	}
	step := func(when string) {
		for _, x := range drivers {
			x.step()
		}
		names := []string{"", "unoptimized/generic", "built for size", "built for size/generic", "every flop staged and copied in, processes alone"}
		for _, h := range d.Homes {
			for e := 0; e < h.Elems(); e++ {
				a := dr.lay.Get(dr.state, h, e)
				for k, x := range drivers[1:] {
					if b := x.lay.Get(x.state, h, e); a.Cmp(b) != 0 {
						t.Fatalf("%s: %s[%d] = %#x optimized/fused, %#x %s", when, h.Path, e, a, b, names[k+1])
					}
				}
			}
		}
		if ref != nil {
			ref.step()
			if !compareState(t, dr, ref, when) {
				t.FailNow()
			}
		}
	}
	setClk := func(v int64) {
		for _, x := range drivers {
			x.set(c.clk, uint64(v))
		}
		if ref != nil {
			ref.set(c.clk, big.NewInt(v))
		}
	}
	for k, vals := range stim {
		i := 0
		for _, pt := range ps {
			if !pt.input || pt.name == c.clk {
				continue
			}
			for _, x := range drivers {
				x.setBig(pt.name, vals[i])
			}
			if ref != nil {
				ref.set(pt.name, vals[i])
			}
			i++
		}
		step(fmt.Sprintf("cycle %d inputs", k))
		show()
		if c.clk != "" {
			setClk(1)
			step(fmt.Sprintf("cycle %d posedge", k))
			show()
			setClk(0)
			step(fmt.Sprintf("cycle %d negedge", k))
		}
	}
	if dr.status != 0 {
		t.Fatalf("status %s: %v", dr.status, dr.err)
	}
	if c.noIcarus {
		return
	}
	if !hasIcarus() {
		t.Skip("iverilog/vvp not installed: Icarus differential skipped (the design.Machine comparison ran)")
	}
	want := runIcarus(t, c.srcs, c.testbench(ps, stim))
	skip := c.skip
	if c.clk != "" && skip == 0 {
		skip = 1 // before the first clock edge Icarus shows x for flops; weft 0
	}
	if skip > 0 {
		wl := strings.SplitN(want, "\n", skip+1)
		want = wl[len(wl)-1]
		lines = lines[min(skip, len(lines)):]
	}
	got := strings.Join(lines, "\n")
	t.Logf("%d output lines compared with Icarus; last: %s", len(lines), lines[len(lines)-1])
	if got != want {
		wl, gl := strings.Split(want, "\n"), lines
		for i := 0; i < max(len(wl), len(gl)); i++ {
			var w, g string
			if i < len(wl) {
				w = wl[i]
			}
			if i < len(gl) {
				g = gl[i]
			}
			if w != g {
				t.Fatalf("line %d differs (outputs %v):\n icarus: %s\n weft:   %s", i, outNames(ps), w, g)
			}
		}
	}
}

func outNames(ps []port) []string {
	var n []string
	for _, p := range ps {
		if !p.input {
			n = append(n, p.name)
		}
	}
	return n
}
