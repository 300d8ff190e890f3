// Package randdesign generates random synthesizable SystemVerilog designs
// for differential tests (partitioned against sequential kernels, one
// backend against another).
//
// A design is a top module over a hierarchy of parameterized child
// modules (nested up to Options.Depth levels, some instantiated several
// times, some through a generate-for). Every design has two independent
// clocks (clk, clk2) and an active-low asynchronous reset (rst_n) as top
// inputs, plus data inputs. The modules contain continuous assignments
// and always_comb blocks (if, case, for loops with constant bounds,
// function calls, part-selects, concatenations, casts), vectors whose bit
// slices are written by different blocks, unpacked arrays whose elements
// are written by different blocks or generate iterations, flops in
// always_ff blocks on either clock with or without the asynchronous
// reset, $display calls with formatted values from always_ff blocks, and
// sometimes wide values (65 bits and more).
//
// Designs are correct by construction: every bit has one driver, the comb
// logic is acyclic (a comb signal reads only inputs, flops and comb
// signals created before it; instance outputs are new wires), every
// always_comb assigns its targets on every path, and nothing uses x/z,
// reals, strings or $finish. The same seed and options give the same
// design.
package randdesign

import (
	"fmt"
	"math/bits"
	"math/rand/v2"
	"strings"
)

// Options are the size knobs; zero fields take the defaults.
type Options struct {
	// Modules is the number of distinct modules below the top (default 3).
	Modules int
	// Depth is the number of hierarchy levels including the top (default
	// 3, at most 4); 1 makes a flat top module.
	Depth int
	// MaxWidth caps vector widths (default 130); widths over 64 bits
	// appear only when it is above 64.
	MaxWidth int
	// Signals is about how many comb constructs each module has (default 5).
	Signals int
	// Flops is about how many flop constructs each module has (default 3).
	Flops int
	// Inputs is the number of top-level data inputs (default 4).
	Inputs int
	// Defined keeps every value defined in a 4-state simulator too: a
	// divisor is ORed with 1, so no division or modulo by zero yields x.
	// Designs for comparisons with Icarus Verilog set it; weft defines
	// x/0 as 0 and would part ways with it from that value on.
	Defined bool
	// NoDisplay leaves out the $display calls (a clock whose logic
	// prints runs edge by edge, never on free-running lanes).
	NoDisplay bool
}

func (o Options) withDefaults() Options {
	if o.Modules <= 0 {
		o.Modules = 3
	}
	if o.Depth <= 0 {
		o.Depth = 3
	}
	if o.Depth > 4 {
		o.Depth = 4
	}
	if o.MaxWidth <= 0 {
		o.MaxWidth = 130
	}
	if o.MaxWidth < 8 {
		o.MaxWidth = 8
	}
	if o.Signals <= 0 {
		o.Signals = 5
	}
	if o.Flops <= 0 {
		o.Flops = 3
	}
	if o.Inputs <= 0 {
		o.Inputs = 4
	}
	return o
}

// Input is a top-level data input.
type Input struct {
	Name  string
	Width int
}

// Design is one generated design.
type Design struct {
	Source string
	Top    string
	// Clocks are the top-level clock inputs (1 bit, independent).
	Clocks []string
	// Resets are the top-level active-low asynchronous resets (1 bit).
	Resets []string
	// Inputs are the other top-level inputs.
	Inputs []Input
}

// Generate returns the design for seed.
func Generate(seed uint64, opts Options) Design {
	o := opts.withDefaults()
	g := &gen{r: rand.New(rand.NewPCG(seed, 0x72616e6464657369)), o: o}
	return g.design(seed)
}

type gen struct {
	r    *rand.Rand
	o    Options
	mods []*module
}

type port struct {
	name  string
	width int
}

type module struct {
	name  string
	level int // 1: leaves; the top has Options.Depth
	ins   []port
	outs  []port
	src   string
	used  bool
	// weight counts the module's instances in a flattened design: itself
	// and its children's weights.
	weight int
}

func (g *gen) intn(n int) int { return g.r.IntN(n) }

// chance is true with probability p percent.
func (g *gen) chance(p int) bool { return g.r.IntN(100) < p }

// width picks a vector width: mostly narrow, sometimes wide.
func (g *gen) width() int {
	w := 0
	switch x := g.intn(40); {
	case x < 3:
		w = 1
	case x < 20:
		w = []int{2, 3, 4, 5, 8, 8, 8, 12, 16, 16}[g.intn(10)]
	case x < 32:
		w = 17 + g.intn(16)
	case x < 37:
		w = 33 + g.intn(32)
	default:
		if g.o.MaxWidth > 64 {
			w = 65 + g.intn(g.o.MaxWidth-64)
		} else {
			w = 33 + g.intn(32)
		}
	}
	return min(w, g.o.MaxWidth)
}

// narrow picks a width of at most 32 bits.
func (g *gen) narrow() int {
	return min([]int{1, 2, 4, 6, 8, 8, 10, 16, 24, 32}[g.intn(10)], g.o.MaxWidth)
}

