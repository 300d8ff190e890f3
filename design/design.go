package design

import (
	"fmt"
	"math/big"
	"sort"
	"strings"

	"github.com/weft-hdl/weft/program"
)

// Pos is a source position (1-based line and byte column): the runtime's
// position type (program.Pos), so that positions reach the simulator's
// messages unchanged.
type Pos = program.Pos

// Design is one elaborated design: the instance tree, every storage object
// ("home"), the combinational processes, the trigger groups of the
// sequential processes, the initial processes and the functions they call.
type Design struct {
	Top *Instance
	// Instances in preorder (Top first).
	Instances []*Instance
	// Homes is every storage object, indexed by Home.ID. Function argument,
	// result and local homes are not listed here (see Function).
	Homes []*Home
	// Comb are the combinational processes (continuous assignments, port
	// connection assignments, always_comb, always @*, always @(a or b),
	// always_latch), in elaboration order.
	Comb []*Process
	// Groups are the sequential processes grouped by instance and event set.
	Groups []*TriggerGroup
	// Initial are the initial blocks that could not be folded into Home.Init
	// (they call system tasks such as $display or $readmemh, or read state).
	Initial []*Process
	// Functions are the functions and tasks called by processes (including
	// those called only from other functions). Lowering inlines them.
	Functions []*Function
	// Modules is the sorted list of distinct module names instantiated.
	Modules []string
	// Timescale is the `timescale directive of the sources with the finest
	// precision (the simulation precision, as Icarus Verilog takes it), nil
	// when the sources have none.
	Timescale *Timescale
	// Dump is what $dumpfile and $dumpvars in initial blocks asked for, nil
	// when neither appears.
	Dump *DumpRequest
	// Shared are the continuous copies ShareCopies removed, in order.
	Shared []*Shared

	byPath map[string]*Home
	// shares maps the homes ShareCopies left without storage of their own
	// to the element whose storage they use.
	shares map[*Home]HomeElem
}

// Shares reports whether h has no storage of its own in d: its value is
// always that of element at of another home (ShareCopies made them one),
// and no process of d names h.
func (d *Design) Shares(h *Home) (at HomeElem, ok bool) {
	at, ok = d.shares[h]
	return at, ok
}

// Processes returns every process (comb, sequential, initial) ordered by ID.
func (d *Design) Processes() []*Process {
	var ps []*Process
	ps = append(ps, d.Comb...)
	for _, g := range d.Groups {
		ps = append(ps, g.Procs...)
	}
	ps = append(ps, d.Initial...)
	sort.Slice(ps, func(i, j int) bool { return ps[i].ID < ps[j].ID })
	return ps
}

// Index (re)builds the lookup tables; elaboration calls it once at the end,
// and callers that edit a design by hand call it again.
func (d *Design) Index() {
	d.byPath = map[string]*Home{}
	for _, h := range d.Homes {
		d.byPath[h.Path] = h
		for _, a := range h.Aliases {
			if _, dup := d.byPath[a]; !dup {
				d.byPath[a] = h
			}
		}
	}
}

// Lookup finds a home by hierarchical name: "top.u_core.pc", or the same
// without the top instance prefix ("u_core.pc"). Port-collapsed aliases are
// found by either name.
func (d *Design) Lookup(path string) (*Home, bool) {
	if d.byPath == nil {
		d.Index()
	}
	if h, ok := d.byPath[path]; ok {
		return h, true
	}
	if d.Top != nil {
		if h, ok := d.byPath[d.Top.Path+"."+path]; ok {
			return h, true
		}
	}
	return nil, false
}

// Instance finds an instance by hierarchical path (with or without the top
// prefix; "" is the top).
func (d *Design) Instance(path string) (*Instance, bool) {
	if d.Top == nil {
		return nil, false
	}
	for _, in := range d.Instances {
		if in.Path == path || in.Path == d.Top.Path+"."+path || (path == "" && in == d.Top) {
			return in, true
		}
	}
	return nil, false
}

// Summary counts what the design holds. Flops are counted both as homes
// written by a sequential process and as the bits those processes write
// (exact bit ranges where indexes are constant, whole homes otherwise).
type Summary struct {
	Modules, Instances, Homes int
	FlopHomes, FlopBits       int
	Comb, Sequential, Initial int
	TriggerGroups, Functions  int
}

