package design

import (
	"math/big"
	"reflect"
	"testing"
)

// TestCopierCopiesEverything copies a process body holding every statement
// and expression kind: the copy must name only the mapped homes, share no
// node with the original, keep the original's shared nodes shared, and
// equal it field for field once the homes are mapped back.
func TestCopierCopiesEverything(t *testing.T) {
	a := &Home{Name: "a", Path: "top.u.a", Width: 8}
	m := &Home{Name: "m", Path: "top.u.m", Width: 8, Unpacked: []Dim{{Left: 0, Right: 3}}}
	loc := &Home{Name: "i", Path: "top.u.p.i", Width: 32, Kind: KindBlockLocal}
	fn := &Function{Name: "pk::f"}
	u8 := Type{Width: 8}
	one := &Const{T: u8, Val: big.NewInt(1)}
	shared := &Binary{Op: OpAdd, X: &HomeRef{Home: a}, Y: one, T: u8}
	body := &Block{Locals: []*Home{loc}, Stmts: []Stmt{
		&Assign{LHS: &HomeRef{Home: a}, RHS: shared, NonBlocking: true, Pos: Pos{Line: 3}},
		&If{Cond: &Unary{Op: OpLogNot, X: shared, T: Bit}, Then: &Break{}, Else: &Continue{}},
		&Case{Subject: &Slice{X: &HomeRef{Home: a}, Lsb: one, T: Type{Width: 2}}, Items: []*CaseItem{
			{Labels: []*CaseLabel{{Value: one, Mask: big.NewInt(3), Hi: &Const{T: u8, Val: big.NewInt(2)}}}, Body: &Return{}},
		}, Default: &SysTask{Kind: TaskDisplay, Format: "%m %d", HasFormat: true, Args: []Expr{shared}, Target: a, Scope: "top.u"}},
		&Loop{Cond: &Cond{C: &SysFunc{Fn: FnOneHot, Args: []Expr{&HomeRef{Home: a}}, T: Bit}, Then: one, Else: one, T: u8},
			Body:    &Assign{LHS: &ElemRef{Home: m, Index: []Expr{&HomeRef{Home: loc}}}, RHS: &Concat{Parts: []Expr{&Repl{X: one, N: 1, T: u8}}, T: u8}},
			Step:    &TaskCall{Func: fn, Args: []Expr{&Extend{X: &Trunc{X: shared, T: Bit}, SignExt: true, T: u8}}, Outs: []LValue{&HomeRef{Home: a}, nil}},
			MaxIter: 9},
		&Assign{LHS: &HomeRef{Home: a}, RHS: &Call{Func: fn, Args: []Expr{one}, T: u8}},
	}}

	homes := map[*Home]*Home{}
	back := map[*Home]*Home{}
	for _, h := range []*Home{a, m, loc} {
		n := *h
		n.Path = "top.v" + h.Path[len("top.u"):]
		homes[h], back[&n] = &n, h
	}
	fn2 := &Function{Name: "pk::f"}
	cp := &Copier{Home: func(h *Home) *Home { return homes[h] }, Func: func(*Function) *Function { return fn2 },
		Scope: func(s string) string { return "top.v" }}
	got := cp.Block(body)

	orig := nodes(reflect.ValueOf(body), map[uintptr]bool{})
	for p := range nodes(reflect.ValueOf(got), map[uintptr]bool{}) {
		if orig[p] {
			t.Errorf("the copy shares a node with the original")
		}
	}
	for _, x := range []*Home{a, m, loc} {
		if containsPtr(reflect.ValueOf(got), reflect.ValueOf(x).Pointer(), map[uintptr]bool{}) {
			t.Errorf("the copy still names %s", x.Path)
		}
	}
	as := got.Stmts[0].(*Assign)
	if as.RHS != got.Stmts[1].(*If).Cond.(*Unary).X {
		t.Errorf("a shared expression became two")
	}
	if st := got.Stmts[2].(*Case).Default.(*SysTask); st.Scope != "top.v" || st.Target != homes[a] {
		t.Errorf("system task: scope %q, target %v", st.Scope, st.Target)
	}
	if got.Stmts[4].(*Assign).RHS.(*Call).Func != fn2 {
		t.Errorf("call not mapped")
	}

	// Mapped back, the copy is the original.
	again := (&Copier{Home: func(h *Home) *Home { return back[h] }, Func: func(*Function) *Function { return fn },
		Scope: func(string) string { return "top.u" }}).Block(got)
	if !reflect.DeepEqual(again, body) {
		t.Errorf("copying back does not give the original")
	}
}

// nodes collects the pointers reachable from v, homes and functions aside
// (the copier maps those, it does not copy them).
func nodes(v reflect.Value, out map[uintptr]bool) map[uintptr]bool {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() || out[v.Pointer()] {
			return out
		}
		switch v.Interface().(type) {
		case *Home, *Function, *big.Int:
			return out
		}
		out[v.Pointer()] = true
		nodes(v.Elem(), out)
	case reflect.Interface:
		if !v.IsNil() {
			nodes(v.Elem(), out)
		}
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			nodes(v.Field(i), out)
		}
	case reflect.Slice:
		for i := 0; i < v.Len(); i++ {
			nodes(v.Index(i), out)
		}
	}
	return out
}

func containsPtr(v reflect.Value, p uintptr, seen map[uintptr]bool) bool {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() || seen[v.Pointer()] {
			return false
		}
		if v.Pointer() == p {
			return true
		}
		seen[v.Pointer()] = true
		if _, ok := v.Interface().(*Home); ok {
			return false
		}
		return containsPtr(v.Elem(), p, seen)
	case reflect.Interface:
		return !v.IsNil() && containsPtr(v.Elem(), p, seen)
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() && containsPtr(v.Field(i), p, seen) {
				return true
			}
		}
	case reflect.Slice:
		for i := 0; i < v.Len(); i++ {
			if containsPtr(v.Index(i), p, seen) {
				return true
			}
		}
	}
	return false
}
