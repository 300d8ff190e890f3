package vcd

import (
	"fmt"
	"github.com/weft-hdl/weft/internal/natsort"
	"slices"
	"strings"

	"github.com/weft-hdl/weft/dut"
	"github.com/weft-hdl/weft/program"
	"github.com/weft-hdl/weft/sim"
)

// scope is one $scope of the header: an instance, a generate scope or a
// function's static variables.
type scope struct {
	name     string
	kind     string // module, begin, function, task
	vars     []decl
	children []*scope
	byName   map[string]*scope
}

// decl is one $var line: a name of one dumped element.
type decl struct {
	name string // within the scope ("q", "mem[3]")
	key  string // for ordering: the name without the element index
	el   element
	v    int // index into Writer.vars
}

// element is one dumped (signal, element) pair: what an identifier code
// stands for, however many names it has.
type element struct {
	h    *program.Signal
	elem int
}

// selection is what Options select, resolved against the design.
type selection struct {
	p      *program.Program
	opts   Options
	insts  map[string]*program.Scope
	funcs  map[string]program.Function
	scopes []*program.Scope
	// signals are the names Options.Signals select, full hierarchical
	// names as the design spells them.
	signals map[string]bool
}

func newSelection(s *sim.Simulator, opts Options) (*selection, error) {
	p := s.Program()
	sel := &selection{p: p, opts: opts, insts: map[string]*program.Scope{}, funcs: map[string]program.Function{}, signals: map[string]bool{}}
	for _, in := range p.Scopes {
		sel.insts[in.Path] = in
	}
	for _, f := range p.Functions {
		sel.funcs[f.Name] = f
	}
	if opts.Depth < 0 {
		return nil, fmt.Errorf("vcd: Depth %d is negative (0 dumps every level)", opts.Depth)
	}
	for _, path := range opts.Scopes {
		in, ok := p.Scope(path)
		if !ok {
			_, err := dut.New(s).Scope(path) // for its message about the name
			return nil, fmt.Errorf("vcd: scope to dump: %w", err)
		}
		sel.scopes = append(sel.scopes, in)
	}
	for _, name := range opts.Signals {
		h, ok := p.Lookup(name)
		if !ok {
			_, err := dut.New(s).Signal(name) // for its message about the name
			if err == nil {
				err = fmt.Errorf("%q is an element or part of a signal; name the whole signal", name)
			}
			return nil, fmt.Errorf("vcd: signal to dump: %w", err)
		}
		full := ""
		for _, n := range h.Names() {
			if n == name || p.Top != nil && n == p.Top.Path+"."+name {
				full = n
			}
		}
		if h.Kind == program.KindBlockLocal || h.Scope() == nil {
			return nil, fmt.Errorf("vcd: signal to dump: %s is a variable private to a process or a package function; it cannot be dumped", name)
		}
		sel.signals[full] = true
	}
	if len(sel.scopes) == 0 && len(sel.signals) == 0 && p.Top != nil {
		sel.scopes = []*program.Scope{p.Top}
	}
	return sel, nil
}

// owner is the instance a hierarchical name belongs to: the longest
// instance path that prefixes it.
func (sel *selection) owner(name string) *program.Scope {
	for p := program.ParentPath(name); p != ""; p = program.ParentPath(p) {
		if in, ok := sel.insts[p]; ok {
			return in
		}
	}
	return nil
}

// selected reports whether a name of h is dumped.
func (sel *selection) selected(h *program.Signal, name string) bool {
	if sel.signals[name] {
		return true
	}
	if h.IsArray() && !sel.opts.Arrays {
		return false
	}
	o := sel.owner(name)
	for _, sc := range sel.scopes {
		levels := 1
		for in := o; in != nil; in = in.Parent() {
			if in == sc {
				if sel.opts.Depth == 0 || levels <= sel.opts.Depth {
					return true
				}
				break
			}
			levels++
		}
	}
	return false
}

// dumpable reports whether h can be dumped at all.
func dumpable(h *program.Signal) bool {
	switch h.Kind {
	case program.KindVar, program.KindNet, program.KindInput, program.KindOutput, program.KindStatic:
		return h.Scope() != nil
	}
	return false
}

