package elab

import (
	"errors"
	"math/big"
	"slices"

	"github.com/weft-hdl/weft/design"
	"github.com/weft-hdl/weft/hdl"
)

// Expression translation applies SystemVerilog's width rules (IEEE 1800
// §11.6, §11.8) in two steps: self() computes the self-determined type of an
// AST expression, conv() builds the typed design expression for a given
// context type, pushing the context width and signedness down to the
// context-determined operands and extending the leaves. Self-determined
// operands (comparison operands, shift amounts, concatenation items,
// reduction operands, ...) are sized on their own at the node that owns
// them.

// ectx is the state of translating one expression (or one statement's
// expressions).
type ectx struct {
	e         *elab
	sc        *scope
	p         *pctx // procedural context; nil outside processes and functions
	constOnly bool  // parameter values, ranges, counts: no homes allowed
	what      string
	quiet     int
	failed    bool
	// memo caches self-determined types. Most expressions translated here
	// are a handful of nodes (a loop bound, a parameter), so the first few
	// live in a slice searched linearly and only larger ones pay for a map.
	memo    []memoEntry
	memoBuf [4]memoEntry // memo's first backing array, allocated with ectx
	memoMap map[hdl.Expr]tinfo
}

type memoEntry struct {
	n hdl.Expr
	t tinfo
}

const memoSliceMax = 16

func (x *ectx) memoGet(n hdl.Expr) (tinfo, bool) {
	if x.memoMap != nil {
		t, ok := x.memoMap[n]
		return t, ok
	}
	for i := range x.memo {
		if x.memo[i].n == n {
			return x.memo[i].t, true
		}
	}
	return tinfo{}, false
}

func (x *ectx) memoPut(n hdl.Expr, t tinfo) {
	if x.memo == nil {
		x.memo = x.memoBuf[:0]
	}
	if x.memoMap == nil && len(x.memo) < memoSliceMax {
		x.memo = append(x.memo, memoEntry{n, t})
		return
	}
	if x.memoMap == nil {
		x.memoMap = make(map[hdl.Expr]tinfo, 2*memoSliceMax)
		for _, m := range x.memo {
			x.memoMap[m.n] = m.t
		}
		x.memo = nil
	}
	x.memoMap[n] = t
}

// tinfo is a self-determined type.
type tinfo struct {
	t        design.Type
	pt       *ptype // structure of the value when known (selects, members)
	fill     bool   // '0 '1 'x 'z: takes the context width
	arr      bool   // a whole unpacked array
	pattern  bool   // an assignment pattern: needs a target type
	unpacked []design.Dim
}

var bitT = design.Type{Width: 1}

func (x *ectx) errorf(pos hdl.Pos, format string, args ...any) {
	if x.quiet > 0 {
		return
	}
	x.failed = true
	x.e.errorf(pos, format, args...)
}

func (x *ectx) warnf(pos hdl.Pos, format string, args ...any) {
	if x.quiet > 0 {
		return
	}
	x.e.warnf(pos, format, args...)
}

// ---- constant-folding node constructors ----

func cint(v int64) *design.Const { return design.ConstInt(design.Type{Width: 32}, v) }

func isConst(e design.Expr) bool { _, ok := e.(*design.Const); return ok }

func cast(e design.Expr, signed bool) design.Expr {
	t := e.Type()
	if t.Signed == signed {
		return e
	}
	t.Signed = signed
	if c, ok := e.(*design.Const); ok {
		return &design.Const{T: t, Val: c.Val, U: c.U}
	}
	if x, ok := e.(*design.Extend); ok && x.T.Width == x.X.Type().Width && x.X.Type().Signed == signed {
		return x.X
	}
	return &design.Extend{X: e, T: t}
}

func mkExtend(a design.Expr, signExt bool, t design.Type) design.Expr {
	at := a.Type()
	if at.Width > t.Width {
		return mkTrunc(a, t)
	}
	if at.Width == t.Width {
		return cast(a, t.Signed)
	}
	if c, ok := a.(*design.Const); ok {
		return design.FoldExtend(c, signExt, t)
	}
	// Extension does not depend on the operand's signedness label.
	if x, ok := a.(*design.Extend); ok && x.T.Width == x.X.Type().Width {
		a = x.X
	}
	return &design.Extend{X: a, SignExt: signExt, T: t}
}

func mkTrunc(a design.Expr, t design.Type) design.Expr {
	at := a.Type()
	if at.Width == t.Width {
		return cast(a, t.Signed)
	}
	if c, ok := a.(*design.Const); ok {
		return design.FoldTrunc(c, t)
	}
	if x, ok := a.(*design.Extend); ok && x.X.Type().Width >= t.Width {
		return mkTrunc(x.X, t)
	}
	return &design.Trunc{X: a, T: t}
}

func mkUnary(op design.UnOp, a design.Expr, t design.Type) design.Expr {
	if c, ok := a.(*design.Const); ok {
		return design.FoldUnary(op, c, t)
	}
	return &design.Unary{Op: op, X: a, T: t}
}

// binop is mkBinary for the operator src written at pos: when it folds
// constants it charges the elaboration's budget first, so that a design
// cannot fold without end (a chain of 16-Mbit multiplications, a power of
// a huge value).
func (x *ectx) binop(src string, pos hdl.Pos, op design.BinOp, a, b design.Expr, t design.Type) design.Expr {
	ca, ok1 := a.(*design.Const)
	cb, ok2 := b.(*design.Const)
	if ok1 && ok2 && !x.e.spend(pos, design.OpCost(op, ca.Val, ca.T, cb.Val, cb.T), "'"+src+"' on constants") {
		x.failed = true
		return design.NewConst(t, zero())
	}
	return mkBinary(op, a, b, t)
}

