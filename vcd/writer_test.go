package vcd_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/weft-hdl/weft/compile"
	"github.com/weft-hdl/weft/program"
	"github.com/weft-hdl/weft/sim"
	"github.com/weft-hdl/weft/vcd"
)

// hierSrc has what the header must handle: generate scopes, instances
// inside them, ports collapsed into parent signals (clk is one home under
// four names), a 130-bit vector, an unpacked array, an int, a static
// function variable, scalars and nets.
const hierSrc = `
module leaf #(parameter int W = 4) (input logic clk, input logic [W-1:0] d, output logic [W-1:0] q);
  always_ff @(posedge clk) q <= d + W'(1);
endmodule
module top(input logic clk, input logic rst_n, input logic [7:0] a, input logic [129:0] wide_in,
           output logic [129:0] wide_q, output logic [7:0] y, output logic par, output logic [7:0] tot);
  logic [7:0] mem [0:3];
  logic [1:0] ptr;
  int cnt;
  function logic [7:0] acc(input logic [7:0] x);
    logic [7:0] s;
    s = s + x;
    return s;
  endfunction
  for (genvar i = 0; i < 2; i++) begin : g
    logic [7:0] w;
    logic [7:0] q;
    assign w = a ^ 8'(i + 1);
    leaf #(.W(8)) u(.clk, .d(w), .q(q));
  end
  leaf #(.W(8)) u0(.clk(clk), .d(a), .q(y));
  always_ff @(posedge clk or negedge rst_n)
    if (!rst_n) begin
      ptr <= 2'd0;
      wide_q <= '0;
      cnt <= 0;
    end else begin
      mem[ptr] <= a;
      ptr <= ptr + 2'd1;
      wide_q <= {wide_q[128:0], wide_q[129]} ^ wide_in;
      cnt <= cnt + 1;
      tot <= acc(a) ^ mem[ptr];
    end
  assign par = ^a;
endmodule
`

func build(t testing.TB, b *compile.Builder) *compile.Program {
	t.Helper()
	p, err := b.Output(io.Discard).Build()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	return p
}

func buildSrc(t testing.TB, top, src string) *compile.Program {
	return build(t, compile.NewBuilder().Source("t.sv", src).Top(top))
}

func uartBuilder() *compile.Builder {
	r := "../examples/uart/rtl/"
	return compile.NewBuilder().Files(r+"uart_pkg.sv", r+"uart_fifo.sv", r+"uart_tx.sv", r+"uart_rx.sv", r+"uart_top.sv").
		Top("uart_top").Param("FIFO_DEPTH", "4").Param("DIV_W", "4")
}

func mustParse(t testing.TB, text []byte) *vcdFile {
	t.Helper()
	f, err := parseVCD(bytes.NewReader(text))
	if err != nil {
		t.Fatalf("the dump does not parse: %v\n%s", err, head(text, 3000))
	}
	return f
}

func head(b []byte, n int) string {
	if len(b) > n {
		return string(b[:n]) + "\n..."
	}
	return string(b)
}