// constant returns a random sized literal of width w.
func (g *gen) constant(w int) string {
	var sb strings.Builder
	for lo := ((w - 1) / 64) * 64; lo >= 0; lo -= 64 {
		v := g.r.Uint64()
		switch g.intn(4) {
		case 0:
			v &= 0xff
		case 1:
			v = ^v
		}
		n := min(64, w-lo)
		if n < 64 {
			v &= 1<<n - 1
		}
		if sb.Len() == 0 {
			fmt.Fprintf(&sb, "%x", v)
		} else {
			fmt.Fprintf(&sb, "%016x", v)
		}
	}
	return fmt.Sprintf("%d'h%s", w, sb.String())
}

func (g *gen) design(seed uint64) Design {
	o := g.o
	d := Design{Top: "rtop", Clocks: []string{"clk", "clk2"}, Resets: []string{"rst_n"}}

	// The modules below the top, one level at least for each level.
	nmods := o.Modules
	if o.Depth == 1 {
		nmods = 0
	}
	for i := 0; i < nmods; i++ {
		level := 1
		if o.Depth > 2 {
			if i < o.Depth-1 {
				level = 1 + i
			} else {
				level = 1 + g.intn(o.Depth-1)
			}
		}
		m := &module{level: level}
		for j, n := 0, 1+g.intn(3); j < n; j++ {
			m.ins = append(m.ins, port{fmt.Sprintf("a%d", j), g.width()})
		}
		for j, n := 0, 1+g.intn(3); j < n; j++ {
			m.outs = append(m.outs, port{fmt.Sprintf("y%d", j), g.width()})
		}
		g.mods = append(g.mods, m)
	}
	// Bottom-up order, so children are generated (and emitted) first.
	for l, k := 1, 0; l < o.Depth; l++ {
		for _, m := range g.mods {
			if m.level == l {
				m.name = fmt.Sprintf("m%d_%d", l, k)
				k++
			}
		}
	}
	top := &module{name: d.Top, level: o.Depth}
	for j := 0; j < o.Inputs; j++ {
		w := g.width()
		top.ins = append(top.ins, port{fmt.Sprintf("in%d", j), w})
		d.Inputs = append(d.Inputs, Input{Name: fmt.Sprintf("in%d", j), Width: w})
	}
	for j, n := 0, 1+g.intn(2); j < n; j++ {
		top.outs = append(top.outs, port{fmt.Sprintf("out%d", j), g.width()})
	}

	var src strings.Builder
	fmt.Fprintf(&src, "// randdesign seed=%d modules=%d depth=%d maxwidth=%d\n", seed, o.Modules, o.Depth, o.MaxWidth)
	for l := 1; l < o.Depth; l++ {
		for _, m := range g.mods {
			if m.level == l {
				g.body(m, m.level > 1)
				src.WriteString("\n")
				src.WriteString(m.src)
			}
		}
	}
	g.body(top, nmods > 0)
	src.WriteString("\n")
	src.WriteString(top.src)
	d.Source = src.String()
	return d
}

// sig is a readable signal of a module body.
type sig struct {
	name  string
	width int
	elems int // unpacked elements (a power of two), 0 for a vector
	chain int // the chain it continues (signals of one chain feed each other)
}

type fn struct {
	name  string
	width int
	args  []int
}

// flop is a flop target: an lvalue written by one always_ff block.
type flop struct {
	lv    string
	width int
	self  string // what the block reads for its own old value
}

type body struct {
	g       *gen
	m       *module
	lines   []string
	ind     int
	pool    []sig
	fns     []fn
	n       int // name counter
	chain   int // current chain
	nchains int
	loop    string // the generate/for variable in scope, if any
}

// maxWeight caps the flattened instance count of one module (the top
// included), so that nested instance arrays do not multiply.
func (g *gen) maxWeight(level int) int {
	if level == g.o.Depth {
		return 14
	}
	return 6
}

func (b *body) line(format string, args ...any) {
	b.lines = append(b.lines, strings.Repeat("  ", b.ind)+fmt.Sprintf(format, args...))
}

// endFlop closes an always_ff block (and its reset's else branch), after
// a $display with the given percent chance.
func (b *body) endFlop(reset bool, displayChance int) {
	if !b.g.o.NoDisplay && b.g.chance(displayChance) {
		b.display()
	}
	if reset {
		b.ind--
		b.line("end")
	}
	b.ind--
	b.line("end")
}

// array declares a fresh unpacked array of n elements of w bits.
func (b *body) array(prefix string, w, n int) sig {
	s := sig{name: b.fresh(prefix), width: w, elems: n}
	b.line("logic %s%s [0:%d];", decl(w), s.name, n-1)
	b.add(s)
	return s
}

func (b *body) fresh(prefix string) string {
	b.n++
	return fmt.Sprintf("%s%d", prefix, b.n)
}

