package elab

import (
	"math/big"
	"math/bits"

	"github.com/weft-hdl/weft/design"
	"github.com/weft-hdl/weft/hdl"
)

type refKind int

const (
	rkValue    refKind = iota // a value (constant or computed)
	rkVar                     // a home, possibly selected
	rkScope                   // a generate block or instance scope
	rkScopeArr                // a generate-for block array
	rkType                    // a type name
)

// ref is a resolved name or select chain.
type ref struct {
	kind     refKind
	expr     design.Expr // the value (nil while unpacked dims remain)
	pt       *ptype      // structure of the value
	signed   bool        // signedness of the value
	home     *design.Home
	sym      *symbol
	unpacked []design.Dim // unpacked dims not yet indexed
	idx      []design.Expr
	sc       *scope
	subs     map[int]*scope
	typ      *ptype
	name     string
	selected bool // a select or member was applied
	// mp restricts a scope reached through an interface port or modport.
	mp *modportInfo
	// adim is the declared range of an instance array (rkScopeArr).
	adim *design.Dim
}

func (r *ref) info() tinfo {
	switch r.kind {
	case rkVar, rkValue:
		if len(r.unpacked) > 0 {
			return tinfo{t: design.Type{Width: r.pt.width, Signed: r.pt.signed}, pt: r.pt, arr: true, unpacked: r.unpacked}
		}
		return tinfo{t: design.Type{Width: r.pt.width, Signed: r.signed}, pt: r.pt}
	case rkType:
		if r.typ != nil {
			return tinfo{t: r.typ.dt(), pt: r.typ}
		}
	}
	return tinfo{t: bitT}
}

// lookup finds a name from the expression's scope, honouring the process's
// privatized loop variables.
func (x *ectx) lookup(name string) *symbol {
	s := x.sc.lookup(name)
	if s != nil && x.p != nil {
		if ps, ok := x.p.priv[s]; ok {
			return ps
		}
	}
	return s
}

// ref resolves a name or select chain; lv is set when it is assigned.
func (x *ectx) ref(n hdl.Expr, lv bool) *ref {
	if !x.e.enter(n) {
		x.failed = true
		return nil
	}
	r := x.ref1(n, lv)
	x.e.leave()
	return r
}

