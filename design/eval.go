package design

import (
	"fmt"
	"math/big"
)

// This file defines the value semantics of typed expressions (2-state, exact
// widths) and a small interpreter over statements. Elaboration uses it to
// fold constants, evaluate constant functions and initial blocks; it is also
// the reference every backend must agree with.

var one = big.NewInt(1)

// Mask returns v modulo 2^w as a non-negative integer (two's complement
// bits of a w-bit value). The result may be v itself: big.Int values in this
// package are never mutated after they are made.
func Mask(v *big.Int, w int) *big.Int {
	if v.Sign() >= 0 && v.BitLen() <= w {
		return v // values are never mutated, so sharing is safe
	}
	m := new(big.Int).Lsh(one, uint(w))
	m.Sub(m, one)
	r := new(big.Int).And(v, m)
	return r
}

// Ones returns 2^w - 1.
func Ones(w int) *big.Int {
	m := new(big.Int).Lsh(one, uint(w))
	return m.Sub(m, one)
}

// ToInt interprets the bits v of type t as an integer: negative when t is
// signed and the top bit is set.
func ToInt(v *big.Int, t Type) *big.Int {
	if t.Signed && t.Width > 0 && v.Bit(t.Width-1) == 1 {
		return new(big.Int).Sub(v, new(big.Int).Lsh(one, uint(t.Width)))
	}
	return v
}

func boolVal(b bool) *big.Int {
	if b {
		return big.NewInt(1)
	}
	return new(big.Int)
}

// EvalUnary computes op on x (of type xt) giving type t.
func EvalUnary(op UnOp, x *big.Int, xt Type, t Type) *big.Int {
	switch op {
	case OpNeg:
		return Mask(new(big.Int).Neg(x), t.Width)
	case OpNot:
		return Mask(new(big.Int).Not(x), t.Width)
	case OpLogNot:
		return boolVal(x.Sign() == 0)
	case OpRedAnd, OpRedNand:
		all := x.Cmp(Ones(xt.Width)) == 0
		return boolVal(all == (op == OpRedAnd))
	case OpRedOr, OpRedNor:
		return boolVal((x.Sign() != 0) == (op == OpRedOr))
	case OpRedXor, OpRedXnor:
		n := popcount(x)
		return boolVal((n%2 == 1) == (op == OpRedXor))
	}
	panic(fmt.Sprintf("design: unknown unary op %d", op))
}

func popcount(x *big.Int) int {
	n := 0
	for _, w := range x.Bits() {
		for w != 0 {
			w &= w - 1
			n++
		}
	}
	return n
}

