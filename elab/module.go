package elab

import (
	"fmt"
	"math/big"
	"sort"
	"strings"

	"github.com/weft-hdl/weft/design"
	"github.com/weft-hdl/weft/hdl"
)

// instCtx is one module instance being elaborated.
type instCtx struct {
	inst   *design.Instance
	mod    *hdl.Module
	sc     *scope
	parent *instCtx
	depth  int
	ports  []*portInfo
	byName map[string]*portInfo
	key    string // module name and overrides, for recursion detection
	// overridden are the parameters given a value by the instantiation
	// (in declaration order); typeOverride is set when a type parameter
	// is given a type. Both decide whether instances can share a template
	// (see templateKey).
	overridden   []*symbol
	typeOverride bool
}

type portInfo struct {
	name string
	pos  hdl.Pos
	dir  hdl.Direction
	sym  *symbol
}

const maxDepth = 64

// ---- declarations ----

// registerItems declares the names of items in sc: parameters, typedefs,
// enum items, functions, tasks, imports, genvars and variables (whose homes
// are created later by declPass). paramsLocal makes `parameter` act as
// `localparam` (module bodies with a header parameter list, generate
// blocks, packages).
func (e *elab) registerItems(sc *scope, items []hdl.Item, paramsLocal bool) {
	for _, it := range items {
		switch it := it.(type) {
		case *hdl.ParamDecl:
			for i, d := range it.Names {
				if it.TypeParam {
					s := &symbol{kind: symType, name: d.Name, pos: d.Pos, declScope: sc, local: it.Local || paramsLocal, param: it}
					if i < len(it.TypeDefaults) {
						s.typeParam = it.TypeDefaults[i]
					}
					e.declare(sc, s)
					continue
				}
				e.declare(sc, &symbol{kind: symParam, name: d.Name, pos: d.Pos, param: it, decl: d, declScope: sc, local: it.Local || paramsLocal})
			}
			if it.Type != nil {
				e.registerEnums(sc, it.Type, func() { e.resolveType(it.Type, sc) })
			}
		case *hdl.Typedef:
			if it.Type == nil {
				continue // forward typedef
			}
			s := &symbol{kind: symType, name: it.Name, pos: it.Pos, typedef: it, declScope: sc}
			if old, ok := sc.syms[it.Name]; ok && old.kind == symType && old.typedef == nil && old.typeParam == nil {
				delete(sc.syms, it.Name)
			}
			e.declare(sc, s)
			e.registerEnums(sc, it.Type, func() { e.symType(s) })
		case *hdl.Function:
			e.declare(sc, &symbol{kind: symFunc, name: it.Name, pos: it.Pos, fn: it, declScope: sc})
		case *hdl.Task:
			e.declare(sc, &symbol{kind: symFunc, name: it.Name, pos: it.Pos, task: it, declScope: sc})
		case *hdl.Import:
			e.doImport(sc, it)
		case *hdl.Genvar:
			for _, n := range it.Names {
				e.declare(sc, &symbol{kind: symGenvar, name: n, pos: it.Pos, declScope: sc})
			}
		case *hdl.VarDecl:
			var first *symbol
			for _, d := range it.Names {
				if old, ok := sc.syms[d.Name]; ok && old.isPort && old.varDecl != nil && old.varDecl != it && old.portMerged == nil {
					// Non-ANSI: `output q; reg [7:0] q;` completes the port.
					old.portMerged = it
					continue
				}
				s := &symbol{kind: symVar, name: d.Name, pos: d.Pos, varDecl: it, decl: d, declScope: sc}
				if e.declare(sc, s) && first == nil {
					first = s
				}
			}
			if first != nil {
				e.registerEnums(sc, it.Type, func() { e.varType(first) })
			}
		case *hdl.GenRegion:
			e.registerItems(sc, it.Items, paramsLocal)
		case *hdl.Modport:
			e.registerModport(sc, it)
		}
	}
}

// registerEnums pre-declares the enum items of a type so that they can be
// used before the type is resolved.
func (e *elab) registerEnums(sc *scope, dt *hdl.DataType, resolve func()) {
	if dt == nil {
		return
	}
	if dt.Kind == hdl.TypeEnum && dt.Enum != nil {
		for _, it := range dt.Enum.Items {
			if _, ok := sc.syms[it.Name]; ok {
				e.errorf(it.Pos, "'%s' is already declared", it.Name)
				continue
			}
			sc.syms[it.Name] = &symbol{kind: symEnumPending, name: it.Name, pos: it.Pos, enumItem: it, enumResolve: resolve}
		}
	}
	if dt.Struct != nil {
		for _, m := range dt.Struct.Members {
			e.registerEnums(sc, m.Type, resolve)
		}
	}
}

func (e *elab) doImport(sc *scope, imp *hdl.Import) {
	ps := e.pkgScope(imp.Package, imp.Pos)
	if ps == nil {
		return
	}
	if imp.Name == "*" {
		for _, p := range sc.imports {
			if p == ps {
				return
			}
		}
		sc.imports = append(sc.imports, ps)
		return
	}
	s := ps.syms[imp.Name]
	if s == nil {
		e.errorf(imp.Pos, "package '%s' has no '%s'%s", imp.Package, imp.Name, suggestFrom(imp.Name, ps.names()))
		return
	}
	if old, ok := sc.syms[imp.Name]; ok && old != s {
		e.errorf(imp.Pos, "importing '%s::%s' conflicts with '%s' declared at %s", imp.Package, imp.Name, imp.Name, old.pos)
		return
	}
	sc.syms[imp.Name] = s
}

// pkgScope returns the scope of a package, reporting an unknown name.
func (e *elab) pkgScope(name string, pos hdl.Pos) *scope {
	if ps, ok := e.pkgs[name]; ok {
		return ps
	}
	if pk, ok := e.pkgDecls[name]; ok {
		ps := newScope(e.unit, "")
		ps.pkg = name
		ps.homeKind = design.KindVar
		e.pkgs[name] = ps
		for _, it := range pk.Items {
			if vd, ok := it.(*hdl.VarDecl); ok {
				e.errorf(vd.Pos, "variables in packages are not supported yet")
			}
		}
		e.registerItems(ps, pk.Items, true)
		return ps
	}
	var names []string
	for n := range e.pkgDecls {
		names = append(names, n)
	}
	e.errorf(pos, "unknown package '%s'%s", name, suggestFrom(name, names))
	return nil
}

// varType resolves a variable's type and unpacked shape.
func (e *elab) varType(s *symbol) *ptype {
	if s.vt != nil || s.homeFailed {
		return s.vt
	}
	if s.resolving {
		e.errorf(s.pos, "the type of '%s' depends on itself", s.name)
		return nil
	}
	if !e.enterAt(s.pos) {
		return nil
	}
	defer e.leave()
	s.resolving = true
	defer func() { s.resolving = false }()
	vd := s.varDecl
	dt := vd.Type
	if s.portMerged != nil {
		// Non-ANSI port completed by a variable declaration: the declaration
		// with dimensions or a data type wins.
		if md := s.portMerged.Type; md != nil && (md.Kind != hdl.TypeImplicit || len(md.Packed) > 0 || dt == nil || (dt.Kind == hdl.TypeImplicit && len(dt.Packed) == 0)) {
			dt = md
		}
	}
	t := e.resolveType(dt, s.declScope)
	if t == nil {
		s.homeFailed = true
		return nil
	}
	var un []design.Dim
	if s.decl != nil && len(s.decl.Unpacked) > 0 {
		var ok bool
		un, ok = e.evalDims(s.decl.Unpacked, s.declScope)
		if !ok {
			s.homeFailed = true
			return nil
		}
		if n := prodDims(un); n > maxElems || n <= 0 {
			e.errorf(s.decl.Pos, "array '%s' has %d elements; the limit is %d", s.name, n, maxElems)
			s.homeFailed = true
			return nil
		}
	}
	s.vt, s.unpacked = t, un
	return t
}

// ensureHome creates the home of a variable symbol on first use.
func (e *elab) ensureHome(s *symbol) *design.Home {
	if s.home != nil {
		return s.home
	}
	if s.homeFailed || s.varDecl == nil {
		return nil
	}
	t := e.varType(s)
	if t == nil {
		return nil
	}
	kind := s.declScope.homeKind
	if kind == design.KindVar {
		if s.isPort {
			kind = design.KindInput
			if s.dir == hdl.DirOutput {
				kind = design.KindOutput
			}
		} else if s.varDecl.Net != hdl.NetNone || s.implicitNet {
			kind = design.KindNet
		}
	}
	s.home = e.newHome(s.declScope, s.name, t, s.unpacked, kind, s.pos)
	return s.home
}

