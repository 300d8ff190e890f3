package kernels

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"math/big"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/weft-hdl/weft/design"
	"github.com/weft-hdl/weft/elab"
	"github.com/weft-hdl/weft/hdl"
	"github.com/weft-hdl/weft/program"
	"github.com/weft-hdl/weft/sir"
	"github.com/weft-hdl/weft/sir/interp"
	"github.com/weft-hdl/weft/statelayout"
)

// elabSrc parses and elaborates SystemVerilog sources (name → text).
func elabSrc(t testing.TB, top string, files ...string) *design.Design {
	t.Helper()
	var inputs []hdl.Input
	for i, f := range files {
		inputs = append(inputs, hdl.Input{Name: fmt.Sprintf("t%d.sv", i), Src: []byte(f)})
	}
	return elabInputs(t, top, nil, inputs)
}

func elabInputs(t testing.TB, top string, params map[string]string, inputs []hdl.Input) *design.Design {
	t.Helper()
	fs := hdl.NewFileSet()
	diags := hdl.NewDiagnostics(fs)
	st := hdl.Load(fs, inputs, hdl.PreprocessOptions{ReadFile: os.ReadFile}, diags)
	if diags.ErrorCount() > 0 {
		t.Fatalf("parse: %v", diags.Err())
	}
	d := elab.Elaborate(st, fs, elab.Options{Top: top, Params: params}, diags)
	if d == nil || diags.ErrorCount() > 0 {
		t.Fatalf("elaborate: %v", diags.Err())
	}
	if errs := design.Check(d); len(errs) > 0 {
		t.Fatalf("design.Check: %v", errs)
	}
	return d
}

// elabDir elaborates files of a directory in the given order.
func elabDir(t testing.TB, dir, top string, params map[string]string, names ...string) *design.Design {
	t.Helper()
	var inputs []hdl.Input
	for _, n := range names {
		p := filepath.Join(dir, n)
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		inputs = append(inputs, hdl.Input{Name: p, Src: src})
	}
	return elabInputs(t, top, params, inputs)
}

func mustBuild(t testing.TB, d *design.Design, opts Options) *Program {
	t.Helper()
	p, err := Build(d, opts)
	if err != nil {
		t.Fatalf("Build: %v", err)
	}
	return p
}

// driver is a small reference step loop over sir/interp: not the
// simulator, just enough to run designs in tests.
type driver struct {
	t      testing.TB
	p      *Program
	lay    *statelayout.Layout
	state  []byte
	fn     map[*sir.Unit]*interp.Func
	out    strings.Builder
	status sir.Status
	err    error
	prev   []byte
	// fused selects Fused(e) when a single event fired (else Event + Settle).
	fused bool
	// events counts kernel calls per unit name (for tests).
	calls map[string]int
}

func newDriver(t testing.TB, p *Program) *driver {
	t.Helper()
	d := &driver{t: t, p: p, lay: p.Layout, state: make([]byte, p.StateSize), fn: map[*sir.Unit]*interp.Func{}, fused: true, calls: map[string]int{}}
	for _, u := range p.Units() {
		f, err := interp.Compile(u, p.Layout, interp.Options{})
		if err != nil {
			t.Fatalf("interp.Compile %s: %v", u.Name, err)
		}
		d.fn[u] = f
	}
	d.lay.Init(d.state)
	for _, r := range p.Readmems {
		if err := d.readmem(r); err != nil {
			t.Fatalf("readmem: %v", err)
		}
	}
	if p.Initial != nil {
		d.run(p.Initial)
	}
	d.run(p.Settle)
	d.prev = make([]byte, len(p.Schedule.Triggers))
	for i, tr := range p.Schedule.Triggers {
		d.prev[i] = d.bit(tr.Home, tr.Elem, tr.Bit)
	}
	return d
}

func (d *driver) bit(h *design.Home, elem, bit int) byte {
	off, sh := d.lay.Bit(h, elem, bit)
	return d.state[off] >> sh & 1
}

// run executes a unit, drains the event ring into out and keeps the first
// non-OK status.
func (d *driver) run(u *sir.Unit) sir.Status {
	d.calls[u.Name]++
	st := d.fn[u].Run(d.state)
	r := d.lay.Ring()
	recs, dropped, err := sir.DecodeRing(d.state[r.Offset : r.Offset+r.Size])
	if err != nil {
		d.t.Fatalf("ring: %v", err)
	}
	if dropped > 0 {
		d.t.Errorf("%d events dropped", dropped)
	}
	for _, rec := range recs {
		if rec.Kind == sir.EvFinish || rec.Kind == sir.EvStop {
			continue
		}
		d.out.WriteString(message(d.p, rec))
		if program.Newline(rec.Kind) {
			d.out.WriteByte('\n')
		}
	}
	sir.ResetRing(d.state[r.Offset:])
	if st != sir.StatusOK && d.status == sir.StatusOK {
		d.status = st
		prog, err := d.p.Export()
		if err != nil {
			d.t.Fatalf("Export: %v", err)
		}
		d.err = prog.ErrorDiag(st, int(binary.LittleEndian.Uint32(d.state[d.lay.Sys()+statelayout.SysDiag:])))
	}
	return st
}