// EvalBinary computes x op y (operand types xt, yt) giving type t.
func EvalBinary(op BinOp, x *big.Int, xt Type, y *big.Int, yt Type, t Type) *big.Int {
	w := t.Width
	switch op {
	case OpAdd:
		return Mask(new(big.Int).Add(x, y), w)
	case OpSub:
		return Mask(new(big.Int).Sub(x, y), w)
	case OpMul:
		return Mask(new(big.Int).Mul(x, y), w)
	case OpDiv, OpMod:
		if y.Sign() == 0 {
			return new(big.Int)
		}
		a, b := ToInt(x, t), ToInt(y, t)
		if op == OpDiv {
			return Mask(new(big.Int).Quo(a, b), w)
		}
		return Mask(new(big.Int).Rem(a, b), w)
	case OpAnd:
		return new(big.Int).And(x, y)
	case OpOr:
		return new(big.Int).Or(x, y)
	case OpXor:
		return new(big.Int).Xor(x, y)
	case OpXnor:
		return Mask(new(big.Int).Not(new(big.Int).Xor(x, y)), w)
	case OpShl, OpShr, OpAShr:
		if !y.IsInt64() || y.Int64() >= int64(w) {
			if op == OpAShr && t.Signed && x.Bit(w-1) == 1 {
				return Ones(w)
			}
			return new(big.Int)
		}
		n := uint(y.Int64())
		switch op {
		case OpShl:
			return Mask(new(big.Int).Lsh(x, n), w)
		case OpShr:
			return new(big.Int).Rsh(x, n)
		default:
			return Mask(new(big.Int).Rsh(ToInt(x, t), n), w)
		}
	case OpPow:
		base := ToInt(x, t)
		exp := ToInt(y, yt)
		if exp.Sign() < 0 {
			switch {
			case base.Cmp(big.NewInt(1)) == 0:
				return big.NewInt(1)
			case base.Cmp(big.NewInt(-1)) == 0:
				if exp.Bit(0) == 0 {
					return big.NewInt(1)
				}
				return Ones(w)
			default: // 0 ** negative is x in 4-state: 0 here; |base| > 1 gives 0
				return new(big.Int)
			}
		}
		b := Mask(base, w)
		if exp.BitLen() > w {
			// Keep the work to at most w squarings: an even base to a
			// power >= w has w factors of 2, and the odd residues modulo
			// 2^w form a group of order 2^(w-1).
			if b.Bit(0) == 0 {
				return new(big.Int)
			}
			exp = Mask(exp, w)
		}
		mod := new(big.Int).Lsh(one, uint(w))
		return new(big.Int).Exp(b, exp, mod)
	case OpEq, OpNe, OpLt, OpLe, OpGt, OpGe:
		a, b := ToInt(x, xt), ToInt(y, yt)
		c := a.Cmp(b)
		switch op {
		case OpEq:
			return boolVal(c == 0)
		case OpNe:
			return boolVal(c != 0)
		case OpLt:
			return boolVal(c < 0)
		case OpLe:
			return boolVal(c <= 0)
		case OpGt:
			return boolVal(c > 0)
		default:
			return boolVal(c >= 0)
		}
	}
	panic(fmt.Sprintf("design: unknown binary op %d", op))
}

// EvalExtend converts x of type xt to t (sign-extending when signExt).
func EvalExtend(x *big.Int, xt Type, signExt bool, t Type) *big.Int {
	if signExt {
		return Mask(ToInt(x, Type{Width: xt.Width, Signed: true}), t.Width)
	}
	return Mask(x, t.Width)
}

// Clog2 is ceil(log2(x)), 0 for x <= 1.
func Clog2(x *big.Int) int {
	if x.Cmp(one) <= 0 {
		return 0
	}
	return new(big.Int).Sub(x, one).BitLen()
}

// EvalSysFunc computes a runtime system function on constant arguments;
// ok is false for the ones that have no constant value ($time, $random).
func EvalSysFunc(fn SysFn, args []*big.Int, t Type) (*big.Int, bool) {
	switch fn {
	case FnCountOnes:
		return Mask(big.NewInt(int64(popcount(args[0]))), t.Width), true
	case FnOneHot:
		return boolVal(popcount(args[0]) == 1), true
	case FnOneHot0:
		return boolVal(popcount(args[0]) <= 1), true
	case FnClog2:
		return Mask(big.NewInt(int64(Clog2(args[0]))), t.Width), true
	}
	return nil, false
}

// EvalError is returned by the interpreter when a construct cannot be
// evaluated (a read of non-constant state, a step or depth limit).
type EvalError struct {
	Pos Pos
	Msg string
}

func (e *EvalError) Error() string { return e.Msg }

// Machine interprets expressions and statements over a private store.
// Homes it has no value for are resolved through Missing.
type Machine struct {
	// MaxSteps bounds executed statements and loop iterations (default 1<<22).
	MaxSteps int
	// MaxDepth bounds the function call depth (default 256).
	MaxDepth int
	// Budget, when set, is charged for the machine's steps and the bits it
	// computes; running out fails the evaluation with a *BudgetError.
	Budget *Budget
	// Missing is asked for the elements of a home the machine holds no value
	// for; nil (or a nil Missing) reports the read as not constant.
	Missing func(h *Home) ([]*big.Int, error)
	// SysTask handles system tasks; nil ignores them.
	SysTask func(*SysTask) error
	// XZ is told of each constant with x or z bits the machine reads; the
	// machine is 2-state and reads those bits as 0 when XZ returns nil.
	// nil XZ fails the evaluation: a constant function does not guess.
	XZ func(*Const) error

	store map[*Home][]*big.Int
	// missed are the homes whose values came from Missing and that are
	// not written yet (their first write adds them to Written).
	missed map[*Home]bool
	steps  int
	depth  int
	nest   int // Eval and exec levels in progress (see maxNest)
	nba    []pendingWrite
	// Written records the homes written, in first-write order.
	Written []*Home
}