func (b *body) add(s sig) {
	s.chain = b.chain
	b.pool = append(b.pool, s)
}

// pick chooses a readable signal: often the newest of the current chain
// (so chains get deep), otherwise any.
func (b *body) pick() sig {
	g := b.g
	if g.chance(55) {
		for i := len(b.pool) - 1; i >= 0 && i >= len(b.pool)-12; i-- {
			if b.pool[i].chain == b.chain && g.chance(70) {
				return b.pool[i]
			}
		}
	}
	return b.pool[g.intn(len(b.pool))]
}

// pickVec chooses a readable vector (not an array) of at least minw bits,
// or returns false.
func (b *body) pickVec(minw int) (sig, bool) {
	for range 8 {
		s := b.pick()
		if s.elems == 0 && s.width >= minw {
			return s, true
		}
	}
	for _, s := range b.pool {
		if s.elems == 0 && s.width >= minw {
			return s, true
		}
	}
	return sig{}, false
}

// elem reads one element of array s.
func (b *body) elem(s sig) string {
	g := b.g
	if g.chance(50) {
		if b.loop != "" && g.chance(50) {
			return fmt.Sprintf("%s[(%s + %d) %% %d]", s.name, b.loop, 1+g.intn(s.elems), s.elems)
		}
		return fmt.Sprintf("%s[%d]", s.name, g.intn(s.elems))
	}
	return fmt.Sprintf("%s[%s]", s.name, b.term(bits.Len(uint(s.elems-1))))
}

// fit makes the self-determined value x of width xw exactly w bits wide.
func (b *body) fit(x string, xw, w int, simple bool) string {
	g := b.g
	switch {
	case xw == w:
		return x
	case xw > w && simple && g.chance(70):
		lo := g.intn(xw - w + 1)
		if w == 1 {
			return fmt.Sprintf("%s[%d]", x, lo)
		}
		if g.chance(50) {
			return fmt.Sprintf("%s[%d +: %d]", x, lo, w)
		}
		return fmt.Sprintf("%s[%d:%d]", x, lo+w-1, lo)
	case xw < w && simple && g.chance(25):
		return fmt.Sprintf("{{%d{%s[%d]}}, %s}", w-xw, x, xw-1, x)
	case xw < w && w <= 4*xw && g.chance(20):
		// Replicate, then cut.
		n := (w + xw - 1) / xw
		return fmt.Sprintf("%d'({%d{%s}})", w, n, x)
	}
	return fmt.Sprintf("%d'(%s)", w, x)
}

// term returns a sized primary of width w: a signal, a select of one, an
// array element, a cast, or a literal.
func (b *body) term(w int) string {
	g := b.g
	if g.chance(12) {
		return g.constant(w)
	}
	s := b.pick()
	if s.elems > 0 {
		return b.fit(b.elem(s), s.width, w, false)
	}
	return b.fit(s.name, s.width, w, true)
}

// cond returns a 1-bit condition.
func (b *body) cond(d int) string {
	g := b.g
	switch g.intn(6) {
	case 0:
		s, ok := b.pickVec(1)
		if ok {
			return fmt.Sprintf("%s[%d]", s.name, g.intn(s.width))
		}
	case 1:
		w := g.narrow()
		return fmt.Sprintf("(%s %s %s)", b.term(w), []string{"<", ">", "<=", ">="}[g.intn(4)], b.expr(w, d-1))
	case 2:
		w := 1 + g.intn(3)
		return fmt.Sprintf("(%s %s %d'd%d)", b.term(w), []string{"==", "!="}[g.intn(2)], w, g.intn(1<<w))
	case 3:
		return fmt.Sprintf("(%s%s)", []string{"|", "&", "^", "!"}[g.intn(4)], b.term(g.width()))
	case 4:
		if d > 0 {
			return fmt.Sprintf("(%s %s %s)", b.cond(d-1), []string{"&&", "||"}[g.intn(2)], b.cond(d-1))
		}
	}
	return fmt.Sprintf("(%s != %s)", b.term(4), b.term(4))
}

