package vcd_test

import (
	"bytes"
	"errors"
	"fmt"
	"github.com/weft-hdl/weft/internal/tier"
	"math/big"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/weft-hdl/weft/compile"
	"github.com/weft-hdl/weft/design"
	"github.com/weft-hdl/weft/internal/icarus"
	"github.com/weft-hdl/weft/internal/randdesign"
	"github.com/weft-hdl/weft/program"
	"github.com/weft-hdl/weft/vcd"
)

// The Icarus differential: one stimulus (a clock with a period in ps, a
// second clock, reset, random data at times of their own) runs in Icarus
// Verilog through a generated test bench that instantiates the design as
// dut and calls $dumpvars(0, dut) under `timescale 1ps/1ps, and in weft
// through the sim API with a vcd.Writer sampling after every step. Every
// variable the two dumps have in common must have the same value at the
// end of every time either of them writes it (x and z from Icarus match
// anything: weft is 2-state).

// icarusCase is one design to compare.
type icarusCase struct {
	name   string
	files  []string // sources, relative to the package directory
	src    string   // or one source text
	top    string
	params map[string]string
	// zero clears, at time zero in Icarus, the bits that flops write and
	// that have no initializer: weft starts them at 0, Icarus at x, and an
	// x steering an if or a case takes a branch that a 0 would not. Designs
	// whose flops all reset (the UART) do without.
	zero bool
}

func TestIcarusDifferential(t *testing.T) {
	tier.LongOnly(t, "runs Icarus on 25 designs")
	if err := icarus.Available(); err != nil {
		t.Skipf("%v: the Icarus differential of the VCD writer is skipped (CI installs iverilog)", err)
	}
	r := "../examples/uart/rtl/"
	cases := []icarusCase{{name: "uart", top: "uart_top",
		files:  []string{r + "uart_pkg.sv", r + "uart_fifo.sv", r + "uart_tx.sv", r + "uart_rx.sv", r + "uart_top.sv"},
		params: map[string]string{"FIFO_DEPTH": "4", "DIV_W": "4"}}}
	// Icarus Verilog 11 rejects many random designs (an array whose
	// elements have different drivers, a vector whose slices do): those
	// skip, and enough of the rest must run.
	// Of these 24 seeds, Icarus compiles and finishes 5 (and the UART).
	for seed := uint64(0); seed < 24; seed++ {
		opts := randdesign.Options{Modules: 2, Signals: 2, Flops: 2, Depth: 2, Defined: true}
		if seed%4 == 3 {
			opts = randdesign.Options{Modules: 3, Signals: 4, Flops: 2, Defined: true}
		}
		d := randdesign.Generate(seed, opts)
		cases = append(cases, icarusCase{name: fmt.Sprintf("rand%d", seed), src: d.Source, top: d.Top, zero: true})
	}
	var compared atomic.Int32
	t.Run("group", func(t *testing.T) {
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				t.Parallel()
				icarusDiff(t, c)
				if !t.Skipped() {
					compared.Add(1)
				}
			})
		}
	})
	if n := compared.Load(); n < int32(len(cases))/4 {
		t.Errorf("only %d of %d designs were compared with Icarus: the test checks too little", n, len(cases))
	}
}

func icarusDiff(t *testing.T, c icarusCase) {
	dir := t.TempDir()
	files := c.files
	if c.src != "" {
		f := filepath.Join(dir, "dut.sv")
		if err := os.WriteFile(f, []byte(c.src), 0o644); err != nil {
			t.Fatal(err)
		}
		files = []string{f}
		if _, err := icarus.Compile(dir, c.top, f); err != nil {
			t.Skipf("Icarus cannot compile this random design: %v", firstLine(err.Error(), "error"))
		}
	}
	b := compile.NewBuilder().Files(files...).Top(c.top).NoCache() // writeZeroing reads the compiler's design
	for k, v := range c.params {
		b.Param(k, v)
	}
	p := build(t, b)
	evs := randomStimulus(p.Sim, rand.New(rand.NewPCG(11, uint64(len(c.name)))), 10000, 300)

	// weft.
	var ours bytes.Buffer
	w, err := vcd.New(&ours, p.Sim, vcd.Options{})
	if err != nil {
		t.Fatal(err)
	}
	drive(t, p.Sim, w, evs, nil)

	// Icarus.
	tb := filepath.Join(dir, "tb.sv")
	if err := os.WriteFile(tb, []byte(icarusBench(p.Program, p.Design, c, evs)), 0o644); err != nil {
		t.Fatal(err)
	}
	// The bench comes first so that its `timescale covers the design too.
	vvp, err := icarus.Compile(dir, "tb", append([]string{tb}, files...)...)
	if err != nil {
		t.Fatalf("%v\ntest bench: %s", err, tb)
	}
	// Icarus runs these stimuli in well under a second of CPU, when it
	// finishes. A random design it does not finish in a minute, even on a
	// loaded machine, is one it never finishes (a zero-delay loop): that
	// design is skipped. For the fixed designs the bound only guards
	// against a hang.
	bound := 5 * time.Minute
	if c.src != "" {
		bound = time.Minute
	}
	if _, err := icarus.RunWithin(vvp, dir, bound); err != nil {
		if c.src != "" && errors.Is(err, icarus.ErrBound) {
			t.Skipf("Icarus does not finish this random design: %v", err)
		}
		t.Fatal(err)
	}
	text, err := os.ReadFile(filepath.Join(dir, "icarus.vcd"))
	if err != nil {
		t.Fatal(err)
	}
	theirs, err := parseVCD(bytes.NewReader(text))
	if err != nil {
		t.Fatalf("Icarus's dump does not parse: %v", err)
	}
	mine := mustParse(t, ours.Bytes())

	// Pair the names below the DUT: tb.dut.x in Icarus, top.x in weft.
	var pairs []sameName
	var missing []string
	for _, n := range mine.names {
		rel := strings.TrimPrefix(n, p.Program.Top.Path+".")
		if theirs.vars["tb.dut."+rel] != nil {
			pairs = append(pairs, sameName{"tb.dut." + rel, n})
		} else {
			missing = append(missing, rel)
		}
	}
	sort.Strings(missing)
	t.Logf("%d variables compared, %d times in weft's dump, %d in Icarus's; not in Icarus's dump: %v",
		len(pairs), len(mine.times), len(theirs.times), missing)
	if len(pairs) < len(mine.names)*9/10 {
		t.Errorf("only %d of weft's %d variables are in Icarus's dump: the test checks too little", len(pairs), len(mine.names))
	}
	if diffs := compareDumps(theirs, mine, pairs, 0); len(diffs) > 0 {
		t.Errorf("weft's dump differs from Icarus's (Icarus first, then weft):\n%s\ntest bench: %s", report(diffs, 15), tb)
	}
}