func (x *ectx) ref1(n hdl.Expr, lv bool) *ref {
	switch n := n.(type) {
	case *hdl.ParenExpr:
		return x.ref(n.X, lv)
	case *hdl.Ident:
		return x.identRef(x.lookup(n.Name), n.Name, n.Pos, lv)
	case *hdl.ScopedIdent:
		var ps *scope
		if n.Package == "$unit" {
			ps = x.e.unit
		} else {
			ps = x.e.pkgScope(n.Package, n.Pos)
		}
		if ps == nil {
			x.failed = true
			return nil
		}
		s := ps.syms[n.Name]
		if s == nil {
			x.errorf(n.Pos, "unknown identifier '%s::%s'%s", n.Package, n.Name, suggestFrom(n.Name, ps.names()))
			return nil
		}
		return x.identRef(s, n.Package+"::"+n.Name, n.Pos, lv)
	case *hdl.MemberExpr:
		base := x.ref(n.X, lv)
		if base == nil {
			return nil
		}
		switch base.kind {
		case rkScope:
			s := base.sc.syms[n.Name]
			if s == nil {
				x.errorf(n.Pos, "unknown identifier '%s' in scope '%s'%s", n.Name, base.sc.path, suggestFrom(n.Name, base.sc.names()))
				return nil
			}
			iface := base.sc.inst != nil && base.sc.inst.mod.Interface
			if s.kind == symModport {
				if base.mp != nil {
					x.errorf(n.Pos, "'%s' is already restricted to modport '%s'", base.name, base.mp.name)
					return nil
				}
				return &ref{kind: rkScope, sc: base.sc, name: base.name + "." + n.Name, mp: s.mp}
			}
			// A scope reached by name is the current instance, an interface,
			// or a module instance below this one (u.sig, u.g[1].r): every
			// home is global, so reading or writing it there is exact.
			if base.sc.inst != x.sc.inst && !iface && x.constOnly {
				x.errorf(n.Pos, "hierarchical reference '%s.%s' in %s: a constant expression cannot name another module instance (IEEE 1800 §23.10); pass the value as a parameter", base.name, n.Name, x.what)
				return nil
			}
			if !x.throughModport(base.mp, s, base.name+"."+n.Name, n.Pos, lv) {
				return nil
			}
			if lv && iface && s.isPort && s.dir == hdl.DirInput && base.sc.inst != x.sc.inst {
				x.errorf(n.Pos, "cannot assign to '%s.%s': it is an input port of interface '%s'", base.name, n.Name, base.sc.inst.mod.Name)
				return nil
			}
			return x.identRef(s, base.sc.path+"."+n.Name, n.Pos, lv)
		case rkVar, rkValue:
			if len(base.unpacked) > 0 {
				x.errorf(n.Pos, "'%s' is an unpacked array; select an element before '.%s'", base.name, n.Name)
				return nil
			}
			if !base.pt.isStruct() {
				x.errorf(n.Pos, "'%s' has no member '%s' (its type %s is not a struct)", base.name, n.Name, typeSV(base.pt))
				return nil
			}
			var names []string
			for _, f := range base.pt.fields {
				if f.name == n.Name {
					r := x.sliceRef(base, cint(int64(f.offset)), f.typ.width, f.typ, f.typ.signed)
					r.name = base.name + "." + n.Name
					return r
				}
				names = append(names, f.name)
			}
			x.errorf(n.Pos, "struct '%s' has no member '%s'%s", base.name, n.Name, suggestFrom(n.Name, names))
			return nil
		}
		x.errorf(n.Pos, "'%s' has no member '%s'", base.name, n.Name)
		return nil
	case *hdl.IndexExpr:
		base := x.ref(n.X, lv)
		if base == nil {
			return nil
		}
		switch base.kind {
		case rkScopeArr:
			i, ok := x.constIntOf(n.Index, "generate block index")
			if !ok {
				return nil
			}
			sub := base.subs[int(i)]
			if sub == nil {
				x.errorf(n.Index.Position(), "generate block '%s' has no index %d", base.name, i)
				return nil
			}
			return &ref{kind: rkScope, sc: sub, name: sub.path, mp: base.mp}
		case rkVar, rkValue:
			if len(base.unpacked) > 0 {
				return x.indexUnpacked(base, n.Index)
			}
			return x.selectBit(base, n.Index, n.Pos)
		}
		x.errorf(n.Pos, "'%s' cannot be indexed", base.name)
		return nil
	case *hdl.RangeExpr:
		if n.X == nil {
			x.errorf(n.Pos, "a value range [a:b] is only allowed in an inside set or a case-inside item")
			return nil
		}
		base := x.ref(n.X, lv)
		if base == nil {
			return nil
		}
		if base.kind != rkVar && base.kind != rkValue {
			x.errorf(n.Pos, "'%s' cannot be part-selected", base.name)
			return nil
		}
		if len(base.unpacked) > 0 {
			x.errorf(n.Pos, "slices of unpacked array '%s' are not supported yet", base.name)
			return nil
		}
		return x.partSelect(base, n)
	}
	if lv {
		return nil
	}
	v := x.primary(n)
	st := x.self(n)
	pt := st.pt
	if pt == nil || pt.width != v.Type().Width {
		pt = typeOf(v.Type())
	}
	return &ref{kind: rkValue, expr: v, pt: pt, signed: v.Type().Signed, name: "expression"}
}

func (x *ectx) identRef(s *symbol, name string, pos hdl.Pos, lv bool) *ref {
	if s == nil {
		for sc := x.sc; sc != nil; sc = sc.parent {
			if at, ok := sc.laterInst[name]; ok {
				x.errorf(pos, "'%s' is instantiated further down (at %s); weft resolves a hierarchical name only into an instance declared above its use: move the instance up", name, at)
				return nil
			}
		}
		x.errorf(pos, "unknown identifier '%s'%s", name, x.sc.suggest(name))
		return nil
	}
	if x.p != nil && !lv {
		if cv, ok := x.p.consts[s]; ok {
			return &ref{kind: rkValue, expr: cv.constExpr(), pt: cv.t, signed: cv.t.signed, name: name}
		}
	}
	switch s.kind {
	case symParam, symEnumPending:
		if lv {
			x.errorf(pos, "cannot assign to parameter '%s'", name)
			return nil
		}
		cv := x.e.paramVal(s, pos)
		if cv == nil {
			x.failed = true
			return nil
		}
		return &ref{kind: rkValue, expr: cv.constExpr(), pt: cv.t, signed: cv.t.signed, name: name}
	case symVar, symResult:
		if x.constOnly {
			x.errorf(pos, "'%s' is not a constant; %s must be a constant expression", name, x.what)
			return nil
		}
		h := x.e.ensureHome(s)
		if h == nil {
			x.failed = true
			return nil
		}
		if lv && s.isPort && s.dir == hdl.DirInput {
			x.errorf(pos, "cannot assign to input port '%s'", name)
			return nil
		}
		r := &ref{kind: rkVar, home: h, sym: s, pt: s.vt, signed: s.vt.signed, unpacked: s.unpacked, name: name}
		if len(s.unpacked) == 0 {
			r.expr = &design.HomeRef{Home: h}
		}
		return r
	case symType:
		return &ref{kind: rkType, typ: x.e.symType(s), name: name}
	case symScope:
		if s.sub == nil {
			x.failed = true // an interface port left unbound (reported)
			return nil
		}
		return &ref{kind: rkScope, sc: s.sub, name: name, mp: s.mp}
	case symModport:
		x.errorf(pos, "modport '%s' is not a value; name it in an interface port's type or connection", name)
	case symScopeArray:
		if s.iport != nil && s.subs == nil {
			x.failed = true // an interface port array left unbound (reported)
			return nil
		}
		return &ref{kind: rkScopeArr, subs: s.subs, name: name, mp: s.mp, adim: s.adim}
	case symFunc:
		x.errorf(pos, "'%s' is a function or task; call it with parentheses", name)
	case symGenvar:
		x.errorf(pos, "genvar '%s' is used outside of a generate loop", name)
	}
	return nil
}

