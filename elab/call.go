package elab

import (
	"errors"
	"fmt"
	"math/big"

	"github.com/weft-hdl/weft/design"
	"github.com/weft-hdl/weft/hdl"
)

var int32T = design.Type{Width: 32, Signed: true}

func (x *ectx) callType(n *hdl.CallExpr) tinfo {
	if n.System {
		switch n.Name {
		case "$signed", "$unsigned":
			if len(n.Args) == 1 {
				s := x.self(n.Args[0])
				return tinfo{t: design.Type{Width: s.t.Width, Signed: n.Name == "$signed"}}
			}
		case "$onehot", "$onehot0", "$isunknown":
			return tinfo{t: bitT}
		case "$time":
			return tinfo{t: design.Type{Width: 64}}
		case "$stime":
			return tinfo{t: design.Type{Width: 32}}
		case "$urandom":
			return tinfo{t: design.Type{Width: 32}}
		}
		return tinfo{t: int32T}
	}
	if t, ok := x.methodType(n); ok {
		return t
	}
	s := x.funcSym(n)
	if s == nil {
		return tinfo{t: bitT}
	}
	f := x.e.function(s)
	if f == nil || f.Result == nil {
		return tinfo{t: bitT}
	}
	return tinfo{t: f.Result.Type(), pt: s.resultType}
}

func (x *ectx) funcSym(n *hdl.CallExpr) *symbol {
	var s *symbol
	if n.Scope != nil {
		return x.scopedFunc(n)
	}
	if n.Package != "" {
		ps := x.e.pkgScope(n.Package, n.Pos)
		if ps == nil {
			return nil
		}
		s = ps.syms[n.Name]
	} else {
		s = x.sc.lookupFunc(n.Name)
	}
	if s == nil || s.kind != symFunc {
		return nil
	}
	return s
}

func (x *ectx) call(n *hdl.CallExpr) design.Expr {
	zeroBit := design.NewConst(bitT, zero())
	if n.System {
		return x.sysCall(n)
	}
	if v, ok := x.method(n); ok {
		return v
	}
	s := x.funcSym(n)
	if s == nil && n.Scope != nil {
		return zeroBit // reported by scopedFunc
	}
	if s == nil {
		name := n.Name
		if n.Package != "" {
			name = n.Package + "::" + n.Name
		}
		if other := x.sc.lookup(n.Name); other != nil && n.Package == "" {
			x.errorf(n.Pos, "'%s' is not a function", name)
		} else {
			var cands []string
			for _, nm := range x.sc.names() {
				if sy := x.sc.lookup(nm); sy != nil && sy.kind == symFunc {
					cands = append(cands, nm)
				}
			}
			x.errorf(n.Pos, "unknown function '%s'%s", name, suggestFrom(n.Name, cands))
		}
		return zeroBit
	}
	f := x.e.function(s)
	if f == nil {
		x.failed = true
		return zeroBit
	}
	if f.Task {
		x.errorf(n.Pos, "task '%s' cannot be called in an expression", n.Name)
		return zeroBit
	}
	if f.Result == nil {
		x.errorf(n.Pos, "void function '%s' has no value; call it as a statement", n.Name)
		return zeroBit
	}
	args, outs := x.callArgs(n, s, f)
	if args == nil {
		return design.NewConst(f.Result.Type(), zero())
	}
	for _, o := range outs {
		if o != nil {
			x.errorf(n.Pos, "output arguments of functions called in expressions are not supported yet; call '%s' as a statement", n.Name)
			return design.NewConst(f.Result.Type(), zero())
		}
	}
	c := &design.Call{Func: f, Args: args, T: f.Result.Type()}
	allConst := true
	for _, a := range args {
		if !isConst(a) {
			allConst = false
		}
	}
	if allConst && f.Body != nil {
		// Outside constant expressions a call whose body runs a system
		// task ($display) is kept: folding it would drop the task.
		fold := x.e.fold
		if !x.constOnly {
			fold = x.e.foldNoTasks
		}
		v, err := fold(c)
		if err == nil {
			return &design.Const{T: c.T, Val: v}
		}
		if x.constOnly {
			x.errorf(n.Pos, "call of '%s' is not a constant: %s", n.Name, err)
			return design.NewConst(f.Result.Type(), zero())
		}
	} else if x.constOnly && f.Body != nil {
		// Arguments that are not constants make the call non-constant;
		// the arguments reported their own errors.
		x.failed = true
	}
	return c
}

