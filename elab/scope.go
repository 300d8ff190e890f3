package elab

import (
	"fmt"
	"sort"
	"strings"

	"github.com/weft-hdl/weft/design"
	"github.com/weft-hdl/weft/hdl"
)

type symKind int

const (
	symParam       symKind = iota // value parameter, localparam, enum item, genvar value
	symEnumPending                // enum item whose type is not resolved yet
	symType                       // typedef or type parameter
	symVar                        // variable, net or port (a home)
	symFunc                       // function or task
	symGenvar                     // genvar declared but not bound
	symScope                      // named generate block or instance (hierarchical prefix)
	symScopeArray                 // generate-for block or instance array
	symResult                     // a function's own name inside its body (the result)
	symModport                    // a modport of an interface
)

// symbol is one name in a scope.
type symbol struct {
	kind symKind
	name string
	pos  hdl.Pos

	// symParam: the value; lazily evaluated from param when val is nil.
	val        *cval
	param      *hdl.ParamDecl
	decl       *hdl.Declarator
	override   *override
	local      bool
	evaluating bool
	declScope  *scope
	// symEnumPending: the item and how to resolve its type.
	enumItem    *hdl.EnumItem
	enumResolve func()

	// symType
	typ       *ptype
	typedef   *hdl.Typedef
	typeParam *hdl.DataType
	resolving bool

	// symVar
	home     *design.Home
	vt       *ptype
	unpacked []design.Dim
	dir      hdl.Direction
	isPort   bool
	isNet    bool
	// varDecl is the declaration still to be turned into a home (lazy).
	varDecl *hdl.VarDecl
	// portMerged is a non-ANSI body declaration completing a port.
	portMerged  *hdl.VarDecl
	implicitNet bool
	homeFailed  bool

	// symFunc
	fn         *hdl.Function
	task       *hdl.Task
	dfn        *design.Function
	fnFailed   bool
	tfPorts    []*hdl.TFPort
	resultType *ptype

	// symScope / symScopeArray
	sub    *scope
	subs   map[int]*scope
	isInst bool
	// iport is set for a module's interface port (symScope, sub bound at
	// instantiation); mp restricts access through it (also symModport).
	iport *ifacePort
	mp    *modportInfo
	// adim is the declared range of an instance array or interface port
	// array (symScopeArray).
	adim *design.Dim
}

// scope is a name space: the compilation unit, a package, a module
// instance, a generate block, a procedural block or a function body.
type scope struct {
	parent  *scope
	path    string // hierarchical prefix of names declared here
	syms    map[string]*symbol
	imports []*scope // wildcard-imported package scopes
	inst    *instCtx // owning module instance; nil for unit and packages
	pkg     string   // package name for package scopes
	// genCount numbers generate constructs for genblkN names.
	genCount int
	// fn is the function whose body this scope belongs to.
	fn *design.Function
	// laterInst holds the module instances of this scope not elaborated
	// yet, for a clear message when a hierarchical name reaches one.
	laterInst map[string]hdl.Pos
	// homeKind is the kind of the homes declared here: KindVar in module
	// and generate scopes, KindBlockLocal in process blocks, KindFuncLocal
	// in functions.
	homeKind design.HomeKind
}

func newScope(parent *scope, path string) *scope {
	s := &scope{parent: parent, path: path, syms: map[string]*symbol{}}
	if parent != nil {
		s.inst = parent.inst
		s.fn = parent.fn
		s.homeKind = parent.homeKind
	}
	return s
}

func (s *scope) local(name string) *symbol {
	if sym, ok := s.syms[name]; ok {
		return sym
	}
	for _, p := range s.imports {
		if sym, ok := p.syms[name]; ok {
			return sym
		}
	}
	return nil
}

// lookup searches s, its imports and its enclosing scopes.
func (s *scope) lookup(name string) *symbol {
	for c := s; c != nil; c = c.parent {
		if sym := c.local(name); sym != nil {
			return sym
		}
	}
	return nil
}

// lookupFunc finds the nearest function symbol named name (skipping a
// function's own result name).
func (s *scope) lookupFunc(name string) *symbol {
	for c := s; c != nil; c = c.parent {
		if sym := c.local(name); sym != nil && sym.kind == symFunc {
			return sym
		}
	}
	return nil
}

// names lists every name visible from s (for suggestions).
func (s *scope) names() []string {
	seen := map[string]bool{}
	var out []string
	for c := s; c != nil; c = c.parent {
		add := func(m map[string]*symbol) {
			for n := range m {
				if !seen[n] {
					seen[n] = true
					out = append(out, n)
				}
			}
		}
		add(c.syms)
		for _, p := range c.imports {
			add(p.syms)
		}
	}
	sort.Strings(out)
	return out
}

// suggest returns ` (did you mean 'x'?)` for the closest visible name.
func (s *scope) suggest(name string) string {
	return suggestFrom(name, s.names())
}

func suggestFrom(name string, cands []string) string {
	best, bestD := "", 1<<30
	for _, c := range cands {
		if c == name || strings.HasPrefix(c, "$") {
			continue
		}
		d := editDistance(strings.ToLower(name), strings.ToLower(c))
		if d < bestD || (d == bestD && c < best) {
			best, bestD = c, d
		}
	}
	limit := 1
	if len(name) > 2 {
		limit = 2
	}
	if len(name) > 8 {
		limit = 3
	}
	if best != "" && bestD <= limit && bestD < len(name) {
		return fmt.Sprintf("; did you mean '%s'?", best)
	}
	return ""
}

// editDistance is the optimal string alignment distance (insertions,
// deletions, substitutions and adjacent transpositions).
func editDistance(a, b string) int {
	if len(a) > 64 || len(b) > 64 {
		if a == b {
			return 0
		}
		return 1 << 20
	}
	d := make([][]int, len(a)+1)
	for i := range d {
		d[i] = make([]int, len(b)+1)
		d[i][0] = i
	}
	for j := 0; j <= len(b); j++ {
		d[0][j] = j
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			c := 1
			if a[i-1] == b[j-1] {
				c = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+c)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(a)][len(b)]
}

// declare adds sym to s, reporting a redeclaration.
func (e *elab) declare(s *scope, sym *symbol) bool {
	if old, ok := s.syms[sym.name]; ok {
		if old.kind == symGenvar && sym.kind == symParam {
			s.syms[sym.name] = sym
			return true
		}
		e.errorf(sym.pos, "'%s' is already declared (at %s)", sym.name, old.pos)
		return false
	}
	s.syms[sym.name] = sym
	return true
}