// newHome creates a home; function homes are not listed in the design.
func (e *elab) newHome(sc *scope, name string, t *ptype, un []design.Dim, kind design.HomeKind, pos hdl.Pos) *design.Home {
	path := name
	if sc.path != "" {
		path = sc.path + "." + name
	}
	h := &design.Home{ID: -1, Name: name, Kind: kind, Width: t.width, Signed: t.signed,
		Unpacked: un, TypeName: typeSV(t), Pos: dpos(pos)}
	if len(t.dims) > 0 {
		h.Packed = append([]design.Dim{}, t.dims...)
	}
	if sc.inst != nil {
		h.Inst = sc.inst.inst
	}
	if kind == design.KindFuncLocal {
		h.Path = path
		return h
	}
	if n := e.paths[path]; n > 0 {
		e.paths[path] = n + 1
		path = fmt.Sprintf("%s#%d", path, n+1)
	}
	e.paths[path]++
	h.Path = path
	h.ID = len(e.d.Homes)
	e.d.Homes = append(e.d.Homes, h)
	if h.Inst != nil {
		h.Inst.Homes = append(h.Inst.Homes, h)
	}
	return h
}

func (e *elab) funcHome(sc *scope, name string, t *ptype, un []design.Dim, pos hdl.Pos) *design.Home {
	return e.newHome(sc, name, t, un, design.KindFuncLocal, pos)
}

// ---- instances ----

// newInstance creates an instance scope: parameters (with overrides) and
// port types. Homes and behaviour come with build.
func (e *elab) newInstance(mod *hdl.Module, name, path string, parent *instCtx, named map[string]*override, positional []*override, pos hdl.Pos) *instCtx {
	ic := &instCtx{mod: mod, parent: parent, byName: map[string]*portInfo{}}
	in := &design.Instance{Name: name, Path: path, Module: mod.Name, Pos: dpos(pos)}
	ic.inst = in
	if parent != nil {
		ic.depth = parent.depth + 1
		in.Parent = parent.inst
		parent.inst.Children = append(parent.inst.Children, in)
	}
	e.d.Instances = append(e.d.Instances, in)
	e.insts = append(e.insts, ic)
	sc := newScope(e.unit, path)
	sc.inst = ic
	sc.homeKind = design.KindVar
	ic.sc = sc
	for _, imp := range mod.Imports {
		e.doImport(sc, imp)
	}
	hdrItems := make([]hdl.Item, len(mod.Params))
	for i, p := range mod.Params {
		hdrItems[i] = p
	}
	e.registerItems(sc, hdrItems, false)
	// Ports are declared before the body so that a non-ANSI `reg q;`
	// completes its port.
	e.declarePorts(ic)
	e.registerItems(sc, mod.Items, len(mod.Params) > 0)
	if mod.Interface {
		e.checkModports(sc, mod.Items)
	}

	// Overridable parameters in order.
	var over []*symbol
	addOver := func(items []hdl.Item) {
		for _, it := range items {
			pd, ok := it.(*hdl.ParamDecl)
			if !ok || pd.Local {
				continue
			}
			for _, d := range pd.Names {
				if s := sc.syms[d.Name]; s != nil && !s.local {
					over = append(over, s)
				}
			}
		}
	}
	if len(mod.Params) > 0 {
		addOver(hdrItems)
	} else {
		addOver(mod.Items)
	}
	apply := func(s *symbol, ov *override) {
		if s.kind == symType {
			if ov.typ == nil {
				e.errorf(ov.pos, "type parameter '%s' needs a type", s.name)
				return
			}
			s.typ = ov.typ
			ic.typeOverride = true
			return
		}
		if ov.typ != nil {
			e.errorf(ov.pos, "parameter '%s' needs a value, not a type", s.name)
			return
		}
		s.override = ov
	}
	for i, ov := range positional {
		if i >= len(over) {
			e.errorf(ov.pos, "too many parameter overrides for module '%s' (it has %d parameters)", mod.Name, len(over))
			break
		}
		apply(over[i], ov)
	}
	var names []string
	for n := range named {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		ov := named[n]
		s := sc.syms[n]
		if s == nil || (s.kind != symParam && s.kind != symType) || s.param == nil {
			var cands []string
			for _, o := range over {
				cands = append(cands, o.name)
			}
			e.errorf(ov.pos, "module '%s' has no parameter '%s'%s", mod.Name, n, suggestFrom(n, cands))
			continue
		}
		if s.local {
			e.errorf(ov.pos, "'%s' is a localparam of module '%s' and cannot be overridden", n, mod.Name)
			continue
		}
		apply(s, ov)
	}
	for _, o := range over {
		if o.override != nil {
			ic.overridden = append(ic.overridden, o)
		}
	}
	// Record the key for recursion detection.
	var kb strings.Builder
	kb.WriteString(mod.Name)
	for _, o := range over {
		if o.override != nil && o.override.val != nil {
			fmt.Fprintf(&kb, ",%s=%s", o.name, o.override.val.v.Text(16))
		}
	}
	ic.key = kb.String()
	return ic
}

// declarePorts declares the module's ports as symbols.
func (e *elab) declarePorts(ic *instCtx) {
	mod, sc := ic.mod, ic.sc
	add := func(name string, pos hdl.Pos, dir hdl.Direction, vd *hdl.VarDecl, d *hdl.Declarator) {
		switch dir {
		case hdl.DirInout:
			e.errorf(pos, "inout ports are not supported yet (port '%s')", name)
			return
		case hdl.DirRef:
			e.errorf(pos, "ref ports are not supported yet (port '%s')", name)
			return
		}
		s := &symbol{kind: symVar, name: name, pos: pos, varDecl: vd, decl: d, declScope: sc, isPort: true, dir: dir}
		if !e.declare(sc, s) {
			return
		}
		pi := &portInfo{name: name, pos: pos, dir: dir, sym: s}
		ic.ports = append(ic.ports, pi)
		ic.byName[name] = pi
	}
	if mod.ANSI {
		dir := hdl.DirNone
		var dt *hdl.DataType
		net := hdl.NetNone
		for _, pd := range mod.Ports {
			if pd.Interface != "" {
				for _, n := range pd.Names {
					ip := parseIfacePort(pd.Interface)
					ip.unpacked = n.Unpacked
					e.declareIfacePort(ic, n.Name, n.Pos, ip)
				}
				continue
			}
			if pd.Dir != hdl.DirNone {
				dir, dt, net = pd.Dir, pd.Type, pd.Net
			} else if pd.Type != nil {
				dt, net = pd.Type, pd.Net
			}
			d := dir
			if d == hdl.DirNone {
				if dt != nil && dt.Kind == hdl.TypeNamed && e.isInterface(dt.Name) && len(dt.Packed) == 0 {
					for _, n := range pd.Names {
						e.declareIfacePort(ic, n.Name, n.Pos, &ifacePort{iface: dt.Name, unpacked: n.Unpacked})
					}
					dt = nil
					continue
				}
				d = hdl.DirInout
			}
			for _, n := range pd.Names {
				add(n.Name, n.Pos, d, &hdl.VarDecl{At: pd.At, Net: net, Var: pd.Var, Type: dt, Names: []*hdl.Declarator{n}}, n)
			}
		}
		for _, it := range mod.Items {
			if pd, ok := it.(*hdl.PortDecl); ok {
				e.errorf(pd.Pos, "port declarations in the body are not allowed in a module with an ANSI port list")
			}
		}
		return
	}
	// Non-ANSI: directions and types come from body port declarations.
	decls := map[string]*hdl.PortDecl{}
	decl1 := map[string]*hdl.Declarator{}
	for _, it := range mod.Items {
		pd, ok := it.(*hdl.PortDecl)
		if !ok {
			continue
		}
		for _, n := range pd.Names {
			if _, dup := decls[n.Name]; dup {
				e.errorf(n.Pos, "port '%s' is declared twice", n.Name)
				continue
			}
			decls[n.Name] = pd
			decl1[n.Name] = n
		}
	}
	inHeader := map[string]bool{}
	for _, hp := range mod.Ports {
		if hp.Interface != "" {
			e.errorf(hp.Pos, "interface ports in a non-ANSI port list are not supported yet (port of type '%s'); declare the ports in the header", hp.Interface)
			continue
		}
		for _, n := range hp.Names {
			inHeader[n.Name] = true
			pd := decls[n.Name]
			if pd == nil {
				e.errorf(n.Pos, "port '%s' has no direction declaration (add 'input' or 'output %s;' to the module body)", n.Name, n.Name)
				continue
			}
			d := decl1[n.Name]
			add(n.Name, d.Pos, pd.Dir, &hdl.VarDecl{At: pd.At, Net: pd.Net, Var: pd.Var, Type: pd.Type, Names: []*hdl.Declarator{d}}, d)
		}
	}
	var extra []string
	for name := range decls {
		if !inHeader[name] {
			extra = append(extra, name)
		}
	}
	sort.Strings(extra)
	for _, name := range extra {
		e.errorf(decl1[name].Pos, "'%s' is declared as a port but is not in the port list of module '%s'", name, mod.Name)
	}
}