type pendingWrite struct {
	t target
	v *big.Int
}

// target is bits off..off+n-1 of element elem of h (elem < 0: dropped).
type target struct {
	h         *Home
	elem, off int
	n         int
}

// NewMachine returns an empty interpreter.
func NewMachine() *Machine { return &Machine{store: map[*Home][]*big.Int{}} }

type ctl int

const (
	ctlNone ctl = iota
	ctlBreak
	ctlContinue
	ctlReturn
)

func (m *Machine) fail(p Pos, format string, args ...any) error {
	return &EvalError{Pos: p, Msg: fmt.Sprintf(format, args...)}
}

func (m *Machine) maxSteps() int {
	if m.MaxSteps > 0 {
		return m.MaxSteps
	}
	return 1 << 22
}

// Set stores the value of element elem of h.
func (m *Machine) Set(h *Home, elem int, v *big.Int) {
	s := m.store[h]
	if s == nil {
		s = m.seed(h)
	} else if m.missed[h] {
		delete(m.missed, h)
		m.Written = append(m.Written, h)
	}
	if elem >= 0 && elem < len(s) {
		s[elem] = v
	}
}

// seed creates the store of a home the machine writes before reading: its
// declaration initial value (Home.Init).
func (m *Machine) seed(h *Home) []*big.Int {
	s := make([]*big.Int, h.Elems())
	for i := range s {
		s[i] = h.Init.Elem(i)
	}
	m.store[h] = s
	m.Written = append(m.Written, h)
	return s
}

// Holds reports whether the machine has a value for h.
func (m *Machine) Holds(h *Home) bool { return m.store[h] != nil }

// Get returns element elem of h.
func (m *Machine) Get(h *Home, elem int) (*big.Int, error) {
	s := m.store[h]
	if s == nil {
		if m.Missing == nil {
			return nil, m.fail(h.Pos, "'%s' is not a constant", h.Name)
		}
		vals, err := m.Missing(h)
		if err != nil {
			return nil, err
		}
		s = vals
		m.store[h] = s
		if m.missed == nil {
			m.missed = map[*Home]bool{}
		}
		m.missed[h] = true
	}
	if elem < 0 || elem >= len(s) {
		return new(big.Int), nil
	}
	return s[elem], nil
}

// maxNest bounds the machine's recursion: statements and expressions
// nested in each other, through calls up to MaxDepth deep, so that a
// recursive function with deep expressions fails rather than overflows
// the stack (this many levels take under 64 MiB).
const maxNest = 1 << 16

// Eval computes e.
func (m *Machine) Eval(e Expr) (*big.Int, error) {
	if m.nest >= maxNest {
		return nil, m.fail(Pos{}, "evaluation nested more than %d levels deep", maxNest)
	}
	m.nest++
	v, err := m.eval(e)
	m.nest--
	return v, err
}