// unop is mkUnary charging the budget as binop does.
func (x *ectx) unop(src string, pos hdl.Pos, op design.UnOp, a design.Expr, t design.Type) design.Expr {
	if c, ok := a.(*design.Const); ok && !x.e.spend(pos, int64(c.T.Width), "'"+src+"' on constants") {
		x.failed = true
		return design.NewConst(t, zero())
	}
	return mkUnary(op, a, t)
}

func mkBinary(op design.BinOp, a, b design.Expr, t design.Type) design.Expr {
	ca, ok1 := a.(*design.Const)
	cb, ok2 := b.(*design.Const)
	if ok1 && ok2 {
		return design.FoldBinary(op, ca, cb, t)
	}
	return &design.Binary{Op: op, X: a, Y: b, T: t}
}

// mkCond folds a constant condition. An x or z condition merges constant
// arms bit by bit (IEEE 1800 11.4.11); with a run-time arm it stays a
// Cond whose condition reads as 0 at run time, and elaboration warns.
func mkCond(c, a, b design.Expr, t design.Type) design.Expr {
	if cc, ok := c.(*design.Const); ok {
		switch design.Truth(cc) {
		case design.B1:
			return a
		case design.B0:
			return b
		}
		ca, ok1 := a.(*design.Const)
		cb, ok2 := b.(*design.Const)
		if ok1 && ok2 {
			return design.FoldCond(cc, ca, cb, t)
		}
	}
	return &design.Cond{C: c, Then: a, Else: b, T: t}
}

// mkSlice selects t.Width bits of a at offset lsb, folding constants and
// merging nested constant slices.
func mkSlice(a design.Expr, lsb design.Expr, t design.Type) design.Expr {
	if lc, ok := lsb.(*design.Const); ok && lc.U != nil {
		// An offset with x or z bits selects x (IEEE 1800 11.5.1).
		if _, isConst := a.(*design.Const); isConst {
			return design.NewConst4(t, nil, design.Ones(t.Width), nil, lc.U.At)
		}
		return &design.Slice{X: a, Lsb: lsb, T: t}
	}
	if lc, ok := design.ConstUint(lsb); ok {
		aw := a.Type().Width
		if lc == 0 && t.Width == aw {
			if _, isLV := a.(design.LValue); isLV {
				return a
			}
			return cast(a, t.Signed)
		}
		if c, ok := a.(*design.Const); ok {
			return design.FoldSlice(c, lc, t)
		}
		if s, ok := a.(*design.Slice); ok {
			if l2, ok := design.ConstUint(s.Lsb); ok && lc+t.Width <= s.T.Width {
				return &design.Slice{X: s.X, Lsb: cint(int64(l2 + lc)), T: t}
			}
		}
	}
	return &design.Slice{X: a, Lsb: lsb, T: t}
}

func (x *ectx) truthOf(v design.Expr) design.Expr {
	if v.Type().Width == 1 {
		return cast(v, false)
	}
	return mkUnary(design.OpRedOr, v, bitT)
}

// adapt converts a typed expression to width w the way an assignment does
// (extension by its own signedness, truncation).
func adapt(v design.Expr, w int) design.Expr {
	t := v.Type()
	if t.Width == w {
		return v
	}
	if t.Width > w {
		return mkTrunc(v, design.Type{Width: w, Signed: t.Signed})
	}
	return mkExtend(v, t.Signed, design.Type{Width: w, Signed: t.Signed})
}

// ---- self-determined types ----

func numType(n *hdl.Number) design.Type {
	w := n.Width
	if w == 0 {
		w = 32
		if n.Value != nil && n.Value.BitLen() > 32 {
			w = n.Value.BitLen()
		}
	}
	return design.Type{Width: w, Signed: n.Base == 0 || n.Signed}
}

func strType(s string) design.Type { return design.Type{Width: 8 * max(1, len(s))} }

func (x *ectx) self(n hdl.Expr) tinfo {
	if t, ok := x.memoGet(n); ok {
		return t
	}
	if !x.e.enter(n) {
		x.failed = true
		return tinfo{t: bitT}
	}
	x.quiet++
	t := x.self1(n)
	x.quiet--
	x.e.leave()
	if t.t.Width < 1 {
		t.t.Width = 1
	}
	x.memoPut(n, t)
	return t
}