func (s Summary) String() string {
	return fmt.Sprintf("%d modules, %d instances, %d homes, %d flop homes (%d bits written by sequential processes), %d comb processes, %d sequential processes in %d trigger groups, %d initial processes, %d functions",
		s.Modules, s.Instances, s.Homes, s.FlopHomes, s.FlopBits, s.Comb, s.Sequential, s.TriggerGroups, s.Initial, s.Functions)
}

// Summary returns the design's counts.
func (d *Design) Summary() Summary {
	s := Summary{Modules: len(d.Modules), Instances: len(d.Instances), Homes: len(d.Homes),
		Comb: len(d.Comb), Initial: len(d.Initial), TriggerGroups: len(d.Groups), Functions: len(d.Functions)}
	bits := map[*Home][]span{}
	for _, g := range d.Groups {
		s.Sequential += len(g.Procs)
		for _, p := range g.Procs {
			for _, w := range p.Writes {
				W := w.Home.Width
				if w.Lo == 0 && w.Hi == W-1 {
					bits[w.Home] = addSpan(bits[w.Home], span{w.ElemLo * W, w.ElemHi*W + W - 1})
					continue
				}
				for e := w.ElemLo; e <= w.ElemHi; e++ {
					bits[w.Home] = addSpan(bits[w.Home], span{e*W + w.Lo, e*W + w.Hi})
				}
			}
		}
	}
	s.FlopHomes = len(bits)
	for _, sp := range bits {
		for _, x := range sp {
			s.FlopBits += x.hi - x.lo + 1
		}
	}
	return s
}

// Instance is one module instance (the top included).
type Instance struct {
	// Name is the instance name as written ("u_tx", "u_lane[2]"); Path is the
	// full hierarchical name including generate scopes ("top.g[1].u_tx").
	Name, Path string
	Module     string
	Parent     *Instance
	Children   []*Instance
	// Homes declared in this instance (generate scopes included), in
	// declaration order. Port homes collapsed into a parent home are not
	// repeated here; see Home.Aliases.
	Homes  []*Home
	Params []ParamValue
	Pos    Pos
}

// Param returns the named parameter value.
func (in *Instance) Param(name string) (ParamValue, bool) {
	for _, p := range in.Params {
		if p.Name == name {
			return p, true
		}
	}
	return ParamValue{}, false
}

// ParamValue is the final value of one parameter (or localparam) of an
// instance. Value holds the two's complement bits (0 <= Value < 2^Width);
// Int() gives the signed interpretation when Signed.
type ParamValue struct {
	Name  string
	Value *big.Int
	Type  Type
	Local bool
	// TypeParam is set for type parameters: the resolved type written as SV
	// ("logic [7:0]"); Value is nil then.
	TypeParam string
}

// Int returns the value as a (possibly negative) big integer.
func (p ParamValue) Int() *big.Int {
	if p.Value == nil {
		return nil
	}
	return ToInt(p.Value, p.Type)
}

func (p ParamValue) String() string {
	if p.TypeParam != "" {
		return "type " + p.TypeParam
	}
	return fmt.Sprintf("%s (%s)", p.Int().String(), p.Type)
}

// HomeKind says what declared a home.
type HomeKind int

const (
	KindVar        HomeKind = iota // module-level variable (logic, reg, int, ...)
	KindNet                        // module-level net (wire, tri, implicit net)
	KindInput                      // input port
	KindOutput                     // output port
	KindBlockLocal                 // variable declared inside a process (static storage, private to it)
	KindFuncLocal                  // function/task argument, result or local (not in Design.Homes)
	// KindStatic is a static variable of a function or task (IEEE 1800
	// §13.3.1, §6.21): one home per declaring instance (or package, Inst
	// nil), in Design.Homes, shared by every call; Init is its declaration
	// initializer, run once at time zero. Path is "top.u.f.acc".
	KindStatic
)

func (k HomeKind) String() string {
	return [...]string{"var", "net", "input", "output", "local", "func-local", "static"}[k]
}

// Dim is one declared dimension [Left:Right] (program.Dim, which the
// runtime's signal table uses too).
//
// Packed dims: bit offset 0 is the Right bound, so for [7:0] index i is at
// offset i, and for [0:7] index i is at offset 7-i.
//
// Unpacked dims: element k (0-based) is index Lo()+k, whatever the direction
// ([0:15] and [15:0] both store index 0 first). Multi-dimensional arrays are
// flattened row-major, outermost (leftmost) dimension first.
type Dim = program.Dim

