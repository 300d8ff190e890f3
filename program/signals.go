package program

import (
	"fmt"
	"strings"
)

// Pos is a place in the source: file, line and column (1-based; Line 0
// when only the file is known).
type Pos struct {
	File      string
	Line, Col int
}

// Before orders positions by file, line and column.
func (p Pos) Before(q Pos) bool {
	if p.File != q.File {
		return p.File < q.File
	}
	if p.Line != q.Line {
		return p.Line < q.Line
	}
	return p.Col < q.Col
}

func (p Pos) String() string {
	if p.Line <= 0 {
		if p.File != "" {
			return p.File
		}
		return "<unknown>"
	}
	return fmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Col)
}

// Kind says what declared a signal.
type Kind uint8

const (
	KindVar        Kind = iota // module-level variable (logic, reg, int, ...)
	KindNet                    // module-level net (wire, tri, implicit net)
	KindInput                  // input port
	KindOutput                 // output port
	KindBlockLocal             // variable declared inside a process (private to it)
	KindStatic                 // static variable of a function or task
)

var kindNames = [...]string{"var", "net", "input", "output", "local", "static"}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("Kind(%d)", int(k))
}

// Dim is one declared dimension [Left:Right]. Unpacked dimensions store
// index Lo()+k as element k, whatever the direction; several are
// flattened row-major, the leftmost outermost.
type Dim struct{ Left, Right int }

// Size is the number of indexes in the dimension.
func (d Dim) Size() int {
	if d.Left >= d.Right {
		return d.Left - d.Right + 1
	}
	return d.Right - d.Left + 1
}

func (d Dim) String() string { return fmt.Sprintf("[%d:%d]", d.Left, d.Right) }

// Lo is the smaller bound, Hi the larger.
func (d Dim) Lo() int { return min(d.Left, d.Right) }
func (d Dim) Hi() int { return max(d.Left, d.Right) }

// Signal is one storage object of the design that a test bench, a dump or
// a Force can name: ID indexes Program.Signals and the layout's objects.
type Signal struct {
	ID   int
	Name string // as declared
	Path string // hierarchical: "top.u_core.pc"
	// Aliases are the signal's other hierarchical names: child ports
	// connected straight to it.
	Aliases []string
	// ScopeIndex indexes Program.Scopes (-1: none, a static variable of a
	// package function).
	ScopeIndex int
	Kind       Kind
	// Width is the bit width of one element; Signed its signedness.
	Width  int
	Signed bool
	// Packed are the packed dimensions as written (outermost first);
	// Unpacked the array shape (nil for a scalar).
	Packed, Unpacked []Dim
	TypeName         string // the declared type as SystemVerilog text
	Pos              Pos
	// NoForce says which elements a Force cannot hold and why (see
	// ForceLimit); nil when every element can be forced.
	NoForce []ForceLimit
	// Shares is set on a signal with no storage of its own: the compiler
	// removed a continuous assignment copying it to or from another
	// signal, and its value is element Elem of signal ID Signal.
	Shares *SignalElem
	// Copies are the elements such a removed assignment drove: they share
	// the storage of the signal they copied, so a Deposit on them, which
	// the next settle would have undone, is refused.
	Copies []CopyTarget

	scope *Scope
}

// SignalElem is element Elem of the signal whose ID is Signal.
type SignalElem struct{ Signal, Elem int }

// CopyTarget is element Elem of a signal that the continuous assignment at
// Pos copied From (a signal path) into, before the compiler let both share
// one storage location.
type CopyTarget struct {
	Elem int
	From string
	Pos  Pos
}

// ForceLimit is why a range of a signal's elements cannot be forced: a
// forced value is rewritten after every evaluation, which cannot hold
// against what the design itself recomputes within one.
type ForceLimit struct {
	ElemLo, ElemHi int
	Reason         ForceReason
	// Pos is the process that drives the elements (ForceComb,
	// ForceReadBack); ReadPos where it reads them back (ForceReadBack).
	Pos, ReadPos Pos
	// Process is the driving process's kind ("assign", "always_comb").
	Process string
	// Drivers are the signals a comb driver reads: what to force instead.
	Drivers []string
}