func (x *ectx) self1(n hdl.Expr) tinfo {
	switch n := n.(type) {
	case nil:
		return tinfo{t: bitT}
	case *hdl.ParenExpr:
		return x.self(n.X)
	case *hdl.Number:
		if n.Fill != 0 {
			return tinfo{t: bitT, fill: true}
		}
		return tinfo{t: numType(n)}
	case *hdl.StringLit:
		return tinfo{t: strType(n.Value)}
	case *hdl.Ident, *hdl.ScopedIdent, *hdl.MemberExpr, *hdl.IndexExpr, *hdl.RangeExpr:
		r := x.ref(n, false)
		if r == nil {
			return tinfo{t: bitT}
		}
		return r.info()
	case *hdl.UnaryExpr:
		switch n.Op {
		case "+", "-", "~":
			s := x.self(n.X)
			return tinfo{t: s.t, fill: s.fill}
		}
		return tinfo{t: bitT}
	case *hdl.BinaryExpr:
		switch n.Op {
		case "+", "-", "*", "/", "%", "&", "|", "^", "~^", "^~":
			a, b := x.self(n.X), x.self(n.Y)
			if a.fill && b.fill {
				return tinfo{t: bitT, fill: true}
			}
			return tinfo{t: design.Type{Width: max(a.t.Width, b.t.Width), Signed: a.t.Signed && b.t.Signed}}
		case "<<", ">>", "<<<", ">>>", "**":
			return tinfo{t: x.self(n.X).t}
		}
		return tinfo{t: bitT}
	case *hdl.CondExpr:
		a, b := x.self(n.Then), x.self(n.Else)
		t := tinfo{t: design.Type{Width: max(a.t.Width, b.t.Width), Signed: a.t.Signed && b.t.Signed}}
		if a.pt != nil && b.pt != nil && a.pt.width == b.pt.width && a.pt.width == t.t.Width {
			t.pt = a.pt
		}
		return t
	case *hdl.ConcatExpr:
		w := 0
		for _, it := range n.Items {
			if r, ok := it.(*hdl.ReplicateExpr); ok && x.zeroRepl(r) {
				continue
			}
			w += x.self(it).t.Width
		}
		return tinfo{t: design.Type{Width: max(w, 1)}}
	case *hdl.ReplicateExpr:
		c, ok := x.constIntOf(n.Count, "replication count")
		if !ok || c <= 0 {
			return tinfo{t: bitT}
		}
		w := 0
		for _, it := range n.Items {
			w += x.self(it).t.Width
		}
		return tinfo{t: design.Type{Width: int(c) * max(w, 1)}}
	case *hdl.CallExpr:
		return x.callType(n)
	case *hdl.CastExpr:
		s := x.self(n.X)
		if n.Type == nil && n.Width != nil {
			if t := x.castType(n); t != nil {
				return tinfo{t: t.dt(), pt: t}
			}
		}
		switch {
		case n.Type != nil:
			t := x.e.resolveType(n.Type, x.sc)
			if t == nil {
				return tinfo{t: bitT}
			}
			return tinfo{t: t.dt(), pt: t}
		case n.Width != nil:
			w, ok := x.constIntOf(n.Width, "cast width")
			if !ok || w < 1 {
				return tinfo{t: bitT}
			}
			return tinfo{t: design.Type{Width: int(w), Signed: s.t.Signed}}
		default:
			return tinfo{t: design.Type{Width: s.t.Width, Signed: n.Signing == hdl.SignSigned}}
		}
	case *hdl.InsideExpr:
		return tinfo{t: bitT}
	case *hdl.PatternExpr:
		return tinfo{t: bitT, pattern: true}
	}
	return tinfo{t: bitT}
}

// ---- conversion in a context ----

// conv builds n in a context of type T (T.Width >= self(n).Width), with
// T.Signed the propagated signedness.
func (x *ectx) conv(n hdl.Expr, T design.Type) design.Expr {
	if !x.e.enter(n) {
		x.failed = true
		return design.NewConst(T, zero())
	}
	v := x.conv1(n, T)
	x.e.leave()
	return v
}

func (x *ectx) conv1(n hdl.Expr, T design.Type) design.Expr {
	switch n := n.(type) {
	case nil:
		x.failed = true
		return design.NewConst(T, zero())
	case *hdl.ParenExpr:
		return x.conv(n.X, T)
	case *hdl.Number:
		if n.Real {
			x.errorf(n.Pos, "real number %s is not supported", n.Text)
			return design.NewConst(T, zero())
		}
		if n.Fill != 0 {
			switch n.Fill {
			case '1':
				return design.NewConst(T, design.Ones(T.Width))
			case 'x':
				return design.NewConst4(T, nil, design.Ones(T.Width), nil, dpos(n.Pos))
			case 'z':
				return design.NewConst4(T, nil, design.Ones(T.Width), design.Ones(T.Width), dpos(n.Pos))
			}
			return design.NewConst(T, zero())
		}
		return x.fit(x.unsizedXZ(x.numConst(n), n, T), T)
	case *hdl.UnaryExpr:
		switch n.Op {
		case "+":
			return x.conv(n.X, T)
		case "-":
			return x.unop(n.Op, n.Pos, design.OpNeg, x.conv(n.X, T), T)
		case "~":
			return x.unop(n.Op, n.Pos, design.OpNot, x.conv(n.X, T), T)
		}
	case *hdl.BinaryExpr:
		var op design.BinOp
		switch n.Op {
		case "+":
			op = design.OpAdd
		case "-":
			op = design.OpSub
		case "*":
			op = design.OpMul
		case "/":
			op = design.OpDiv
		case "%":
			op = design.OpMod
		case "&":
			op = design.OpAnd
		case "|":
			op = design.OpOr
		case "^":
			op = design.OpXor
		case "~^", "^~":
			op = design.OpXnor
		case "<<", "<<<":
			return x.binop(n.Op, n.Pos, design.OpShl, x.conv(n.X, T), x.shamt(n.Y), T)
		case ">>":
			return x.binop(n.Op, n.Pos, design.OpShr, x.conv(n.X, T), x.shamt(n.Y), T)
		case ">>>":
			if T.Signed {
				return x.binop(n.Op, n.Pos, design.OpAShr, x.conv(n.X, T), x.shamt(n.Y), T)
			}
			return x.binop(n.Op, n.Pos, design.OpShr, x.conv(n.X, T), x.shamt(n.Y), T)
		case "**":
			return x.binop(n.Op, n.Pos, design.OpPow, x.conv(n.X, T), x.selfv(n.Y), T)
		default:
			return x.fit(x.primary(n), T)
		}
		l, r := x.conv(n.X, T), x.conv(n.Y, T)
		if op == design.OpDiv || op == design.OpMod {
			if c, ok := r.(*design.Const); ok && c.Val.Sign() == 0 && c.U == nil && isConst(l) {
				if x.constOnly {
					x.errorf(n.Pos, "division by zero in %s", x.what)
				} else {
					x.warnc(n.Pos, hdl.CodeDivZero, "division by zero in a constant expression; the result is 0")
				}
			}
		}
		return x.binop(n.Op, n.Pos, op, l, r, T)
	case *hdl.CondExpr:
		return x.condWith(n, func(arm hdl.Expr) design.Expr { return x.conv(arm, T) }, T)
	}
	return x.fit(x.primary(n), T)
}

