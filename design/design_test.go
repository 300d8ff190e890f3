package design

import (
	"math/big"
	"strings"
	"testing"
)

func u(w int) Type             { return Type{Width: w} }
func s(w int) Type             { return Type{Width: w, Signed: true} }
func c(t Type, v int64) *Const { return ConstInt(t, v) }

func evalConst(t *testing.T, e Expr) int64 {
	t.Helper()
	v, err := NewMachine().Eval(e)
	if err != nil {
		t.Fatal(err)
	}
	return ToInt(v, e.Type()).Int64()
}

func TestEvalSemantics(t *testing.T) {
	tests := []struct {
		name string
		e    Expr
		want int64
	}{
		{"wrap add", &Binary{Op: OpAdd, X: c(u(8), 200), Y: c(u(8), 100), T: u(8)}, 44},
		{"signed div truncates", &Binary{Op: OpDiv, X: c(s(8), -7), Y: c(s(8), 2), T: s(8)}, -3},
		{"signed mod takes the dividend's sign", &Binary{Op: OpMod, X: c(s(8), -7), Y: c(s(8), 2), T: s(8)}, -1},
		{"unsigned div of the same bits", &Binary{Op: OpDiv, X: c(u(8), 249), Y: c(u(8), 2), T: u(8)}, 124},
		{"div by zero is 0", &Binary{Op: OpDiv, X: c(u(8), 9), Y: c(u(8), 0), T: u(8)}, 0},
		{"mod by zero is 0", &Binary{Op: OpMod, X: c(u(8), 9), Y: c(u(8), 0), T: u(8)}, 0},
		{"shift past the width", &Binary{Op: OpShl, X: c(u(8), 1), Y: c(u(32), 8), T: u(8)}, 0},
		{"arithmetic shift", &Binary{Op: OpAShr, X: c(s(8), -16), Y: c(u(3), 2), T: s(8)}, -4},
		{"arithmetic shift past the width", &Binary{Op: OpAShr, X: c(s(8), -16), Y: c(u(32), 99), T: s(8)}, -1},
		{"power", &Binary{Op: OpPow, X: c(u(8), 3), Y: c(u(4), 5), T: u(8)}, 243},
		{"power wraps", &Binary{Op: OpPow, X: c(u(8), 2), Y: c(u(8), 9), T: u(8)}, 0},
		{"negative exponent of 2 is 0", &Binary{Op: OpPow, X: c(s(8), 2), Y: c(s(8), -1), T: s(8)}, 0},
		{"negative exponent of -1", &Binary{Op: OpPow, X: c(s(8), -1), Y: c(s(8), -3), T: s(8)}, -1},
		{"signed compare", &Binary{Op: OpLt, X: c(s(8), -1), Y: c(s(8), 1), T: Bit}, 1},
		{"unsigned compare of the same bits", &Binary{Op: OpLt, X: c(u(8), 255), Y: c(u(8), 1), T: Bit}, 0},
		{"sign extension", &Extend{X: c(s(4), -2), SignExt: true, T: s(8)}, -2},
		{"zero extension", &Extend{X: c(s(4), -2), T: u(8)}, 14},
		{"truncation", &Trunc{X: c(u(16), 0x1234), T: u(8)}, 0x34},
		{"reduction xor", &Unary{Op: OpRedXor, X: c(u(8), 0b1011), T: Bit}, 1},
		{"reduction and", &Unary{Op: OpRedAnd, X: c(u(4), 15), T: Bit}, 1},
		{"negation wraps", &Unary{Op: OpNeg, X: c(u(4), 1), T: u(4)}, 15},
		{"slice", &Slice{X: c(u(16), 0xABCD), Lsb: c(u(32), 4), T: u(8)}, 0xBC},
		{"slice past the end reads 0", &Slice{X: c(u(8), 0xFF), Lsb: c(u(32), 6), T: u(4)}, 3},
		{"slice far out of range", &Slice{X: c(u(8), 0xFF), Lsb: c(u(64), -1), T: u(4)}, 0},
		{"concat", &Concat{Parts: []Expr{c(u(4), 0xA), c(u(8), 0x5)}, T: u(12)}, 0xA05},
		{"replicate", &Repl{X: c(u(2), 2), N: 3, T: u(6)}, 0b101010},
		{"cond", &Cond{C: c(Bit, 0), Then: c(u(4), 1), Else: c(u(4), 2), T: u(4)}, 2},
		{"countones", &SysFunc{Fn: FnCountOnes, Args: []Expr{c(u(8), 0xF1)}, T: s(32)}, 5},
		{"clog2", &SysFunc{Fn: FnClog2, Args: []Expr{c(u(8), 9)}, T: s(32)}, 4},
		{"onehot", &SysFunc{Fn: FnOneHot, Args: []Expr{c(u(8), 8)}, T: Bit}, 1},
	}
	for _, tc := range tests {
		if got := evalConst(t, tc.e); got != tc.want {
			t.Errorf("%s: %s = %d, want %d", tc.name, ExprString(tc.e), got, tc.want)
		}
	}
}

