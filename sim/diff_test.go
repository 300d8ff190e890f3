package sim_test

import (
	"bytes"
	"fmt"
	"math/big"
	"math/rand"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/weft-hdl/weft/compile"
	"github.com/weft-hdl/weft/design"
	"github.com/weft-hdl/weft/internal/icarus"
	"github.com/weft-hdl/weft/kernels"
	"github.com/weft-hdl/weft/program"
	"github.com/weft-hdl/weft/sim"
)

// ref is an independent reference simulator over design.Machine (the
// interpreter elaboration uses for constant evaluation), stepped with the
// same semantics: settle (slt's order, loops to a fixpoint), detect edges,
// evaluate every fired process on a copy of the pre-edge state, apply what
// each copy changed, settle, repeat while triggers change.
type ref struct {
	t    testing.TB
	p    *kernels.Program
	m    *design.Machine
	prev []byte
}

func newMachine() *design.Machine {
	m := design.NewMachine()
	m.MaxSteps = 1 << 40
	return m
}

func newRef(t testing.TB, p *kernels.Program) *ref {
	r := &ref{t: t, p: p, m: newMachine()}
	for _, h := range p.Design.Homes {
		for e := 0; e < h.Elems(); e++ {
			r.m.Set(h, e, h.Init.Elem(e))
		}
	}
	for _, ip := range p.Design.Initial {
		if err := r.m.Run(ip.Body); err != nil {
			t.Fatalf("ref initial: %v", err)
		}
	}
	r.settle()
	r.prev = make([]byte, len(p.Schedule.Triggers))
	for i, tr := range p.Schedule.Triggers {
		r.prev[i] = byte(r.get(tr.Home, tr.Elem).Bit(tr.Bit))
	}
	return r
}

func (r *ref) get(h *design.Home, e int) *big.Int {
	v, err := r.m.Get(h, e)
	if err != nil {
		r.t.Fatalf("ref get %s: %v", h.Path, err)
	}
	return v
}

func (r *ref) settle() {
	for _, n := range r.p.Schedule.Nodes {
		for pass := 0; ; pass++ {
			if n.Loop != nil && pass == n.Loop.MaxIter {
				r.t.Fatalf("ref: loop did not settle")
			}
			var before []*big.Int
			if n.Loop != nil {
				for _, h := range n.Loop.Homes {
					for e := 0; e < h.Elems(); e++ {
						before = append(before, r.get(h, e))
					}
				}
			}
			for _, it := range n.Items {
				if err := r.m.Run(it.Body); err != nil {
					r.t.Fatalf("ref settle: %v", err)
				}
			}
			if n.Loop == nil {
				break
			}
			same, i := true, 0
			for _, h := range n.Loop.Homes {
				for e := 0; e < h.Elems(); e++ {
					same = same && r.get(h, e).Cmp(before[i]) == 0
					i++
				}
			}
			if same {
				break
			}
		}
	}
}

func (r *ref) step() {
	r.settle()
	for round := 0; round < 100; round++ {
		fired := map[int]bool{}
		for _, ev := range r.p.Layout.Space().Events {
			tr := ev.Trigger
			cur := byte(r.get(tr.Home, tr.Elem).Bit(tr.Bit))
			if cur != r.prev[ev.TriggerIndex] && (ev.Edge == design.AnyEdge || (ev.Edge == design.Posedge) == (cur == 1)) {
				for _, g := range ev.Groups {
					fired[g] = true
				}
			}
		}
		for i, tr := range r.p.Schedule.Triggers {
			r.prev[i] = byte(r.get(tr.Home, tr.Elem).Bit(tr.Bit))
		}
		if len(fired) == 0 {
			return
		}
		type change struct {
			h    *design.Home
			e    int
			flip *big.Int
		}
		var changes []change
		for gi, g := range r.p.Design.Groups {
			if !fired[gi] {
				continue
			}
			for _, proc := range g.Procs {
				c := newMachine()
				for _, h := range r.p.Design.Homes {
					for e := 0; e < h.Elems(); e++ {
						c.Set(h, e, r.get(h, e))
					}
				}
				if err := c.Run(proc.Body); err != nil {
					r.t.Fatalf("ref evaluate %s: %v", proc.Name, err)
				}
				for _, h := range r.p.Design.Homes {
					for e := 0; e < h.Elems(); e++ {
						nv, _ := c.Get(h, e)
						if old := r.get(h, e); nv.Cmp(old) != 0 {
							changes = append(changes, change{h, e, new(big.Int).Xor(nv, old)})
						}
					}
				}
			}
		}
		for _, ch := range changes {
			r.m.Set(ch.h, ch.e, new(big.Int).Xor(r.get(ch.h, ch.e), ch.flip))
		}
		r.settle()
	}
	r.t.Fatalf("ref: trigger bits keep changing")
}