// fit extends (or relabels) a self-determined leaf to the context type.
func (x *ectx) fit(v design.Expr, T design.Type) design.Expr {
	w := v.Type().Width
	switch {
	case w < T.Width:
		return mkExtend(v, T.Signed, T)
	case w > T.Width:
		return mkTrunc(v, T)
	}
	return cast(v, T.Signed)
}

// selfv builds n self-determined.
func (x *ectx) selfv(n hdl.Expr) design.Expr {
	s := x.self(n)
	return x.conv(n, s.t)
}

// truth builds n as a 1-bit truth value (nonzero → 1).
func (x *ectx) truth(n hdl.Expr) design.Expr { return x.truthOf(x.selfv(n)) }

// shamt builds a shift amount: self-determined, treated as unsigned.
func (x *ectx) shamt(n hdl.Expr) design.Expr { return cast(x.selfv(n), false) }

// assignConv builds n as the right side of an assignment to a value of
// type lt: context width max(lt, self), then truncated to lt.Width.
func (x *ectx) assignConv(n hdl.Expr, lt design.Type) design.Expr {
	if c, ok := unparen(n).(*hdl.CondExpr); ok && hasPattern(c) {
		return x.condWith(c, func(arm hdl.Expr) design.Expr { return x.assignConv(arm, lt) }, lt)
	}
	s := x.self(n)
	if s.pattern {
		if pat, ok := unparen(n).(*hdl.PatternExpr); ok {
			return x.pattern(pat, vec(lt.Width, lt.Signed))
		}
	}
	if s.fill {
		return x.conv(n, lt)
	}
	W := max(lt.Width, s.t.Width)
	v := x.conv(n, design.Type{Width: W, Signed: s.t.Signed})
	if W > lt.Width {
		v = mkTrunc(v, design.Type{Width: lt.Width, Signed: s.t.Signed})
	}
	return v
}

// assignT is assignConv to a structured target type (patterns allowed).
func (x *ectx) assignT(n hdl.Expr, t *ptype) design.Expr {
	if p, ok := unparen(n).(*hdl.PatternExpr); ok {
		return x.pattern(p, t)
	}
	if c, ok := unparen(n).(*hdl.CondExpr); ok && hasPattern(c) {
		return x.condWith(c, func(arm hdl.Expr) design.Expr { return x.assignT(arm, t) }, t.dt())
	}
	return x.assignConv(n, t.dt())
}

// hasPattern reports whether an arm of conditional c, or of a conditional
// nested in an arm, is an assignment pattern.
func hasPattern(c *hdl.CondExpr) bool {
	for _, arm := range []hdl.Expr{c.Then, c.Else} {
		switch a := unparen(arm).(type) {
		case *hdl.PatternExpr:
			return true
		case *hdl.CondExpr:
			if hasPattern(a) {
				return true
			}
		}
	}
	return false
}

// condWith builds c ? a : b of type t with arms built by arm; a constant
// condition builds only its arm (an x one merges both). In an assignment
// it builds an assignment pattern in an arm (Ibex's `c ? A : '{irq_ext:
// 1'b0, ...}`) in the target's type, as on the right of the assignment.
func (x *ectx) condWith(c *hdl.CondExpr, arm func(hdl.Expr) design.Expr, t design.Type) design.Expr {
	cond := x.truth(c.Cond)
	if cc, ok := cond.(*design.Const); ok {
		switch design.Truth(cc) {
		case design.B1:
			x.checkDeadExpr(c.Else)
			return arm(c.Then)
		case design.B0:
			x.checkDeadExpr(c.Then)
			return arm(c.Else)
		}
	}
	return mkCond(cond, arm(c.Then), arm(c.Else), t)
}

func (x *ectx) numConst(n *hdl.Number) design.Expr {
	t := numType(n)
	v := new(big.Int)
	if n.Value != nil {
		v.Set(n.Value)
	}
	if n.XZ != nil && n.XZ.Sign() != 0 {
		return design.NewConst4(t, v, n.XZ, n.Z, dpos(n.Pos))
	}
	return design.NewConst(t, v)
}

// unsizedXZ extends an unsized based literal whose leftmost bit is x or z
// ('bx, 'hz1) with that bit up to the context width T (IEEE 1800 5.7.1),
// where a sized literal or a number is extended with 0 or its sign.
func (x *ectx) unsizedXZ(c design.Expr, n *hdl.Number, T design.Type) design.Expr {
	k, ok := c.(*design.Const)
	if !ok || k.U == nil || n.Width != 0 || n.Base == 0 {
		return c
	}
	w := k.T.Width
	if T.Width <= w || k.U.XZ.Bit(w-1) == 0 {
		return c
	}
	ext := design.FoldExtend(&design.Const{T: design.Type{Width: w, Signed: true}, Val: k.Val, U: k.U}, true, T)
	return cast(ext, k.T.Signed)
}

