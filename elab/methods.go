package elab

import (
	"math/big"

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
	var v design.Expr = c(zero())
	for i := len(items) - 1; i >= 0; i-- {
		j := ((int64(i)+step)%k + k) % k
		eq := mkBinary(design.OpEq, cur, c(items[i].v), bitT)
		v = mkCond(eq, c(items[j].v), v, t.dt())
	}
	return v, true
}
