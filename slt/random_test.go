package slt

import (
	"fmt"
	"math/big"
	"math/rand"
	"sort"
	"strings"
	"testing"

	"github.com/weft-hdl/weft/design"
)

// Random DAG designs. Every bit of every signal has a rank (signal index,
// then element, then bit); a piece of a signal may only read bits of lower
// rank than its own lowest bit, inputs included. The bit-level graph is
// then acyclic, while item-level false loops abound: a piece reads lower
// bits of its own signal, concatenation assignments write pieces of several
// signals, and always_comb blocks write many pieces. Analyze must find no
// loop and order every reader after every overlapping writer.

type rsig struct {
	name  string
	width int
	elems int // 0: scalar
}

type rpiece struct {
	sig, elem, lo, hi int
}

type rgen struct {
	r     *rand.Rand
	sigs  []rsig
	dyn   bool // allow dynamic array reads
	decls []string
}

func (g *rgen) rank(sig, elem, bit int) int { return sig*1<<20 + elem*64 + bit }

func (g *rgen) ref(p rpiece) string {
	s := g.sigs[p.sig]
	r := s.name
	if s.elems > 0 {
		r += fmt.Sprintf("[%d]", p.elem)
	}
	if p.lo == 0 && p.hi == s.width-1 {
		return r
	}
	return fmt.Sprintf("%s[%d:%d]", r, p.hi, p.lo)
}