func (m *Machine) eval(e Expr) (*big.Int, error) {
	switch e := e.(type) {
	case *Const:
		if e.U != nil {
			if m.XZ == nil {
				return nil, m.fail(e.U.At, "%s has x or z bits, which a function or an initial block run at elaboration cannot hold yet (weft evaluates them 2-state)", FormatBinary(e))
			}
			if err := m.XZ(e); err != nil {
				return nil, err
			}
		}
		return e.Val, nil
	case *HomeRef:
		return m.Get(e.Home, 0)
	case *ElemRef:
		el, err := m.elemIndex(e)
		if err != nil {
			return nil, err
		}
		return m.Get(e.Home, el)
	case *Slice:
		x, err := m.Eval(e.X)
		if err != nil {
			return nil, err
		}
		if err := m.Budget.Spend(int64(e.X.Type().Width)); err != nil {
			return nil, err
		}
		l, err := m.Eval(e.Lsb)
		if err != nil {
			return nil, err
		}
		if !l.IsInt64() || l.Int64() > 1<<32 {
			return new(big.Int), nil
		}
		return Mask(new(big.Int).Rsh(x, uint(l.Int64())), e.T.Width), nil
	case *Unary:
		x, err := m.Eval(e.X)
		if err != nil {
			return nil, err
		}
		if err := m.Budget.Spend(int64(e.X.Type().Width)); err != nil {
			return nil, err
		}
		return EvalUnary(e.Op, x, e.X.Type(), e.T), nil
	case *Binary:
		x, err := m.Eval(e.X)
		if err != nil {
			return nil, err
		}
		y, err := m.Eval(e.Y)
		if err != nil {
			return nil, err
		}
		if err := m.Budget.Spend(OpCost(e.Op, x, e.X.Type(), y, e.Y.Type())); err != nil {
			return nil, err
		}
		return EvalBinary(e.Op, x, e.X.Type(), y, e.Y.Type(), e.T), nil
	case *Cond:
		c, err := m.Eval(e.C)
		if err != nil {
			return nil, err
		}
		if c.Sign() != 0 {
			return m.Eval(e.Then)
		}
		return m.Eval(e.Else)
	case *Concat:
		vals := make([]*big.Int, len(e.Parts))
		widths := make([]int, len(e.Parts))
		for i, p := range e.Parts {
			v, err := m.Eval(p)
			if err != nil {
				return nil, err
			}
			vals[i], widths[i] = v, p.Type().Width
		}
		if err := m.Budget.Spend(int64(e.T.Width)); err != nil {
			return nil, err
		}
		return ConcatBits(vals, widths), nil
	case *Repl:
		v, err := m.Eval(e.X)
		if err != nil {
			return nil, err
		}
		if err := m.Budget.Spend(int64(e.T.Width)); err != nil {
			return nil, err
		}
		return ReplicateBits(v, e.X.Type().Width, e.N), nil
	case *Extend:
		x, err := m.Eval(e.X)
		if err != nil {
			return nil, err
		}
		if err := m.Budget.Spend(int64(e.T.Width)); err != nil {
			return nil, err
		}
		return EvalExtend(x, e.X.Type(), e.SignExt, e.T), nil
	case *Trunc:
		x, err := m.Eval(e.X)
		if err != nil {
			return nil, err
		}
		if err := m.Budget.Spend(int64(e.X.Type().Width)); err != nil {
			return nil, err
		}
		return Mask(x, e.T.Width), nil
	case *Call:
		args := make([]*big.Int, len(e.Args))
		for i, a := range e.Args {
			v, err := m.Eval(a)
			if err != nil {
				return nil, err
			}
			args[i] = v
		}
		r, _, err := m.Call(e.Func, args)
		return r, err
	case *SysFunc:
		args := make([]*big.Int, len(e.Args))
		for i, a := range e.Args {
			v, err := m.Eval(a)
			if err != nil {
				return nil, err
			}
			args[i] = v
		}
		if v, ok := EvalSysFunc(e.Fn, args, e.T); ok {
			return v, nil
		}
		return nil, m.fail(Pos{}, "%s is not a constant", e.Fn)
	}
	return nil, m.fail(Pos{}, "cannot evaluate %T", e)
}

func (m *Machine) elemIndex(e *ElemRef) (int, error) {
	flat := 0
	for i, ix := range e.Index {
		v, err := m.Eval(ix)
		if err != nil {
			return 0, err
		}
		size := e.Home.Unpacked[i].Size()
		if !v.IsInt64() || v.Int64() >= int64(size) {
			return -1, nil
		}
		flat = flat*size + int(v.Int64())
	}
	return flat, nil
}