// Home is one storage object: a variable, net, port or process-local
// variable. A home stores Elems() elements of Width bits each.
type Home struct {
	ID   int
	Name string // as declared
	Path string // hierarchical: "top.u_core.pc"
	// Aliases are the other hierarchical names of this home: child port
	// names collapsed into the parent signal they are connected to.
	Aliases []string
	Inst    *Instance // nil for function homes of package functions
	Kind    HomeKind
	// Width is the bit width of one packed element; Signed its signedness.
	Width  int
	Signed bool
	// Packed are the packed dimensions as written (outermost first), kept for
	// indexing metadata; a struct or enum-typed home has none unless declared
	// with dims. Unpacked is the array shape (nil for a scalar home).
	Packed   []Dim
	Unpacked []Dim
	// TypeName is the declared type as SV text, for dumps and lint.
	TypeName string
	// Init is the value at time zero (nil: all zero).
	Init *Init
	Pos  Pos
}

// Type returns the type of one element.
func (h *Home) Type() Type { return Type{Width: h.Width, Signed: h.Signed} }

// IsArray reports whether the home has unpacked dimensions.
func (h *Home) IsArray() bool { return len(h.Unpacked) > 0 }

// Elems is the number of elements (1 for a scalar home).
func (h *Home) Elems() int {
	n := 1
	for _, d := range h.Unpacked {
		n *= d.Size()
	}
	return n
}

// Names returns Path followed by Aliases.
func (h *Home) Names() []string { return append([]string{h.Path}, h.Aliases...) }

func (h *Home) String() string { return h.Path }

// Init is the initial value of a home: Value for a scalar home, and for an
// array home the value of every element not listed in Elems (flattened
// element index → value). Values are two's complement bits of Width bits.
type Init struct {
	Value *big.Int
	Elems map[int]*big.Int
}

// Elem returns the initial value of element e (0 when unset).
func (in *Init) Elem(e int) *big.Int {
	if in == nil {
		return new(big.Int)
	}
	if v, ok := in.Elems[e]; ok {
		return v
	}
	if in.Value != nil {
		return in.Value
	}
	return new(big.Int)
}

func (in *Init) String() string {
	if in == nil {
		return "0"
	}
	var b strings.Builder
	if in.Value != nil {
		fmt.Fprintf(&b, "'h%s", in.Value.Text(16))
	}
	if len(in.Elems) > 0 {
		keys := make([]int, 0, len(in.Elems))
		for k := range in.Elems {
			keys = append(keys, k)
		}
		sort.Ints(keys)
		if b.Len() > 0 {
			b.WriteString(" ")
		}
		b.WriteString("{")
		for i, k := range keys {
			if i == 8 {
				fmt.Fprintf(&b, " ... (%d elements)", len(keys))
				break
			}
			if i > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "%d:'h%s", k, in.Elems[k].Text(16))
		}
		b.WriteString("}")
	}
	return b.String()
}

// span is an inclusive integer interval.
type span struct{ lo, hi int }

// addSpan adds s to a sorted disjoint list, merging overlaps and neighbours.
func addSpan(list []span, s span) []span {
	out := make([]span, 0, len(list)+1)
	placed := false
	for _, x := range list {
		switch {
		case x.hi+1 < s.lo:
			out = append(out, x)
		case s.hi+1 < x.lo:
			if !placed {
				out = append(out, s)
				placed = true
			}
			out = append(out, x)
		default:
			s = span{min(s.lo, x.lo), max(s.hi, x.hi)}
		}
	}
	if !placed {
		out = append(out, s)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].lo < out[j].lo })
	return out
}

// subSpans returns the parts of s not covered by the sorted list.
func subSpans(s span, list []span) []span {
	var out []span
	cur := s.lo
	for _, x := range list {
		if x.hi < cur || x.lo > s.hi {
			continue
		}
		if x.lo > cur {
			out = append(out, span{cur, x.lo - 1})
		}
		cur = max(cur, x.hi+1)
		if cur > s.hi {
			return out
		}
	}
	if cur <= s.hi {
		out = append(out, span{cur, s.hi})
	}
	return out
}

func intersectSpans(a, b []span) []span {
	var out []span
	for _, x := range a {
		for _, y := range b {
			lo, hi := max(x.lo, y.lo), min(x.hi, y.hi)
			if lo <= hi {
				out = append(out, span{lo, hi})
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].lo < out[j].lo })
	return out
}

// ParentPath drops the last component of a hierarchical path ("top.u[1].q"
// gives "top.u[1]"; dots inside brackets do not split), "" when none.
func ParentPath(p string) string { return program.ParentPath(p) }