// A small design built by hand: an 8-bit register and a 4-element memory.
func handDesign() (*Design, *Home, *Home, *Home, *Home) {
	top := &Instance{Name: "top", Path: "top", Module: "top"}
	a := &Home{ID: 0, Name: "a", Path: "top.a", Inst: top, Kind: KindInput, Width: 8}
	y := &Home{ID: 1, Name: "y", Path: "top.y", Inst: top, Kind: KindOutput, Width: 8, Aliases: []string{"top.u.y"}}
	tmp := &Home{ID: 2, Name: "tmp", Path: "top.tmp", Inst: top, Kind: KindVar, Width: 8}
	mem := &Home{ID: 3, Name: "mem", Path: "top.mem", Inst: top, Kind: KindVar, Width: 8, Unpacked: []Dim{{Left: 0, Right: 3}}}
	d := &Design{Top: top, Instances: []*Instance{top}, Homes: []*Home{a, y, tmp, mem}}
	return d, a, y, tmp, mem
}

func TestAnalyzeUpwardExposedReads(t *testing.T) {
	d, a, y, tmp, mem := handDesign()
	cond := &Slice{X: &HomeRef{a}, Lsb: c(u(32), 0), T: Bit}
	body := &Block{Stmts: []Stmt{
		&Assign{LHS: &HomeRef{tmp}, RHS: &HomeRef{a}},
		&If{Cond: cond,
			Then: &Assign{LHS: &Slice{X: &HomeRef{y}, Lsb: c(u(32), 0), T: u(4)}, RHS: &Slice{X: &HomeRef{tmp}, Lsb: c(u(32), 4), T: u(4)}},
			Else: &Assign{LHS: &Slice{X: &HomeRef{y}, Lsb: c(u(32), 0), T: u(4)}, RHS: c(u(4), 0)}},
		// y[3:0] is written on both paths: not a read here.
		&Assign{LHS: &Slice{X: &HomeRef{y}, Lsb: c(u(32), 4), T: u(4)}, RHS: &Slice{X: &HomeRef{y}, Lsb: c(u(32), 0), T: u(4)}},
		&Assign{LHS: &ElemRef{Home: mem, Index: []Expr{c(u(32), 2)}}, RHS: &ElemRef{Home: mem, Index: []Expr{&Slice{X: &HomeRef{a}, Lsb: c(u(32), 0), T: u(2)}}}},
	}}
	p := &Process{Name: "p", Kind: ProcAlwaysComb, Inst: d.Top, Body: body}
	d.Comb = []*Process{p}
	Analyze(p)
	if got := AccessList(p.Reads); got != "top.a top.mem@0..3 dyn" {
		t.Errorf("reads %s", got)
	}
	if got := AccessList(p.Writes); got != "top.y top.tmp top.mem@2" {
		t.Errorf("writes %s", got)
	}
	if errs := Check(d); len(errs) > 0 {
		t.Errorf("check: %v", errs)
	}
}

// A variable bit select reads nothing the process wrote before on every
// path, unless some bit it can reach was not written.
func TestAnalyzeVariableSelectAfterWrite(t *testing.T) {
	_, a, y, tmp, _ := handDesign()
	sel := &Slice{X: &HomeRef{tmp}, Lsb: &Slice{X: &HomeRef{a}, Lsb: c(u(32), 0), T: u(3)}, T: Bit}
	y0 := &Slice{X: &HomeRef{y}, Lsb: c(u(32), 0), T: Bit}
	whole := &Process{Name: "whole", Kind: ProcAlwaysComb, Body: &Block{Stmts: []Stmt{
		&Assign{LHS: &HomeRef{tmp}, RHS: &HomeRef{a}},
		&Assign{LHS: y0, RHS: sel},
	}}}
	Analyze(whole)
	if got := AccessList(whole.Reads); got != "top.a" {
		t.Errorf("after a whole write: reads %s", got)
	}
	half := &Process{Name: "half", Kind: ProcAlwaysComb, Body: &Block{Stmts: []Stmt{
		&Assign{LHS: &Slice{X: &HomeRef{tmp}, Lsb: c(u(32), 0), T: u(4)}, RHS: &Slice{X: &HomeRef{a}, Lsb: c(u(32), 0), T: u(4)}},
		&Assign{LHS: y0, RHS: sel},
	}}}
	Analyze(half)
	if got := AccessList(half.Reads); got != "top.a[3:0] top.tmp dyn" {
		t.Errorf("after a half write: reads %s", got)
	}
}