// resolve evaluates the address of an lvalue.
func (m *Machine) resolve(lv LValue, out []target) ([]target, error) {
	switch lv := lv.(type) {
	case *HomeRef:
		return append(out, target{h: lv.Home, elem: 0, n: lv.Home.Width}), nil
	case *ElemRef:
		el, err := m.elemIndex(lv)
		if err != nil {
			return nil, err
		}
		return append(out, target{h: lv.Home, elem: el, n: lv.Home.Width}), nil
	case *Slice:
		base, err := m.resolve(lv.X.(LValue), nil)
		if err != nil {
			return nil, err
		}
		p := base[0]
		l, err := m.Eval(lv.Lsb)
		if err != nil {
			return nil, err
		}
		if !l.IsInt64() || l.Int64() >= int64(p.n) {
			return append(out, target{h: p.h, elem: -1}), nil
		}
		lsb := int(l.Int64())
		return append(out, target{h: p.h, elem: p.elem, off: p.off + lsb, n: min(lv.T.Width, p.n-lsb)}), nil
	case *Concat:
		for _, part := range lv.Parts {
			var err error
			out, err = m.resolve(part.(LValue), out)
			if err != nil {
				return nil, err
			}
		}
		return out, nil
	}
	return nil, m.fail(Pos{}, "not an lvalue: %T", lv)
}

// write stores v (of the lvalue's width) into resolved targets; targets of
// a Concat are listed most significant first, with widths wi.
func (m *Machine) write(lv LValue, ts []target, v *big.Int, nba bool) error {
	widths := lvalueWidths(lv, nil)
	shift := 0
	for i := len(ts) - 1; i >= 0; i-- {
		part := Mask(new(big.Int).Rsh(v, uint(shift)), widths[i])
		shift += widths[i]
		if nba {
			m.nba = append(m.nba, pendingWrite{ts[i], part})
			continue
		}
		if err := m.store1(ts[i], part); err != nil {
			return err
		}
	}
	return nil
}

func lvalueWidths(lv LValue, out []int) []int {
	if c, ok := lv.(*Concat); ok {
		for _, p := range c.Parts {
			out = lvalueWidths(p.(LValue), out)
		}
		return out
	}
	return append(out, lv.Type().Width)
}

func (m *Machine) store1(t target, v *big.Int) error {
	if t.elem < 0 || t.n <= 0 {
		return nil
	}
	if t.elem >= t.h.Elems() {
		return nil
	}
	if err := m.Budget.Spend(int64(t.h.Width)); err != nil {
		return err
	}
	if t.off == 0 && t.n == t.h.Width {
		m.Set(t.h, t.elem, Mask(v, t.n))
		return nil
	}
	if m.store[t.h] == nil {
		m.seed(t.h)
	}
	old := m.store[t.h][t.elem]
	clear := new(big.Int).Lsh(Ones(t.n), uint(t.off))
	nv := new(big.Int).AndNot(old, clear)
	nv.Or(nv, new(big.Int).Lsh(Mask(v, t.n), uint(t.off)))
	m.Set(t.h, t.elem, Mask(nv, t.h.Width))
	return nil
}

// FlushNBA applies the pending non-blocking assignments in order.
func (m *Machine) FlushNBA() error {
	for _, p := range m.nba {
		if err := m.store1(p.t, p.v); err != nil {
			return err
		}
	}
	m.nba = nil
	return nil
}

// Run executes a statement and then the non-blocking assignments it made.
func (m *Machine) Run(s Stmt) error {
	if _, err := m.exec(s); err != nil {
		return err
	}
	return m.FlushNBA()
}

func (m *Machine) step(p Pos) error {
	m.steps++
	if m.steps > m.maxSteps() {
		return m.fail(p, "evaluation exceeded %d steps", m.maxSteps())
	}
	return m.Budget.Step()
}