func (x *ectx) refValue(r *ref, n hdl.Expr) design.Expr {
	switch r.kind {
	case rkVar, rkValue:
		if len(r.unpacked) > 0 {
			x.errorf(n.Position(), "'%s' is an unpacked array; select an element", r.name)
			return design.NewConst(bitT, zero())
		}
		return cast(r.expr, r.signed)
	case rkType:
		x.errorf(n.Position(), "'%s' is a type, not a value", r.name)
	default:
		x.errorf(n.Position(), "'%s' is a scope, not a value", r.name)
	}
	return design.NewConst(bitT, zero())
}

// xzIndex reports a constant index with x or z bits: it selects x (IEEE
// 1800 11.5.1, 7.4.6), which reads as 0 at run time, and a write to it
// does nothing, as for an index out of range.
func (x *ectx) xzIndex(c *design.Const) {
	if x.constOnly {
		x.errorf(hpos(c.U.At), "%s: an index with x or z bits selects x, and %s must be known", design.FormatBinary(c), x.what)
		return
	}
	if x.quiet == 0 {
		x.e.xzReadsZero(c)
	}
}

// outOfRange reports a constant select outside the declared range: an error,
// or a warning inside an unrolled loop (where guarded dead code may index
// out of range); the select then reads 0 and ignores writes.
func (x *ectx) outOfRange(pos hdl.Pos, format string, args ...any) {
	if x.p != nil && x.p.unrolling > 0 {
		x.warnc(pos, hdl.CodeSelRange, format+"; it reads 0 and writes are ignored", args...)
		return
	}
	x.errorf(pos, format, args...)
}

func (x *ectx) indexUnpacked(base *ref, idxAST hdl.Expr) *ref {
	d := base.unpacked[0]
	ix := x.selfv(idxAST)
	var ne design.Expr
	if c, ok := ix.(*design.Const); ok && c.U != nil {
		x.xzIndex(c)
		ne = cint(int64(d.Size()))
	} else if c, ok := ix.(*design.Const); ok {
		i := design.ToInt(c.Val, c.T)
		k := new(big.Int).Sub(i, big.NewInt(int64(d.Lo())))
		if k.Sign() < 0 || k.Cmp(big.NewInt(int64(d.Size()))) >= 0 {
			x.outOfRange(idxAST.Position(), "index %s is out of range %s of '%s'", i, d, base.name)
			ne = cint(int64(d.Size()))
		} else {
			ne = cint(k.Int64())
		}
	} else {
		ne = dynOffset(ix, 1, -int64(d.Lo()), 1)
	}
	r := *base
	r.idx = append(append([]design.Expr{}, base.idx...), ne)
	r.unpacked = base.unpacked[1:]
	r.selected = true
	if len(r.unpacked) == 0 {
		r.expr = &design.ElemRef{Home: base.home, Index: r.idx}
	}
	return &r
}

// position is the offset (0 = rightmost) of index i in dim d.
func position(d design.Dim, i int64) int64 {
	if d.Left >= d.Right {
		return i - int64(d.Right)
	}
	return int64(d.Right) - i
}

// indexFromLeft is the index k places from d's left bound.
func indexFromLeft(d design.Dim, k int) int {
	if d.Left > d.Right {
		return d.Left - k
	}
	return d.Left + k
}