// set writes signal h of the simulated program (the same ID in the
// reference's design).
func (r *ref) set(h *program.Signal, v uint64) {
	r.m.Set(r.p.Design.Homes[h.ID], 0, new(big.Int).SetUint64(v))
}

// compare checks every element of every home.
func compare(t testing.TB, s *sim.Simulator, r *ref, when string) {
	t.Helper()
	bad := 0
	for id, h := range s.Program().Signals {
		for e := 0; e < h.Elems(); e++ {
			got, err := s.GetBig(h, e)
			if err != nil {
				t.Fatal(err)
			}
			if want := r.get(r.p.Design.Homes[id], e); got.Cmp(want) != 0 {
				if bad < 8 {
					t.Errorf("%s: %s[%d] = %#x, reference %#x", when, h.Path, e, got, want)
				}
				bad++
			}
		}
	}
	if bad > 0 {
		t.FailNow()
	}
}

// mixedSrc exercises comb functions, signed shifts, division by zero, a
// memory with dynamic indexes, an async reset, a derived clock and a
// negedge flop. It is plain enough for Icarus Verilog.
const mixedSrc = `
module t(input logic clk, input logic rst_n, input logic [7:0] a, input logic [7:0] b,
         input logic [2:0] op, input logic we, input logic [3:0] addr,
         output logic [15:0] acc, output logic [7:0] y, output logic [7:0] rd,
         output logic [7:0] slow, output logic [7:0] neg, output logic div);
  logic [7:0] mem [0:15];
  function automatic logic [7:0] f(input logic [7:0] x, input logic [7:0] k, input logic [2:0] sel);
    case (sel)
      3'd0: f = x + k;
      3'd1: f = x - k;
      3'd2: f = x & k;
      3'd3: f = x | k;
      3'd4: f = x ^ k;
      3'd5: f = x << k[2:0];
      3'd6: f = $signed(x) >>> k[2:0];
      default: f = x / k;
    endcase
  endfunction
  initial begin
    for (int i = 0; i < 16; i++) mem[i] = 8'd0;
    slow = 8'd0;
    neg = 8'd0;
  end
  assign y = f(a, b, op);
  always_ff @(posedge clk or negedge rst_n)
    if (!rst_n) acc <= 16'd0;
    else acc <= acc + {{8{a[7]}}, a};
  always_ff @(posedge clk) if (we) mem[addr] <= y;
  assign rd = mem[addr];
  always_ff @(posedge clk or negedge rst_n)
    if (!rst_n) div <= 1'b0;
    else div <= ~div;
  always_ff @(posedge div) slow <= slow + rd;
  always_ff @(negedge clk) neg <= y ^ rd;
endmodule`

// stim is one cycle of stimulus: input name → value.
type stim map[string]uint64

func randomStimulus(rng *rand.Rand, s *sim.Simulator, clk, rst string, cycles int) []stim {
	var ins []*program.Signal
	for _, h := range s.Program().Signals {
		if s.IsTopInput(h) && h.Path != s.Program().Top.Path+"."+clk {
			ins = append(ins, h)
		}
	}
	var out []stim
	for c := 0; c < cycles; c++ {
		st := stim{}
		for _, h := range ins {
			v := rng.Uint64()
			if h.Width < 64 {
				v &= 1<<h.Width - 1
			}
			st[h.Name] = v
		}
		if rst != "" {
			st[rst] = 1
			if c < 2 || rng.Intn(40) == 0 {
				st[rst] = 0
			}
		}
		out = append(out, st)
	}
	return out
}