// expr returns an expression of (context) width w of depth at most d.
func (b *body) expr(w, d int) string {
	g := b.g
	if d <= 0 || g.chance(15) {
		return b.term(w)
	}
	switch x := g.intn(26); {
	case x < 8:
		op := []string{"+", "-", "&", "|", "^", "+", "^", "-"}[x]
		return fmt.Sprintf("(%s %s %s)", b.expr(w, d-1), op, b.expr(w, d-1))
	case x < 10:
		if w <= 64 || g.chance(20) {
			return fmt.Sprintf("(%s * %s)", b.expr(w, d-1), b.term(w))
		}
		return fmt.Sprintf("(%s + %s)", b.expr(w, d-1), b.term(w))
	case x < 11:
		if w <= 64 && g.chance(50) {
			x := b.expr(w, d-1)
			op := []string{"/", "%"}[g.intn(2)]
			y := b.term(w)
			if g.o.Defined {
				y = fmt.Sprintf("(%s | %d'd1)", y, w)
			}
			return fmt.Sprintf("(%s %s %s)", x, op, y)
		}
		return fmt.Sprintf("(~%s)", b.expr(w, d-1))
	case x < 13:
		return fmt.Sprintf("(%s %s %d)", b.expr(w, d-1), []string{"<<", ">>"}[g.intn(2)], g.intn(w+1))
	case x < 14:
		return fmt.Sprintf("(%s %s %s)", b.expr(w, d-1), []string{"<<", ">>"}[g.intn(2)], b.term(min(w, 3+g.intn(3))))
	case x < 16:
		return fmt.Sprintf("(%s ? %s : %s)", b.cond(d-1), b.expr(w, d-1), b.expr(w, d-1))
	case x < 18:
		if w >= 2 {
			w1 := 1 + g.intn(w-1)
			if g.chance(30) && w >= 3 {
				w2 := 1 + g.intn(w-w1)
				if w1+w2 < w {
					return fmt.Sprintf("{%s, %s, %s}", b.term(w1), b.term(w2), b.term(w-w1-w2))
				}
			}
			return fmt.Sprintf("{%s, %s}", b.term(w1), b.term(w-w1))
		}
		return b.cond(d - 1)
	case x < 19:
		if w%2 == 0 && w >= 2 {
			return fmt.Sprintf("{2{%s}}", b.term(w/2))
		}
		return fmt.Sprintf("%d'(%s)", w, b.cond(d-1))
	case x < 21:
		if len(b.fns) > 0 {
			f := b.fns[g.intn(len(b.fns))]
			var args []string
			for _, aw := range f.args {
				args = append(args, b.expr(aw, d-1))
			}
			return b.fit(fmt.Sprintf("%s(%s)", f.name, strings.Join(args, ", ")), f.width, w, false)
		}
		return fmt.Sprintf("(%s ^ %s)", b.expr(w, d-1), b.term(w))
	case x < 22:
		return fmt.Sprintf("(%s + %d'(K))", b.expr(w, d-1), w)
	case x < 23:
		return fmt.Sprintf("%d'(%s)", w, b.cond(d-1))
	case x < 24:
		return fmt.Sprintf("(-%s)", b.expr(w, d-1))
	case x < 25:
		if b.loop != "" {
			return fmt.Sprintf("(%s ^ %d'(%s))", b.expr(w, d-1), w, b.loop)
		}
	}
	return b.term(w)
}

// shuffle permutes kinds.
func (g *gen) shuffle(kinds []int) {
	g.r.Shuffle(len(kinds), func(i, j int) { kinds[i], kinds[j] = kinds[j], kinds[i] })
}