func strConst(s string) *design.Const {
	v := new(big.Int).SetBytes([]byte(s))
	return design.NewConst(strType(s), v)
}

// constIntOf evaluates n (honouring loop bindings) and requires a constant.
func (x *ectx) constIntOf(n hdl.Expr, what string) (int64, bool) {
	v := x.selfv(n)
	c, ok := v.(*design.Const)
	if !ok {
		if x.quiet == 0 {
			k, err := x.e.fold(v)
			var be *design.BudgetError
			switch {
			case err == nil:
				c = k
				ok = true
			case errors.As(err, &be):
				x.failed = true
				x.e.budgetExceeded(n.Position(), what, be)
				return 0, false
			}
		}
		if !ok {
			x.errorf(n.Position(), "%s must be a constant expression", what)
			return 0, false
		}
	}
	if c.U != nil {
		if x.quiet == 0 {
			x.failed = true
			x.e.mustBeKnown(n.Position(), what, c)
		}
		return 0, false
	}
	i := design.ToInt(c.Val, c.T)
	if !i.IsInt64() || i.Int64() > 1<<40 || i.Int64() < -(1<<40) {
		x.errorf(n.Position(), "%s %s is too large", what, numText(i))
		return 0, false
	}
	return i.Int64(), true
}

func (x *ectx) zeroRepl(r *hdl.ReplicateExpr) bool {
	x.quiet++
	defer func() { x.quiet-- }()
	c, ok := x.constIntOf(r.Count, "replication count")
	return ok && c == 0
}

// ---- self-determined primaries ----

func (x *ectx) primary(n hdl.Expr) design.Expr {
	switch n := n.(type) {
	case nil:
		x.failed = true
		return design.NewConst(bitT, zero())
	case *hdl.ParenExpr:
		return x.primary(n.X)
	case *hdl.Number:
		if n.Fill != 0 || n.Real {
			return x.conv(n, bitT)
		}
		return x.numConst(n)
	case *hdl.StringLit:
		return strConst(n.Value)
	case *hdl.Ident, *hdl.ScopedIdent, *hdl.MemberExpr, *hdl.IndexExpr, *hdl.RangeExpr:
		r := x.ref(n, false)
		if r == nil {
			x.failed = true
			return design.NewConst(bitT, zero())
		}
		return x.refValue(r, n)
	case *hdl.UnaryExpr:
		var op design.UnOp
		switch n.Op {
		case "!":
			return x.unop(n.Op, n.Pos, design.OpLogNot, x.selfv(n.X), bitT)
		case "&":
			op = design.OpRedAnd
		case "~&":
			op = design.OpRedNand
		case "|":
			op = design.OpRedOr
		case "~|":
			op = design.OpRedNor
		case "^":
			op = design.OpRedXor
		case "~^", "^~":
			op = design.OpRedXnor
		case "+", "-", "~":
			return x.conv(n, x.self(n).t)
		default:
			x.errorf(n.Pos, "operator '%s' is not supported here", n.Op)
			return design.NewConst(bitT, zero())
		}
		return x.unop(n.Op, n.Pos, op, x.selfv(n.X), bitT)
	case *hdl.BinaryExpr:
		return x.binaryPrimary(n)
	case *hdl.CondExpr:
		return x.conv(n, x.self(n).t)
	case *hdl.ConcatExpr:
		return x.concat(n.Items, n.Pos)
	case *hdl.ReplicateExpr:
		c, ok := x.constIntOf(n.Count, "replication count")
		if !ok {
			return design.NewConst(bitT, zero())
		}
		if c <= 0 {
			x.errorf(n.Count.Position(), "replication count must be positive, got %d (a zero count is only allowed inside a larger concatenation)", c)
			return design.NewConst(bitT, zero())
		}
		inner := x.concat(n.Items, n.Pos)
		w := inner.Type().Width
		if int64(w)*c > maxWidth {
			x.errorf(n.Pos, "replication is %d bits wide; the limit is %d", int64(w)*c, maxWidth)
			return design.NewConst(bitT, zero())
		}
		if c == 1 {
			return inner
		}
		t := design.Type{Width: w * int(c)}
		if cc, ok := inner.(*design.Const); ok {
			if !x.e.spend(n.Pos, int64(t.Width), "the replication") {
				x.failed = true
				return design.NewConst(bitT, zero())
			}
			return design.FoldRepl(cc, int(c))
		}
		return &design.Repl{X: inner, N: int(c), T: t}
	case *hdl.CallExpr:
		return x.call(n)
	case *hdl.CastExpr:
		return x.castExpr(n)
	case *hdl.InsideExpr:
		return x.inside(n.X, n.Set)
	case *hdl.PatternExpr:
		x.errorf(n.Pos, "an assignment pattern needs a target type here; use it on the right of an assignment or in a cast such as T'{...}")
	case *hdl.StreamExpr:
		x.errorf(n.Pos, "streaming operators are not supported yet")
	case *hdl.TypeExpr:
		x.errorf(n.Pos, "a type is not a value here")
	default:
		x.errorf(n.Position(), "unsupported expression")
	}
	return design.NewConst(bitT, zero())
}