// TestDifferentialMachine runs random stimulus through the simulator
// (fused and unfused paths) and the reference, comparing every home after
// every step.
func TestDifferentialMachine(t *testing.T) {
	cases := []struct {
		name  string
		build func() *compile.Builder
		rst   string
	}{
		{"mixed", func() *compile.Builder { return compile.NewBuilder().Source("t.sv", mixedSrc) }, "rst_n"},
		{"uart", func() *compile.Builder {
			r := "../examples/uart/rtl/"
			return compile.NewBuilder().Files(r+"uart_pkg.sv", r+"uart_fifo.sv", r+"uart_tx.sv", r+"uart_rx.sv", r+"uart_top.sv").
				Param("FIFO_DEPTH", "4").Param("DIV_W", "4")
		}, "rst_n"},
	}
	for _, tc := range cases {
		for _, noFused := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/nofused=%v", tc.name, noFused), func(t *testing.T) {
				p, err := tc.build().Output(&bytes.Buffer{}).SimOptions(sim.Options{NoFused: noFused}).NoCache().Build()
				if err != nil {
					t.Fatal(err)
				}
				defer p.Close()
				s := p.Sim
				r := newRef(t, p.Kernels)
				compare(t, s, r, "time zero")
				cycles := 150
				if testing.Short() {
					cycles = 40
				}
				clk, _ := s.Lookup("clk")
				for c, st := range randomStimulus(rand.New(rand.NewSource(1)), s, "clk", tc.rst, cycles) {
					for name, v := range st {
						h, _ := s.Lookup(name)
						if name == "divisor" {
							v = max(v, 2)
						}
						if err := s.SetInput(h, v); err != nil {
							t.Fatal(err)
						}
						r.set(h, v)
					}
					for phase, cv := range []uint64{2, 1, 0} {
						if cv != 2 {
							s.SetInput(clk, cv)
							r.set(clk, cv)
						}
						if err := s.Step(); err != nil {
							t.Fatal(err)
						}
						r.step()
						compare(t, s, r, fmt.Sprintf("cycle %d phase %d", c, phase))
					}
				}
			})
		}
	}
}