// body generates the text of m; children says whether m instantiates
// modules.
func (g *gen) body(m *module, children bool) {
	b := &body{g: g, m: m, nchains: 2 + g.intn(3)}
	m.weight = 1
	var hdr strings.Builder
	fmt.Fprintf(&hdr, "module %s #(parameter int K = %d) (\n  input logic clk,\n  input logic clk2,\n  input logic rst_n", m.name, 1+g.intn(9))
	for _, p := range m.ins {
		fmt.Fprintf(&hdr, ",\n  input logic %s%s", decl(p.width), p.name)
		b.add(sig{name: p.name, width: p.width})
		b.chain = (b.chain + 1) % b.nchains
	}
	for _, p := range m.outs {
		fmt.Fprintf(&hdr, ",\n  output logic %s%s", decl(p.width), p.name)
	}
	hdr.WriteString("\n);\n")
	b.ind = 1

	// Functions.
	for i, n := 0, g.intn(3); i < n; i++ {
		b.function()
	}

	// Flops are declared first: anything may read them.
	var flops []flop
	var flopArrays []func() // writers of whole arrays, emitted later
	var genFlops []func()
	for i, n := 0, max(1, g.o.Flops-1+g.intn(3)); i < n; i++ {
		switch x := g.intn(10); {
		case x < 5: // a vector
			w := g.width()
			name := b.fresh("r")
			b.line("logic %s%s;", decl(w), name)
			b.add(sig{name: name, width: w})
			flops = append(flops, flop{name, w, name})
		case x < 7: // a vector whose slices different blocks write
			w := 4 + g.intn(min(g.o.MaxWidth, 40)-3)
			name := b.fresh("rs")
			b.line("logic %s%s;", decl(w), name)
			b.add(sig{name: name, width: w})
			for _, sl := range g.slices(w) {
				lv := fmt.Sprintf("%s[%d:%d]", name, sl[1]-1, sl[0])
				flops = append(flops, flop{lv, sl[1] - sl[0], lv})
			}
		case x < 8: // an array, elements written by different blocks
			w, n := g.width(), 2<<g.intn(2)
			name := b.array("ra", w, n).name
			for e := 0; e < n; e++ {
				lv := fmt.Sprintf("%s[%d]", name, e)
				flops = append(flops, flop{lv, w, lv})
			}
		case x < 9: // an array written by generate-for iterations
			s := b.array("rg", g.narrow(), 2<<g.intn(2))
			genFlops = append(genFlops, func() { b.genFlop(s) })
		default: // an array one block writes (dynamic index or a loop)
			s := b.array("rm", g.width(), 2<<g.intn(3))
			flopArrays = append(flopArrays, func() { b.arrayFlop(s) })
		}
		b.chain = (b.chain + 1) % b.nchains
	}

	// Comb constructs and instances, in random order.
	var kinds []int
	for i, n := 0, max(2, g.o.Signals-2+g.intn(5)); i < n; i++ {
		kinds = append(kinds, g.intn(10))
	}
	if children {
		for i, n := 0, 1+g.intn(2); i < n; i++ {
			kinds = append(kinds, 10)
		}
		if g.chance(60) {
			kinds = append(kinds, 11)
		}
		if m.level == g.o.Depth {
			// The top instantiates every module nobody uses yet.
			for _, c := range g.mods {
				if !c.used {
					kinds = append(kinds, 10)
				}
			}
		}
	}
	g.shuffle(kinds)
	for _, k := range kinds {
		b.chain = g.intn(b.nchains)
		switch {
		case k < 4:
			b.assign()
		case k < 6:
			b.comb()
		case k < 8:
			b.partial()
		case k < 10:
			b.combArray()
		default:
			if !b.instance(k == 11) {
				b.assign()
			}
		}
	}

	// Flop writers.
	g.r.Shuffle(len(flops), func(i, j int) { flops[i], flops[j] = flops[j], flops[i] })
	for len(flops) > 0 {
		n := min(len(flops), 1+g.intn(3))
		b.chain = g.intn(b.nchains)
		b.ffBlock(flops[:n])
		flops = flops[n:]
	}
	for _, f := range flopArrays {
		f()
	}
	for _, f := range genFlops {
		f()
	}

	// Outputs.
	for _, p := range m.outs {
		b.chain = g.intn(b.nchains)
		b.line("assign %s = %s;", p.name, b.expr(p.width, 1+g.intn(2)))
	}
	var sb strings.Builder
	sb.WriteString(hdr.String())
	for _, l := range b.lines {
		sb.WriteString(l)
		sb.WriteString("\n")
	}
	sb.WriteString("endmodule\n")
	m.src = sb.String()
}

// decl returns the packed range of width w (one bit too, so that every
// signal may be bit-selected).
func decl(w int) string { return fmt.Sprintf("[%d:0] ", w-1) }

// slices cuts w bits into 2 to 4 contiguous [lo, hi) ranges.
func (g *gen) slices(w int) [][2]int {
	n := min(w, 2+g.intn(3))
	cuts := map[int]bool{}
	for len(cuts) < n-1 {
		cuts[1+g.intn(w-1)] = true
	}
	var out [][2]int
	lo := 0
	for i := 1; i <= w; i++ {
		if i == w || cuts[i] {
			out = append(out, [2]int{lo, i})
			lo = i
		}
	}
	return out
}

// function declares a function of 1 to 3 arguments.
func (b *body) function() {
	g := b.g
	f := fn{name: b.fresh("f"), width: g.narrow()}
	if g.chance(15) && g.o.MaxWidth > 64 {
		f.width = g.width()
	}
	var params []string
	for i, n := 0, 1+g.intn(3); i < n; i++ {
		w := g.narrow()
		if i == 0 {
			w = f.width
		}
		f.args = append(f.args, w)
		params = append(params, fmt.Sprintf("input logic %sp%d", decl(w), i))
	}
	b.line("function automatic logic %s%s(%s);", decl(f.width), f.name, strings.Join(params, ", "))
	b.ind++
	b.line("logic %st;", decl(f.width))
	// The body reads only its arguments: swap the pool for them.
	saved := b.pool
	b.pool = nil
	for i, w := range f.args {
		b.pool = append(b.pool, sig{name: fmt.Sprintf("p%d", i), width: w, chain: b.chain})
	}
	b.line("t = %s;", b.expr(f.width, 2))
	switch g.intn(3) {
	case 0:
		b.line("if (%s) t = %s;", b.cond(1), b.expr(f.width, 2))
	case 1:
		b.line("for (int i = 0; i < %d; i++) t = t %s (%s >> i);", 2+g.intn(4), []string{"^", "+"}[g.intn(2)], b.term(f.width))
	}
	if g.chance(30) {
		b.line("if (%s) return %s;", b.cond(0), b.expr(f.width, 1))
	}
	b.line("return t;")
	b.pool = saved
	b.ind--
	b.line("endfunction")
	b.fns = append(b.fns, f)
}