// icarusBench writes the Icarus test bench: the inputs as variables
// initialised to their time-zero values, the DUT, and one initial block
// that opens the dump, clears the flops (icarusCase.zero) and plays the
// events. The flops to clear are found in the compiler's design d.
func icarusBench(pr *program.Program, d *design.Design, c icarusCase, evs []event) string {
	var b strings.Builder
	b.WriteString("`timescale 1ps/1ps\nmodule tb;\n")
	init := map[*program.Signal][]uint64{}
	for _, s := range evs[0].sets {
		init[s.h] = s.ws
	}
	var ports []string
	for _, h := range pr.Top.Signals() {
		switch h.Kind {
		case program.KindInput:
			fmt.Fprintf(&b, "  logic [%d:0] %s = %s;\n", h.Width-1, h.Name, literal(init[h], h.Width))
		case program.KindOutput:
			fmt.Fprintf(&b, "  wire [%d:0] %s;\n", h.Width-1, h.Name)
		default:
			continue
		}
		ports = append(ports, fmt.Sprintf(".%s(%s)", h.Name, h.Name))
	}
	fmt.Fprintf(&b, "  %s", c.top)
	if len(c.params) > 0 {
		var ps []string
		for k, v := range c.params {
			ps = append(ps, fmt.Sprintf(".%s(%s)", k, v))
		}
		sort.Strings(ps)
		fmt.Fprintf(&b, " #(%s)", strings.Join(ps, ", "))
	}
	fmt.Fprintf(&b, " dut(%s);\n  initial begin\n    $dumpfile(\"icarus.vcd\");\n    $dumpvars(0, dut);\n", strings.Join(ports, ", "))
	if c.zero {
		writeZeroing(&b, d)
	}
	now := uint64(0)
	for _, ev := range evs[1:] {
		fmt.Fprintf(&b, "    #%d", ev.t-now)
		now = ev.t
		for _, s := range ev.sets {
			fmt.Fprintf(&b, " %s = %s;", s.h.Name, literal(s.ws, s.h.Width))
		}
		b.WriteString("\n")
	}
	b.WriteString("    #1 $finish;\n  end\nendmodule\n")
	return b.String()
}

// writeZeroing clears the flop bits of every home without an initializer:
// x & 0 is 0, and the bits that comb logic drives are kept (x & 1 is x
// until the comb logic writes them, whatever the order at time zero).
func writeZeroing(b *strings.Builder, d *design.Design) {
	masks := map[*design.Home]*big.Int{}
	elems := map[*design.Home][2]int{}
	var order []*design.Home
	for _, g := range d.Groups {
		for _, p := range g.Procs {
			for _, a := range p.Writes {
				h := a.Home
				if h.Init != nil || h.Kind == design.KindStatic || len(h.Unpacked) > 1 {
					continue
				}
				m, ok := masks[h]
				if !ok {
					m = new(big.Int)
					masks[h] = m
					elems[h] = [2]int{a.ElemLo, a.ElemHi}
					order = append(order, h)
				}
				bits := new(big.Int).Lsh(design.Ones(a.Hi-a.Lo+1), uint(a.Lo))
				m.Or(m, bits)
				e := elems[h]
				elems[h] = [2]int{min(e[0], a.ElemLo), max(e[1], a.ElemHi)}
			}
		}
	}
	for _, h := range order {
		keep := new(big.Int).AndNot(design.Ones(h.Width), masks[h])
		name := "dut" + strings.TrimPrefix(h.Path, d.Top.Path)
		if !h.IsArray() {
			fmt.Fprintf(b, "    %s = %s & %d'h%s;\n", name, name, h.Width, keep.Text(16))
			continue
		}
		for e := elems[h][0]; e <= elems[h][1]; e++ {
			el := fmt.Sprintf("%s[%d]", name, h.Unpacked[0].Lo()+e)
			fmt.Fprintf(b, "    %s = %s & %d'h%s;\n", el, el, h.Width, keep.Text(16))
		}
	}
}

// firstLine returns the first line of text that contains word (the whole
// text when none does).
func firstLine(text, word string) string {
	for _, l := range strings.Split(text, "\n") {
		if strings.Contains(l, word+":") {
			return strings.TrimSpace(l)
		}
	}
	return text
}

// literal writes words (least significant first) as a sized hex literal.
func literal(ws []uint64, width int) string {
	v := new(big.Int)
	for i := len(ws) - 1; i >= 0; i-- {
		v.Lsh(v, 64)
		v.Or(v, new(big.Int).SetUint64(ws[i]))
	}
	return fmt.Sprintf("%d'h%s", width, v.Text(16))
}