// callArgs maps positional and named arguments onto f's arguments. Inputs
// are converted to the argument types; outputs are returned as lvalues.
func (x *ectx) callArgs(n *hdl.CallExpr, s *symbol, f *design.Function) ([]design.Expr, []design.LValue) {
	ports := s.tfPorts
	if len(n.Args) > len(f.Args) {
		x.errorf(n.Args[len(f.Args)].Position(), "too many arguments in call to '%s' (it takes %d)", n.Name, len(f.Args))
		return nil, nil
	}
	args := make([]design.Expr, len(f.Args))
	outs := make([]design.LValue, len(f.Args))
	given := make([]hdl.Expr, len(f.Args))
	copy(given, n.Args)
	for name, a := range n.NamedArgs {
		found := false
		for i, h := range f.Args {
			if h.Name == name {
				given[i] = a
				found = true
			}
		}
		if !found {
			x.errorf(a.Position(), "'%s' has no argument named '%s'", n.Name, name)
			return nil, nil
		}
	}
	ok := true
	for i, h := range f.Args {
		g := given[i]
		if g == nil && i < len(ports) && ports[i] != nil && ports[i].Default != nil {
			dx := &ectx{e: x.e, sc: s.declScope, p: x.p}
			args[i] = dx.assignConv(ports[i].Default, h.Type())
			continue
		}
		if g == nil {
			x.errorf(n.Pos, "missing argument '%s' in call to '%s'", h.Name, n.Name)
			ok = false
			continue
		}
		dir := f.ArgDirs[i]
		if dir == design.DirOut || dir == design.DirInOut {
			lv, _, arr := x.lvalue(g)
			if lv == nil || arr {
				ok = false
				continue
			}
			outs[i] = lv
			if dir == design.DirInOut {
				args[i] = adapt(lv, h.Width)
			}
			continue
		}
		args[i] = x.assignConv(g, h.Type())
	}
	if !ok {
		return nil, nil
	}
	for i := range args {
		if args[i] == nil && f.ArgDirs[i] == design.DirIn {
			return nil, nil
		}
	}
	return args, outs
}

// queryDims returns the dimensions $size/$left/... see: unpacked first,
// then packed.
func (x *ectx) queryDims(a hdl.Expr) ([]design.Dim, bool) {
	if te, ok := a.(*hdl.TypeExpr); ok {
		t := x.e.resolveType(te.Type, x.sc)
		if t == nil {
			return nil, false
		}
		return t.asVector().dims, true
	}
	switch a.(type) {
	case *hdl.Ident, *hdl.ScopedIdent, *hdl.MemberExpr, *hdl.IndexExpr, *hdl.RangeExpr:
		wasConst := x.constOnly
		x.constOnly = false
		r := x.ref(a, false)
		x.constOnly = wasConst
		if r == nil {
			return nil, false
		}
		if r.kind == rkType {
			if r.typ == nil {
				return nil, false
			}
			return r.typ.asVector().dims, true
		}
		if r.kind == rkVar || r.kind == rkValue {
			return append(append([]design.Dim{}, r.unpacked...), r.pt.asVector().dims...), true
		}
	}
	s := x.self(a)
	if s.pt != nil && s.pt.width == s.t.Width {
		// A function result or a cast keeps its declared packed shape.
		return s.pt.asVector().dims, true
	}
	return []design.Dim{{Left: s.t.Width - 1, Right: 0}}, true
}

