package lint

import (
	"math/bits"

	"github.com/weft-hdl/weft/design"
	"github.com/weft-hdl/weft/internal/scc"
	"github.com/weft-hdl/weft/slt"
)

// slt's loops are exact to the bit ranges processes read and write, but a
// range is one unit there: `assign c[8:1] = (a & b) | ((a ^ b) & c[7:0]);`
// reads bits it writes, yet no bit depends on itself (each carry depends
// on the one below). falseLoop follows single assignments bit by bit to
// tell such ripple chains from real loops.

// Limits past which falseLoop does not try and the loop is reported.
const (
	maxLoopBits  = 2048
	maxLoopEdges = 1 << 20
)

// bset is a set of feedback bit ids.
type bset []uint64

type bitGraph struct {
	ids   map[bitKey]int32
	n     int // feedback bits; virtual nodes follow
	words int
	succ  [][]int32
	edges int
	ok    bool
}

type bitKey struct {
	h         *design.Home
	elem, bit int
}

// falseLoop reports whether no feedback bit of l depends on itself through
// the loop's items, following single unconditional assignments bit by bit
// (bitwise operators keep bit positions, additions and subtractions carry
// only upwards, constant shifts move bits) and every other item as "each
// bit written depends on each bit read".
func falseLoop(l *slt.Loop) bool {
	if l.Bits > maxLoopBits {
		return false
	}
	g := &bitGraph{ids: map[bitKey]int32{}, ok: true}
	for _, a := range l.Signals {
		for e := a.ElemLo; e <= a.ElemHi; e++ {
			for b := a.Lo; b <= a.Hi; b++ {
				k := bitKey{a.Home, e, b}
				if _, dup := g.ids[k]; !dup {
					g.ids[k] = int32(len(g.ids))
				}
			}
		}
	}
	g.n = len(g.ids)
	g.words = (g.n + 63) / 64
	g.succ = make([][]int32, g.n)
	for _, it := range l.Items {
		if !g.exactItem(it) {
			g.wholeItem(it)
		}
		if !g.ok {
			return false
		}
	}
	comp, count := scc.Tarjan(len(g.succ), func(v int) []int32 { return g.succ[v] })
	if count < len(g.succ) {
		return false
	}
	for v, ss := range g.succ {
		for _, w := range ss {
			if comp[w] == comp[v] {
				return false
			}
		}
	}
	return true
}

func (g *bitGraph) edge(from, to int32) {
	g.succ[from] = append(g.succ[from], to)
	g.edges++
	if g.edges > maxLoopEdges {
		g.ok = false
	}
}

// wholeItem links every feedback bit the item reads to every one it
// writes, through one extra node so that the edges stay linear.
func (g *bitGraph) wholeItem(it *slt.Item) {
	v := int32(len(g.succ))
	g.succ = append(g.succ, nil)
	for _, r := range it.Reads {
		g.eachID(r, func(id int32) { g.edge(id, v) })
	}
	for _, w := range it.Writes {
		g.eachID(w, func(id int32) { g.edge(v, id) })
	}
}

func (g *bitGraph) eachID(a design.Access, fn func(int32)) {
	for e := a.ElemLo; e <= a.ElemHi; e++ {
		for b := a.Lo; b <= a.Hi; b++ {
			if id, ok := g.ids[bitKey{a.Home, e, b}]; ok {
				fn(id)
			}
		}
	}
}

// exactItem adds the bit edges of an item that is one unconditional
// assignment whose operators deps understands; false leaves it to
// wholeItem.
func (g *bitGraph) exactItem(it *slt.Item) bool {
	if !it.Unconditional {
		return false
	}
	body := it.Body
	for {
		b, ok := body.(*design.Block)
		if !ok || len(b.Stmts) != 1 || len(b.Locals) > 0 {
			break
		}
		body = b.Stmts[0]
	}
	as, ok := body.(*design.Assign)
	if !ok {
		return false
	}
	dst, ok := g.lhsBits(as.LHS, nil)
	if !ok {
		return false
	}
	src, ok := g.deps(as.RHS)
	if !ok || len(src) != len(dst) {
		return false
	}
	for k, d := range dst {
		if d < 0 {
			continue
		}
		for w, word := range src[k] {
			for word != 0 {
				t := bits.TrailingZeros64(word)
				word &= word - 1
				g.edge(int32(w*64+t), d)
			}
		}
	}
	return true
}

// lhsBits appends the feedback id (or -1) of each bit an lvalue writes,
// least significant first.
func (g *bitGraph) lhsBits(lv design.Expr, out []int32) ([]int32, bool) {
	if c, ok := lv.(*design.Concat); ok {
		for i := len(c.Parts) - 1; i >= 0; i-- {
			var ok bool
			if out, ok = g.lhsBits(c.Parts[i], out); !ok {
				return nil, false
			}
		}
		return out, true
	}
	a, ok, empty := design.RefAccess(lv)
	if !ok || empty || a.Dynamic || a.ElemLo != a.ElemHi {
		return nil, false
	}
	for b := a.Lo; b <= a.Hi; b++ {
		id, ok := g.ids[bitKey{a.Home, a.ElemLo, b}]
		if !ok {
			id = -1
		}
		out = append(out, id)
	}
	return out, true
}

func (g *bitGraph) newSet() bset { return make(bset, g.words) }

func (s bset) or(t bset) {
	for i := range t {
		s[i] |= t[i]
	}
}