func (x *ectx) binaryPrimary(n *hdl.BinaryExpr) design.Expr {
	switch n.Op {
	case "==", "!=", "===", "!==", "<", "<=", ">", ">=", "==?", "!=?":
		a, b := x.self(n.X), x.self(n.Y)
		ct := design.Type{Width: max(a.t.Width, b.t.Width), Signed: a.t.Signed && b.t.Signed}
		if a.fill || b.fill {
			ct.Signed = false
		}
		l, r := x.conv(n.X, ct), x.conv(n.Y, ct)
		switch n.Op {
		case "===", "!==":
			return x.caseEquality(n, l, r)
		case "==?", "!=?":
			return x.wildEquality(n, l, r)
		}
		var op design.BinOp
		switch n.Op {
		case "==":
			op = design.OpEq
		case "!=":
			op = design.OpNe
		case "<":
			op = design.OpLt
		case "<=":
			op = design.OpLe
		case ">":
			op = design.OpGt
		case ">=":
			op = design.OpGe
		}
		return x.binop(n.Op, n.Pos, op, l, r, bitT)
	case "&&", "||", "->", "<->":
		a := x.truth(n.X)
		if ca, ok := a.(*design.Const); ok && design.Truth(ca) != design.BX {
			// Short-circuit constants so dead operands are not elaborated.
			t := design.Truth(ca) == design.B1
			switch {
			case n.Op == "&&" && !t:
				x.checkDeadExpr(n.Y)
				return a
			case n.Op == "||" && t:
				x.checkDeadExpr(n.Y)
				return a
			case n.Op == "->" && !t:
				x.checkDeadExpr(n.Y)
				return design.NewConst(bitT, big.NewInt(1))
			}
		}
		b := x.truth(n.Y)
		switch n.Op {
		case "&&":
			return mkBinary(design.OpAnd, a, b, bitT)
		case "||":
			return mkBinary(design.OpOr, a, b, bitT)
		case "->":
			return mkBinary(design.OpOr, mkUnary(design.OpNot, a, bitT), b, bitT)
		default:
			return mkBinary(design.OpXnor, a, b, bitT)
		}
	}
	return x.conv(n, x.self(n).t)
}

// caseEquality builds l === r or l !== r (n.Op) of operands converted to
// one type. Constants compare exactly, x and z bits included. A run-time
// value is 2-state: it never equals a constant with an x or z bit, so the
// comparison is a constant then too.
func (x *ectx) caseEquality(n *hdl.BinaryExpr, l, r design.Expr) design.Expr {
	ne := n.Op == "!=="
	cl, okl := l.(*design.Const)
	cr, okr := r.(*design.Const)
	switch {
	case okl && okr:
		if !x.e.spend(n.Pos, int64(cl.T.Width), "'"+n.Op+"' on constants") {
			x.failed = true
			return design.NewConst(bitT, zero())
		}
		return boolConst(design.FoldCaseEq(cl, cr) != ne)
	case okl && cl.U != nil, okr && cr.U != nil:
		return boolConst(ne)
	}
	op := design.OpEq
	if ne {
		op = design.OpNe
	}
	return x.binop(n.Op, n.Pos, op, l, r, bitT)
}

// wildEquality builds l ==? r or l !=? r (IEEE 1800 11.4.6): the x and z
// bits of r are don't-care bits, and x or z bits of l that r compares make
// the result x. A constant r's don't-care bits are masked off a run-time l.
func (x *ectx) wildEquality(n *hdl.BinaryExpr, l, r design.Expr) design.Expr {
	cl, okl := l.(*design.Const)
	cr, okr := r.(*design.Const)
	if okl && okr {
		if !x.e.spend(n.Pos, int64(cl.T.Width), "'"+n.Op+"' on constants") {
			x.failed = true
			return design.NewConst(bitT, zero())
		}
		v := design.FoldWildEq(cl, cr)
		if n.Op == "!=?" {
			v = design.FoldUnary(design.OpLogNot, v, bitT)
		}
		return v
	}
	op := design.OpEq
	if n.Op == "!=?" {
		op = design.OpNe
	}
	if okr && cr.U != nil {
		t := r.Type()
		mc := design.NewConst(t, new(big.Int).AndNot(design.Ones(t.Width), cr.U.XZ))
		l = x.binop(n.Op, n.Pos, design.OpAnd, l, mc, t)
		r = design.NewConst(t, new(big.Int).And(cr.Val, mc.Val))
	}
	return x.binop(n.Op, n.Pos, op, l, r, bitT)
}

func boolConst(b bool) *design.Const {
	if b {
		return design.NewConst(bitT, big.NewInt(1))
	}
	return design.NewConst(bitT, zero())
}

func (x *ectx) concat(items []hdl.Expr, pos hdl.Pos) design.Expr {
	var parts []design.Expr
	for _, it := range items {
		if r, ok := it.(*hdl.ReplicateExpr); ok && x.zeroRepl(r) {
			continue
		}
		s := x.self(it)
		if s.arr {
			x.errorf(it.Position(), "an unpacked array cannot be concatenated")
			continue
		}
		parts = append(parts, cast(x.conv(it, s.t), false))
	}
	if len(parts) == 0 {
		x.errorf(pos, "empty concatenation")
		return design.NewConst(bitT, zero())
	}
	if len(parts) == 1 {
		return parts[0]
	}
	w := 0
	allConst := true
	for _, p := range parts {
		w += p.Type().Width
		if !isConst(p) {
			allConst = false
		}
	}
	if w > maxWidth {
		x.errorf(pos, "concatenation is %d bits wide; the limit is %d", w, maxWidth)
		return design.NewConst(bitT, zero())
	}
	t := design.Type{Width: w}
	if allConst {
		if !x.e.spend(pos, int64(w), "the concatenation") {
			x.failed = true
			return design.NewConst(bitT, zero())
		}
		return constConcat(parts)
	}
	return &design.Concat{Parts: parts, T: t}
}