// build creates the instance's homes and behaviour. aliases maps port names
// to parent homes the ports are collapsed into.
func (e *elab) build(ic *instCtx, aliases map[string]*design.Home) {
	for _, pi := range ic.ports {
		s := pi.sym
		if h := aliases[pi.name]; h != nil {
			s.home = h
			e.varType(s)
			h.Aliases = append(h.Aliases, ic.sc.path+"."+pi.name)
			continue
		}
		if h := e.ensureHome(s); h != nil && pi.dir == hdl.DirOutput && s.decl != nil && s.decl.Init != nil && len(s.unpacked) == 0 {
			// `output logic q = 0`: the initial value of the variable.
			if cv, ok := e.paramEval(s.decl.Init, ic.sc, fmt.Sprintf("initial value of '%s'", pi.name)); ok {
				cv = cv.convert(s.vt)
				if cv.u != nil {
					e.xzReadsZero(cv.constExpr())
				}
				if v := cv.v; v.Sign() != 0 {
					h.Init = &design.Init{Value: v}
				}
			}
		}
	}
	e.elabScope(ic.sc, ic.mod.Items)
}

func flatten(items []hdl.Item, out []hdl.Item) []hdl.Item {
	for _, it := range items {
		if r, ok := it.(*hdl.GenRegion); ok {
			out = flatten(r.Items, out)
			continue
		}
		out = append(out, it)
	}
	return out
}

// elabScope elaborates the items of a module body or generate block whose
// names are registered: homes, then generate constructs, then processes
// and instances in source order.
func (e *elab) elabScope(sc *scope, items []hdl.Item) {
	items = flatten(items, nil)
	for _, it := range items {
		if vd, ok := it.(*hdl.VarDecl); ok {
			for _, d := range vd.Names {
				if s := sc.syms[d.Name]; s != nil && s.kind == symVar && s.varDecl == vd {
					e.ensureHome(s)
				}
			}
		}
	}
	e.interfaceInstances(sc, items)
	// Implicit nets: simple names in port connections that nothing declares.
	for _, it := range items {
		inst, ok := it.(*hdl.Instance)
		if !ok {
			continue
		}
		for _, in := range inst.Insts {
			for _, c := range in.Conns {
				id, ok := c.Expr.(*hdl.Ident)
				if !ok || c.Implicit || sc.lookup(id.Name) != nil {
					continue
				}
				s := &symbol{kind: symVar, name: id.Name, pos: id.Pos, declScope: sc, implicitNet: true,
					varDecl: &hdl.VarDecl{At: id.At, Net: hdl.NetWire, Type: &hdl.DataType{At: id.At, Kind: hdl.TypeImplicit}}}
				sc.syms[id.Name] = s
				e.ensureHome(s)
				e.warnc(id.Pos, hdl.CodeImplicit, "implicit 1-bit net '%s' declared by this port connection", id.Name)
			}
		}
	}
	for _, it := range items {
		if in, ok := it.(*hdl.Instance); ok && !e.isInterface(in.Module) {
			for _, n := range in.Insts {
				if sc.laterInst == nil {
					sc.laterInst = map[string]hdl.Pos{}
				}
				sc.laterInst[n.Name] = n.Pos
			}
		}
	}
	num := 0
	for _, it := range items {
		if e.diags.TooMany() {
			return
		}
		switch it.(type) {
		case *hdl.GenFor, *hdl.GenIf, *hdl.GenCase, *hdl.GenBlock:
			num++
			e.generate(sc, it, num)
		}
	}
	for _, it := range items {
		if e.diags.TooMany() {
			return
		}
		switch it := it.(type) {
		case *hdl.ContAssign:
			e.contAssign(sc, it)
		case *hdl.AlwaysBlock:
			e.always(sc, it)
		case *hdl.Instance:
			if !e.isInterface(it.Module) {
				for _, n := range it.Insts {
					delete(sc.laterInst, n.Name)
				}
				e.instantiate(sc, it)
			}
		case *hdl.VarDecl:
			e.varInit(sc, it)
		case *hdl.Unsupported:
			e.errorf(it.Pos, "%s is not supported yet", it.What)
		case *hdl.Assertion:
			e.warnOnceC(it.Pos, hdl.CodeIgnored, "assertions are ignored (weft checks no assertions yet)")
		case *hdl.ElabTask:
			e.elabTask(sc, it)
		}
	}
}

// elabTask runs an elaboration-time $error/$fatal/$warning/$info.
func (e *elab) elabTask(sc *scope, it *hdl.ElabTask) {
	c := it.Call
	args := c.Args
	if c.Name == "$fatal" && len(args) > 0 {
		if _, ok := unparen(args[0]).(*hdl.StringLit); !ok {
			args = args[1:]
		}
	}
	msg := c.Name + " at elaboration"
	if len(args) > 0 {
		if s, ok := unparen(args[0]).(*hdl.StringLit); ok {
			var vals []*cval
			for _, a := range args[1:] {
				if a == nil {
					continue
				}
				v, ok := e.constEval(a, sc, c.Name+" argument")
				if !ok {
					return
				}
				vals = append(vals, v)
			}
			msg = formatConst(s.Value, vals, sc.path)
		}
	}
	switch c.Name {
	case "$error", "$fatal":
		e.errorf(it.Pos, "%s", msg)
	case "$warning", "$info":
		e.warnc(it.Pos, hdl.CodeUserWarn, "%s", msg)
	default:
		e.errorf(it.Pos, "system task '%s' cannot be used as an elaboration-time item", c.Name)
	}
}

// formatConst formats a $display-style string with constant arguments.
func formatConst(f string, vals []*cval, scope string) string {
	var b strings.Builder
	for i := 0; i < len(f); i++ {
		if f[i] != '%' || i+1 >= len(f) {
			b.WriteByte(f[i])
			continue
		}
		i++
		for i < len(f) && f[i] >= '0' && f[i] <= '9' {
			i++
		}
		if i >= len(f) {
			break
		}
		verb := f[i] | 0x20
		if f[i] == '%' {
			b.WriteByte('%')
			continue
		}
		if verb == 'm' {
			b.WriteString(scope)
			continue
		}
		if len(vals) == 0 {
			b.WriteString("<missing>")
			continue
		}
		v := vals[0]
		vals = vals[1:]
		switch verb {
		case 'h', 'x':
			b.WriteString(v.v.Text(16))
		case 'b':
			b.WriteString(v.v.Text(2))
		case 'o':
			b.WriteString(v.v.Text(8))
		case 's':
			b.WriteString(v.text())
		default:
			b.WriteString(v.int().String())
		}
	}
	return b.String()
}

func (e *elab) generate(sc *scope, it hdl.Item, num int) {
	switch g := it.(type) {
	case *hdl.GenIf:
		c, ok := e.paramEval(g.Cond, sc, "generate if condition")
		if !ok {
			return
		}
		// As in an if statement, an x or z condition is false.
		if design.Truth(c.constExpr()) == design.B1 {
			e.genBlock(sc, g.Then, num)
		} else {
			e.genBlock(sc, g.Else, num)
		}
	case *hdl.GenCase:
		// As in a case statement, the subject and every label are sized
		// and signed together: the widest of them, signed only if all are.
		ex := &ectx{e: e, sc: sc, constOnly: true, what: "generate case label"}
		ct := ex.self(g.Expr).t
		for _, ci := range g.Items {
			for _, l := range ci.Exprs {
				t := ex.self(l).t
				ct = design.Type{Width: max(ct.Width, t.Width), Signed: ct.Signed && t.Signed}
			}
		}
		subj, ok := e.foldConst(ex, g.Expr, ct)
		if !ok {
			return
		}
		var def *hdl.GenCaseItem
		for _, ci := range g.Items {
			if ci.Exprs == nil {
				def = ci
				continue
			}
			for _, l := range ci.Exprs {
				lv, ok := e.foldConst(ex, l, ct)
				if !ok {
					return
				}
				if design.FoldCaseEq(lv, subj) {
					e.genBlock(sc, ci.Body, num)
					return
				}
			}
		}
		if def != nil {
			e.genBlock(sc, def.Body, num)
		}
	case *hdl.GenBlock:
		e.genBlock(sc, g, num)
	case *hdl.GenFor:
		e.genFor(sc, g, num)
	}
}