// union is the set of every bit any output bit of d depends on.
func (g *bitGraph) union(d []bset) bset {
	u := g.newSet()
	for _, s := range d {
		u.or(s)
	}
	return u
}

// fill gives each of w output bits the dependencies u.
func fill(w int, u bset) []bset {
	out := make([]bset, w)
	for i := range out {
		out[i] = u
	}
	return out
}

// prefix makes output bit i depend on bits 0..i of every operand: what an
// addition's carries do.
func (g *bitGraph) prefix(ops ...[]bset) []bset {
	w := len(ops[0])
	out := make([]bset, w)
	acc := g.newSet()
	for i := 0; i < w; i++ {
		for _, o := range ops {
			acc.or(o[i])
		}
		s := g.newSet()
		copy(s, acc)
		out[i] = s
	}
	return out
}

// deps returns, for each bit of e (least significant first), the feedback
// bits it depends on. ok is false for an expression it does not follow
// (a call, a dynamic index) so that the item is taken whole.
func (g *bitGraph) deps(e design.Expr) ([]bset, bool) {
	w := e.Type().Width
	switch e := e.(type) {
	case *design.Const:
		return fill(w, g.newSet()), true
	case *design.HomeRef, *design.ElemRef:
		return g.refDeps(e, w)
	case *design.Slice:
		if _, ok, _ := design.RefAccess(e); ok {
			return g.refDeps(e, w)
		}
		lsb, ok := design.ConstUint(e.Lsb)
		if !ok {
			return nil, false
		}
		x, ok := g.deps(e.X)
		if !ok {
			return nil, false
		}
		out := make([]bset, w)
		for i := range out {
			if lsb+i < len(x) {
				out[i] = x[lsb+i]
			} else {
				out[i] = g.newSet()
			}
		}
		return out, true
	case *design.Unary:
		x, ok := g.deps(e.X)
		if !ok {
			return nil, false
		}
		switch e.Op {
		case design.OpNot:
			return x, true
		case design.OpNeg:
			return g.prefix(x), true
		}
		return fill(w, g.union(x)), true
	case *design.Binary:
		x, ok := g.deps(e.X)
		if !ok {
			return nil, false
		}
		y, ok := g.deps(e.Y)
		if !ok {
			return nil, false
		}
		switch e.Op {
		case design.OpAnd, design.OpOr, design.OpXor, design.OpXnor:
			out := make([]bset, w)
			for i := range out {
				s := g.newSet()
				s.or(x[i])
				s.or(y[i])
				out[i] = s
			}
			return out, true
		case design.OpAdd, design.OpSub, design.OpMul:
			return g.prefix(x, y), true
		case design.OpShl, design.OpShr, design.OpAShr:
			n, isConst := design.ConstUint(e.Y)
			if !isConst {
				break
			}
			out := make([]bset, w)
			for i := range out {
				src := i - n
				if e.Op != design.OpShl {
					src = i + n
				}
				switch {
				case src >= 0 && src < w:
					out[i] = x[src]
				case e.Op == design.OpAShr && src >= w:
					out[i] = x[w-1]
				default:
					out[i] = g.newSet()
				}
			}
			return out, true
		}
		u := g.union(x)
		u.or(g.union(y))
		return fill(w, u), true
	case *design.Cond:
		c, ok := g.deps(e.C)
		if !ok {
			return nil, false
		}
		t, ok := g.deps(e.Then)
		if !ok {
			return nil, false
		}
		f, ok := g.deps(e.Else)
		if !ok {
			return nil, false
		}
		cu := g.union(c)
		out := make([]bset, w)
		for i := range out {
			s := g.newSet()
			s.or(cu)
			s.or(t[i])
			s.or(f[i])
			out[i] = s
		}
		return out, true
	case *design.Concat:
		var out []bset
		for i := len(e.Parts) - 1; i >= 0; i-- {
			p, ok := g.deps(e.Parts[i])
			if !ok {
				return nil, false
			}
			out = append(out, p...)
		}
		return out, true
	case *design.Repl:
		x, ok := g.deps(e.X)
		if !ok {
			return nil, false
		}
		var out []bset
		for i := 0; i < e.N; i++ {
			out = append(out, x...)
		}
		return out, true
	case *design.Extend:
		x, ok := g.deps(e.X)
		if !ok {
			return nil, false
		}
		out := append([]bset(nil), x...)
		for len(out) < w {
			if e.SignExt && len(x) > 0 {
				out = append(out, x[len(x)-1])
			} else {
				out = append(out, g.newSet())
			}
		}
		return out, true
	case *design.Trunc:
		x, ok := g.deps(e.X)
		if !ok || len(x) < w {
			return nil, false
		}
		return x[:w], true
	}
	return nil, false
}

// refDeps is the dependencies of a reference with constant addresses: each
// bit on itself.
func (g *bitGraph) refDeps(e design.Expr, w int) ([]bset, bool) {
	a, ok, empty := design.RefAccess(e)
	if !ok || a.Dynamic || a.ElemLo != a.ElemHi && !empty {
		return nil, false
	}
	out := make([]bset, w)
	for i := range out {
		s := g.newSet()
		if !empty {
			if id, ok := g.ids[bitKey{a.Home, a.ElemLo, a.Lo + i}]; ok && a.Lo+i <= a.Hi {
				s[id/64] |= 1 << (id % 64)
			}
		}
		out[i] = s
	}
	return out, true
}