// The header declares every scope with its kind, every variable with its
// type, width and range, aliases with the home's code, and no array
// unless asked for.
func TestHeader(t *testing.T) {
	p := buildSrc(t, "top", hierSrc)
	for _, arrays := range []bool{false, true} {
		t.Run(fmt.Sprintf("arrays=%v", arrays), func(t *testing.T) {
			var out bytes.Buffer
			w, err := vcd.New(&out, p.Sim, vcd.Options{Arrays: arrays})
			if err != nil {
				t.Fatal(err)
			}
			if err := w.Sample(0); err != nil {
				t.Fatal(err)
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			f := mustParse(t, out.Bytes())
			if f.timescale != "1ps" {
				t.Errorf("timescale %q, want 1ps", f.timescale)
			}
			wantScopes := map[string]string{"top": "module", "top.g[0]": "begin", "top.g[1]": "begin", "top.g[0].u": "module",
				"top.g[1].u": "module", "top.u0": "module", "top.acc": "function"}
			if fmt.Sprint(f.scopes) != fmt.Sprint(wantScopes) {
				t.Errorf("scopes %v, want %v", f.scopes, wantScopes)
			}
			vars := []struct {
				name, kind string
				width      int
				rng        string
			}{
				{"top.clk", "wire", 1, ""}, {"top.a", "wire", 8, "[7:0]"}, {"top.wide_in", "wire", 130, "[129:0]"},
				{"top.wide_q", "reg", 130, "[129:0]"}, {"top.cnt", "reg", 32, "[31:0]"}, {"top.par", "reg", 1, ""},
				{"top.g[1].w", "reg", 8, "[7:0]"}, {"top.g[1].u.d", "reg", 8, "[7:0]"}, {"top.u0.clk", "wire", 1, ""},
				{"top.u0.q", "reg", 8, "[7:0]"}, {"top.acc.s", "reg", 8, "[7:0]"},
			}
			for _, v := range vars {
				got := f.vars[v.name]
				if got == nil {
					t.Errorf("no $var %s; have %v", v.name, f.names)
					continue
				}
				if got.kind != v.kind || got.width != v.width || got.rng != v.rng {
					t.Errorf("%s: $var %s %d %s, want %s %d %s", v.name, got.kind, got.width, got.rng, v.kind, v.width, v.rng)
				}
			}
			same := [][]string{
				{"top.clk", "top.g[0].u.clk", "top.g[1].u.clk", "top.u0.clk"},
				{"top.a", "top.u0.d"}, {"top.y", "top.u0.q"}, {"top.g[0].w", "top.g[0].u.d"},
			}
			for _, names := range same {
				for _, n := range names[1:] {
					if f.vars[n] == nil || f.vars[names[0]] == nil || f.vars[n].id != f.vars[names[0]].id {
						t.Errorf("%s and %s are one home but have different codes", names[0], n)
					}
				}
			}
			codes := map[string]bool{}
			for _, v := range f.vars {
				codes[v.id] = true
			}
			homes := 15 // every home but mem
			if arrays {
				homes += 4
			}
			if len(codes) != homes {
				t.Errorf("%d codes, want one per dumped element (%d)", len(codes), homes)
			}
			for i := 0; i < 4; i++ {
				name := fmt.Sprintf("top.mem[%d]", i)
				if (f.vars[name] != nil) != arrays {
					t.Errorf("%s dumped: %v, want %v", name, f.vars[name] != nil, arrays)
				}
			}
			// Variables by name in their scope, then the scopes below.
			var order []string
			for _, n := range f.names {
				if strings.Count(n, ".") == 1 {
					order = append(order, n)
				}
			}
			if !sort.StringsAreSorted(order) {
				t.Errorf("top's variables are not in name order: %v", order)
			}
		})
	}
}

// snapshot is the expected value of every dumped name at one sample.
type snapshot struct {
	t    uint64
	vals map[string]string
}

// expectedNames lists the full names of every signal a whole-design dump
// holds, from the dut package's view of the design (not the writer's).
func expectedNames(p *compile.Program, arrays bool) map[string]*program.Signal {
	d := p.DUT()
	top := p.Program.Top.Path
	out := map[string]*program.Signal{}
	for _, n := range d.Signals() {
		s := d.MustSignal(n)
		h := s.Home()
		if h.Kind == program.KindBlockLocal {
			continue
		}
		if !h.IsArray() {
			out[top+"."+n] = h
			continue
		}
		if arrays {
			for k := 0; k < h.Elems(); k++ {
				out[fmt.Sprintf("%s.%s[%d]", top, n, h.Unpacked[0].Lo()+k)] = h
			}
		}
	}
	return out
}

// take reads every expected name's value from the simulator.
func take(t testing.TB, p *compile.Program, names map[string]*program.Signal, now uint64) snapshot {
	d := p.DUT()
	snap := snapshot{t: now, vals: map[string]string{}}
	for n := range names {
		s, err := d.Signal(n)
		if err != nil {
			t.Fatal(err)
		}
		v := s.GetBig()
		txt := v.Text(2)
		snap.vals[n] = strings.Repeat("0", s.Width()-len(txt)) + txt
	}
	return snap
}

// checkDump compares a parsed dump with the snapshots taken at every
// sample: the same variables, each one's value at the end of every sample
// time, and a #time exactly where something changed.
func checkDump(t *testing.T, f *vcdFile, names map[string]*program.Signal, snaps []snapshot) {
	t.Helper()
	var got, want []string
	for n := range f.vars {
		got = append(got, n)
	}
	for n := range names {
		want = append(want, n)
	}
	sort.Strings(got)
	sort.Strings(want)
	if !slices.Equal(got, want) {
		t.Fatalf("dumped variables:\n%v\nwant:\n%v", got, want)
	}
	var wantTimes []uint64
	bad := 0
	for i, s := range snaps {
		changed := i == 0
		for n, v := range s.vals {
			if i > 0 && snaps[i-1].vals[n] != v {
				changed = true
			}
			if g := f.valueAt(f.vars[n].id, s.t); g != v && bad < 10 {
				t.Errorf("%s at %d: dump has %q, simulator %q", n, s.t, g, v)
				bad++
			}
		}
		if changed && (len(wantTimes) == 0 || wantTimes[len(wantTimes)-1] != s.t) {
			wantTimes = append(wantTimes, s.t)
		}
	}
	if !slices.Equal(f.times, wantTimes) {
		t.Errorf("#times %v\nwant (the samples where something changed) %v", f.times, wantTimes)
	}
}

// TestRoundTrip drives random stimulus (clock edges, data, resets at times
// of their own) through the hierarchy design and the UART, samples after
// every step, and checks every dumped value at every time against what the
// simulator held.
func TestRoundTrip(t *testing.T) {
	cases := []struct {
		name   string
		p      func(t *testing.T) *compile.Program
		arrays bool
	}{
		{"hier", func(t *testing.T) *compile.Program { return buildSrc(t, "top", hierSrc) }, false},
		{"hier_arrays", func(t *testing.T) *compile.Program { return buildSrc(t, "top", hierSrc) }, true},
		{"uart", func(t *testing.T) *compile.Program { return build(t, uartBuilder()) }, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := c.p(t)
			names := expectedNames(p, c.arrays)
			var out bytes.Buffer
			w, err := vcd.New(&out, p.Sim, vcd.Options{Arrays: c.arrays})
			if err != nil {
				t.Fatal(err)
			}
			var snaps []snapshot
			drive(t, p.Sim, w, randomStimulus(p.Sim, rand.New(rand.NewPCG(3, 4)), 1000, 400), func(now uint64) {
				snaps = append(snaps, take(t, p, names, now))
			})
			checkDump(t, mustParse(t, out.Bytes()), names, snaps)
		})
	}
}

