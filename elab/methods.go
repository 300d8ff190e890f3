package elab

import (
	"math/big"
	"slices"

	"github.com/weft-hdl/weft/design"
	"github.com/weft-hdl/weft/hdl"
)

// Built-in methods of values (IEEE 1800 §6.19.5): the enum methods first,
// last, next, prev and num. A method call arrives as a CallExpr whose Scope
// is the value; calls through an interface instance are not methods.

// methodTarget resolves the value a method is called on, or nil when the
// call has no scope or its scope is not a value (an interface).
func (x *ectx) methodTarget(n *hdl.CallExpr) *ref {
	if n.Scope == nil || n.System {
		return nil
	}
	x.quiet++
	r := x.ref(n.Scope, false)
	x.quiet--
	if r == nil || (r.kind != rkVar && r.kind != rkValue) {
		return nil
	}
	return r
}

// methodType is the self-determined type of a method call.
func (x *ectx) methodType(n *hdl.CallExpr) (tinfo, bool) {
	r := x.methodTarget(n)
	if r == nil {
		return tinfo{}, false
	}
	if r.pt != nil && r.pt.enum && len(r.unpacked) == 0 {
		switch n.Name {
		case "num":
			return tinfo{t: int32T}, true
		case "first", "last", "next", "prev":
			return tinfo{t: r.pt.dt(), pt: r.pt}, true
		}
	}
	return tinfo{t: bitT}, true
}

// method builds a method call; ok is false when n is not one.
func (x *ectx) method(n *hdl.CallExpr) (design.Expr, bool) {
	r := x.methodTarget(n)
	if r == nil {
		return nil, false
	}
	zeroBit := design.NewConst(bitT, zero())
	if r.pt == nil || !r.pt.enum || len(r.unpacked) > 0 {
		x.errorf(n.Pos, "method '%s' of '%s' is not supported yet (weft has the enum methods first, last, next, prev and num)", n.Name, r.name)
		return zeroBit, true
	}
	t, items := r.pt, r.pt.items
	if len(items) == 0 {
		x.errorf(n.Pos, "enum '%s' has no constants", r.name)
		return zeroBit, true
	}
	argc := map[string]int{"num": 0, "first": 0, "last": 0, "next": 1, "prev": 1}
	most, known := argc[n.Name]
	if !known {
		x.errorf(n.Pos, "enum method '%s' is not supported yet (weft has first, last, next, prev and num)", n.Name)
		return zeroBit, true
	}
	if len(n.Args) > most {
		x.errorf(n.Pos, "enum method '%s' takes %d argument(s), not %d", n.Name, most, len(n.Args))
		return zeroBit, true
	}
	c := func(v *big.Int) design.Expr { return design.NewConst(t.dt(), v) }
	switch n.Name {
	case "num":
		return cint(int64(len(items))), true
	case "first":
		return c(items[0].v), true
	case "last":
		return c(items[len(items)-1].v), true
	}
	step := int64(1)
	if len(n.Args) == 1 && n.Args[0] != nil {
		var ok bool
		if step, ok = x.constIntOf(n.Args[0], "enum method step"); !ok {
			return zeroBit, true
		}
	}
	if n.Name == "prev" {
		step = -step
	}
	// The constant step places away, wrapping around; a value that is no
	// constant of the enum gives the type's default value, 0.
	cur := x.refValue(r, n.Scope)
	k := int64(len(items))
	steps := make([]enumStep, len(items))
	for i := range items {
		j := ((int64(i)+step)%k + k) % k
		steps[i] = enumStep{from: items[i].v, to: items[j].v}
	}
	return stepSelect(cur, steps, t.dt()), true
}

// enumStep maps one enum value to the value a method gives for it.
type enumStep struct{ from, to *big.Int }

// stepSelect builds the select of the step whose from is cur (0 when none
// is): a chain of compares for a few items; for many, a balanced search on
// the value, so that an enum of 10^5 items nests 17 levels deep and not
// 10^5. When a value repeats, its first step wins, as in the chain.
func stepSelect(cur design.Expr, steps []enumStep, t design.Type) design.Expr {
	c := func(v *big.Int) design.Expr { return design.NewConst(t, v) }
	if len(steps) < 32 {
		var v design.Expr = c(zero())
		for i := len(steps) - 1; i >= 0; i-- {
			eq := mkBinary(design.OpEq, cur, c(steps[i].from), bitT)
			v = mkCond(eq, c(steps[i].to), v, t)
		}
		return v
	}
	key := func(s enumStep) *big.Int { return design.ToInt(s.from, cur.Type()) }
	sorted := slices.Clone(steps)
	slices.SortStableFunc(sorted, func(a, b enumStep) int { return key(a).Cmp(key(b)) })
	sorted = slices.CompactFunc(sorted, func(a, b enumStep) bool { return a.from.Cmp(b.from) == 0 })
	var search func(ss []enumStep) design.Expr
	search = func(ss []enumStep) design.Expr {
		if len(ss) < 32 {
			return stepSelect(cur, ss, t)
		}
		mid := len(ss) / 2
		lt := mkBinary(design.OpLt, cur, c(ss[mid].from), bitT)
		return mkCond(lt, search(ss[:mid]), search(ss[mid:]), t)
	}
	return search(sorted)
}