func (m *Machine) exec(s Stmt) (ctl, error) {
	if m.nest >= maxNest {
		return 0, m.fail(Pos{}, "evaluation nested more than %d levels deep", maxNest)
	}
	m.nest++
	c, err := m.exec1(s)
	m.nest--
	return c, err
}

func (m *Machine) exec1(s Stmt) (ctl, error) {
	switch s := s.(type) {
	case nil:
		return ctlNone, nil
	case *Block:
		for _, st := range s.Stmts {
			c, err := m.exec(st)
			if err != nil || c != ctlNone {
				return c, err
			}
		}
		return ctlNone, nil
	case *Assign:
		if err := m.step(s.Pos); err != nil {
			return 0, err
		}
		if l, ok := s.LHS.(*HomeRef); ok && l.Home.IsArray() {
			r, ok := s.RHS.(*HomeRef)
			if !ok {
				return 0, m.fail(s.Pos, "array assignment from a non-array")
			}
			for e := 0; e < l.Home.Elems(); e++ {
				v, err := m.Get(r.Home, e)
				if err != nil {
					return 0, err
				}
				t := target{h: l.Home, elem: e, n: l.Home.Width}
				if s.NonBlocking {
					m.nba = append(m.nba, pendingWrite{t, v})
				} else {
					m.store1(t, v)
				}
			}
			return ctlNone, nil
		}
		v, err := m.Eval(s.RHS)
		if err != nil {
			return 0, err
		}
		ts, err := m.resolve(s.LHS, nil)
		if err != nil {
			return 0, err
		}
		return ctlNone, m.write(s.LHS, ts, v, s.NonBlocking)
	case *If:
		if err := m.step(s.Pos); err != nil {
			return 0, err
		}
		c, err := m.Eval(s.Cond)
		if err != nil {
			return 0, err
		}
		if c.Sign() != 0 {
			return m.exec(s.Then)
		}
		return m.exec(s.Else)
	case *Case:
		if err := m.step(s.Pos); err != nil {
			return 0, err
		}
		v, err := m.Eval(s.Subject)
		if err != nil {
			return 0, err
		}
		t := s.Subject.Type()
		for _, it := range s.Items {
			for _, l := range it.Labels {
				ok, err := m.match(v, t, l)
				if err != nil {
					return 0, err
				}
				if ok {
					return m.exec(it.Body)
				}
			}
		}
		return m.exec(s.Default)
	case *Loop:
		for i := 0; ; i++ {
			if err := m.step(s.Pos); err != nil {
				return 0, err
			}
			if s.MaxIter > 0 && i >= s.MaxIter {
				return 0, m.fail(s.Pos, "loop exceeded %d iterations", s.MaxIter)
			}
			if s.Cond != nil && !(s.DoWhile && i == 0) {
				c, err := m.Eval(s.Cond)
				if err != nil {
					return 0, err
				}
				if c.Sign() == 0 {
					return ctlNone, nil
				}
			}
			c, err := m.exec(s.Body)
			if err != nil {
				return 0, err
			}
			if c == ctlBreak {
				return ctlNone, nil
			}
			if c == ctlReturn {
				return c, nil
			}
			if _, err := m.exec(s.Step); err != nil {
				return 0, err
			}
		}
	case *Break:
		return ctlBreak, nil
	case *Continue:
		return ctlContinue, nil
	case *Return:
		return ctlReturn, nil
	case *SysTask:
		if m.SysTask != nil {
			return ctlNone, m.SysTask(s)
		}
		return ctlNone, nil
	case *TaskCall:
		args := make([]*big.Int, len(s.Func.Args))
		for i, a := range s.Args {
			if a == nil {
				args[i] = new(big.Int)
				continue
			}
			v, err := m.Eval(a)
			if err != nil {
				return 0, err
			}
			args[i] = v
		}
		_, outs, err := m.Call(s.Func, args)
		if err != nil {
			return 0, err
		}
		for i, o := range s.Outs {
			if o == nil {
				continue
			}
			ts, err := m.resolve(o, nil)
			if err != nil {
				return 0, err
			}
			if err := m.write(o, ts, outs[i], false); err != nil {
				return 0, err
			}
		}
		return ctlNone, nil
	}
	return 0, m.fail(Pos{}, "cannot execute %T", s)
}