// foldConst evaluates x as a constant in the context type ct.
func (e *elab) foldConst(ex *ectx, x hdl.Expr, ct design.Type) (*design.Const, bool) {
	de := ex.conv(x, ct)
	if ex.failed {
		return nil, false
	}
	k, err := e.fold(de)
	if err != nil {
		e.constErr(x.Position(), ex.what, err)
		return nil, false
	}
	return k, true
}

func (e *elab) genBlock(sc *scope, blk *hdl.GenBlock, num int) {
	if blk == nil {
		return
	}
	if blk.Label == "" && len(blk.Items) == 1 {
		switch blk.Items[0].(type) {
		case *hdl.GenIf, *hdl.GenCase:
			// else-if chains and nested conditionals share the construct.
			e.generate(sc, blk.Items[0], num)
			return
		}
	}
	name := blk.Label
	if name == "" {
		name = fmt.Sprintf("genblk%d", num)
	}
	gsc := newScope(sc, sc.path+"."+name)
	e.declare(sc, &symbol{kind: symScope, name: name, pos: blk.Pos, sub: gsc})
	e.registerItems(gsc, blk.Items, true)
	e.elabScope(gsc, blk.Items)
}

func (e *elab) genFor(sc *scope, g *hdl.GenFor, num int) {
	if !g.DeclaresGenvar {
		s := sc.lookup(g.Var)
		if s == nil {
			e.errorf(g.Pos, "unknown genvar '%s'%s", g.Var, sc.suggest(g.Var))
			return
		}
		if s.kind != symGenvar {
			e.errorf(g.Pos, "'%s' is not a genvar; declare it with 'genvar %s;' or write 'for (genvar %s = ...)'", g.Var, g.Var, g.Var)
			return
		}
	}
	name := ""
	if g.Body != nil {
		name = g.Body.Label
	}
	if name == "" {
		name = fmt.Sprintf("genblk%d", num)
	}
	arr := &symbol{kind: symScopeArray, name: name, pos: g.Pos, subs: map[int]*scope{}}
	if !e.declare(sc, arr) {
		return
	}
	intT := vec(32, true)
	evsc := newScope(sc, sc.path)
	bind := func(v int64) {
		evsc.syms[g.Var] = &symbol{kind: symParam, name: g.Var, pos: g.Pos, val: newCval(intT, big.NewInt(v))}
	}
	// The step's expression is built once: the loop may run a million times.
	var rhs hdl.Expr
	switch st := g.Step.(type) {
	case *hdl.AssignStmt:
		if rootName(st.LHS) != g.Var {
			e.errorf(st.Pos, "the generate loop step must assign '%s'", g.Var)
			return
		}
		rhs = st.RHS
		if st.Op != "" && st.Op != "=" {
			rhs = &hdl.BinaryExpr{At: st.At, Op: strings.TrimSuffix(st.Op, "="), X: st.LHS, Y: st.RHS}
		}
	case *hdl.IncDecStmt:
		op := "+"
		if st.Op == "--" {
			op = "-"
		}
		rhs = &hdl.BinaryExpr{At: st.At, Op: op, X: st.LHS, Y: &hdl.Number{At: st.At, Text: "1", Value: big.NewInt(1)}}
	default:
		e.errorf(g.Pos, "unsupported generate loop step")
		return
	}
	w := e.work()
	if w.genDone || w.instDone {
		return
	}
	c, ok := e.constEval(g.Init, sc, "generate loop start")
	if !ok {
		return
	}
	// The loop's header runs first, on its own: it sees the genvar and
	// the names around the loop but nothing the body declares. So a loop
	// that never ends, or that would pass the iteration or the instance
	// limit, is refused before any iteration has built its body, which
	// can take kilobytes each: at a million iterations the limits were
	// reached, if at all, only after gigabytes.
	vals, ok := e.genLoopValues(g, name, c.convert(intT).int().Int64(), bind, rhs, evsc)
	if !ok || !e.generateIterations(g.Pos, name, int64(len(vals))) || !e.genInstancesFit(g, len(vals)) {
		return
	}
	for _, cur := range vals {
		if e.diags.TooMany() || w.genDone || w.instDone {
			return
		}
		isc := newScope(sc, fmt.Sprintf("%s.%s[%d]", sc.path, name, cur))
		isc.syms[g.Var] = &symbol{kind: symParam, name: g.Var, pos: g.Pos, val: newCval(intT, big.NewInt(int64(cur))), local: true}
		arr.subs[int(cur)] = isc
		if g.Body != nil {
			e.registerItems(isc, g.Body.Items, true)
			e.elabScope(isc, g.Body.Items)
		}
	}
}

// genLoopValues runs the header of generate loop g, named name, from the
// genvar's start value: the values the genvar takes, in order. bind sets
// the genvar in evsc, where the condition and step (rhs) are evaluated.
// A value repeated (the loop never ends) or more iterations than one loop
// or the design may run are errors at the loop, and false.
func (e *elab) genLoopValues(g *hdl.GenFor, name string, cur int64, bind func(int64), rhs hdl.Expr, evsc *scope) ([]int32, bool) {
	w := e.work()
	left := w.limits.GenerateIterations - w.genIters // what the design may still run
	perLoop := max(int64(maxLoopIter), w.limits.GenerateIterations)
	var vals []int32
	seen := map[int32]bool{}
	for {
		if e.diags.TooMany() {
			return nil, false
		}
		bind(cur)
		cv, ok := e.constEval(g.Cond, evsc, "generate loop condition")
		if !ok {
			return nil, false
		}
		if cv.v.Sign() == 0 {
			return vals, true
		}
		// The genvar is an int: every value fits in 32 bits.
		v := int32(cur)
		if seen[v] {
			e.errorf(g.Pos, "generate loop '%s' repeats the value %d; the loop never ends", name, cur)
			return nil, false
		}
		if n := int64(len(vals)); n >= perLoop {
			w.genDone = true
			e.errorf(g.Pos, "generate loop '%s' runs more than %d iterations; does its step take the genvar to where the condition ends the loop? (elab.Limits.GenerateIterations; raise it with --max-generate-iterations)", name, perLoop)
			return nil, false
		} else if n >= left {
			// The design's total is passed: report it as the
			// iteration that passes it would.
			return nil, e.generateIterations(g.Pos, name, n+1)
		}
		seen[v] = true
		vals = append(vals, v)
		nv, ok := e.constEval(rhs, evsc, "generate loop step")
		if !ok {
			return nil, false
		}
		cur = nv.convert(vec(32, true)).int().Int64()
	}
}

// genInstancesFit reports whether the n iterations of generate loop g can
// have the module instances its body holds outside conditionals (the least
// it will make) without passing the instance limit; if not it reports the
// limit at the first of them, as making the instance past it would.
func (e *elab) genInstancesFit(g *hdl.GenFor, n int) bool {
	if g.Body == nil || n == 0 {
		return true
	}
	per := 0
	var first *hdl.InstanceName
	for _, it := range g.Body.Items {
		if in, ok := it.(*hdl.Instance); ok && e.modules[in.Module] != nil && len(in.Insts) > 0 {
			per += len(in.Insts)
			if first == nil {
				first = in.Insts[0]
			}
		}
	}
	w := e.work()
	if per == 0 || int64(len(e.d.Instances))+int64(n)*int64(per) <= w.limits.Instances {
		return true
	}
	w.instDone = true
	e.errorf(first.Pos, "the design has more than %d instances (elab.Limits.Instances; raise it with --max-instances)", w.limits.Instances)
	return false
}