func (x *ectx) bitsOf(a hdl.Expr) (int, bool) {
	if te, ok := a.(*hdl.TypeExpr); ok {
		t := x.e.resolveType(te.Type, x.sc)
		if t == nil {
			return 0, false
		}
		return t.width, true
	}
	switch a.(type) {
	case *hdl.Ident, *hdl.ScopedIdent, *hdl.MemberExpr, *hdl.IndexExpr, *hdl.RangeExpr:
		wasConst := x.constOnly
		x.constOnly = false
		r := x.ref(a, false)
		x.constOnly = wasConst
		if r == nil {
			return 0, false
		}
		if r.kind == rkType {
			if r.typ == nil {
				return 0, false
			}
			return r.typ.width, true
		}
		if r.kind == rkVar || r.kind == rkValue {
			return r.pt.width * prodDims(r.unpacked), true
		}
		return 0, false
	}
	return x.self(a).t.Width, true
}

func (x *ectx) sysCall(n *hdl.CallExpr) design.Expr {
	zeroI := design.NewConst(int32T, zero())
	for _, a := range n.Args {
		if a == nil {
			x.errorf(n.Pos, "%s: empty argument", n.Name)
			return zeroI
		}
	}
	nargs := func(lo, hi int) bool {
		if len(n.Args) < lo || len(n.Args) > hi {
			if lo == hi {
				x.errorf(n.Pos, "%s takes %d argument(s), got %d", n.Name, lo, len(n.Args))
			} else {
				x.errorf(n.Pos, "%s takes %d to %d arguments, got %d", n.Name, lo, hi, len(n.Args))
			}
			return false
		}
		return true
	}
	switch n.Name {
	case "$signed", "$unsigned":
		if !nargs(1, 1) {
			return zeroI
		}
		return cast(x.selfv(n.Args[0]), n.Name == "$signed")
	case "$clog2":
		if !nargs(1, 1) {
			return zeroI
		}
		v := x.selfv(n.Args[0])
		if c, ok := v.(*design.Const); ok {
			return design.ConstInt(int32T, int64(design.Clog2(design.ToInt(c.Val, c.T))))
		}
		if x.constOnly {
			x.failed = true
			return zeroI
		}
		return &design.SysFunc{Fn: design.FnClog2, Args: []design.Expr{cast(v, false)}, T: int32T}
	case "$bits":
		if !nargs(1, 1) {
			return zeroI
		}
		w, ok := x.bitsOf(n.Args[0])
		if !ok {
			x.failed = true
			return zeroI
		}
		return design.ConstInt(int32T, int64(w))
	case "$size", "$left", "$right", "$low", "$high", "$increment", "$dimensions":
		if !nargs(1, 2) {
			return zeroI
		}
		dims, ok := x.queryDims(n.Args[0])
		if !ok {
			x.failed = true
			return zeroI
		}
		if n.Name == "$dimensions" {
			return design.ConstInt(int32T, int64(len(dims)))
		}
		k := int64(1)
		if len(n.Args) == 2 {
			if k, ok = x.constIntOf(n.Args[1], "dimension number"); !ok {
				return zeroI
			}
		}
		if k < 1 || k > int64(len(dims)) {
			x.errorf(n.Pos, "%s: dimension %d does not exist (the value has %d)", n.Name, k, len(dims))
			return zeroI
		}
		d := dims[k-1]
		var v int
		switch n.Name {
		case "$size":
			v = d.Size()
		case "$left":
			v = d.Left
		case "$right":
			v = d.Right
		case "$low":
			v = d.Lo()
		case "$high":
			v = d.Hi()
		case "$increment":
			v = 1
			if d.Left < d.Right {
				v = -1
			}
		}
		return design.ConstInt(int32T, int64(v))
	case "$countones", "$onehot", "$onehot0":
		if !nargs(1, 1) {
			return zeroI
		}
		v := cast(x.selfv(n.Args[0]), false)
		fn, t := design.FnCountOnes, int32T
		if n.Name == "$onehot" {
			fn, t = design.FnOneHot, bitT
		} else if n.Name == "$onehot0" {
			fn, t = design.FnOneHot0, bitT
		}
		if c, ok := v.(*design.Const); ok {
			r, _ := design.EvalSysFunc(fn, []*big.Int{c.Val}, t)
			return design.NewConst(t, r)
		}
		return &design.SysFunc{Fn: fn, Args: []design.Expr{v}, T: t}
	case "$isunknown":
		if !nargs(1, 1) {
			return zeroI
		}
		if l := xzLiteral(n.Args[0]); l != nil {
			x.errorf(l.Pos, "$isunknown of %s: x and z bits need 4-state values, which weft does not simulate yet (weft is 2-state)", l.Text)
			return zeroI
		}
		x.selfv(n.Args[0])
		return design.NewConst(bitT, zero()) // 2-state: nothing is unknown
	case "$time", "$stime", "$random", "$urandom":
		if x.constOnly {
			x.errorf(n.Pos, "%s is not a constant; %s must be a constant expression", n.Name, x.what)
			return zeroI
		}
		switch n.Name {
		case "$time":
			return &design.SysFunc{Fn: design.FnTime, T: design.Type{Width: 64}}
		case "$stime":
			return mkTrunc(&design.SysFunc{Fn: design.FnTime, T: design.Type{Width: 64}}, design.Type{Width: 32})
		case "$random":
			if len(n.Args) > 0 {
				x.errorf(n.Pos, "$random with a seed argument is not supported yet")
			}
			return &design.SysFunc{Fn: design.FnRandom, T: int32T}
		default:
			if len(n.Args) > 0 {
				x.errorf(n.Pos, "$urandom with a seed argument is not supported yet")
			}
			return &design.SysFunc{Fn: design.FnURandom, T: design.Type{Width: 32}}
		}
	case "$realtime", "$itor", "$rtoi", "$realtobits", "$bitstoreal", "$ln", "$log10", "$exp", "$sqrt", "$pow", "$floor", "$ceil":
		x.errorf(n.Pos, "%s is not supported (weft does not simulate real numbers)", n.Name)
		return zeroI
	}
	x.errorf(n.Pos, "system function '%s' is not supported yet", n.Name)
	return zeroI
}