// term returns w bits (a concatenation of slices) reading only bits of
// rank below limit.
func (g *rgen) term(w, limit int) string {
	var parts []string
	for w > 0 {
		n := 1 + g.r.Intn(w)
		parts = append(parts, g.slice(n, limit))
		w -= n
	}
	if len(parts) == 1 {
		return parts[0]
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

// slice returns an n-bit slice of some bits below limit (an input when
// nothing fits).
func (g *rgen) slice(n, limit int) string {
	for try := 0; try < 8; try++ {
		si := g.r.Intn(len(g.sigs))
		s := g.sigs[si]
		if s.width < n {
			continue
		}
		if s.elems > 0 && g.dyn && g.rank(si+1, 0, 0) <= limit && g.r.Intn(4) == 0 {
			lo := g.r.Intn(s.width - n + 1)
			return fmt.Sprintf("%s[x0[1:0]][%d:%d]", s.name, lo+n-1, lo)
		}
		elem := 0
		if s.elems > 0 {
			elem = g.r.Intn(s.elems)
		}
		lo := g.r.Intn(s.width - n + 1)
		if g.rank(si, elem, lo+n-1) < limit {
			return fmt.Sprintf("%s[%d:%d]", g.ref(rpiece{si, elem, 0, s.width - 1}), lo+n-1, lo)
		}
	}
	lo := g.r.Intn(16 - n + 1)
	return fmt.Sprintf("x%d[%d:%d]", g.r.Intn(2), lo+n-1, lo)
}

// expr returns an expression of exactly w bits reading below limit.
func (g *rgen) expr(w, limit int) string {
	switch g.r.Intn(6) {
	case 0:
		return g.term(w, limit) + " ^ " + g.term(w, limit)
	case 1:
		return "(" + g.term(w, limit) + " + " + g.term(w, limit) + ")"
	case 2:
		return "~" + g.term(w, limit)
	case 3:
		return "(" + g.slice(1, limit) + " ? " + g.term(w, limit) + " : " + g.term(w, limit) + ")"
	}
	return g.term(w, limit)
}

func (g *rgen) width(p rpiece) int { return p.hi - p.lo + 1 }

func (g *rgen) limit(p rpiece) int { return g.rank(p.sig, p.elem, p.lo) }

func genDAG(seed int64, nsig int) string {
	g := &rgen{r: rand.New(rand.NewSource(seed)), dyn: true}
	var decls []string
	for i := 0; i < nsig; i++ {
		s := rsig{name: fmt.Sprintf("s%d", i), width: 1 + g.r.Intn(12)}
		if g.r.Intn(5) == 0 {
			s.elems = 2 + g.r.Intn(3)
		}
		g.sigs = append(g.sigs, s)
		d := fmt.Sprintf("logic [%d:0] %s", s.width-1, s.name)
		if s.elems > 0 {
			d += fmt.Sprintf(" [0:%d]", s.elems-1)
		}
		decls = append(decls, d+";")
	}
	// Cut every signal (element) into pieces.
	var pieces []rpiece
	for si, s := range g.sigs {
		for e := 0; e < max(1, s.elems); e++ {
			for lo := 0; lo < s.width; {
				hi := lo + g.r.Intn(s.width-lo)
				pieces = append(pieces, rpiece{si, e, lo, hi})
				lo = hi + 1
			}
		}
	}
	g.r.Shuffle(len(pieces), func(i, j int) { pieces[i], pieces[j] = pieces[j], pieces[i] })
	var items []string
	for len(pieces) > 0 {
		switch k := g.r.Intn(10); {
		case k < 4 || len(pieces) < 3:
			p := pieces[0]
			pieces = pieces[1:]
			items = append(items, fmt.Sprintf("assign %s = %s;", g.ref(p), g.expr(g.width(p), g.limit(p))))
		case k < 6:
			// Concatenation: each part reads below its own rank, or
			// (arithmetic over the whole) below the lowest rank.
			n := 2 + g.r.Intn(2)
			ps := pieces[:n]
			pieces = pieces[n:]
			var lhs, rhs, rhs2 []string
			low := g.limit(ps[0])
			for _, p := range ps {
				low = min(low, g.limit(p))
			}
			arith := g.r.Intn(3) == 0
			for _, p := range ps {
				lim := g.limit(p)
				if arith {
					lim = low
				}
				lhs = append(lhs, g.ref(p))
				rhs = append(rhs, g.expr(g.width(p), lim))
				rhs2 = append(rhs2, g.term(g.width(p), lim))
			}
			r := "{" + strings.Join(rhs, ", ") + "}"
			switch {
			case arith:
				r += " + {" + strings.Join(rhs2, ", ") + "}"
			case g.r.Intn(2) == 0:
				r += " ^ {" + strings.Join(rhs2, ", ") + "}"
			}
			items = append(items, fmt.Sprintf("assign {%s} = %s;", strings.Join(lhs, ", "), r))
		default:
			n := 2 + g.r.Intn(4)
			if n > len(pieces) {
				n = len(pieces)
			}
			ps := append([]rpiece(nil), pieces[:n]...)
			pieces = pieces[n:]
			// Statements in rank order: a statement reading bits a later
			// statement of the block writes is a real self-dependency of
			// the process (it sees the previous activation's value).
			sort.Slice(ps, func(i, j int) bool { return g.limit(ps[i]) < g.limit(ps[j]) })
			var b strings.Builder
			b.WriteString("always_comb begin\n")
			for i, p := range ps {
				w := g.width(p)
				switch g.r.Intn(4) {
				case 0:
					fmt.Fprintf(&b, "    if (%s) %s = %s; else %s = %s;\n", g.slice(1, g.limit(p)), g.ref(p), g.expr(w, g.limit(p)), g.ref(p), g.expr(w, g.limit(p)))
				case 1:
					fmt.Fprintf(&b, "    begin logic [%d:0] t%d; t%d = %s; %s = t%d ^ %s; end\n", w-1, i, i, g.expr(w, g.limit(p)), g.ref(p), i, g.term(w, g.limit(p)))
				default:
					fmt.Fprintf(&b, "    %s = %s;\n", g.ref(p), g.expr(w, g.limit(p)))
				}
			}
			b.WriteString("  end")
			items = append(items, b.String())
		}
	}
	g.r.Shuffle(len(items), func(i, j int) { items[i], items[j] = items[j], items[i] })
	return "module t(input logic [15:0] x0, x1);\n  " + strings.Join(decls, "\n  ") + "\n  " + strings.Join(items, "\n  ") + "\nendmodule\n"
}

// machine returns a reference interpreter over d's initial state with
// random inputs.
func machine(d *design.Design, r *rand.Rand) *design.Machine {
	m := design.NewMachine()
	m.MaxSteps = 1 << 30
	m.Missing = func(h *design.Home) ([]*big.Int, error) {
		v := make([]*big.Int, h.Elems())
		for i := range v {
			v[i] = h.Init.Elem(i)
		}
		return v, nil
	}
	for _, h := range d.Homes {
		if h.Kind == design.KindInput {
			m.Set(h, 0, new(big.Int).Rand(r, new(big.Int).Lsh(big.NewInt(1), uint(h.Width))))
		}
	}
	return m
}

// settleRef runs every comb process in design order until nothing
// changes (what any correct schedule must reach when it is unique).
func settleRef(t *testing.T, d *design.Design, m *design.Machine) {
	t.Helper()
	for round := 0; round < 1000; round++ {
		before := snapshot(t, d, m)
		for _, p := range d.Comb {
			if err := m.Run(p.Body); err != nil {
				t.Fatalf("%s: %v", p.Name, err)
			}
		}
		if snapshot(t, d, m) == before {
			return
		}
	}
	t.Fatalf("reference settle did not converge")
}

// settle runs the schedule: every node once, loops until they settle.
func settle(t *testing.T, s *Schedule, m *design.Machine) error {
	t.Helper()
	for _, n := range s.Nodes {
		limit := 1
		if n.Loop != nil {
			limit = n.Loop.MaxIter
		}
		settled := false
		for i := 0; i < limit; i++ {
			before := snapshot(t, s.Design, m)
			for _, it := range n.Items {
				if err := m.Run(it.Body); err != nil {
					t.Fatalf("%s: %v", it.Name, err)
				}
			}
			if n.Loop == nil || snapshot(t, s.Design, m) == before {
				settled = true
				break
			}
		}
		if !settled {
			return n.Loop.Error(limit)
		}
	}
	return nil
}

func snapshot(t *testing.T, d *design.Design, m *design.Machine) string {
	var b strings.Builder
	for _, h := range d.Homes {
		if h.Kind == design.KindBlockLocal {
			continue
		}
		for e := 0; e < h.Elems(); e++ {
			v, err := m.Get(h, e)
			if err != nil {
				t.Fatal(err)
			}
			fmt.Fprintf(&b, "%s@%d=%s ", h.Path, e, v.Text(16))
		}
	}
	return b.String()
}

func TestRandomDAGs(t *testing.T) {
	n := 60
	if testing.Short() {
		n = 15
	}
	for seed := int64(1); seed <= int64(n); seed++ {
		src := genDAG(seed, 4+int(seed)%20)
		s := analyzeSV(t, src, Options{})
		if len(s.Loops) != 0 {
			t.Fatalf("seed %d: loops in a DAG design\n%s\n%s", seed, src, s.Dump())
		}
		// Every reader after every overlapping writer.
		for _, w := range s.Items {
			for _, r := range s.Items {
				if w == r {
					continue
				}
				for _, a := range w.Writes {
					if overlapsAny(a, r.Reads) && s.NodeOf(w.ID) >= s.NodeOf(r.ID) {
						t.Fatalf("seed %d: %s writes %s but its reader %s is not after it\n%s", seed, w.Name, a, r.Name, s.Dump())
					}
				}
			}
		}
		// Deterministic: again on the same design and on a fresh one.
		dump := s.Dump()
		if s2, _ := Analyze(s.Design, Options{}); s2.Dump() != dump {
			t.Fatalf("seed %d: second analysis differs", seed)
		}
		if s3 := analyzeSV(t, src, Options{}); s3.Dump() != dump {
			t.Fatalf("seed %d: analysis of a fresh elaboration differs", seed)
		}
		// Same values as the processes iterated to a fixpoint.
		r := rand.New(rand.NewSource(seed))
		for k := 0; k < 3; k++ {
			seedIn := r.Int63()
			ref := machine(s.Design, rand.New(rand.NewSource(seedIn)))
			settleRef(t, s.Design, ref)
			got := machine(s.Design, rand.New(rand.NewSource(seedIn)))
			if err := settle(t, s, got); err != nil {
				t.Fatalf("seed %d: %v", seed, err)
			}
			if a, b := snapshot(t, s.Design, ref), snapshot(t, s.Design, got); a != b {
				t.Fatalf("seed %d: values differ\nref: %s\ngot: %s\n%s\n%s", seed, a, b, src, s.Dump())
			}
		}
	}
}

// Random cyclic designs: whole-signal assignments reading any signals.
// The nodes must be exactly the strongly connected components (checked by
// brute-force reachability) and ordered topologically.
func TestRandomCyclic(t *testing.T) {
	for seed := int64(1); seed <= 40; seed++ {
		r := rand.New(rand.NewSource(seed))
		n := 5 + r.Intn(40)
		var b strings.Builder
		b.WriteString("module t(input logic [3:0] x);\n")
		for i := 0; i < n; i++ {
			fmt.Fprintf(&b, "  logic [3:0] s%d;\n", i)
		}
		for i := 0; i < n; i++ {
			var ops []string
			for k := r.Intn(3); k >= 0; k-- {
				if r.Intn(6) == 0 {
					ops = append(ops, "x")
				} else {
					ops = append(ops, fmt.Sprintf("s%d", r.Intn(n)))
				}
			}
			fmt.Fprintf(&b, "  assign s%d = %s;\n", i, strings.Join(ops, " & "))
		}
		b.WriteString("endmodule\n")
		s := analyzeSV(t, b.String(), Options{})
		reach := make([][]bool, n)
		for i := range reach {
			reach[i] = make([]bool, n)
			stack := []int{i}
			for len(stack) > 0 {
				v := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				for _, w := range s.Graph.Succ(v) {
					if !reach[i][w] {
						reach[i][w] = true
						stack = append(stack, int(w))
					}
				}
			}
		}
		for i := 0; i < n; i++ {
			for j := 0; j < n; j++ {
				same := s.NodeOf(i) == s.NodeOf(j)
				want := i == j || (reach[i][j] && reach[j][i])
				if same != want {
					t.Fatalf("seed %d: items %d, %d in one node %v, mutually reachable %v\n%s", seed, i, j, same, want, s.Dump())
				}
			}
		}
	}
}

// Loops that settle reach the same values as the reference.
func TestLoopSettles(t *testing.T) {
	s := analyzeSV(t, `module t(input logic [3:0] x, y, output logic [3:0] o);
  logic [3:0] a, b;
  assign a = b | x;
  assign b = a & y;
  assign o = a ^ b;
endmodule`, Options{})
	if len(s.Loops) != 1 {
		t.Fatalf("want a loop:\n%s", s.Dump())
	}
	for seed := int64(0); seed < 10; seed++ {
		ref := machine(s.Design, rand.New(rand.NewSource(seed)))
		settleRef(t, s.Design, ref)
		got := machine(s.Design, rand.New(rand.NewSource(seed)))
		if err := settle(t, s, got); err != nil {
			t.Fatal(err)
		}
		if a, b := snapshot(t, s.Design, ref), snapshot(t, s.Design, got); a != b {
			t.Fatalf("values differ\n%s\n%s", a, b)
		}
	}
	// A ring oscillator never settles: the error names its signals.
	s = analyzeSV(t, `module t(input logic x); logic a, b; assign a = ~b; assign b = a; endmodule`, Options{LoopLimit: 5})
	err := settle(t, s, machine(s.Design, rand.New(rand.NewSource(1))))
	if err == nil || err.Error() != "comb loop did not settle after 5 iterations: t.a, t.b" {
		t.Fatalf("error %v", err)
	}
}