func (m *Machine) match(v *big.Int, t Type, l *CaseLabel) (bool, error) {
	lv, err := m.Eval(l.Value)
	if err != nil {
		return false, err
	}
	if l.Hi != nil {
		hv, err := m.Eval(l.Hi)
		if err != nil {
			return false, err
		}
		x := ToInt(v, t)
		return ToInt(lv, t).Cmp(x) <= 0 && x.Cmp(ToInt(hv, t)) <= 0, nil
	}
	if l.Mask != nil {
		return new(big.Int).And(v, l.Mask).Cmp(new(big.Int).And(lv, l.Mask)) == 0, nil
	}
	return v.Cmp(lv) == 0, nil
}

// Call runs f with the given argument values; it returns the result (nil
// for void) and the final values of every argument (for outputs).
func (m *Machine) Call(f *Function, args []*big.Int) (*big.Int, []*big.Int, error) {
	maxDepth := m.MaxDepth
	if maxDepth <= 0 {
		maxDepth = 256
	}
	if m.depth >= maxDepth {
		return nil, nil, m.fail(f.Pos, "function '%s' exceeded the call depth limit (%d)", f.Name, maxDepth)
	}
	m.depth++
	defer func() { m.depth-- }()
	homes := f.frameHomes()
	for _, h := range homes {
		if err := m.Budget.Spend(satMul(int64(h.Elems()), int64(h.Width))); err != nil {
			return nil, nil, err
		}
	}
	saved := make([][]*big.Int, len(homes))
	for i, h := range homes {
		saved[i] = m.store[h]
		fresh := make([]*big.Int, h.Elems())
		for e := range fresh {
			fresh[e] = new(big.Int)
		}
		m.store[h] = fresh
	}
	defer func() {
		for i, h := range homes {
			if saved[i] == nil {
				delete(m.store, h)
			} else {
				m.store[h] = saved[i]
			}
		}
	}()
	for i, a := range f.Args {
		if i < len(args) && args[i] != nil {
			m.Set(a, 0, Mask(args[i], a.Width))
		}
	}
	if _, err := m.exec(f.Body); err != nil {
		return nil, nil, err
	}
	var res *big.Int
	if f.Result != nil {
		res, _ = m.Get(f.Result, 0)
	}
	outs := make([]*big.Int, len(f.Args))
	for i, a := range f.Args {
		outs[i], _ = m.Get(a, 0)
	}
	return res, outs, nil
}

// frameHomes lists the homes a call of f owns: arguments, result, locals.
func (f *Function) frameHomes() []*Home {
	hs := append([]*Home{}, f.Args...)
	if f.Result != nil {
		hs = append(hs, f.Result)
	}
	WalkStmt(f.Body, func(s Stmt) bool {
		if b, ok := s.(*Block); ok {
			hs = append(hs, b.Locals...)
		}
		return true
	})
	return hs
}

// WalkStmt calls fn for s and every statement nested in it (preorder);
// returning false skips the children.
func WalkStmt(s Stmt, fn func(Stmt) bool) {
	if s == nil {
		return
	}
	switch x := s.(type) {
	case *Block:
		if x == nil {
			return
		}
		if !fn(s) {
			return
		}
		for _, st := range x.Stmts {
			WalkStmt(st, fn)
		}
		return
	}
	if !fn(s) {
		return
	}
	switch x := s.(type) {
	case *If:
		WalkStmt(x.Then, fn)
		WalkStmt(x.Else, fn)
	case *Case:
		for _, it := range x.Items {
			WalkStmt(it.Body, fn)
		}
		WalkStmt(x.Default, fn)
	case *Loop:
		WalkStmt(x.Body, fn)
		WalkStmt(x.Step, fn)
	}
}