func (x *ectx) selectBit(base *ref, idxAST hdl.Expr, pos hdl.Pos) *ref {
	// A scalar (`logic a; a[0]`) is selected as a [0:0] vector.
	vt := base.pt.asVector()
	d := vt.dims[0]
	ew := vt.elemWidth()
	et := vt.elem()
	ix := x.selfv(idxAST)
	var lsb design.Expr
	if c, ok := ix.(*design.Const); ok && c.U != nil {
		x.xzIndex(c)
		lsb = cint(int64(base.pt.width))
	} else if c, ok := ix.(*design.Const); ok {
		i := design.ToInt(c.Val, c.T)
		if !i.IsInt64() {
			x.outOfRange(idxAST.Position(), "index %s is out of range %s of '%s'", i, d, base.name)
			lsb = cint(int64(base.pt.width))
		} else if p := position(d, i.Int64()); p < 0 || p >= int64(d.Size()) {
			x.outOfRange(idxAST.Position(), "index %d is out of range %s of '%s'", i.Int64(), d, base.name)
			lsb = cint(int64(base.pt.width))
		} else {
			lsb = cint(p * int64(ew))
		}
	} else if d.Left >= d.Right {
		lsb = dynOffset(ix, 1, -int64(d.Right), ew)
	} else {
		lsb = dynOffset(ix, -1, int64(d.Right), ew)
	}
	// An element is unsigned unless it is of a named type declared signed
	// (IEEE 1800-2017 §7.4.1): elem() gives intermediate slices and bits
	// unsigned types and the element type itself at the innermost dim.
	r := x.sliceRef(base, lsb, ew, et, et.signed)
	return r
}

func (x *ectx) partSelect(base *ref, n *hdl.RangeExpr) *ref {
	vt := base.pt.asVector()
	d := vt.dims[0]
	ew := vt.elemWidth()
	size := int64(d.Size())
	desc := d.Left >= d.Right
	switch n.Kind {
	case hdl.SelConst:
		l, ok1 := x.constIntOf(n.Left, "part-select bound")
		r, ok2 := x.constIntOf(n.Right, "part-select bound")
		if !ok1 || !ok2 {
			return nil
		}
		if l != r && (l > r) != desc {
			x.errorf(n.Pos, "part-select [%d:%d] of '%s' is reversed (declared %s)", l, r, base.name, d)
			return nil
		}
		pl, pr := position(d, l), position(d, r)
		w := abs64(l-r) + 1
		lo := min(pl, pr)
		if pl < 0 || pr < 0 || pl >= size || pr >= size {
			x.outOfRange(n.Pos, "part-select [%d:%d] is out of range %s of '%s'", l, r, d, base.name)
			return x.sliceRef(base, cint(int64(base.pt.width)), int(w)*ew, vec(int(w)*ew, false), false)
		}
		return x.sliceRef(base, cint(lo*int64(ew)), int(w)*ew, vec(int(w)*ew, false), false)
	default:
		w, ok := x.constIntOf(n.Right, "indexed part-select width")
		if !ok {
			return nil
		}
		if w < 1 || w > size {
			x.errorf(n.Right.Position(), "indexed part-select width %d must be between 1 and %d", w, size)
			return nil
		}
		plus := n.Kind == hdl.SelPlus
		b := x.selfv(n.Left)
		wt := vec(int(w)*ew, false)
		if c, ok := b.(*design.Const); ok && c.U != nil {
			x.xzIndex(c)
			return x.sliceRef(base, cint(int64(base.pt.width)), int(w)*ew, wt, false)
		}
		if c, ok := b.(*design.Const); ok {
			bi := design.ToInt(c.Val, c.T)
			if !bi.IsInt64() {
				x.outOfRange(n.Pos, "indexed part-select is out of range %s of '%s'", d, base.name)
				return x.sliceRef(base, cint(int64(base.pt.width)), int(w)*ew, wt, false)
			}
			lo, hi := bi.Int64(), bi.Int64()+w-1
			if !plus {
				lo, hi = bi.Int64()-w+1, bi.Int64()
			}
			pa, pb := position(d, lo), position(d, hi)
			if pa < 0 || pb < 0 || pa >= size || pb >= size {
				x.outOfRange(n.Pos, "indexed part-select [%d:%d] is out of range %s of '%s'", hi, lo, d, base.name)
				return x.sliceRef(base, cint(int64(base.pt.width)), int(w)*ew, wt, false)
			}
			return x.sliceRef(base, cint(min(pa, pb)*int64(ew)), int(w)*ew, wt, false)
		}
		var lsb design.Expr
		switch {
		case desc && plus:
			lsb = dynOffset(b, 1, -int64(d.Right), ew)
		case desc && !plus:
			lsb = dynOffset(b, 1, -w+1-int64(d.Right), ew)
		case !desc && plus:
			lsb = dynOffset(b, -1, int64(d.Right)-w+1, ew)
		default:
			lsb = dynOffset(b, -1, int64(d.Right), ew)
		}
		return x.sliceRef(base, lsb, int(w)*ew, wt, false)
	}
}