// function returns the design function of a function or task symbol,
// translating it on first use (per declaring scope, so parameters of the
// instance apply). It returns nil after errors.
func (e *elab) function(s *symbol) *design.Function {
	if s.dfn != nil {
		return s.dfn
	}
	if s.fnFailed {
		return nil
	}
	name := s.name
	sc := s.declScope
	var fullName string
	switch {
	case sc.pkg != "":
		fullName = sc.pkg + "::" + name
	case sc.path != "":
		fullName = sc.path + "." + name
	default:
		fullName = name
	}
	var pos hdl.Pos
	var ports []*hdl.TFPort
	var decls []hdl.Item
	var body []hdl.Stmt
	task, auto := false, false
	if s.fn != nil {
		pos, ports, decls, body = s.fn.Pos, s.fn.Ports, s.fn.Decls, s.fn.Body
		auto = s.fn.Automatic
	} else {
		pos, ports, decls, body = s.task.Pos, s.task.Ports, s.task.Decls, s.task.Body
		task, auto = true, s.task.Automatic
	}
	f := &design.Function{Name: fullName, Pos: dpos(pos), Task: task}
	if sc.inst != nil {
		f.Inst = sc.inst.inst
	}
	s.dfn = f
	fsc := newScope(sc, fullName)
	fsc.fn = f
	fsc.homeKind = design.KindFuncLocal
	p := &pctx{e: e, kind: pkFunc, fn: f, localKind: design.KindFuncLocal, consts: map[*symbol]*cval{}, priv: map[*symbol]*symbol{}, name: fullName, inst: sc.inst, autoFn: auto}
	fail := func() *design.Function {
		s.dfn = nil
		s.fnFailed = true
		return nil
	}
	if s.fn != nil {
		rt := s.fn.ReturnType
		if rt == nil || rt.Kind != hdl.TypeVoid {
			t := bit1
			if rt != nil {
				if t = e.resolveType(rt, sc); t == nil {
					return fail()
				}
			}
			f.Result = e.funcHome(fsc, name, t, nil, pos)
			fsc.syms[name] = &symbol{kind: symResult, name: name, pos: pos, home: f.Result, vt: t, declScope: fsc}
			s.resultType = t
		}
	}
	// ANSI ports, or non-ANSI port declarations among the items.
	type argDecl struct {
		name string
		dir  hdl.Direction
		dt   *hdl.DataType
		un   []*hdl.Range
		pos  hdl.Pos
		port *hdl.TFPort
	}
	var argsIn []argDecl
	var prevDir = hdl.DirInput
	var prevType *hdl.DataType
	for _, tp := range ports {
		dir := tp.Dir
		if dir == hdl.DirNone {
			dir = prevDir
		}
		dt := tp.Type
		if dt == nil {
			dt = prevType
		}
		prevDir, prevType = dir, dt
		argsIn = append(argsIn, argDecl{tp.Name, dir, dt, tp.Unpacked, tp.Pos, tp})
	}
	var rest []hdl.Item
	for _, it := range decls {
		if pd, ok := it.(*hdl.PortDecl); ok {
			for _, d := range pd.Names {
				argsIn = append(argsIn, argDecl{d.Name, pd.Dir, pd.Type, d.Unpacked, d.Pos, nil})
			}
			continue
		}
		rest = append(rest, it)
	}
	for _, a := range argsIn {
		if a.port != nil {
			s.tfPorts = append(s.tfPorts, a.port)
		} else {
			s.tfPorts = append(s.tfPorts, nil)
		}
		t := e.resolveType(a.dt, sc)
		if t == nil {
			return fail()
		}
		if len(a.un) > 0 {
			e.errorf(a.pos, "unpacked array arguments are not supported yet")
			return fail()
		}
		var dir design.Dir
		switch a.dir {
		case hdl.DirOutput:
			dir = design.DirOut
		case hdl.DirInout:
			dir = design.DirInOut
		case hdl.DirRef:
			e.errorf(a.pos, "ref arguments are not supported yet")
			return fail()
		}
		h := e.funcHome(fsc, a.name, t, nil, a.pos)
		if !e.declare(fsc, &symbol{kind: symVar, name: a.name, pos: a.pos, home: h, vt: t, declScope: fsc}) {
			return fail()
		}
		f.Args = append(f.Args, h)
		f.ArgDirs = append(f.ArgDirs, dir)
	}
	blk := &design.Block{}
	e.registerItems(fsc, rest, true)
	errs := e.errCount()
	p.declLocals(fsc, rest, blk, false)
	for _, st := range body {
		p.stmt(st, fsc, &blk.Stmts)
	}
	if e.errCount() > errs {
		return fail()
	}
	f.Body = blk
	e.promoteStatics(f, p.statics)
	return f
}