// assign declares a comb signal driven by a continuous assignment.
func (b *body) assign() {
	g := b.g
	w := g.width()
	name := b.fresh("c")
	b.line("logic %s%s;", decl(w), name)
	b.line("assign %s = %s;", name, b.expr(w, 1+g.intn(3)))
	b.add(sig{name: name, width: w})
}

// comb declares one or two signals driven by an always_comb block with if,
// case or a for loop.
func (b *body) comb() {
	g := b.g
	var outs []sig
	for i, n := 0, 1+g.intn(2); i < n; i++ {
		s := sig{name: b.fresh("c"), width: g.width()}
		b.line("logic %s%s;", decl(s.width), s.name)
		outs = append(outs, s)
	}
	b.line("always_comb begin")
	b.ind++
	for _, s := range outs {
		b.line("%s = %s;", s.name, b.expr(s.width, 1+g.intn(2)))
	}
	for _, s := range outs {
		b.stmt(s.name, s.width, "=", s.name)
	}
	b.ind--
	b.line("end")
	for _, s := range outs {
		b.add(s)
	}
}

// stmt writes an if, case or for statement that (re)assigns lv (width w)
// with op ("=" or "<="); self is what reads lv's current value.
func (b *body) stmt(lv string, w int, op, self string) {
	g := b.g
	switch g.intn(5) {
	case 0:
		b.line("if (%s) %s %s %s;", b.cond(1), lv, op, b.expr(w, 2))
	case 1:
		b.line("if (%s) %s %s %s;", b.cond(1), lv, op, b.expr(w, 2))
		b.line("else if (%s) %s %s %s ^ %s;", b.cond(1), lv, op, self, b.term(w))
	case 2:
		sw := 1 + g.intn(3)
		b.line("case (%s)", b.term(sw))
		b.ind++
		for v := 0; v < 1<<sw; v++ {
			if g.chance(55) {
				b.line("%d'd%d: %s %s %s;", sw, v, lv, op, b.expr(w, 2))
			}
		}
		b.line("default: %s %s %s;", lv, op, b.expr(w, 1))
		b.ind--
		b.line("endcase")
	case 3:
		if op == "<=" {
			// A loop of nonblocking writes: the last one counts.
			b.line("for (int i = 0; i < %d; i++)", 2+g.intn(3))
			b.loop = "i"
			b.line("  if (%s) %s %s %s;", b.cond(0), lv, op, b.expr(w, 1))
			b.loop = ""
			return
		}
		b.line("for (int i = 0; i < %d; i++)", 2+g.intn(6))
		b.loop = "i"
		b.line("  %s = %s %s %s;", lv, self, []string{"^", "+", "|", "-"}[g.intn(4)], b.expr(w, 1))
		b.loop = ""
	default:
		if op == "=" && !strings.Contains(lv, "[") && w >= 2 && w <= 40 {
			// Bit by bit.
			s, ok := b.pickVec(1)
			if ok {
				b.line("for (int i = 0; i < %d; i++) %s[i] = %s[(i + %d) %% %d] ^ %s[i];", w, lv, s.name, g.intn(s.width), s.width, self)
				return
			}
		}
		b.line("%s %s %s;", lv, op, b.expr(w, 2))
	}
}

// partial declares a vector whose slices different assigns or always_comb
// blocks write.
func (b *body) partial() {
	g := b.g
	w := 2 + g.intn(min(g.o.MaxWidth, 48)-1)
	if g.chance(15) && g.o.MaxWidth > 64 {
		w = g.width()
		if w < 2 {
			w = 2
		}
	}
	name := b.fresh("v")
	b.line("logic %s%s;", decl(w), name)
	style := g.intn(3) // 0: assigns, 1: always_combs, 2: mixed
	for _, sl := range g.slices(w) {
		sw := sl[1] - sl[0]
		lv := fmt.Sprintf("%s[%d:%d]", name, sl[1]-1, sl[0])
		if sw == 1 && g.chance(50) {
			lv = fmt.Sprintf("%s[%d]", name, sl[0])
		}
		b.chain = g.intn(b.nchains)
		if style == 0 || style == 2 && g.chance(50) {
			b.line("assign %s = %s;", lv, b.expr(sw, 1+g.intn(3)))
			continue
		}
		b.line("always_comb begin")
		b.ind++
		b.line("%s = %s;", lv, b.expr(sw, 1+g.intn(2)))
		if g.chance(50) {
			b.line("if (%s) %s = %s;", b.cond(1), lv, b.expr(sw, 2))
		}
		b.ind--
		b.line("end")
	}
	b.add(sig{name: name, width: w})
}