// ForceReason classifies a ForceLimit.
type ForceReason uint8

const (
	// ForceComb: combinational logic drives the elements.
	ForceComb ForceReason = iota + 1
	// ForceClock: a clock or reset the design drives itself.
	ForceClock
	// ForceReadBack: a clocked process assigns the elements with a
	// blocking assignment and reads them back in the same evaluation.
	ForceReadBack
)

// Scope is the instance or function scope a signal belongs to.
func (s *Signal) Scope() *Scope { return s.scope }

// IsArray reports whether the signal has unpacked dimensions.
func (s *Signal) IsArray() bool { return len(s.Unpacked) > 0 }

// Elems is the number of elements (1 for a scalar).
func (s *Signal) Elems() int {
	n := 1
	for _, d := range s.Unpacked {
		n *= d.Size()
	}
	return n
}

// Names returns Path followed by Aliases.
func (s *Signal) Names() []string { return append([]string{s.Path}, s.Aliases...) }

func (s *Signal) String() string { return s.Path }

// Scope is one instance of the design's hierarchy.
type Scope struct {
	// Name is the instance name as written ("u_tx", "u_lane[2]"); Path the
	// hierarchical name including generate scopes ("top.g[1].u_tx").
	Name, Path, Module string
	// ParentIndex indexes Program.Scopes (-1 for the top).
	ParentIndex int
	Pos         Pos

	parent   *Scope
	children []*Scope
	signals  []*Signal
}

// Parent is the enclosing instance (nil for the top).
func (s *Scope) Parent() *Scope { return s.parent }

// Children are the instances directly below, in elaboration order.
func (s *Scope) Children() []*Scope { return s.children }

// Signals are the signals declared in the instance, in design order
// (ports connected straight to a parent signal are that signal's
// aliases, not listed here).
func (s *Scope) Signals() []*Signal { return s.signals }

// Function is a function or task scope (its static variables are signals
// with paths below Name).
type Function struct {
	Name string // "top.u_alu.f" or "pkg::f"
	Task bool
}

// DumpVars is one $dumpvars call of the design's initial blocks.
type DumpVars struct {
	// Levels is how many levels of instances to dump below each scope (1:
	// the scope's own signals; 0: every level).
	Levels int
	// Scopes are instance paths and Signals signal names the call names;
	// both empty for the whole design.
	Scopes, Signals []string
	Pos             Pos
}

// Dump is the design's own dump request: $dumpfile and $dumpvars.
type Dump struct {
	File string // "" when no $dumpfile named one
	Vars []DumpVars
}

// ParentPath is the hierarchical path above p ("top.u.x" → "top.u"), ""
// at the top; dots inside brackets do not count.
func ParentPath(p string) string {
	depth := 0
	for i := len(p) - 1; i >= 0; i-- {
		switch p[i] {
		case ']':
			depth++
		case '[':
			depth--
		case '.':
			if depth == 0 {
				return p[:i]
			}
		}
	}
	return ""
}

// TimeString spells a power of ten of a second as a time literal: -9 is
// "1ns", -8 "10ns", -13 "100fs"; exponents no `timescale can write come
// out as "1e<exp>s".
func TimeString(exp int) string {
	if exp > 2 || exp < -15 {
		return fmt.Sprintf("1e%ds", exp)
	}
	units := []string{"fs", "ps", "ns", "us", "ms", "s"}
	k := (exp + 15) / 3
	return []string{"1", "10", "100"}[exp+15-3*k] + units[k]
}

// tsUnits are the unit names of §22.7 with their powers of ten.
var tsUnits = []struct {
	name string
	exp  int
}{{"s", 0}, {"ms", -3}, {"us", -6}, {"ns", -9}, {"ps", -12}, {"fs", -15}}