// TestDifferentialIcarus runs the same stimulus through Icarus Verilog and
// compares the outputs every cycle.
func TestDifferentialIcarus(t *testing.T) {
	if err := icarus.Available(); err != nil {
		t.Skipf("%v: Icarus differential skipped", err)
	}
	r := "../examples/uart/rtl/"
	uartFiles := []string{r + "uart_pkg.sv", r + "uart_fifo.sv", r + "uart_tx.sv", r + "uart_rx.sv", r + "uart_top.sv"}
	cases := []struct {
		name   string
		files  []string
		src    string
		top    string
		params map[string]string
	}{
		{name: "mixed", src: mixedSrc, top: "t"},
		{name: "uart", files: uartFiles, top: "uart_top", params: map[string]string{"FIFO_DEPTH": "4", "DIV_W": "4"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			files := tc.files
			if tc.src != "" {
				f := filepath.Join(dir, "t.sv")
				os.WriteFile(f, []byte(tc.src), 0o644)
				files = []string{f}
			}
			b := compile.NewBuilder().Files(files...).Top(tc.top).Output(&bytes.Buffer{})
			for k, v := range tc.params {
				b.Param(k, v)
			}
			p, err := b.Build()
			if err != nil {
				t.Fatal(err)
			}
			defer p.Close()
			s := p.Sim
			top := p.Program.Top
			var outs []*program.Signal
			for _, h := range p.Program.Signals {
				if h.Scope() == top && h.Kind == program.KindOutput {
					outs = append(outs, h)
				}
			}
			cycles := 300
			stims := randomStimulus(rand.New(rand.NewSource(7)), s, "clk", "rst_n", cycles)
			// test bench: inputs, #1 clk=1, #1 print outputs, clk=0, #1
			var tb strings.Builder
			fmt.Fprintf(&tb, "module tb;\n  logic clk = 0;\n")
			var ins []*program.Signal
			for _, h := range p.Program.Signals {
				if s.IsTopInput(h) && h.Name != "clk" {
					ins = append(ins, h)
					fmt.Fprintf(&tb, "  logic [%d:0] %s = 0;\n", h.Width-1, h.Name)
				}
			}
			for _, h := range outs {
				fmt.Fprintf(&tb, "  wire [%d:0] %s;\n", h.Width-1, h.Name)
			}
			fmt.Fprintf(&tb, "  %s", tc.top)
			if len(tc.params) > 0 {
				var ps []string
				for k, v := range tc.params {
					ps = append(ps, fmt.Sprintf(".%s(%s)", k, v))
				}
				fmt.Fprintf(&tb, " #(%s)", strings.Join(ps, ", "))
			}
			fmt.Fprintf(&tb, " dut(.clk(clk)")
			for _, h := range append(append([]*program.Signal{}, ins...), outs...) {
				fmt.Fprintf(&tb, ", .%s(%s)", h.Name, h.Name)
			}
			fmt.Fprintf(&tb, ");\n  initial begin\n")
			var fmts, args []string
			for _, h := range outs {
				fmts = append(fmts, "%h")
				args = append(args, h.Name)
			}
			clk, _ := s.Lookup("clk")
			var want []string
			for _, st := range stims {
				for _, h := range ins {
					v := st[h.Name]
					if h.Name == "divisor" {
						v = max(v, 2)
						st[h.Name] = v
					}
					fmt.Fprintf(&tb, "    %s = %d'h%x;\n", h.Name, h.Width, v)
					if err := s.SetInput(h, v); err != nil {
						t.Fatal(err)
					}
				}
				if err := s.Step(); err != nil {
					t.Fatal(err)
				}
				fmt.Fprintf(&tb, "    #1 clk = 1;\n    #1 $display(\"%s\", %s);\n    clk = 0;\n    #1;\n", strings.Join(fmts, " "), strings.Join(args, ", "))
				s.SetInput(clk, 1)
				if err := s.Step(); err != nil {
					t.Fatal(err)
				}
				var line []string
				for _, h := range outs {
					v, _ := s.GetBig(h, 0)
					txt := v.Text(16)
					if n := (h.Width + 3) / 4; len(txt) < n {
						txt = strings.Repeat("0", n-len(txt)) + txt
					}
					line = append(line, txt)
				}
				want = append(want, strings.Join(line, " "))
				s.SetInput(clk, 0)
				if err := s.Step(); err != nil {
					t.Fatal(err)
				}
			}
			fmt.Fprintf(&tb, "    $finish;\n  end\nendmodule\n")
			tbf := filepath.Join(dir, "tb.sv")
			os.WriteFile(tbf, []byte(tb.String()), 0o644)
			vvp, err := icarus.Compile(dir, "tb", append(slices.Clone(files), tbf)...)
			if err != nil {
				t.Skipf("iverilog cannot compile %s (skipped): %v", tc.name, err)
			}
			out, err := icarus.Run(vvp, "")
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, l := range strings.Split(string(out), "\n") {
				if l != "" && !strings.Contains(l, "$finish") && !strings.HasPrefix(l, "VCD") {
					got = append(got, l)
				}
			}
			var names []string
			for _, h := range outs {
				names = append(names, h.Name)
			}
			if len(got) != len(want) {
				t.Fatalf("icarus printed %d lines, want %d:\n%s", len(got), len(want), out)
			}
			for i := range want {
				if !matchX(got[i], want[i]) {
					t.Fatalf("cycle %d (%s):\n  icarus %s\n  weft   %s", i, strings.Join(names, " "), got[i], want[i])
				}
			}
		})
	}
}

// matchX compares an Icarus line with weft's: x and z digits (4-state
// unknowns weft does not model) match anything.
func matchX(icarus, weft string) bool {
	if len(icarus) != len(weft) {
		return false
	}
	for i := 0; i < len(icarus); i++ {
		c := icarus[i]
		if c != weft[i] && c != 'x' && c != 'z' && c != 'X' && c != 'Z' {
			return false
		}
	}
	return true
}