// instantiate elaborates a module instantiation item.
func (e *elab) instantiate(sc *scope, it *hdl.Instance) {
	mod := e.modules[it.Module]
	if mod == nil {
		names := make([]string, 0, len(e.modules))
		for n := range e.modules {
			names = append(names, n)
		}
		inst := ""
		if len(it.Insts) > 0 {
			inst = it.Insts[0].Name
		}
		e.errorf(it.Pos, "unknown module '%s' (instantiated as '%s')%s", it.Module, inst, suggestFrom(it.Module, names))
		return
	}
	named := map[string]*override{}
	var positional []*override
	for _, pa := range it.Params {
		ov := &override{pos: pa.Pos}
		switch {
		case pa.Type != nil:
			ov.typ = e.resolveType(pa.Type, sc)
			if ov.typ == nil {
				continue
			}
		case pa.Value != nil:
			if id, ok := pa.Value.(*hdl.Ident); ok {
				if s := sc.lookup(id.Name); s != nil && s.kind == symType {
					ov.typ = e.symType(s)
					break
				}
			}
			if _, isPat := unparen(pa.Value).(*hdl.PatternExpr); isPat {
				// '{...} has no type of its own: the parameter's type
				// gives it one when the value is needed.
				ov.expr, ov.sc = pa.Value, sc
				break
			}
			cv, ok := e.paramEval(pa.Value, sc, "parameter override")
			if !ok {
				continue
			}
			ov.val, ov.expr, ov.sc = cv, pa.Value, sc
		default:
			continue // #(.P()) keeps the default
		}
		if pa.Name == "" {
			positional = append(positional, ov)
		} else {
			if _, dup := named[pa.Name]; dup {
				e.errorf(pa.Pos, "parameter '%s' is overridden twice", pa.Name)
				continue
			}
			named[pa.Name] = ov
		}
	}
	for _, in := range it.Insts {
		if len(in.Unpacked) == 0 {
			e.instance1(sc, mod, in, in.Name, nil, named, positional)
			continue
		}
		dims, ok := e.evalDims(in.Unpacked, sc)
		if !ok {
			continue
		}
		if len(dims) != 1 {
			e.errorf(in.Pos, "multi-dimensional instance arrays are not supported yet")
			continue
		}
		d := dims[0]
		arr := &symbol{kind: symScopeArray, name: in.Name, pos: in.Pos, subs: map[int]*scope{}, isInst: true, adim: &d}
		if !e.declare(sc, arr) {
			continue
		}
		step := 1
		if d.Left > d.Right {
			step = -1
		}
		for k, i := 0, d.Left; k < d.Size(); k, i = k+1, i+step {
			ai := &arrInfo{pos: int(position(d, int64(i))), n: d.Size()}
			ic := e.instance1(sc, mod, in, fmt.Sprintf("%s[%d]", in.Name, i), ai, named, positional)
			if ic != nil {
				arr.subs[i] = ic.sc
			}
		}
	}
}

// arrInfo places one instance of an instance array: pos counts from the
// right bound (which gets the least significant slice of a connection).
type arrInfo struct{ pos, n int }

// instanceElement returns the element of unpacked array x that one
// instance of an instance array connects to (IEEE 1800 §23.3.3.5: an
// array with one element per instance pairs them left to right), or nil
// when x is not such an array.
func instanceElement(ex *ectx, x hdl.Expr, ai *arrInfo) hdl.Expr {
	ex.quiet++
	r := ex.ref(x, false)
	ex.quiet--
	if r == nil || r.kind != rkVar || len(r.idx) > 0 || len(r.unpacked) != 1 || r.unpacked[0].Size() != ai.n {
		return nil
	}
	d := r.unpacked[0]
	return indexAST(x, []int{indexFromLeft(d, ai.n-1-ai.pos)})
}

// arrayName is the name of an instance array given one element's name.
func arrayName(elem string) string {
	if i := strings.LastIndexByte(elem, '['); i > 0 {
		return elem[:i]
	}
	return elem
}

func (e *elab) instance1(sc *scope, mod *hdl.Module, in *hdl.InstanceName, name string, ai *arrInfo, named map[string]*override, positional []*override) *instCtx {
	parent := sc.inst
	if lim := e.work().limits.Instances; int64(len(e.d.Instances)) >= lim {
		e.work().instDone = true // generate loops stop at once
		e.errorf(in.Pos, "the design has more than %d instances (elab.Limits.Instances; raise it with --max-instances)", lim)
		return nil
	}
	if parent.depth+1 > maxDepth {
		e.errorf(in.Pos, "instance nesting deeper than %d (recursive instantiation of '%s'?)", maxDepth, mod.Name)
		return nil
	}
	path := sc.path + "." + name
	ic := e.newInstance(mod, name, path, parent, named, positional, in.Pos)
	for a := parent; a != nil; a = a.parent {
		if a.key == ic.key {
			var chain []string
			for b := parent; b != nil; b = b.parent {
				chain = append([]string{b.mod.Name}, chain...)
				if b == a {
					break
				}
			}
			chain = append(chain, mod.Name)
			e.errorf(in.Pos, "recursive instantiation of module '%s': %s", mod.Name, strings.Join(chain, " -> "))
			// Undo the instance registration.
			e.d.Instances = e.d.Instances[:len(e.d.Instances)-1]
			e.insts = e.insts[:len(e.insts)-1]
			parent.inst.Children = parent.inst.Children[:len(parent.inst.Children)-1]
			return nil
		}
	}
	if ai == nil {
		e.declare(sc, &symbol{kind: symScope, name: name, pos: in.Pos, sub: ic.sc, isInst: true})
	}
	conns := e.mapConnections(sc, ic, in)
	for _, pi := range ic.ports {
		if pi.sym.iport != nil {
			e.bindIfacePort(sc, ic, pi, conns[pi.name])
		}
	}
	aliases := map[string]*design.Home{}
	for _, pi := range ic.ports {
		c := conns[pi.name]
		if c == nil || c.expr == nil || (ai != nil && pi.dir == hdl.DirOutput) || pi.sym.iport != nil {
			continue
		}
		if h := e.aliasable(sc, ic, pi, c.expr); h != nil {
			aliases[pi.name] = h
		}
	}
	e.buildOrCopy(ic, aliases)
	for _, pi := range ic.ports {
		if aliases[pi.name] != nil || pi.sym.iport != nil {
			continue
		}
		c := conns[pi.name]
		if (c == nil || c.expr == nil) && pi.dir == hdl.DirInput && pi.sym.decl != nil && pi.sym.decl.Init != nil {
			// An unconnected input with a default value (`input a = 1`).
			e.portDefault(ic, pi)
			continue
		}
		if c == nil || c.expr == nil {
			if pi.dir == hdl.DirInput && (c == nil || !c.explicitEmpty) {
				e.warnc(in.Pos, hdl.CodePinMissing, "input port '%s' of '%s' is not connected; it reads 0", pi.name, name)
			}
			continue
		}
		e.connect(sc, ic, pi, c, ai)
	}
	return ic
}

// portDefault drives an unconnected input port from its default value.
func (e *elab) portDefault(ic *instCtx, pi *portInfo) {
	h := e.ensureHome(pi.sym)
	if h == nil {
		return
	}
	p := &pctx{e: e, kind: pkComb, consts: map[*symbol]*cval{}, priv: map[*symbol]*symbol{}, inst: ic}
	ex := p.ex(ic.sc)
	init := pi.sym.decl.Init
	v := ex.assignT(init, pi.sym.vt)
	if ex.failed {
		return
	}
	pr := e.newProc(ic.sc, design.ProcContAssign, init.Position(), fmt.Sprintf("%s:default %s", ic.sc.path, pi.name))
	pr.Body = &design.Assign{LHS: &design.HomeRef{Home: h}, RHS: v, Pos: dpos(init.Position())}
	e.comb = append(e.comb, pr)
}

type conn struct {
	expr          hdl.Expr
	pos           hdl.Pos
	explicitEmpty bool
}

func (e *elab) mapConnections(sc *scope, ic *instCtx, in *hdl.InstanceName) map[string]*conn {
	res := map[string]*conn{}
	var wildcard *hdl.PortConn
	nPos := 0
	for _, c := range in.Conns {
		if c.Wildcard {
			wildcard = c
			continue
		}
		if c.Name == "" {
			if nPos >= len(ic.ports) {
				if c.Expr == nil && len(in.Conns) == 1 {
					continue // `u()` of a module without ports
				}
				e.errorf(c.Pos, "too many port connections for module '%s' (it has %d ports)", ic.mod.Name, len(ic.ports))
				break
			}
			pi := ic.ports[nPos]
			nPos++
			res[pi.name] = &conn{expr: c.Expr, pos: c.Pos, explicitEmpty: c.Expr == nil}
			continue
		}
		pi := ic.byName[c.Name]
		if pi == nil {
			var names []string
			for _, p := range ic.ports {
				names = append(names, p.name)
			}
			e.errorf(c.Pos, "module '%s' has no port '%s'%s", ic.mod.Name, c.Name, suggestFrom(c.Name, names))
			continue
		}
		if _, dup := res[c.Name]; dup {
			e.errorf(c.Pos, "port '%s' is connected twice", c.Name)
			continue
		}
		x := c.Expr
		if c.Implicit {
			if s := sc.lookup(c.Name); s == nil {
				e.errorf(c.Pos, "no signal '%s' for the implicit connection .%s%s", c.Name, c.Name, sc.suggest(c.Name))
				continue
			}
			x = &hdl.Ident{At: c.At, Name: c.Name}
		}
		res[c.Name] = &conn{expr: x, pos: c.Pos, explicitEmpty: x == nil}
	}
	if wildcard != nil {
		for _, pi := range ic.ports {
			if _, ok := res[pi.name]; ok {
				continue
			}
			s := sc.lookup(pi.name)
			if s == nil || (s.kind != symVar && s.kind != symParam) {
				e.errorf(wildcard.Pos, "no signal '%s' for the .* connection of port '%s' of '%s'", pi.name, pi.name, ic.inst.Name)
				continue
			}
			res[pi.name] = &conn{expr: &hdl.Ident{At: wildcard.At, Name: pi.name}, pos: wildcard.Pos}
		}
	}
	return res
}