// combArray declares an unpacked array whose elements different assigns,
// always_comb blocks or generate iterations write.
func (b *body) combArray() {
	g := b.g
	w, n := g.width(), 2<<g.intn(2)
	name := b.fresh("m")
	b.line("logic %s%s [0:%d];", decl(w), name, n-1)
	e := 0
	if g.chance(40) {
		// A generate-for writes the first k elements.
		k := 1 + g.intn(n)
		gb := b.fresh("gc")
		b.line("for (genvar j = 0; j < %d; j++) begin : %s", k, gb)
		b.ind++
		b.loop = "j"
		if g.chance(50) {
			b.line("assign %s[j] = %s;", name, b.expr(w, 2))
		} else {
			b.line("always_comb begin")
			b.line("  %s[j] = %s;", name, b.expr(w, 2))
			b.line("  if (%s) %s[j] = %s;", b.cond(1), name, b.expr(w, 1))
			b.line("end")
		}
		b.loop = ""
		b.ind--
		b.line("end")
		e = k
	}
	for ; e < n; e++ {
		b.chain = g.intn(b.nchains)
		if g.chance(50) {
			b.line("assign %s[%d] = %s;", name, e, b.expr(w, 1+g.intn(3)))
			continue
		}
		b.line("always_comb begin")
		b.ind++
		b.line("%s[%d] = %s;", name, e, b.expr(w, 1+g.intn(2)))
		b.stmt(fmt.Sprintf("%s[%d]", name, e), w, "=", fmt.Sprintf("%s[%d]", name, e))
		b.ind--
		b.line("end")
	}
	b.add(sig{name: name, width: w, elems: n})
}

// child picks a module to instantiate: an unused one of the level below
// first, then any unused lower one, then any lower one.
func (b *body) child() *module {
	g := b.g
	var pick []*module
	for _, pass := range []func(c *module) bool{
		func(c *module) bool { return !c.used && c.level == b.m.level-1 },
		func(c *module) bool { return !c.used && c.level < b.m.level },
		func(c *module) bool { return c.level < b.m.level },
	} {
		for _, c := range g.mods {
			if pass(c) {
				pick = append(pick, c)
			}
		}
		if len(pick) > 0 {
			break
		}
	}
	return pick[g.intn(len(pick))]
}

// clocks returns the clock connections of an instance: the same clocks,
// or swapped.
func (b *body) clocks() string {
	if b.g.chance(25) {
		return ".clk(clk2), .clk2(clk), .rst_n(rst_n)"
	}
	return ".clk(clk), .clk2(clk2), .rst_n(rst_n)"
}

// instance instantiates a child module, once or as a generate-for array
// whose outputs land in array elements or slices of a vector. It
// instantiates nothing (and returns false) when that would make the
// module heavier than maxWeight; an unused child is instantiated anyway.
func (b *body) instance(array bool) bool {
	g := b.g
	c := b.child()
	room := g.maxWeight(b.m.level) - b.m.weight
	n := 2 + g.intn(3)
	if array && n*c.weight > room {
		n = room / c.weight
		array = n >= 2
	}
	if !array && c.weight > room && c.used {
		return false
	}
	c.used = true
	if !array {
		b.m.weight += c.weight
		u := b.fresh("u")
		var outs []sig
		for _, p := range c.outs {
			s := sig{name: fmt.Sprintf("%s_%s", u, p.name), width: p.width}
			b.line("logic %s%s;", decl(s.width), s.name)
			outs = append(outs, s)
		}
		conns := []string{b.clocks()}
		for _, p := range c.ins {
			b.chain = g.intn(b.nchains)
			conns = append(conns, fmt.Sprintf(".%s(%s)", p.name, b.expr(p.width, g.intn(2))))
		}
		for i, p := range c.outs {
			conns = append(conns, fmt.Sprintf(".%s(%s)", p.name, outs[i].name))
		}
		b.line("%s #(.K(%d)) %s (%s);", c.name, g.intn(20), u, strings.Join(conns, ", "))
		for _, s := range outs {
			b.add(s)
		}
		return true
	}
	b.m.weight += n * c.weight
	gb := b.fresh("gi")
	var outs []sig
	var conns []string
	for _, p := range c.outs {
		name := fmt.Sprintf("%s_%s", gb, p.name)
		if g.chance(50) && p.width*n <= 256 {
			// Slices of one vector.
			s := sig{name: name, width: p.width * n}
			b.line("logic %s%s;", decl(s.width), s.name)
			outs = append(outs, s)
			conns = append(conns, fmt.Sprintf(".%s(%s[j*%d +: %d])", p.name, name, p.width, p.width))
			continue
		}
		s := sig{name: name, width: p.width, elems: n}
		b.line("logic %s%s [0:%d];", decl(s.width), s.name, n-1)
		outs = append(outs, s)
		conns = append(conns, fmt.Sprintf(".%s(%s[j])", p.name, name))
	}
	b.line("for (genvar j = 0; j < %d; j++) begin : %s", n, gb)
	b.ind++
	b.loop = "j"
	var ins []string
	for _, p := range c.ins {
		b.chain = g.intn(b.nchains)
		ins = append(ins, fmt.Sprintf(".%s(%s)", p.name, b.expr(p.width, 1)))
	}
	b.loop = ""
	all := append([]string{b.clocks()}, ins...)
	all = append(all, conns...)
	b.line("%s #(.K(j + %d)) u (%s);", c.name, g.intn(10), strings.Join(all, ", "))
	b.ind--
	b.line("end")
	for _, s := range outs {
		if s.elems > 0 && s.elems&(s.elems-1) != 0 {
			// Only whole power-of-two arrays are read dynamically: read
			// the elements one by one instead.
			for e := 0; e < s.elems; e++ {
				b.add(sig{name: fmt.Sprintf("%s[%d]", s.name, e), width: s.width})
			}
			continue
		}
		b.add(s)
	}
	return true
}