func (d *driver) home(name string) *design.Home {
	h, ok := d.p.Design.Lookup(name)
	if !ok {
		d.t.Fatalf("no signal %q", name)
	}
	return h
}

func (d *driver) set(name string, v uint64) { d.setBig(name, new(big.Int).SetUint64(v)) }

func (d *driver) setBig(name string, v *big.Int) {
	h := d.home(name)
	d.lay.Set(d.state, h, 0, v)
}

func (d *driver) get(name string) *big.Int { return d.lay.Get(d.state, d.home(name), 0) }

func (d *driver) getU(name string) uint64 { return d.get(name).Uint64() }

// step runs edge detection, the fired groups and the settle, repeating
// while the settle or an apply changes a trigger bit (derived clocks).
func (d *driver) step() {
	settled := false
	for round := 0; round < 100; round++ {
		var fired []int
		tb := d.lay.Triggers()
		for _, ev := range d.lay.Space().Events {
			tr := ev.Trigger
			cur := d.bit(tr.Home, tr.Elem, tr.Bit)
			old := d.prev[ev.TriggerIndex]
			hit := cur != old && (ev.Edge == design.AnyEdge || (ev.Edge == design.Posedge) == (cur == 1))
			if hit {
				fired = append(fired, ev.Index)
				d.state[tb.Offset+ev.Index] = 1
			}
		}
		for i, tr := range d.p.Schedule.Triggers {
			d.prev[i] = d.bit(tr.Home, tr.Elem, tr.Bit)
		}
		if len(fired) == 0 {
			if settled {
				return
			}
			d.run(d.p.Settle)
			settled = true
			continue
		}
		if len(fired) == 1 && d.fused {
			d.run(d.p.Events[fired[0]].Fused)
		} else {
			d.run(d.p.Event)
			d.run(d.p.Settle)
		}
		settled = true
		for _, e := range fired {
			d.state[tb.Offset+e] = 0
		}
	}
	d.t.Fatalf("trigger bits keep changing")
}

// tick drives one clock cycle: clk 1, step, clk 0, step.
func (d *driver) tick(clk string) {
	d.set(clk, 1)
	d.step()
	d.set(clk, 0)
	d.step()
}

// readmem performs a $readmemh/$readmemb the simple way.
func (d *driver) readmem(r Readmem) error {
	f, err := os.Open(r.File)
	if err != nil {
		return err
	}
	defer f.Close()
	base := 16
	if !r.Hex {
		base = 2
	}
	addr := 0
	if r.Start >= 0 {
		addr = r.Start
	}
	lo := r.Home.Unpacked[0].Lo()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if i := strings.Index(line, "//"); i >= 0 {
			line = line[:i]
		}
		for _, tok := range strings.Fields(line) {
			if tok[0] == '@' {
				a, err := strconv.ParseInt(tok[1:], 16, 64)
				if err != nil {
					return err
				}
				addr = int(a)
				continue
			}
			v, ok := new(big.Int).SetString(strings.ReplaceAll(tok, "_", ""), base)
			if !ok {
				return fmt.Errorf("%s: bad word %q", r.File, tok)
			}
			if e := addr - lo; e >= 0 && e < r.Home.Elems() {
				d.lay.Set(d.state, r.Home, e, v)
			}
			addr++
		}
	}
	return sc.Err()
}

// hexOf formats a value as %h does for width bits.
func hexOf(v *big.Int, width int) string {
	s := v.Text(16)
	n := (width + 3) / 4
	if len(s) < n {
		s = strings.Repeat("0", n-len(s)) + s
	}
	return s
}

func sortedKeys[M ~map[string]V, V any](m M) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// message formats one runtime-event record with p's format table.
func message(p *Program, rec sir.Record) string {
	if rec.Format < 0 || rec.Format >= len(p.Formats) {
		return fmt.Sprintf("<event %s: unknown format %d>", rec.Kind, rec.Format)
	}
	f := p.Formats[rec.Format]
	return program.FormatArgs(f.Text, f.HasFormat, f.Scope, rec.Args)
}