// drive runs a stimulus: at each event's time it writes the inputs, sets
// the time, steps, samples into w and calls each (nil: nothing); then it
// closes w.
func drive(t testing.TB, s *sim.Simulator, w *vcd.Writer, evs []event, each func(now uint64)) {
	t.Helper()
	for _, ev := range evs {
		for _, in := range ev.sets {
			if err := s.SetInputWords(in.h, 0, in.ws); err != nil {
				t.Fatal(err)
			}
		}
		if err := s.SetTime(ev.t); err != nil {
			t.Fatal(err)
		}
		if err := s.Step(); err != nil {
			t.Fatal(err)
		}
		if err := w.Sample(ev.t); err != nil {
			t.Fatal(err)
		}
		if each != nil {
			each(ev.t)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}

// event is what the stimulus does at one time: inputs to write.
type event struct {
	t    uint64
	sets []inputSet
}

type inputSet struct {
	h  *program.Signal
	ws []uint64
}

// randomStimulus makes a stimulus for a design with inputs clk and rst_n
// (and possibly clk2): a clock of period ps (clk2 at 3/2 of it), reset
// released after two cycles and pulsed now and then, and the other inputs
// changed at random times that are never a clock edge. The first event is
// at time 0 and sets every input.
func randomStimulus(s *sim.Simulator, r *rand.Rand, period uint64, cycles int) []event {
	d := s.Program()
	var data []*program.Signal
	var clk, clk2, rst *program.Signal
	for _, h := range d.Signals {
		if !s.IsTopInput(h) {
			continue
		}
		switch h.Name {
		case "clk":
			clk = h
		case "clk2":
			clk2 = h
		case "rst_n":
			rst = h
		default:
			data = append(data, h)
		}
	}
	byTime := map[uint64][]inputSet{}
	add := func(t uint64, h *program.Signal, ws []uint64) {
		if h != nil {
			byTime[t] = append(byTime[t], inputSet{h, ws})
		}
	}
	one := func(v uint64) []uint64 { return []uint64{v} }
	random := func(h *program.Signal) []uint64 {
		ws := make([]uint64, (h.Width+63)/64)
		for i := range ws {
			switch r.IntN(5) {
			case 0:
				ws[i] = 0
			case 1:
				ws[i] = ^uint64(0)
			default:
				ws[i] = r.Uint64()
			}
		}
		if rem := h.Width % 64; rem != 0 {
			ws[len(ws)-1] &= 1<<rem - 1
		}
		if h.Name == "divisor" {
			ws[0] = max(ws[0]&3, 2) // the UART needs >= 2; small to see traffic
		}
		return ws
	}
	add(0, clk, one(0))
	add(0, clk2, one(0))
	add(0, rst, one(1))
	for _, h := range data {
		add(0, h, random(h))
	}
	end := period * uint64(cycles)
	edge := func(t uint64) bool { return t%(period/2) == 0 || t%(period*3/4) == 0 }
	for c := 0; c < 2*cycles; c++ {
		add(uint64(c+1)*period/2, clk, one(uint64((c+1)%2)))
	}
	if clk2 != nil {
		for c, t := 0, period*3/4; t < end; c, t = c+1, t+period*3/4 {
			add(t, clk2, one(uint64((c+1)%2)))
		}
	}
	// Reset: asserted from 1.3 periods to 3.3, then pulsed now and then.
	add(period+period*3/10, rst, one(0))
	add(3*period+period*3/10, rst, one(1))
	for c := 8; c < cycles; c += 20 + r.IntN(40) {
		at := uint64(c)*period + period/10
		add(at, rst, one(0))
		add(at+period*2, rst, one(1))
	}
	for _, h := range data {
		for t := uint64(1); t < end; t += 1 + uint64(r.IntN(int(2*period))) {
			if !edge(t) {
				add(t, h, random(h))
			}
		}
	}
	times := make([]uint64, 0, len(byTime))
	for t := range byTime {
		times = append(times, t)
	}
	slices.Sort(times)
	evs := make([]event, 0, len(times))
	for _, t := range times {
		evs = append(evs, event{t, byTime[t]})
	}
	return evs
}

// Timescales coarser than the bench's picoseconds divide the times;
// samples in one unit share one #time. Finer ones multiply.
func TestTimescale(t *testing.T) {
	p := buildSrc(t, "top", hierSrc)
	a, _ := p.Sim.Lookup("a")
	for _, c := range []struct {
		unit  string
		times []uint64
		want  []uint64
	}{
		{"1ns", []uint64{0, 1500, 1800, 2000, 999999}, []uint64{0, 1, 2, 999}},
		{"10ps", []uint64{0, 15, 20}, []uint64{0, 1, 2}},
		{"1fs", []uint64{0, 3, 7}, []uint64{0, 3000, 7000}},
	} {
		var out bytes.Buffer
		w, err := vcd.New(&out, p.Sim, vcd.Options{Timescale: c.unit, Scopes: []string{""}, Depth: 1})
		if err != nil {
			t.Fatal(err)
		}
		for i, tm := range c.times {
			p.Sim.SetInput(a, uint64(i+1))
			p.Sim.Step()
			if err := w.Sample(tm); err != nil {
				t.Fatal(err)
			}
		}
		w.Close()
		f := mustParse(t, out.Bytes())
		if f.timescale != c.unit || !slices.Equal(f.times, c.want) {
			t.Errorf("%s: timescale %s, times %v; want %v", c.unit, f.timescale, f.times, c.want)
		}
		// The last value in a shared unit wins.
		if c.unit == "1ns" {
			if got := f.valueAt(f.vars["top.a"].id, 1); got != "00000011" {
				t.Errorf("1ns: top.a at #1 = %s, want the value of the sample at 1800 ps (3)", got)
			}
		}
	}
}

// Scopes and Depth select like $dumpvars: a scope's own signals at depth
// 1 (its generate scopes included), the instances below at more.
func TestSelection(t *testing.T) {
	p := buildSrc(t, "top", hierSrc)
	cases := []struct {
		opts vcd.Options
		has  []string
		not  []string
	}{
		{vcd.Options{Scopes: []string{""}, Depth: 1}, []string{"top.clk", "top.g[0].w", "top.acc.s"}, []string{"top.u0.q", "top.g[0].u.d"}},
		{vcd.Options{Scopes: []string{"top"}, Depth: 2}, []string{"top.clk", "top.u0.q", "top.g[1].u.clk"}, nil},
		{vcd.Options{Scopes: []string{"u0", "top.g[1].u"}}, []string{"top.u0.clk", "top.g[1].u.q"}, []string{"top.clk", "top.g[0].u.q", "top.g[1].w"}},
		{vcd.Options{Signals: []string{"wide_q", "top.u0.d", "mem"}}, []string{"top.wide_q", "top.u0.d", "top.mem[3]"}, []string{"top.a", "top.clk"}},
		{vcd.Options{Scopes: []string{"u0"}, Signals: []string{"cnt"}}, []string{"top.u0.d", "top.cnt"}, []string{"top.a"}},
	}
	for _, c := range cases {
		var out bytes.Buffer
		w, err := vcd.New(&out, p.Sim, c.opts)
		if err != nil {
			t.Fatalf("%+v: %v", c.opts, err)
		}
		w.Sample(0)
		w.Close()
		f := mustParse(t, out.Bytes())
		for _, n := range c.has {
			if f.vars[n] == nil {
				t.Errorf("%+v: %s not dumped; have %v", c.opts, n, f.names)
			}
		}
		for _, n := range c.not {
			if f.vars[n] != nil {
				t.Errorf("%+v: %s dumped", c.opts, n)
			}
		}
	}
}

// Misuse returns errors that say what is wrong.
func TestErrors(t *testing.T) {
	p := buildSrc(t, "top", hierSrc)
	for _, c := range []struct {
		opts vcd.Options
		want string
	}{
		{vcd.Options{Scopes: []string{"u1"}}, `vcd: scope to dump: dut: no instance "u1" in the design; did you mean "u0"?`},
		{vcd.Options{Signals: []string{"wide_qq"}}, `vcd: signal to dump: dut: no signal "wide_qq"`},
		{vcd.Options{Signals: []string{"mem[2]"}}, `vcd: signal to dump: "mem[2]" is an element or part of a signal; name the whole signal`},
		{vcd.Options{Depth: -1}, "vcd: Depth -1 is negative"},
		{vcd.Options{Timescale: "2ns"}, `vcd: Timescale: time literal "2ns": the magnitude must be 1, 10 or 100`},
	} {
		_, err := vcd.New(io.Discard, p.Sim, c.opts)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: error %v, want %q", c.opts, err, c.want)
		}
	}
	w, err := vcd.New(io.Discard, p.Sim, vcd.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Sample(10); err != nil {
		t.Fatal(err)
	}
	if err := w.Sample(9); err == nil || !strings.Contains(err.Error(), "comes before the previous one") {
		t.Errorf("a sample back in time: %v", err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Errorf("a second Close: %v", err)
	}
	if err := w.Sample(11); !errors.Is(err, vcd.ErrClosed) {
		t.Errorf("Sample after Close: %v, want ErrClosed", err)
	}
	// A write error is returned by Sample and stays.
	p2 := buildSrc(t, "top", hierSrc)
	w, err = vcd.New(failWriter{}, p2.Sim, vcd.Options{})
	if err != nil {
		t.Fatal(err)
	}
	w.Sample(0)
	if err := w.Close(); err == nil || !strings.Contains(err.Error(), "disk full") {
		t.Errorf("a failing writer: Close returned %v", err)
	}
	// A closed simulator.
	w, err = vcd.New(io.Discard, p2.Sim, vcd.Options{})
	if err != nil {
		t.Fatal(err)
	}
	p2.Close()
	if err := w.Sample(0); !errors.Is(err, sim.ErrClosed) {
		t.Errorf("Sample on a closed simulator: %v, want sim.ErrClosed", err)
	}
	if _, err := vcd.New(io.Discard, p2.Sim, vcd.Options{}); err == nil {
		t.Error("New on a closed simulator succeeded")
	}
}

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

// Create writes a file; Close flushes and closes it.
func TestCreate(t *testing.T) {
	p := buildSrc(t, "top", hierSrc)
	path := filepath.Join(t.TempDir(), "w.vcd")
	w, err := vcd.Create(path, p.Sim, vcd.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Sample(0); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	mustParse(t, b)
	if _, err := vcd.Create(filepath.Join(t.TempDir(), "no", "such", "dir.vcd"), p.Sim, vcd.Options{}); err == nil {
		t.Error("Create in a missing directory succeeded")
	}
	if _, err := vcd.Create(path, p.Sim, vcd.Options{Depth: -1}); err == nil {
		t.Error("Create with bad options succeeded")
	}
}