// trigger returns a block's event control and whether it has the async
// reset.
func (b *body) trigger() (string, bool) {
	g := b.g
	switch g.intn(5) {
	case 0, 1:
		return "@(posedge clk or negedge rst_n)", true
	case 2:
		return "@(posedge clk2 or negedge rst_n)", true
	case 3:
		return "@(posedge clk)", false
	}
	return "@(posedge clk2)", false
}

// ffBlock writes the flop targets fs in one always_ff block.
func (b *body) ffBlock(fs []flop) {
	g := b.g
	ev, reset := b.trigger()
	b.line("always_ff %s begin", ev)
	b.ind++
	if reset {
		b.line("if (!rst_n) begin")
		for _, f := range fs {
			b.line("  %s <= %s;", f.lv, g.constant(f.width))
		}
		b.line("end else begin")
		b.ind++
	}
	for _, f := range fs {
		b.line("%s <= %s;", f.lv, b.expr(f.width, 1+g.intn(3)))
		if g.chance(50) {
			b.stmt(f.lv, f.width, "<=", f.self)
		}
	}
	b.endFlop(reset, 40)
}

// display writes a (mostly conditional) $display of a few values.
func (b *body) display() {
	g := b.g
	var fmts, args []string
	if g.chance(50) {
		fmts = append(fmts, "%m")
	} else {
		fmts = append(fmts, b.m.name)
	}
	for i, n := 0, 1+g.intn(3); i < n; i++ {
		s := b.pick()
		arg := s.name
		if s.elems > 0 {
			arg = fmt.Sprintf("%s[%d]", s.name, g.intn(s.elems))
		}
		f := []string{"%h", "%0d", "%d", "%x", "%0h", "%b"}[g.intn(6)]
		if f == "%b" && s.width > 24 {
			f = "%h"
		}
		fmts = append(fmts, fmt.Sprintf("%s=%s", strings.NewReplacer("[", "_", "]", "").Replace(arg), f))
		args = append(args, arg)
	}
	if g.chance(30) {
		fmts = append(fmts, "K=%0d")
		args = append(args, "K")
	}
	call := fmt.Sprintf("$display(\"%s\", %s);", strings.Join(fmts, " "), strings.Join(args, ", "))
	if g.chance(70) {
		b.line("if (%s) %s", b.cond(1), call)
		return
	}
	b.line("%s", call)
}

// arrayFlop writes every element of s in one block: a dynamic index, or a
// loop over the elements.
func (b *body) arrayFlop(s sig) {
	g := b.g
	ev, reset := b.trigger()
	b.line("always_ff %s begin", ev)
	b.ind++
	if reset {
		b.line("if (!rst_n) begin")
		b.line("  for (int i = 0; i < %d; i++) %s[i] <= %d'(i * %d);", s.elems, s.name, s.width, 1+g.intn(50))
		b.line("end else begin")
		b.ind++
	}
	if g.chance(50) {
		b.line("%s[%s] <= %s;", s.name, b.term(bits.Len(uint(s.elems-1))), b.expr(s.width, 2))
		if g.chance(40) {
			b.line("if (%s) %s[%s] <= %s;", b.cond(1), s.name, b.term(bits.Len(uint(s.elems-1))), b.expr(s.width, 1))
		}
	} else {
		b.line("for (int i = 0; i < %d; i++)", s.elems)
		b.loop = "i"
		b.line("  %s[i] <= %s ^ %s;", s.name, b.expr(s.width, 2), b.term(s.width))
		b.loop = ""
	}
	b.endFlop(reset, 30)
}

// genFlop writes the elements of s from the iterations of a generate-for,
// one always_ff block each.
func (b *body) genFlop(s sig) {
	g := b.g
	ev, reset := b.trigger()
	gb := b.fresh("gf")
	b.line("for (genvar j = 0; j < %d; j++) begin : %s", s.elems, gb)
	b.ind++
	b.loop = "j"
	b.line("always_ff %s", ev)
	if reset {
		b.line("  if (!rst_n) %s[j] <= %d'(j + %d);", s.name, s.width, g.intn(9))
		b.line("  else %s[j] <= %s[(j + 1) %% %d] + %s;", s.name, s.name, s.elems, b.expr(s.width, 2))
	} else {
		b.line("  %s[j] <= %s;", s.name, b.expr(s.width, 2))
	}
	b.loop = ""
	b.ind--
	b.line("end")
}