// MustWriteNB: bits every path assigns with non-blocking assignments.
func TestMustWriteNB(t *testing.T) {
	_, a, y, tmp, mem := handDesign()
	nb := func(lv LValue, rhs Expr) *Assign { return &Assign{LHS: lv, RHS: rhs, NonBlocking: true} }
	bit0 := &Slice{X: &HomeRef{a}, Lsb: c(u(32), 0), T: Bit}
	lo := &Slice{X: &HomeRef{tmp}, Lsb: c(u(32), 0), T: u(4)}
	cases := []struct {
		name string
		body Stmt
		want string
	}{
		{"both arms", &If{Cond: bit0, Then: nb(&HomeRef{y}, &HomeRef{a}), Else: nb(&HomeRef{y}, c(u(8), 0))}, "top.y"},
		{"one arm", &If{Cond: bit0, Then: nb(&HomeRef{y}, &HomeRef{a})}, ""},
		{"blocking", &Assign{LHS: &HomeRef{y}, RHS: &HomeRef{a}}, ""},
		{"field and element", &Block{Stmts: []Stmt{nb(lo, c(u(4), 1)), nb(&ElemRef{Home: mem, Index: []Expr{c(u(32), 2)}}, &HomeRef{a})}}, "top.tmp[3:0] top.mem@2"},
		{"variable index", nb(&ElemRef{Home: mem, Index: []Expr{lo}}, &HomeRef{a}), ""},
		{"loop body", &Loop{Cond: bit0, Body: nb(&HomeRef{y}, &HomeRef{a}), MaxIter: 4}, ""},
		{"do-while body", &Loop{Cond: bit0, Body: nb(&HomeRef{y}, &HomeRef{a}), MaxIter: 4, DoWhile: true}, "top.y"},
		{"case without default", &Case{Subject: bit0, Items: []*CaseItem{{Labels: []*CaseLabel{{Value: c(Bit, 0)}}, Body: nb(&HomeRef{y}, &HomeRef{a})}}}, ""},
		{"case with default", &Case{Subject: bit0, Items: []*CaseItem{{Labels: []*CaseLabel{{Value: c(Bit, 0)}}, Body: nb(&HomeRef{y}, &HomeRef{a})}}, Default: nb(&HomeRef{y}, c(u(8), 3))}, "top.y"},
		{"early return", &Block{Stmts: []Stmt{&If{Cond: bit0, Then: &Return{}}, nb(&HomeRef{y}, &HomeRef{a})}}, ""},
	}
	for _, tc := range cases {
		if got := AccessList(MustWriteNB(tc.body)); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestCheckCatchesMalformedNodes(t *testing.T) {
	d, a, y, _, _ := handDesign()
	bad := &Binary{Op: OpAdd, X: &HomeRef{a}, Y: c(u(4), 1), T: u(8)}
	d.Comb = []*Process{{Name: "bad", Body: &Assign{LHS: &HomeRef{y}, RHS: bad}}}
	errs := Check(d)
	if len(errs) == 0 || !strings.Contains(errs[0].Error(), "operand types differ") {
		t.Errorf("errors: %v", errs)
	}
	d.Comb[0].Body = &Assign{LHS: &HomeRef{y}, RHS: c(u(4), 1)}
	if errs := Check(d); len(errs) == 0 || !strings.Contains(errs[0].Error(), "assignment width 8 = 4") {
		t.Errorf("errors: %v", errs)
	}
}

func TestMachine(t *testing.T) {
	_, a, y, _, mem := handDesign()
	m := NewMachine()
	m.Set(a, 0, big.NewInt(7))
	m.Set(y, 0, big.NewInt(0))
	m.Set(mem, 0, big.NewInt(0))
	// Non-blocking assignments see the old value.
	body := &Block{Stmts: []Stmt{
		&Assign{LHS: &HomeRef{y}, RHS: &HomeRef{a}, NonBlocking: true},
		&Assign{LHS: &HomeRef{a}, RHS: &HomeRef{y}},
		&Assign{LHS: &ElemRef{Home: mem, Index: []Expr{c(u(32), 9)}}, RHS: c(u(8), 1)}, // ignored
		&Assign{LHS: &Slice{X: &ElemRef{Home: mem, Index: []Expr{c(u(32), 1)}}, Lsb: c(u(32), 6), T: u(4)}, RHS: c(u(4), 0xF)},
	}}
	if err := m.Run(body); err != nil {
		t.Fatal(err)
	}
	if v, _ := m.Get(y, 0); v.Int64() != 7 {
		t.Errorf("y = %d", v)
	}
	if v, _ := m.Get(a, 0); v.Int64() != 0 {
		t.Errorf("a = %d (y was 0 before the NBA)", v)
	}
	if v, _ := m.Get(mem, 1); v.Int64() != 0xC0 {
		t.Errorf("mem[1] = %#x (bits past the element are dropped)", v)
	}
	// A loop that does not end stops at its bound.
	loop := &Loop{Body: &Block{}, MaxIter: 100, Pos: Pos{File: "f.sv", Line: 3, Col: 1}}
	if err := NewMachine().Run(loop); err == nil || !strings.Contains(err.Error(), "loop exceeded 100 iterations") {
		t.Errorf("loop: %v", err)
	}
	// Recursion is bounded.
	f := &Function{Name: "f", Pos: Pos{File: "f.sv", Line: 1}}
	arg := &Home{Name: "n", Kind: KindFuncLocal, Width: 8}
	f.Args, f.ArgDirs = []*Home{arg}, []Dir{DirIn}
	f.Result = &Home{Name: "f", Kind: KindFuncLocal, Width: 8}
	f.Body = &Block{Stmts: []Stmt{&Assign{LHS: &HomeRef{f.Result}, RHS: &Call{Func: f, Args: []Expr{&HomeRef{arg}}, T: u(8)}}}}
	if _, _, err := NewMachine().Call(f, []*big.Int{big.NewInt(1)}); err == nil || !strings.Contains(err.Error(), "call depth") {
		t.Errorf("recursion: %v", err)
	}
	AnalyzeFunction(f)
	if !f.Recursive {
		t.Error("recursive function not flagged")
	}
}

func TestLookupSummaryDump(t *testing.T) {
	d, a, y, _, mem := handDesign()
	clk := &Home{ID: 4, Name: "clk", Path: "top.clk", Inst: d.Top, Kind: KindInput, Width: 1}
	d.Homes = append(d.Homes, clk)
	ff := &Process{ID: 1, Name: "top:always_ff@3", Kind: ProcAlwaysFF, Inst: d.Top,
		Body: &Block{Stmts: []Stmt{
			&Assign{LHS: &Slice{X: &HomeRef{y}, Lsb: c(u(32), 0), T: u(3)}, RHS: c(u(3), 1), NonBlocking: true},
			&Assign{LHS: &ElemRef{Home: mem, Index: []Expr{&Slice{X: &HomeRef{a}, Lsb: c(u(32), 0), T: u(2)}}}, RHS: &HomeRef{a}, NonBlocking: true},
		}}}
	g := &TriggerGroup{Inst: d.Top, Events: []Event{{Home: clk, Edge: Posedge}}, Procs: []*Process{ff}}
	ff.Group = g
	d.Groups = []*TriggerGroup{g}
	d.Modules = []string{"top"}
	Analyze(ff)
	d.Index()
	for _, p := range []string{"top.y", "y", "top.u.y", "u.y"} {
		if h, ok := d.Lookup(p); !ok || h != y {
			t.Errorf("lookup %s", p)
		}
	}
	sum := d.Summary()
	if sum.FlopHomes != 2 || sum.FlopBits != 3+32 || sum.Sequential != 1 {
		t.Errorf("summary %+v", sum)
	}
	dump := Dump(d)
	for _, want := range []string{
		"h1 top.y output u8 aka top.u.y",
		"h3 top.mem var u8 array[0:3]",
		"g0 top @(posedge top.clk)",
		"writes: top.y[2:0] top.mem@0..3 dyn",
		"top.mem[top.a[32'd0+:2]] <= top.a",
	} {
		if !strings.Contains(dump, want) {
			t.Errorf("dump lacks %q:\n%s", want, dump)
		}
	}
}