// promoteStatics turns the static locals of f whose value a call can read
// from an earlier call (design.LiveIn: read before written, or initialized
// by their declaration and read) into KindStatic homes: one storage object
// for every call, listed in Design.Homes and no longer in Block.Locals. The
// other static locals stay per-call templates: nothing can tell them apart
// (arguments and the result, static too in the standard, are assigned on
// every call before being read, so they stay templates as well).
func (e *elab) promoteStatics(f *design.Function, statics []*design.Home) {
	if len(statics) == 0 {
		return
	}
	live := design.LiveIn(f.Body, statics)
	if len(live) == 0 {
		return
	}
	promoted := map[*design.Home]bool{}
	for _, h := range live {
		promoted[h] = true
		h.Kind = design.KindStatic
		if e.staticDecl == nil {
			e.staticDecl = map[*design.Home]*design.Init{}
		}
		e.staticDecl[h] = h.Init
		path := h.Path
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
	}
	design.WalkStmt(f.Body, func(st design.Stmt) bool {
		if blk, ok := st.(*design.Block); ok && len(blk.Locals) > 0 {
			kept := blk.Locals[:0]
			for _, h := range blk.Locals {
				if !promoted[h] {
					kept = append(kept, h)
				}
			}
			blk.Locals = kept
		}
		return true
	})
}

// errNotConst marks an evaluation that needs state.
var errNotConst = errors.New("not constant")