func sameDims(a, b []design.Dim) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// aliasable returns the parent home a port can be collapsed into: a whole
// signal of identical width, signedness and unpacked shape.
func (e *elab) aliasable(sc *scope, ic *instCtx, pi *portInfo, x hdl.Expr) *design.Home {
	id, ok := unparen(x).(*hdl.Ident)
	if !ok {
		return nil
	}
	s := sc.lookup(id.Name)
	if s == nil || s.kind != symVar {
		return nil
	}
	h := e.ensureHome(s)
	ct := e.varType(pi.sym)
	if h == nil || ct == nil || s.vt == nil {
		return nil
	}
	if s.vt.width != ct.width || s.vt.signed != ct.signed || !sameDims(s.unpacked, pi.sym.unpacked) ||
		len(s.unpacked) > 0 && s.vt.state2 != ct.state2 {
		return nil
	}
	if pi.dir == hdl.DirOutput && s.isPort && s.dir == hdl.DirInput && s.declScope == sc.inst.sc {
		e.errorf(x.Position(), "output port '%s' of '%s' drives input port '%s'", pi.name, ic.inst.Name, id.Name)
		return nil
	}
	return h
}

func (e *elab) connect(sc *scope, ic *instCtx, pi *portInfo, c *conn, ai *arrInfo) {
	cs := pi.sym
	ch := e.ensureHome(cs)
	ct := e.varType(cs)
	if ch == nil || ct == nil {
		return
	}
	p := &pctx{e: e, kind: pkComb, consts: map[*symbol]*cval{}, priv: map[*symbol]*symbol{}, inst: sc.inst}
	ex := p.ex(sc)
	x := c.expr
	name := fmt.Sprintf("%s:port %s.%s", sc.path, ic.inst.Name, pi.name)
	where := fmt.Sprintf("port '%s' of '%s'", pi.name, ic.inst.Name)
	if len(cs.unpacked) == 0 && ai != nil && ai.n > 1 {
		if el := instanceElement(ex, x, ai); el != nil {
			x, ai = el, nil
		}
	}
	var body design.Stmt
	if len(cs.unpacked) > 0 {
		r := ex.ref(x, pi.dir == hdl.DirOutput)
		if r == nil {
			return
		}
		if r.kind != rkVar || len(r.idx) > 0 || len(r.unpacked) == 0 || r.home.Elems() != ch.Elems() || r.home.Width != ch.Width {
			e.errorf(x.Position(), "%s is an unpacked array of %d elements of %d bits; it must be connected to an array of the same shape", where, ch.Elems(), ch.Width)
			return
		}
		if !ex.equivalentElems(x.Position(), cs.vt, r.pt, ic.inst.Name+"."+pi.name, r.home.Name) {
			return
		}
		dst, src := ch, r.home
		if pi.dir != hdl.DirInput {
			dst, src = src, dst
		}
		copies := e.arrayCopy(dst, src, false, c.pos, nil)
		if len(copies) == 0 {
			return
		}
		body = copies[0]
		if len(copies) > 1 {
			body = &design.Block{Stmts: copies}
		}
	} else if pi.dir == hdl.DirInput {
		st := ex.self(x)
		if st.arr {
			e.errorf(x.Position(), "%s is not an array; it cannot be connected to an unpacked array", where)
			return
		}
		var rhs design.Expr
		if ai != nil && st.t.Width == ct.width*ai.n && ai.n > 1 {
			v := ex.selfv(x)
			rhs = mkSlice(v, cint(int64(ai.pos*ct.width)), design.Type{Width: ct.width})
		} else if ai != nil && ai.n > 1 && st.t.Width != ct.width && !st.fill && !st.pattern {
			// IEEE 1800 §23.3.3.5: an instance array's connection is one
			// slice per instance or the same value for all of them.
			if ai.pos == 0 {
				e.errorf(x.Position(), "port '%s' of instance array '%s' needs %d bits (the same value for every instance) or %d bits (one slice per instance), not %d",
					pi.name, arrayName(ic.inst.Name), ct.width, ct.width*ai.n, st.t.Width)
			}
			return
		} else {
			if st.t.Width != ct.width && !st.fill && !st.pattern {
				how := "zero-extended"
				if st.t.Signed {
					how = "sign-extended"
				}
				if st.t.Width > ct.width {
					how = "truncated"
				}
				e.warnc(x.Position(), widthCode(how), "%s is %d bits wide but is connected to a %d-bit expression; the value is %s", where, ct.width, st.t.Width, how)
			}
			rhs = ex.assignT(x, ct)
		}
		if ex.failed {
			return
		}
		body = &design.Assign{LHS: &design.HomeRef{Home: ch}, RHS: rhs, Pos: dpos(c.pos)}
	} else {
		switch unparen(x).(type) {
		case *hdl.Ident, *hdl.ScopedIdent, *hdl.MemberExpr, *hdl.IndexExpr, *hdl.RangeExpr, *hdl.ConcatExpr:
		default:
			e.errorf(x.Position(), "%s is an output; connect it to a variable or net, not an expression", where)
			return
		}
		lv, _, arr := ex.lvalue(x)
		if lv == nil {
			return
		}
		if arr {
			e.errorf(x.Position(), "%s is not an array; it cannot be connected to an unpacked array", where)
			return
		}
		w := lv.Type().Width
		if _, isCat := lv.(*design.Concat); isCat && ai != nil && ai.n > 1 {
			e.errorf(x.Position(), "%s of instance array '%s' cannot be connected to a concatenation yet", where, ic.inst.Name)
			return
		}
		if ai != nil && ai.n > 1 && w == ct.width*ai.n {
			lv = mkSlice(lv, cint(int64(ai.pos*ct.width)), design.Type{Width: ct.width}).(design.LValue)
			w = ct.width
		} else if ai != nil && ai.n > 1 {
			e.errorf(x.Position(), "%s of instance array '%s' must connect to %d bits (one slice per instance), not %d", where, ic.inst.Name, ct.width*ai.n, w)
			return
		} else if w != ct.width {
			how := "zero-extended"
			if ct.signed {
				how = "sign-extended"
			}
			if w < ct.width {
				how = "truncated"
			}
			e.warnc(x.Position(), widthCode(how), "%s is %d bits wide but is connected to a %d-bit target; the value is %s", where, ct.width, w, how)
		}
		body = &design.Assign{LHS: lv, RHS: adapt(&design.HomeRef{Home: ch}, w), Pos: dpos(c.pos)}
	}
	pr := e.newProc(sc, design.ProcContAssign, c.pos, name)
	pr.Body = body
	e.comb = append(e.comb, pr)
}

// ---- processes ----

func (e *elab) newProc(sc *scope, kind design.ProcKind, pos hdl.Pos, name string) *design.Process {
	if name == "" {
		name = fmt.Sprintf("%s:%s", sc.path, kind)
	}
	name = fmt.Sprintf("%s@%d", name, pos.Line)
	if n := e.procNames[name]; n > 0 {
		e.procNames[name] = n + 1
		name = fmt.Sprintf("%s#%d", name, n+1)
	} else {
		e.procNames[name] = 1
	}
	return &design.Process{Kind: kind, Inst: sc.inst.inst, Name: name, Pos: dpos(pos)}
}

func (e *elab) contAssign(sc *scope, it *hdl.ContAssign) {
	if it.Delay != nil {
		e.warnOnceC(it.Delay.Position(), hdl.CodeAssignDelay, "delays in continuous assignments are ignored")
	}
	p := &pctx{e: e, kind: pkComb, localKind: design.KindBlockLocal, consts: map[*symbol]*cval{}, priv: map[*symbol]*symbol{}, inst: sc.inst}
	var out []design.Stmt
	p.assign(sc, it.LHS, it.RHS, false, it.Pos, &out)
	if len(out) == 0 {
		return
	}
	pr := e.newProc(sc, design.ProcContAssign, it.Pos, "")
	pr.Body = block(out)
	e.comb = append(e.comb, pr)
}