// constConcat concatenates constant parts (the most significant first).
func constConcat(parts []design.Expr) *design.Const {
	cs := make([]*design.Const, len(parts))
	for i, p := range parts {
		cs[i] = p.(*design.Const)
	}
	return design.FoldConcat(cs)
}

// castType returns the type of a `name'(x)` cast whose name the parser
// could not know was a type.
func (x *ectx) castType(n *hdl.CastExpr) *ptype {
	if n.Type != nil {
		return x.e.resolveType(n.Type, x.sc)
	}
	var s *symbol
	switch w := unparen(n.Width).(type) {
	case *hdl.Ident:
		s = x.lookup(w.Name)
	case *hdl.ScopedIdent:
		if ps := x.e.pkgs[w.Package]; ps != nil {
			s = ps.syms[w.Name]
		} else if _, ok := x.e.pkgDecls[w.Package]; ok {
			if ps := x.e.pkgScope(w.Package, w.Pos); ps != nil {
				s = ps.syms[w.Name]
			}
		}
	}
	if s != nil && s.kind == symType {
		return x.e.symType(s)
	}
	return nil
}

func (x *ectx) castExpr(n *hdl.CastExpr) design.Expr {
	if n.Type == nil && n.Width != nil {
		if t := x.castType(n); t != nil {
			return cast(x.assignT(n.X, t), t.signed)
		}
	}
	switch {
	case n.Type != nil:
		t := x.e.resolveType(n.Type, x.sc)
		if t == nil {
			x.failed = true
			return design.NewConst(bitT, zero())
		}
		return cast(x.assignT(n.X, t), t.signed)
	case n.Width != nil:
		w, ok := x.constIntOf(n.Width, "cast width")
		if !ok {
			return design.NewConst(bitT, zero())
		}
		if w < 1 || w > maxWidth {
			x.errorf(n.Width.Position(), "cast width must be between 1 and %d, got %d", maxWidth, w)
			return design.NewConst(bitT, zero())
		}
		s := x.self(n.X)
		return x.assignConv(n.X, design.Type{Width: int(w), Signed: s.t.Signed})
	default:
		return cast(x.selfv(n.X), n.Signing == hdl.SignSigned)
	}
}

// inside builds `v inside {set}` (also used by case-inside labels).
func (x *ectx) inside(v hdl.Expr, set []hdl.Expr) design.Expr {
	st := x.self(v)
	ct := st.t
	for _, it := range set {
		if r, ok := it.(*hdl.RangeExpr); ok && r.X == nil {
			a, b := x.self(r.Left), x.self(r.Right)
			ct.Width = max(ct.Width, a.t.Width, b.t.Width)
			ct.Signed = ct.Signed && a.t.Signed && b.t.Signed
			continue
		}
		s := x.self(it)
		ct.Width = max(ct.Width, s.t.Width)
		ct.Signed = ct.Signed && s.t.Signed
	}
	subj := x.conv(v, ct)
	var ms []design.Expr
	for _, it := range set {
		var m design.Expr
		if r, ok := it.(*hdl.RangeExpr); ok && r.X == nil {
			lo, hi := x.conv(r.Left, ct), x.conv(r.Right, ct)
			m = mkBinary(design.OpAnd, mkBinary(design.OpLe, lo, subj, bitT), mkBinary(design.OpLe, subj, hi, bitT), bitT)
		} else {
			m = x.wildEquality(&hdl.BinaryExpr{At: hdl.At{Pos: it.Position()}, Op: "==?"}, subj, x.conv(it, ct))
		}
		ms = append(ms, m)
	}
	if len(ms) == 0 {
		return design.NewConst(bitT, zero())
	}
	return balancedOp(design.OpOr, ms, bitT)
}

// balancedOp joins xs (at least one, all of type t) with the associative
// op; a long list becomes a balanced tree, so that a set of 10^5 items nests
// 17 levels for every later pass that recurses over it, not 10^5.
func balancedOp(op design.BinOp, xs []design.Expr, t design.Type) design.Expr {
	if len(xs) < 32 {
		acc := xs[0]
		for _, x := range xs[1:] {
			acc = mkBinary(op, acc, x, t)
		}
		return acc
	}
	mid := len(xs) / 2
	return mkBinary(op, balancedOp(op, xs[:mid], t), balancedOp(op, xs[mid:], t), t)
}