// build makes the scope tree of the selection and the list of elements
// the identifier codes stand for, numbered in the order the header
// declares them.
func (sel *selection) build() (*scope, []element) {
	root := &scope{byName: map[string]*scope{}}
	for _, h := range sel.p.Signals {
		if !dumpable(h) {
			continue
		}
		for _, name := range h.Names() {
			if !sel.selected(h, name) {
				continue
			}
			segs := splitPath(name)
			sc := root
			for i, seg := range segs[:len(segs)-1] {
				sc = sc.child(seg, sel.kind(strings.Join(segs[:i+1], ".")))
			}
			leaf := clean(segs[len(segs)-1])
			for e := 0; e < h.Elems(); e++ {
				n := leaf
				if h.IsArray() {
					n += elemSuffix(h, e)
				}
				sc.vars = append(sc.vars, decl{name: n, key: leaf, el: element{h, e}})
			}
		}
	}
	root.sort()
	var elems []element
	index := map[element]int{}
	var number func(sc *scope)
	number = func(sc *scope) {
		for i := range sc.vars {
			d := &sc.vars[i]
			v, ok := index[d.el]
			if !ok {
				v = len(elems)
				index[d.el] = v
				elems = append(elems, d.el)
			}
			d.v = v
		}
		for _, c := range sc.children {
			number(c)
		}
	}
	number(root)
	return root, elems
}

// kind is the $scope type of a hierarchical prefix.
func (sel *selection) kind(path string) string {
	if _, ok := sel.insts[path]; ok {
		return "module"
	}
	if f, ok := sel.funcs[path]; ok {
		if f.Task {
			return "task"
		}
		return "function"
	}
	return "begin"
}

func (sc *scope) child(name, kind string) *scope {
	if c, ok := sc.byName[name]; ok {
		return c
	}
	c := &scope{name: clean(name), kind: kind, byName: map[string]*scope{}}
	sc.byName[name] = c
	sc.children = append(sc.children, c)
	return c
}

// sort orders variables by name (an array's elements by index) and scopes
// by name, numbers in names by value, recursively: the order Icarus
// Verilog writes, and one a reader finds things in.
func (sc *scope) sort() {
	slices.SortStableFunc(sc.vars, func(a, b decl) int {
		if c := natsort.Compare(a.key, b.key); c != 0 {
			return c
		}
		return a.el.elem - b.el.elem
	})
	slices.SortStableFunc(sc.children, func(a, b *scope) int { return natsort.Compare(a.name, b.name) })
	for _, c := range sc.children {
		c.sort()
	}
}

// splitPath splits a hierarchical name at the dots outside brackets
// ("top.g[1].u.x" → top, g[1], u, x).
func splitPath(p string) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(p); i++ {
		switch p[i] {
		case '[':
			depth++
		case ']':
			depth--
		case '.':
			if depth == 0 {
				out = append(out, p[start:i])
				start = i + 1
			}
		}
	}
	return append(out, p[start:])
}

// clean makes a name a VCD reference: no white space (an escaped
// identifier may hold some), never empty.
func clean(name string) string {
	if name == "" {
		return "_"
	}
	return strings.Map(func(r rune) rune {
		if r <= ' ' || r == 0x7f {
			return '_'
		}
		return r
	}, name)
}

// elemSuffix spells element e of an array signal with its declared
// indexes: "[3]", "[1][0]" (program.Dim: element k is index Lo()+k,
// row-major).
func elemSuffix(h *program.Signal, e int) string {
	idx := make([]int, len(h.Unpacked))
	for i := len(h.Unpacked) - 1; i >= 0; i-- {
		n := h.Unpacked[i].Size()
		idx[i] = h.Unpacked[i].Lo() + e%n
		e /= n
	}
	var b strings.Builder
	for _, i := range idx {
		fmt.Fprintf(&b, "[%d]", i)
	}
	return b.String()
}

// varType is the $var type of a signal.
func varType(h *program.Signal) string {
	if h.Kind == program.KindNet || h.Kind == program.KindInput {
		return "wire"
	}
	return "reg"
}

// varRange is the packed range written after a $var's name ("" for a
// scalar).
func varRange(h *program.Signal) string {
	if len(h.Packed) == 1 {
		return fmt.Sprintf("[%d:%d]", h.Packed[0].Left, h.Packed[0].Right)
	}
	if h.Width == 1 && len(h.Packed) == 0 {
		return ""
	}
	return fmt.Sprintf("[%d:0]", h.Width-1)
}