// varInit handles declaration initializers of module-level declarations:
// a net's is a continuous assignment; a variable's is its initial value
// (a constant, or else an initial process).
func (e *elab) varInit(sc *scope, vd *hdl.VarDecl) {
	for _, d := range vd.Names {
		if d.Init == nil {
			continue
		}
		s := sc.syms[d.Name]
		if s == nil || s.home == nil || s.kind != symVar {
			continue
		}
		h := s.home
		if vd.Net != hdl.NetNone {
			if len(s.unpacked) > 0 {
				e.errorf(d.Init.Position(), "net arrays with an initializer are not supported")
				continue
			}
			p := &pctx{e: e, kind: pkComb, consts: map[*symbol]*cval{}, priv: map[*symbol]*symbol{}, inst: sc.inst}
			ex := p.ex(sc)
			v := ex.assignT(d.Init, s.vt)
			if ex.failed {
				continue
			}
			pr := e.newProc(sc, design.ProcContAssign, d.Pos, "")
			pr.Body = &design.Assign{LHS: &design.HomeRef{Home: h}, RHS: v, Pos: dpos(d.Pos)}
			e.comb = append(e.comb, pr)
			continue
		}
		p := &pctx{e: e, kind: pkInitial, localKind: design.KindBlockLocal, consts: map[*symbol]*cval{}, priv: map[*symbol]*symbol{}, inst: sc.inst}
		var out []design.Stmt
		ex := p.ex(sc)
		if len(s.unpacked) > 0 {
			p.arrayAssign(ex, h, s, d.Init, false, d.Init.Position(), &out)
		} else {
			v := ex.assignT(d.Init, s.vt)
			if ex.failed {
				continue
			}
			out = append(out, &design.Assign{LHS: &design.HomeRef{Home: h}, RHS: v, Pos: dpos(d.Pos)})
		}
		if len(out) == 0 {
			continue
		}
		blk := &design.Block{Stmts: out}
		if !e.foldInitial(blk) {
			pr := e.newProc(sc, design.ProcInitial, d.Pos, "")
			pr.Body = blk
			e.initial = append(e.initial, pr)
		}
	}
}

// forLoopVars lists names assigned in for-loop initializations of s.
func forLoopVars(s hdl.Stmt, out map[string]bool) {
	var walk func(s hdl.Stmt)
	walk = func(s hdl.Stmt) {
		switch s := s.(type) {
		case *hdl.BlockStmt:
			for _, st := range s.Stmts {
				walk(st)
			}
		case *hdl.IfStmt:
			walk(s.Then)
			walk(s.Else)
		case *hdl.Assertion:
			walk(s.Pass)
			walk(s.Fail)
		case *hdl.CaseStmt:
			for _, it := range s.Items {
				walk(it.Body)
			}
		case *hdl.ForStmt:
			for _, st := range s.Init {
				if a, ok := st.(*hdl.AssignStmt); ok {
					if id, ok := unparen(a.LHS).(*hdl.Ident); ok {
						out[id.Name] = true
					}
				}
			}
			walk(s.Body)
		case *hdl.ForeachStmt:
			walk(s.Body) // its loop variables are declared by the loop
		case *hdl.WhileStmt:
			walk(s.Body)
		case *hdl.RepeatStmt:
			walk(s.Body)
		case *hdl.EventStmt:
			walk(s.Body)
		}
	}
	walk(s)
}

// procBody translates a process body. Module-level variables used as
// for-loop indexes are privatized: the process gets its own copy, so two
// processes looping over one `integer i` do not drive it both.
func (e *elab) procBody(sc *scope, kind pkind, body hdl.Stmt, name string, line int) (*design.Block, *pctx) {
	p := &pctx{e: e, kind: kind, localKind: design.KindBlockLocal, consts: map[*symbol]*cval{}, priv: map[*symbol]*symbol{}, name: name, inst: sc.inst}
	psc := newScope(sc, sc.path)
	psc.homeKind = design.KindBlockLocal
	blk := &design.Block{}
	vars := map[string]bool{}
	forLoopVars(body, vars)
	names := make([]string, 0, len(vars))
	for n := range vars {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		s := sc.lookup(n)
		if s == nil || s.kind != symVar || s.isPort || s.declScope.homeKind != design.KindVar || s.varDecl == nil {
			continue
		}
		t := e.varType(s)
		if t == nil || len(s.unpacked) > 0 {
			continue
		}
		ph := e.newHome(psc, fmt.Sprintf("%s$%d", n, line), t, nil, design.KindBlockLocal, s.pos)
		ps := &symbol{kind: symVar, name: n, pos: s.pos, home: ph, vt: t, declScope: psc}
		p.priv[s] = ps
		blk.Locals = append(blk.Locals, ph)
	}
	p.blocks = []*design.Block{blk}
	p.stmt(body, psc, &blk.Stmts)
	return blk, p
}

func (e *elab) always(sc *scope, ab *hdl.AlwaysBlock) {
	switch ab.Kind {
	case hdl.AlwaysComb, hdl.AlwaysLatch:
		kind := design.ProcAlwaysComb
		if ab.Kind == hdl.AlwaysLatch {
			kind = design.ProcAlwaysLatch
		}
		if _, ok := ab.Body.(*hdl.EventStmt); ok {
			e.errorf(ab.Pos, "%s cannot have an event control; it is sensitive to everything it reads", ab.Kind)
			return
		}
		pr := e.newProc(sc, kind, ab.Pos, "")
		blk, _ := e.procBody(sc, pkComb, ab.Body, pr.Name, ab.Pos.Line)
		pr.Body = blk
		e.comb = append(e.comb, pr)
	case hdl.AlwaysFF, hdl.Always:
		ev, ok := ab.Body.(*hdl.EventStmt)
		if !ok {
			if ab.Kind == hdl.AlwaysFF {
				e.errorf(ab.Pos, "always_ff needs an edge event control such as @(posedge clk)")
			} else {
				e.errorf(ab.Pos, "always without an event control is not supported (it needs delays; weft simulates RTL, drive clocks from the Go test bench)")
			}
			return
		}
		nEdge, nLevel := 0, 0
		for _, ee := range ev.Events {
			if ee.Edge == hdl.EdgeNone {
				nLevel++
			} else {
				nEdge++
			}
		}
		if ab.Kind == hdl.AlwaysFF && (ev.Star || nLevel > 0 || nEdge == 0) {
			e.errorf(ev.Pos, "always_ff needs edge events only, such as @(posedge clk or negedge rst_n)")
			return
		}
		if ev.Star || nEdge == 0 {
			kind := design.ProcAlwaysStar
			if !ev.Star {
				kind = design.ProcAlwaysLevel
			}
			pr := e.newProc(sc, kind, ab.Pos, "")
			blk, p := e.procBody(sc, pkComb, ev.Body, pr.Name, ab.Pos.Line)
			pr.Body = blk
			if !ev.Star {
				ex := p.ex(sc)
				for _, ee := range ev.Events {
					if h := e.eventHome(ex, ee.Expr); h != nil {
						pr.Sensitivity = append(pr.Sensitivity, h)
					}
				}
			}
			e.comb = append(e.comb, pr)
			return
		}
		if nLevel > 0 {
			e.errorf(ev.Pos, "mixing edge and level events in one event control is not supported")
			return
		}
		kind := design.ProcAlwaysFF
		if ab.Kind == hdl.Always {
			kind = design.ProcAlwaysEdge
		}
		pr := e.newProc(sc, kind, ab.Pos, "")
		blk, p := e.procBody(sc, pkFF, ev.Body, pr.Name, ab.Pos.Line)
		ex := p.ex(sc)
		var evs []design.Event
		var iff hdl.Expr
		for _, ee := range ev.Events {
			evt, ok := e.event(ex, ee)
			if !ok {
				return
			}
			if ee.Iff != nil {
				if len(ev.Events) > 1 {
					e.errorf(ee.Iff.Position(), "'iff' is only supported with a single event")
					return
				}
				iff = ee.Iff
			}
			evs = append(evs, evt)
		}
		if iff != nil {
			c := ex.truth(iff)
			blk = &design.Block{Locals: blk.Locals, Stmts: []design.Stmt{&design.If{Cond: c, Then: &design.Block{Stmts: blk.Stmts}, Pos: dpos(iff.Position())}}}
		}
		pr.Body = blk
		e.addToGroup(sc, pr, evs)
	case hdl.Initial:
		pr := e.newProc(sc, design.ProcInitial, ab.Pos, "")
		blk, _ := e.procBody(sc, pkInitial, ab.Body, pr.Name, ab.Pos.Line)
		if e.foldInitial(blk) {
			return
		}
		e.foldInitialPrefix(blk)
		pr.Body = blk
		e.initial = append(e.initial, pr)
	case hdl.Final:
		e.warnOnceC(ab.Pos, hdl.CodeIgnored, "final blocks are ignored")
	}
}