func abs64(v int64) int64 {
	if v < 0 {
		return -v
	}
	return v
}

func (x *ectx) sliceRef(base *ref, lsb design.Expr, w int, pt *ptype, signed bool) *ref {
	r := *base
	r.expr = mkSlice(base.expr, lsb, design.Type{Width: w, Signed: signed})
	r.pt = pt
	if pt.width != w {
		r.pt = vec(w, signed)
	}
	r.signed = signed
	r.selected = true
	if base.kind == rkValue {
		r.kind = rkValue
	}
	return &r
}

// dynOffset builds (s*ix + c) * scale as an unsigned offset. Negative
// results wrap to huge values, which read 0 and make writes do nothing.
func dynOffset(ix design.Expr, s int, c int64, scale int) design.Expr {
	t := ix.Type()
	if s == 1 && c == 0 && !t.Signed {
		if scale == 1 {
			return ix
		}
		if scale&(scale-1) == 0 {
			k := bits.TrailingZeros(uint(scale))
			W := t.Width + k
			return mkBinary(design.OpShl, mkExtend(ix, false, design.Type{Width: W}), cint(int64(k)), design.Type{Width: W})
		}
		W := t.Width + bits.Len(uint(scale))
		return mkBinary(design.OpMul, mkExtend(ix, false, design.Type{Width: W}), design.ConstInt(design.Type{Width: W}, int64(scale)), design.Type{Width: W})
	}
	W := max(t.Width, 30, bits.Len64(uint64(abs64(c)))) + 2
	st := design.Type{Width: W, Signed: true}
	e := mkExtend(ix, t.Signed, st)
	cst := design.ConstInt(st, c)
	if s == 1 {
		e = mkBinary(design.OpAdd, e, cst, st)
	} else {
		e = mkBinary(design.OpSub, cst, e, st)
	}
	if scale > 1 {
		W2 := W + bits.Len(uint(scale))
		st2 := design.Type{Width: W2, Signed: true}
		e = mkBinary(design.OpMul, mkExtend(e, true, st2), design.ConstInt(st2, int64(scale)), st2)
		st = st2
	}
	return cast(e, false)
}

// lvalue resolves an assignment target. It returns the target and its
// structure; whole unpacked arrays come back as a HomeRef with arr set.
func (x *ectx) lvalue(n hdl.Expr) (design.LValue, *ptype, bool) {
	if p, ok := n.(*hdl.ParenExpr); ok {
		return x.lvalue(p.X)
	}
	if c, ok := n.(*hdl.ConcatExpr); ok {
		var parts []design.Expr
		w := 0
		for _, it := range c.Items {
			lv, _, arr := x.lvalue(it)
			if lv == nil {
				return nil, nil, false
			}
			if arr {
				x.errorf(it.Position(), "an unpacked array cannot be part of a concatenation")
				return nil, nil, false
			}
			parts = append(parts, lv)
			w += lv.Type().Width
		}
		if len(parts) == 1 {
			l := parts[0].(design.LValue)
			return l, typeOf(l.Type()), false
		}
		return &design.Concat{Parts: parts, T: design.Type{Width: w}}, vec(w, false), false
	}
	switch n.(type) {
	case *hdl.Ident, *hdl.ScopedIdent, *hdl.MemberExpr, *hdl.IndexExpr, *hdl.RangeExpr:
	default:
		x.errorf(n.Position(), "this expression cannot be assigned to")
		return nil, nil, false
	}
	r := x.ref(n, true)
	if r == nil {
		x.failed = true
		return nil, nil, false
	}
	if r.kind != rkVar {
		x.errorf(n.Position(), "'%s' cannot be assigned to", r.name)
		return nil, nil, false
	}
	if len(r.unpacked) > 0 {
		if len(r.idx) > 0 {
			x.errorf(n.Position(), "assigning a slice of unpacked array '%s' is not supported yet", r.name)
			return nil, nil, false
		}
		return &design.HomeRef{Home: r.home}, r.pt, true
	}
	lv, ok := r.expr.(design.LValue)
	if !ok {
		x.errorf(n.Position(), "'%s' cannot be assigned to", r.name)
		return nil, nil, false
	}
	return lv, r.pt, false
}