// ParseTimeUnit reads one time literal of a `timescale ("1ns", "10 ps",
// "100fs"): 1, 10 or 100 followed by s, ms, us, ns, ps or fs. It returns the
// power of ten of a second (the inverse of TimeString).
func ParseTimeUnit(s string) (int, error) {
	s = strings.TrimSpace(s)
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	mag := -1
	switch s[:i] {
	case "1":
		mag = 0
	case "10":
		mag = 1
	case "100":
		mag = 2
	}
	if mag < 0 {
		return 0, fmt.Errorf("time literal %q: the magnitude must be 1, 10 or 100", s)
	}
	unit := strings.TrimSpace(s[i:])
	for _, u := range tsUnits {
		if u.name == unit {
			return u.exp + mag, nil
		}
	}
	return 0, fmt.Errorf("time literal %q: the unit must be s, ms, us, ns, ps or fs", s)
}

// link sets the pointers the encoded indexes stand for and the lookup
// tables. It checks every index, so a decoded program with a bad one is an
// error, not a crash.
func (p *Program) link() error {
	p.byPath = make(map[string]*Signal, len(p.Signals))
	p.scopeByPath = make(map[string]*Scope, len(p.Scopes))
	for i, sc := range p.Scopes {
		if sc == nil {
			return fmt.Errorf("program: scope %d missing", i)
		}
		sc.parent, sc.children, sc.signals = nil, nil, nil
		switch {
		case sc.ParentIndex == -1:
		case sc.ParentIndex >= 0 && sc.ParentIndex < i:
			sc.parent = p.Scopes[sc.ParentIndex]
			sc.parent.children = append(sc.parent.children, sc)
		default:
			return fmt.Errorf("program: scope %s: parent %d out of range", sc.Path, sc.ParentIndex)
		}
		p.scopeByPath[sc.Path] = sc
	}
	p.Top = nil
	if len(p.Scopes) > 0 {
		p.Top = p.Scopes[0]
	}
	for i, s := range p.Signals {
		if s == nil || s.ID != i {
			return fmt.Errorf("program: signal %d missing or misnumbered", i)
		}
		if s.Width < 1 || s.Elems() < 1 {
			return fmt.Errorf("program: signal %s: width %d, %d elements", s.Path, s.Width, s.Elems())
		}
		s.scope = nil
		switch {
		case s.ScopeIndex == -1:
		case s.ScopeIndex >= 0 && s.ScopeIndex < len(p.Scopes):
			s.scope = p.Scopes[s.ScopeIndex]
			s.scope.signals = append(s.scope.signals, s)
		default:
			return fmt.Errorf("program: signal %s: scope %d out of range", s.Path, s.ScopeIndex)
		}
		p.byPath[s.Path] = s
	}
	for _, s := range p.Signals {
		for _, a := range s.Aliases {
			if _, dup := p.byPath[a]; !dup {
				p.byPath[a] = s
			}
		}
	}
	return nil
}

// Lookup finds a signal by hierarchical name: "top.u_core.pc", or the same
// without the top instance's prefix ("u_core.pc"); aliases too.
func (p *Program) Lookup(path string) (*Signal, bool) {
	if s, ok := p.byPath[path]; ok {
		return s, true
	}
	if p.Top != nil {
		if s, ok := p.byPath[p.Top.Path+"."+path]; ok {
			return s, true
		}
	}
	return nil, false
}

// Scope finds an instance by hierarchical path, with or without the top
// prefix; "" is the top.
func (p *Program) Scope(path string) (*Scope, bool) {
	if p.Top == nil {
		return nil, false
	}
	if path == "" {
		return p.Top, true
	}
	if sc, ok := p.scopeByPath[path]; ok {
		return sc, true
	}
	sc, ok := p.scopeByPath[p.Top.Path+"."+path]
	return sc, ok
}

// ShortName is a hierarchical name without the top instance's prefix, as
// specs name signals.
func (p *Program) ShortName(path string) string {
	if p.Top != nil {
		if rest, ok := strings.CutPrefix(path, p.Top.Path+"."); ok {
			return rest
		}
	}
	return path
}