func (e *elab) eventHome(ex *ectx, x hdl.Expr) *design.Home {
	ex.quiet++
	defer func() { ex.quiet-- }()
	v := ex.selfv(x)
	switch v := v.(type) {
	case *design.HomeRef:
		return v.Home
	case *design.ElemRef:
		return v.Home
	case *design.Slice:
		switch b := v.X.(type) {
		case *design.HomeRef:
			return b.Home
		case *design.ElemRef:
			return b.Home
		}
	}
	return nil
}

// event resolves one edge event to a bit of a home.
func (e *elab) event(ex *ectx, ee *hdl.EventExpr) (design.Event, bool) {
	var edge design.Edge
	switch ee.Edge {
	case hdl.EdgePos:
		edge = design.Posedge
	case hdl.EdgeNeg:
		edge = design.Negedge
	default:
		edge = design.AnyEdge
	}
	v := ex.selfv(ee.Expr)
	if ex.failed {
		return design.Event{}, false
	}
	if x, ok := v.(*design.Extend); ok && x.T.Width == x.X.Type().Width {
		v = x.X
	}
	bit := 0
	if s, ok := v.(*design.Slice); ok {
		l, isc := design.ConstUint(s.Lsb)
		if !isc || s.T.Width != 1 {
			e.errorf(ee.Expr.Position(), "event expression must be a signal or a constant bit-select of one")
			return design.Event{}, false
		}
		bit = l
		v = s.X
	}
	switch r := v.(type) {
	case *design.HomeRef:
		if r.Home.IsArray() {
			break
		}
		if r.Home.Width > 1 && bit == 0 {
			if _, isSlice := unparen(ee.Expr).(*hdl.IndexExpr); !isSlice {
				e.warnc(ee.Expr.Position(), hdl.CodeEdgeWidth, "edge of the %d-bit signal '%s' is taken on its least significant bit", r.Home.Width, r.Home.Name)
			}
		}
		return design.Event{Home: r.Home, Bit: bit, Edge: edge}, true
	case *design.ElemRef:
		flat := 0
		for i, ix := range r.Index {
			k, ok := design.ConstUint(ix)
			if !ok || k >= r.Home.Unpacked[i].Size() {
				e.errorf(ee.Expr.Position(), "event expression must be a signal or a constant bit-select of one")
				return design.Event{}, false
			}
			flat = flat*r.Home.Unpacked[i].Size() + k
		}
		return design.Event{Home: r.Home, Elem: flat, Bit: bit, Edge: edge}, true
	}
	e.errorf(ee.Expr.Position(), "event expression must be a signal or a constant bit-select of one")
	return design.Event{}, false
}

func (e *elab) addToGroup(sc *scope, pr *design.Process, evs []design.Event) {
	sortEvents(evs)
	// Drop duplicates (@(posedge clk or posedge clk)).
	var uniq []design.Event
	for i, ev := range evs {
		if i > 0 && ev == evs[i-1] {
			continue
		}
		uniq = append(uniq, ev)
	}
	key := groupKey(sc.inst.inst, uniq)
	g := e.groupIdx[key]
	if g == nil {
		g = &design.TriggerGroup{Inst: sc.inst.inst, Events: uniq}
		e.groupIdx[key] = g
		e.d.Groups = append(e.d.Groups, g)
	}
	pr.Group = g
	g.Procs = append(g.Procs, pr)
}

// sortEvents puts events in a trigger group's order: by home ID, element,
// bit and edge.
func sortEvents(evs []design.Event) {
	sort.Slice(evs, func(i, j int) bool {
		a, b := evs[i], evs[j]
		if a.Home.ID != b.Home.ID {
			return a.Home.ID < b.Home.ID
		}
		if a.Elem != b.Elem {
			return a.Elem < b.Elem
		}
		if a.Bit != b.Bit {
			return a.Bit < b.Bit
		}
		return a.Edge < b.Edge
	})
}

// groupKey names the trigger group of an instance and a sorted event set.
func groupKey(in *design.Instance, evs []design.Event) string {
	var kb strings.Builder
	kb.WriteString(in.Path)
	for _, ev := range evs {
		fmt.Fprintf(&kb, "|%d.%d.%d.%d", ev.Home.ID, ev.Elem, ev.Bit, ev.Edge)
	}
	return kb.String()
}

// foldInitialPrefix folds the leading statements of an initial block that
// only compute constants (typically a loop clearing a memory before a
// $readmemh) into initial values; the rest stays a process. Process-local
// values the prefix computed are assigned at the start of the rest.
func (e *elab) foldInitialPrefix(blk *design.Block) {
	nb := false
	for _, st := range blk.Stmts {
		design.WalkStmt(st, func(s design.Stmt) bool {
			if a, ok := s.(*design.Assign); ok && a.NonBlocking {
				nb = true
			}
			return true
		})
	}
	if nb {
		return
	}
	try := func(n int) *design.Machine {
		m := e.initMachine()
		for _, st := range blk.Stmts[:n] {
			if err := m.Run(st); err != nil {
				return nil
			}
		}
		return m
	}
	n := 0
	probe := e.initMachine()
	for n < len(blk.Stmts) && probe.Run(blk.Stmts[n]) == nil {
		n++
	}
	if n == 0 {
		return
	}
	// The failed statement may have left partial state: run the prefix again.
	m := try(n)
	if m == nil {
		return
	}
	var pre []design.Stmt
	for _, h := range m.Written {
		if h.Kind != design.KindBlockLocal && h.Kind != design.KindFuncLocal {
			continue
		}
		if h.IsArray() {
			return
		}
		v, _ := m.Get(h, 0)
		pre = append(pre, &design.Assign{LHS: &design.HomeRef{Home: h}, RHS: &design.Const{T: h.Type(), Val: v}})
	}
	e.commitInit(m)
	blk.Stmts = append(pre, blk.Stmts[n:]...)
}

func (e *elab) initMachine() *design.Machine {
	m := design.NewMachine()
	m.MaxSteps = 1 << 22
	m.Budget = e.optionalBudget()
	m.Missing = func(h *design.Home) ([]*big.Int, error) {
		if h.Kind == design.KindBlockLocal || h.Kind == design.KindFuncLocal || h.Kind == design.KindStatic {
			vals := make([]*big.Int, h.Elems())
			for i := range vals {
				vals[i] = h.Init.Elem(i)
			}
			return vals, nil
		}
		return nil, errNotConst
	}
	m.SysTask = func(*design.SysTask) error { return errNotConst }
	m.XZ = func(c *design.Const) error {
		e.xzReadsZero(c)
		return nil
	}
	return m
}

// foldInitial runs an initial block at elaboration time when it only
// computes constants, storing the results as initial values. It reports
// whether it succeeded (the block then needs no process).
func (e *elab) foldInitial(blk *design.Block) bool {
	m := e.initMachine()
	if err := m.Run(blk); err != nil {
		return false
	}
	e.commitInit(m)
	return true
}

// commitInit stores the values an initial-block run wrote as initial values.
func (e *elab) commitInit(m *design.Machine) {
	for _, h := range m.Written {
		if h.Kind == design.KindBlockLocal || h.Kind == design.KindFuncLocal {
			continue
		}
		h.Init = machineInit(m, h)
	}
}

// machineInit is the initial value of h that m's run left (nil: zero).
func machineInit(m *design.Machine, h *design.Home) *design.Init {
	in := &design.Init{}
	if !h.IsArray() {
		v, _ := m.Get(h, 0)
		in.Value = v
	} else {
		def := h.Init.Elem(-1)
		if h.Init != nil && h.Init.Value != nil {
			in.Value = h.Init.Value
		}
		in.Elems = map[int]*big.Int{}
		for i := 0; i < h.Elems(); i++ {
			v, _ := m.Get(h, i)
			if v.Cmp(def) != 0 {
				in.Elems[i] = v
			}
		}
		if len(in.Elems) == 0 {
			in.Elems = nil
		}
	}
	if in.Value != nil && in.Value.Sign() == 0 && in.Elems == nil {
		return nil
	}
	if in.Value == nil && in.Elems == nil {
		return nil
	}
	return in
}
