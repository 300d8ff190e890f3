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
		k, err := fold(c)
		if err == nil {
			return k
		}
		if x.constOnly {
			if x.quiet == 0 {
				x.failed = true
				x.e.constErr(n.Pos, fmt.Sprintf("call of '%s'", n.Name), err)
			}
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
// An unpacked array argument is one design argument per element (see
// formal), paired left to right with the elements of the array passed.
func (x *ectx) callArgs(n *hdl.CallExpr, s *symbol, f *design.Function) ([]design.Expr, []design.LValue) {
	ports := s.tfPorts
	fms := x.e.formalsOf(f)
	if len(n.Args) > len(fms) {
		x.errorf(n.Args[len(fms)].Position(), "too many arguments in call to '%s' (it takes %d)", n.Name, len(fms))
		return nil, nil
	}
	args := make([]design.Expr, len(f.Args))
	outs := make([]design.LValue, len(f.Args))
	given := make([]hdl.Expr, len(fms))
	copy(given, n.Args)
	for name, a := range n.NamedArgs {
		found := false
		for i, fm := range fms {
			if fm.name == name {
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
	for i, fm := range fms {
		g := given[i]
		h := f.Args[fm.first]
		if g == nil && i < len(ports) && ports[i] != nil && ports[i].Default != nil {
			dx := &ectx{e: x.e, sc: s.declScope, p: x.p}
			if fm.dims != nil {
				vals, vok := dx.arrayElems(ports[i].Default, fm.dims, fm.vt, "default of argument '"+fm.name+"'")
				if !vok {
					ok = false
					continue
				}
				copy(args[fm.first:], vals)
				continue
			}
			args[fm.first] = dx.assignConv(ports[i].Default, h.Type())
			continue
		}
		if g == nil {
			x.errorf(n.Pos, "missing argument '%s' in call to '%s'", fm.name, n.Name)
			ok = false
			continue
		}
		dir := f.ArgDirs[fm.first]
		if fm.dims != nil {
			what := "argument '" + fm.name + "' of '" + n.Name + "'"
			if dir == design.DirOut || dir == design.DirInOut {
				lvs, lok := x.arrayLValues(g, fm.dims, fm.vt, what)
				if !lok {
					ok = false
					continue
				}
				for j, lv := range lvs {
					outs[fm.first+j] = lv
					if dir == design.DirInOut {
						args[fm.first+j] = lv
					}
				}
				continue
			}
			vals, vok := x.arrayElems(g, fm.dims, fm.vt, what)
			if !vok {
				ok = false
				continue
			}
			copy(args[fm.first:], vals)
			continue
		}
		if dir == design.DirOut || dir == design.DirInOut {
			lv, _, arr := x.lvalue(g)
			if lv == nil || arr {
				if arr {
					x.errorf(g.Position(), "argument '%s' of '%s' is not an unpacked array; pass an element", fm.name, n.Name)
				}
				ok = false
				continue
			}
			outs[fm.first] = lv
			if dir == design.DirInOut {
				args[fm.first] = adapt(lv, h.Width)
			}
			continue
		}
		args[fm.first] = x.assignConv(g, h.Type())
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

// formal is one declared argument of a function or task. A scalar
// argument is design argument first; an unpacked array argument of shape
// dims is the n design arguments first..first+n-1, one per element in
// left-to-right order (outermost dimension first, each dimension from its
// left bound to its right bound), so that passing an array by value is
// exact whatever the directions of the two ranges (IEEE 1800 §7.6 pairs
// elements left to right), and constant functions, inlining and the
// access analysis need nothing new. Inside the function the argument is an
// ordinary local array: filled from the element arguments on entry,
// copied back to them before every return for an output.
type formal struct {
	name     string
	first, n int
	dims     []design.Dim // nil for a scalar argument
	vt       *ptype
}

// maxArrayArg bounds the elements of an unpacked array argument: each is
// an argument of its own.
const maxArrayArg = 4096

// formalsOf returns the declared arguments of f.
func (e *elab) formalsOf(f *design.Function) []formal {
	if fms, ok := e.formals[f]; ok {
		return fms
	}
	fms := make([]formal, len(f.Args))
	for i, h := range f.Args {
		fms[i] = formal{name: h.Name, first: i, n: 1, vt: typeOf(h.Type())}
	}
	return fms
}

// ltrPos returns the storage (flattened, index Lo first) element of the
// element at left-to-right position j of an array of shape dims. Reversing
// the descending dimensions is its own inverse, so ltrPos also maps a
// storage element to its left-to-right position.
func ltrPos(dims []design.Dim, j int) int {
	flat, stride := 0, prodDims(dims)
	for _, d := range dims {
		stride /= d.Size()
		at := (j / stride) % d.Size()
		if d.Left > d.Right {
			at = d.Size() - 1 - at
		}
		flat += at * stride
	}
	return flat
}

// ltrIndex returns the indexes (as written) of the element at
// left-to-right position j of an array of shape dims.
func ltrIndex(dims []design.Dim, j int) []int {
	idx := make([]int, len(dims))
	stride := prodDims(dims)
	for k, d := range dims {
		stride /= d.Size()
		at := (j / stride) % d.Size()
		if d.Left > d.Right {
			idx[k] = d.Left - at
		} else {
			idx[k] = d.Left + at
		}
	}
	return idx
}

// indexAST returns g[i0][i1]... as source expressions, so that an element
// of any array the design can name is read or written the ordinary way.
func indexAST(g hdl.Expr, idx []int) hdl.Expr {
	at := hdl.At{Pos: g.Position()}
	for _, i := range idx {
		g = &hdl.IndexExpr{At: at, X: g, Index: intLit(at, i)}
	}
	return g
}

// arrayShape checks that g is an unpacked array of shape dims (the same
// number of dimensions, each of the same size, IEEE 1800 §7.6) with
// elements of type et, and returns its dimensions.
func (x *ectx) arrayShape(g hdl.Expr, dims []design.Dim, et *ptype, what string) ([]design.Dim, bool) {
	s := x.self(g)
	if pd, base, ok := x.paramArray(g); ok {
		s = tinfo{t: base.dt(), pt: base, arr: true, unpacked: pd}
	}
	if !s.arr {
		if _, isPat := unparen(g).(*hdl.PatternExpr); !isPat {
			x.errorf(g.Position(), "%s is an unpacked array %s; pass an array of that shape or an assignment pattern", what, shapeString(dims))
		}
		return nil, false
	}
	same := len(s.unpacked) == len(dims)
	for k := range dims {
		if same && s.unpacked[k].Size() != dims[k].Size() {
			same = false
		}
	}
	if !same || s.t.Width != et.width {
		x.errorf(g.Position(), "%s is an unpacked array %s of %d-bit elements; the array passed is %s of %d-bit elements", what, shapeString(dims), et.width, shapeString(s.unpacked), s.t.Width)
		return nil, false
	}
	if ka, kb := elemKind(et), elemKind(s.pt); s.pt != nil && ka != kb {
		x.errorf(g.Position(), "%s has %s elements and %s has %s elements: unpacked arrays need equivalent element types (IEEE 1800 §7.6); convert element by element (a loop) or declare both alike", what, ka, exprName(g), kb)
		return nil, false
	}
	return s.unpacked, true
}

// elemKind describes what makes unpacked array element types equivalent
// beyond their width (IEEE 1800 §6.22.2): 2- or 4-state, signedness.
func elemKind(t *ptype) string {
	if t == nil {
		return ""
	}
	k := "4-state"
	if t.state2 {
		k = "2-state"
	}
	if t.signed {
		return "signed " + k
	}
	return "unsigned " + k
}

// paramArray returns the unpacked dimensions not yet selected and the
// element type of g when it names a parameter declared as an unpacked
// array (or elements of one): such a parameter is held as the packed array
// of the same dimensions (see paramDeclType), which its selects index the
// same way.
func (x *ectx) paramArray(g hdl.Expr) ([]design.Dim, *ptype, bool) {
	depth := 0
	n := unparen(g)
	for {
		ix, ok := n.(*hdl.IndexExpr)
		if !ok {
			break
		}
		depth++
		n = unparen(ix.X)
	}
	var s *symbol
	switch id := n.(type) {
	case *hdl.Ident:
		s = x.lookup(id.Name)
	case *hdl.ScopedIdent:
		if ps := x.e.pkgs[id.Package]; ps != nil {
			s = ps.syms[id.Name]
		}
	}
	if s == nil || s.kind != symParam || s.decl == nil || len(s.decl.Unpacked) <= depth {
		return nil, nil, false
	}
	pt := x.self(g).pt
	k := len(s.decl.Unpacked) - depth
	if pt == nil || len(pt.dims) < k || pt.base == nil {
		return nil, nil, false
	}
	return pt.dims[:k], pt.base, true
}

// subArrayItem puts the elements of n, an unpacked array value for the
// sub-array of shape dims at flattened element at, into out (IEEE 1800
// §10.9.1: an item of an array pattern may be an array of the element
// type).
func (x *ectx) subArrayItem(n hdl.Expr, dims []design.Dim, et *ptype, at int, out map[int]design.Expr) {
	if _, _, ok := x.paramArray(n); !ok && !x.self(n).arr {
		x.errorf(n.Position(), "expected a nested assignment pattern or an unpacked array %s for a multi-dimensional array", shapeString(dims))
		return
	}
	vals, ok := x.arrayElems(n, dims, et, "the pattern item")
	if !ok {
		return
	}
	for j, v := range vals {
		out[at+ltrPos(dims, j)] = v
	}
}

// subArrayDefault evaluates the default of a pattern for an array of
// shape dims when it is an array itself (a nested pattern for the
// elements, or an array matching the innermost dimensions): the values of
// one such sub-array in storage order. It returns nil for a scalar
// default, which fills every element not otherwise given.
func (x *ectx) subArrayDefault(n hdl.Expr, dims []design.Dim, et *ptype) []design.Expr {
	var sub []design.Dim
	if _, ok := unparen(n).(*hdl.PatternExpr); ok {
		sub = dims[1:]
	} else {
		k := 0
		if pd, _, ok := x.paramArray(n); ok {
			k = len(pd)
		} else if s := x.self(n); s.arr {
			k = len(s.unpacked)
		}
		if k == 0 {
			return nil
		}
		if k >= len(dims) {
			x.errorf(n.Position(), "the default of the pattern is an unpacked array of %d dimensions; the elements of %s have fewer", k, shapeString(dims))
			return []design.Expr{}
		}
		sub = dims[len(dims)-k:]
	}
	vals, ok := x.arrayElems(n, sub, et, "the pattern's default")
	if !ok {
		return []design.Expr{}
	}
	byStorage := make([]design.Expr, len(vals))
	for j, v := range vals {
		byStorage[ltrPos(sub, j)] = v
	}
	return byStorage
}

// fillSubDefault gives the elements base..base+n-1 that out lacks their
// value in the repeated sub-array def.
func fillSubDefault(out map[int]design.Expr, def []design.Expr, base, n int) {
	if len(def) == 0 {
		return
	}
	for i := base; i < base+n; i++ {
		if out[i] == nil {
			out[i] = def[(i-base)%len(def)]
		}
	}
}

// shapeString writes dims as sizes: [2][3].
func shapeString(dims []design.Dim) string {
	out := ""
	for _, d := range dims {
		out += "[" + itoa(d.Size()) + "]"
	}
	return out
}

// exprName names an array operand in messages.
func exprName(g hdl.Expr) string {
	switch g := unparen(g).(type) {
	case *hdl.Ident:
		return "'" + g.Name + "'"
	case *hdl.ScopedIdent:
		return "'" + g.Package + "::" + g.Name + "'"
	}
	return "the array passed"
}

// arrayElems returns the values of the elements of the unpacked array
// value g (an array of shape dims, or an assignment pattern for one) in
// left-to-right order, converted to the element type et.
func (x *ectx) arrayElems(g hdl.Expr, dims []design.Dim, et *ptype, what string) ([]design.Expr, bool) {
	n := prodDims(dims)
	was := x.failed
	if pat, ok := unparen(g).(*hdl.PatternExpr); ok {
		elems, def := x.unpackedPattern(pat, dims, et)
		if x.failed && !was {
			return nil, false
		}
		vals := make([]design.Expr, n)
		for j := range vals {
			v := elems[ltrPos(dims, j)]
			if v == nil {
				v = def
			}
			if v == nil {
				at := ""
				for _, i := range ltrIndex(dims, j) {
					at += "[" + itoa(i) + "]"
				}
				x.errorf(pat.Pos, "the pattern for %s gives no value for element %s", what, at)
				return nil, false
			}
			vals[j] = v
		}
		return vals, true
	}
	src, ok := x.arrayShape(g, dims, et, what)
	if !ok {
		return nil, false
	}
	vals := make([]design.Expr, n)
	for j := range vals {
		vals[j] = x.assignConv(indexAST(g, ltrIndex(src, j)), et.dt())
	}
	return vals, !x.failed || was
}

// arrayLValues returns the elements of the unpacked array g (of shape
// dims) as lvalues in left-to-right order.
func (x *ectx) arrayLValues(g hdl.Expr, dims []design.Dim, et *ptype, what string) ([]design.LValue, bool) {
	src, ok := x.arrayShape(g, dims, et, what)
	if !ok {
		return nil, false
	}
	lvs := make([]design.LValue, prodDims(dims))
	for j := range lvs {
		lv, _, arr := x.lvalue(indexAST(g, ltrIndex(src, j)))
		if lv == nil || arr {
			x.failed = true
			return nil, false
		}
		lvs[j] = lv
	}
	return lvs, true
}

// queryDims returns the dimensions the array query functions see
// (unpacked first, then packed) and how many of them are unpacked. A 1-bit
// scalar (logic, bit, a bit select, a 1-bit enum or expression) has no
// dimension: it is not a packed array, and Icarus and Verilator agree that
// $dimensions of it is 0. Integer atoms, structs and wider expressions are
// one [W-1:0] dimension.
func (x *ectx) queryDims(a hdl.Expr) ([]design.Dim, int, bool) {
	if te, ok := a.(*hdl.TypeExpr); ok {
		t := x.e.resolveType(te.Type, x.sc)
		if t == nil {
			return nil, 0, false
		}
		return packedDims(t), 0, true
	}
	switch a.(type) {
	case *hdl.Ident, *hdl.ScopedIdent, *hdl.MemberExpr, *hdl.IndexExpr, *hdl.RangeExpr:
		wasConst := x.constOnly
		x.constOnly = false
		r := x.ref(a, false)
		x.constOnly = wasConst
		if r == nil {
			return nil, 0, false
		}
		if r.kind == rkType {
			if r.typ == nil {
				return nil, 0, false
			}
			return packedDims(r.typ), 0, true
		}
		if pd, base, ok := x.paramArray(a); ok {
			return append(append([]design.Dim{}, pd...), packedDims(base)...), len(pd), true
		}
		if r.kind == rkVar || r.kind == rkValue {
			return append(append([]design.Dim{}, r.unpacked...), packedDims(r.pt)...), len(r.unpacked), true
		}
	}
	s := x.self(a)
	if s.pt != nil && s.pt.width == s.t.Width {
		// A function result or a cast keeps its declared packed shape.
		return packedDims(s.pt), 0, true
	}
	if s.t.Width == 1 {
		return nil, 0, true
	}
	return []design.Dim{{Left: s.t.Width - 1, Right: 0}}, 0, true
}

// packedDims returns the packed dimensions of t: none for a 1-bit scalar.
func packedDims(t *ptype) []design.Dim {
	if len(t.dims) == 0 && t.fields == nil && t.width == 1 {
		return nil
	}
	return t.asVector().dims
}

// dimQuery is the value of array query function fn ($left, ...) for d.
func dimQuery(fn string, d design.Dim) int {
	switch fn {
	case "$size":
		return d.Size()
	case "$left":
		return d.Left
	case "$right":
		return d.Right
	case "$low":
		return d.Lo()
	case "$high":
		return d.Hi()
	}
	if d.Left < d.Right {
		return -1 // $increment
	}
	return 1
}

// dimArgQuery builds fn(array, dim) for dims when the dimension number dim
// is not a constant: a select over the constant per-dimension values. A
// dimension number out of range gives 'x in IEEE 1800 §20.7; weft is
// 2-state and reads it as 0, as it does an out-of-range array element.
func (x *ectx) dimArgQuery(fn string, dims []design.Dim, dim design.Expr) design.Expr {
	t := dim.Type()
	T := design.Type{Width: max(t.Width, 32), Signed: t.Signed}
	dv := x.fit(dim, T)
	var v design.Expr = design.NewConst(int32T, zero())
	for k := len(dims); k >= 1; k-- {
		hit := mkBinary(design.OpEq, dv, design.ConstInt(T, int64(k)), bitT)
		v = mkCond(hit, design.ConstInt(int32T, int64(dimQuery(fn, dims[k-1]))), v, int32T)
	}
	return v
}

// countBits builds $countbits(v, control...) (IEEE 1800 §20.9): the number
// of bits of v equal to any of the control bits (the lsb of each control
// argument). A constant v is counted exactly, x and z bits too. A run-time
// value is 2-state: counting '0 and '1 is exact, and an 'x or 'z control
// bit counts nothing (as $isunknown is 0).
func (x *ectx) countBits(n *hdl.CallExpr) design.Expr {
	zeroI := design.NewConst(int32T, zero())
	v := cast(x.selfv(n.Args[0]), false)
	w := v.Type().Width
	var ctl []design.Expr
	for _, c := range n.Args[1:] {
		if s := x.self(c); s.fill {
			ctl = append(ctl, x.conv(c, bitT))
		} else {
			ctl = append(ctl, mkTrunc(cast(x.selfv(c), false), bitT))
		}
	}
	if k, ok := v.(*design.Const); ok {
		var want [4]bool
		allConst := true
		for _, c := range ctl {
			if b, ok := c.(*design.Const); ok {
				want[b.Bit(0)] = true
			} else {
				allConst = false
			}
		}
		if allConst {
			return design.ConstInt(int32T, int64(design.CountBits4(k, want[design.B0], want[design.B1], want[design.BX], want[design.BZ])))
		}
	}
	// want1 and want0 say whether bits equal to 1 (0) are counted: 1-bit
	// truth values, constant unless a control bit is not a constant.
	var want1, want0 design.Expr = design.NewConst(bitT, zero()), design.NewConst(bitT, zero())
	for _, b := range ctl {
		if k, ok := b.(*design.Const); ok && k.U != nil {
			continue // an x or z control bit: no 2-state bit matches
		}
		want1 = mkBinary(design.OpOr, want1, b, bitT)
		want0 = mkBinary(design.OpOr, want0, mkUnary(design.OpNot, b, bitT), bitT)
	}
	var ones design.Expr
	if c, ok := v.(*design.Const); ok {
		if c.U != nil && x.quiet == 0 {
			x.e.xzReadsZero(c) // counted against run-time control bits
		}
		r, _ := design.EvalSysFunc(design.FnCountOnes, []*big.Int{c.Val}, int32T)
		ones = design.NewConst(int32T, r)
	} else {
		ones = &design.SysFunc{Fn: design.FnCountOnes, Args: []design.Expr{v}, T: int32T}
	}
	zeros := mkBinary(design.OpSub, design.ConstInt(int32T, int64(w)), ones, int32T)
	return mkBinary(design.OpAdd, mkCond(want1, ones, zeroI, int32T), mkCond(want0, zeros, zeroI, int32T), int32T)
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
	// $bits of an expression is its width, a constant even where its
	// operands are variables (a localparam sized by $bits({a, b})): it is
	// built, never evaluated, in a context that may name them (or every
	// variable would count as 1 bit), so that a name it cannot resolve is
	// reported rather than sized as 1 bit.
	vx := &ectx{e: x.e, sc: x.sc, p: x.p, what: x.what, quiet: x.quiet}
	w := vx.selfv(a).Type().Width
	if vx.failed {
		x.failed = true
	}
	return w, !vx.failed
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
			if c.U != nil {
				return design.NewConst4(int32T, nil, design.Ones(32), nil, c.U.At)
			}
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
	case "$dimensions", "$unpacked_dimensions":
		if !nargs(1, 1) {
			return zeroI
		}
		dims, nun, ok := x.queryDims(n.Args[0])
		if !ok {
			x.failed = true
			return zeroI
		}
		if n.Name == "$unpacked_dimensions" {
			return design.ConstInt(int32T, int64(nun))
		}
		return design.ConstInt(int32T, int64(len(dims)))
	case "$size", "$left", "$right", "$low", "$high", "$increment":
		if !nargs(1, 2) {
			return zeroI
		}
		dims, _, ok := x.queryDims(n.Args[0])
		if !ok {
			x.failed = true
			return zeroI
		}
		k := int64(1)
		if len(n.Args) == 2 {
			was := x.failed
			dv := x.selfv(n.Args[1])
			if x.failed && !was {
				return zeroI
			}
			if !isConst(dv) && !x.constOnly {
				if _, err := x.e.fold(dv); err != nil {
					return x.dimArgQuery(n.Name, dims, dv)
				}
			}
			if k, ok = x.constIntOf(n.Args[1], "dimension number"); !ok {
				return zeroI
			}
		}
		if k < 1 || k > int64(len(dims)) {
			x.errorf(n.Pos, "%s: dimension %d does not exist (the value has %d)", n.Name, k, len(dims))
			return zeroI
		}
		return design.ConstInt(int32T, int64(dimQuery(n.Name, dims[k-1])))
	case "$countbits":
		if len(n.Args) < 2 {
			x.errorf(n.Pos, "$countbits takes an expression and at least one control bit, got %d argument(s)", len(n.Args))
			return zeroI
		}
		return x.countBits(n)
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
		v := x.selfv(n.Args[0])
		if k, ok := v.(*design.Const); ok && k.U != nil {
			return design.NewConst(bitT, big.NewInt(1))
		}
		// A run-time value is 2-state: nothing is unknown, and the x bits
		// of a constant inside it read as 0.
		if x.quiet == 0 {
			design.WalkExpr(v, func(e design.Expr) {
				if k, ok := e.(*design.Const); ok && k.U != nil {
					x.e.xzReadsZero(k)
				}
			})
		}
		return design.NewConst(bitT, zero())
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
	blk := &design.Block{}
	var fms []formal
	var copyOut func() []design.Stmt // an output array argument's elements, back to the design arguments
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
		if len(a.un) > 0 {
			dims, ok := e.evalDims(a.un, sc)
			if !ok {
				return fail()
			}
			n := prodDims(dims)
			if n > maxArrayArg {
				e.errorf(a.pos, "unpacked array argument '%s' has %d elements; array arguments of more than %d elements are not supported yet", a.name, n, maxArrayArg)
				return fail()
			}
			arr := e.funcHome(fsc, a.name, t, dims, a.pos)
			if !e.declare(fsc, &symbol{kind: symVar, name: a.name, pos: a.pos, home: arr, vt: t, unpacked: dims, declScope: fsc}) {
				return fail()
			}
			blk.Locals = append(blk.Locals, arr)
			fms = append(fms, formal{name: a.name, first: len(f.Args), n: n, dims: dims, vt: t})
			var elems []*design.Home
			for j := range n {
				name := a.name
				for _, i := range ltrIndex(dims, j) {
					name += "[" + itoa(i) + "]"
				}
				h := e.funcHome(fsc, name, t, nil, a.pos)
				elems = append(elems, h)
				f.Args = append(f.Args, h)
				f.ArgDirs = append(f.ArgDirs, dir)
				if dir != design.DirOut {
					blk.Stmts = append(blk.Stmts, &design.Assign{LHS: elemRefFlat(arr, ltrPos(dims, j)), RHS: &design.HomeRef{Home: h}, Pos: dpos(a.pos)})
				}
			}
			if dir != design.DirIn {
				prev, pos := copyOut, a.pos
				copyOut = func() []design.Stmt {
					var out []design.Stmt
					if prev != nil {
						out = prev()
					}
					for j, h := range elems {
						out = append(out, &design.Assign{LHS: &design.HomeRef{Home: h}, RHS: elemRefFlat(arr, ltrPos(dims, j)), Pos: dpos(pos)})
					}
					return out
				}
			}
			continue
		}
		h := e.funcHome(fsc, a.name, t, nil, a.pos)
		if !e.declare(fsc, &symbol{kind: symVar, name: a.name, pos: a.pos, home: h, vt: t, declScope: fsc}) {
			return fail()
		}
		fms = append(fms, formal{name: a.name, first: len(f.Args), n: 1, vt: t})
		f.Args = append(f.Args, h)
		f.ArgDirs = append(f.ArgDirs, dir)
	}
	if e.formals == nil {
		e.formals = map[*design.Function][]formal{}
	}
	e.formals[f] = fms
	e.registerItems(fsc, rest, true)
	errs := e.errCount()
	p.declLocals(fsc, rest, blk, false)
	for _, st := range body {
		p.stmt(st, fsc, &blk.Stmts)
	}
	if e.errCount() > errs {
		return fail()
	}
	if copyOut != nil {
		for i, st := range blk.Stmts {
			blk.Stmts[i] = beforeReturn(st, copyOut)
		}
		blk.Stmts = append(blk.Stmts, copyOut()...)
	}
	f.Body = blk
	e.promoteStatics(f, p.statics)
	return f
}

// beforeReturn puts the statements pro() makes before every return in s.
func beforeReturn(s design.Stmt, pro func() []design.Stmt) design.Stmt {
	switch s := s.(type) {
	case *design.Return:
		return &design.Block{Stmts: append(pro(), s)}
	case *design.Block:
		if s != nil {
			for i, st := range s.Stmts {
				s.Stmts[i] = beforeReturn(st, pro)
			}
		}
	case *design.If:
		s.Then = beforeReturn(s.Then, pro)
		s.Else = beforeReturn(s.Else, pro)
	case *design.Case:
		for _, it := range s.Items {
			it.Body = beforeReturn(it.Body, pro)
		}
		s.Default = beforeReturn(s.Default, pro)
	case *design.Loop:
		s.Body = beforeReturn(s.Body, pro)
		s.Step = beforeReturn(s.Step, pro)
	}
	return s
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