// pattern builds an assignment pattern for a packed target type.
func (x *ectx) pattern(p *hdl.PatternExpr, t *ptype) design.Expr {
	items, keys := p.Items, p.Keys
	if p.Repeat != nil {
		n, ok := x.constIntOf(p.Repeat, "pattern repeat count")
		if !ok || n < 1 || n > 1<<16 {
			if ok {
				x.errorf(p.Repeat.Position(), "pattern repeat count must be between 1 and 65536")
			}
			return design.NewConst(t.dt(), zero())
		}
		var its []hdl.Expr
		for i := int64(0); i < n; i++ {
			its = append(its, p.Items...)
		}
		items, keys = its, make([]hdl.Expr, len(its))
	}
	keyName := func(k hdl.Expr) string {
		if id, ok := k.(*hdl.Ident); ok {
			return id.Name
		}
		return ""
	}
	if t.isStruct() {
		if t.union {
			x.errorf(p.Pos, "assignment patterns for unions are not supported")
			return design.NewConst(t.dt(), zero())
		}
		vals := make([]design.Expr, len(t.fields))
		pos := 0
		for i, it := range items {
			var k hdl.Expr
			if i < len(keys) {
				k = keys[i]
			}
			idx := -1
			if k == nil {
				idx = pos
				pos++
				if idx >= len(t.fields) {
					x.errorf(it.Position(), "too many values in the pattern for a struct with %d members", len(t.fields))
					return design.NewConst(t.dt(), zero())
				}
			} else {
				name := keyName(k)
				for j, f := range t.fields {
					if f.name == name {
						idx = j
					}
				}
				if idx < 0 {
					var names []string
					for _, f := range t.fields {
						names = append(names, f.name)
					}
					x.errorf(k.Position(), "struct has no member '%s'%s", name, suggestFrom(name, names))
					return design.NewConst(t.dt(), zero())
				}
			}
			vals[idx] = x.assignT(it, t.fields[idx].typ)
		}
		var parts []design.Expr
		for i, f := range t.fields {
			v := vals[i]
			if v == nil {
				if p.Default == nil {
					x.errorf(p.Pos, "the pattern gives no value for member '%s'", f.name)
					return design.NewConst(t.dt(), zero())
				}
				v = x.assignT(p.Default, f.typ)
			}
			parts = append(parts, cast(v, false))
		}
		return cast(x.joinParts(parts, t.width), t.signed)
	}
	vt := t.asVector()
	d := vt.dims[0]
	et := vt.elem()
	size := d.Size()
	// The values the items give, by position (0 = lsb element); the other
	// positions take the default in runs, so that a pattern of millions of
	// elements with a default is a few parts rather than millions.
	vals := map[int]design.Expr{}
	step := 1
	if d.Left > d.Right {
		step = -1
	}
	posOf := func(i int) int {
		if d.Left >= d.Right {
			return i - d.Right
		}
		return d.Right - i
	}
	n := 0
	for i, it := range items {
		var k hdl.Expr
		if i < len(keys) {
			k = keys[i]
		}
		var idx int
		if k == nil {
			idx = d.Left + n*step
			n++
			if n > size {
				x.errorf(it.Position(), "too many values in the pattern for %d elements", size)
				return design.NewConst(t.dt(), zero())
			}
		} else {
			v, ok := x.constIntOf(k, "pattern index")
			if !ok {
				return design.NewConst(t.dt(), zero())
			}
			idx = int(v)
		}
		ps := posOf(idx)
		if ps < 0 || ps >= size {
			x.errorf(it.Position(), "pattern index %d is out of range %s", idx, d)
			return design.NewConst(t.dt(), zero())
		}
		vals[ps] = x.assignT(it, et)
	}
	if n > 0 && n < size && p.Default == nil {
		x.errorf(p.Pos, "the pattern has %d values for %d elements", n, size)
		return design.NewConst(t.dt(), zero())
	}
	given := make([]int, 0, len(vals))
	for ps := range vals {
		given = append(given, ps)
	}
	slices.Sort(given)
	var parts []design.Expr
	var def design.Expr
	// fill gives positions hi down to lo the default.
	fill := func(hi, lo int) bool {
		if hi < lo {
			return true
		}
		if p.Default == nil {
			x.errorf(p.Pos, "the pattern gives no value for element %d", hi)
			return false
		}
		if def == nil {
			def = cast(x.assignT(p.Default, et), false)
		}
		parts = append(parts, x.repeat(p.Pos, def, hi-lo+1)...)
		return true
	}
	top := size - 1
	for i := len(given) - 1; i >= 0; i-- {
		ps := given[i]
		if !fill(top, ps+1) {
			return design.NewConst(t.dt(), zero())
		}
		parts = append(parts, cast(vals[ps], false))
		top = ps - 1
	}
	if !fill(top, 0) {
		return design.NewConst(t.dt(), zero())
	}
	return cast(x.joinParts(parts, t.width), t.signed)
}

// repeat returns the parts of n copies of v side by side: the copies
// themselves when few, else one replication (folded when v is constant).
func (x *ectx) repeat(pos hdl.Pos, v design.Expr, n int) []design.Expr {
	if n < 32 {
		parts := make([]design.Expr, n)
		for i := range parts {
			parts[i] = v
		}
		return parts
	}
	w := v.Type().Width
	t := design.Type{Width: n * w}
	if c, ok := v.(*design.Const); ok {
		if !x.e.spend(pos, int64(t.Width), "the pattern") {
			x.failed = true
			return []design.Expr{design.NewConst(t, zero())}
		}
		return []design.Expr{design.FoldRepl(c, n)}
	}
	return []design.Expr{&design.Repl{X: v, N: n, T: t}}
}

func (x *ectx) joinParts(parts []design.Expr, w int) design.Expr {
	if len(parts) == 1 {
		return parts[0]
	}
	allConst := true
	for _, p := range parts {
		if !isConst(p) {
			allConst = false
		}
	}
	t := design.Type{Width: w}
	if allConst {
		return constConcat(parts)
	}
	return &design.Concat{Parts: parts, T: t}
}
