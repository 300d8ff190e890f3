package kernels

import (
	"github.com/weft-hdl/weft/design"
	"github.com/weft-hdl/weft/sir"
	"github.com/weft-hdl/weft/statelayout"
)

// expr lowers a typed expression to a value of its type's width.
func (u *ub) expr(e design.Expr) value {
	switch e := e.(type) {
	case *design.Const:
		return u.constBig(e.T.Width, e.Val)
	case *design.HomeRef:
		if v := u.vars[e.Home]; v != nil {
			return v.value()
		}
		if v, ok := u.snap[e.Home]; ok {
			return v
		}
		if e.Home.IsArray() {
			u.c.fail("%s: an array used as a value", e.Home.Path)
			return u.zero(e.Home.Width)
		}
		return u.readLoc(u.resolve(e))
	case *design.ElemRef:
		l := u.resolve(e)
		if l.none {
			return u.zero(e.Home.Width)
		}
		return u.readLoc(l)
	case *design.Slice:
		T := e.T.Width
		if u.staticRead(e) {
			l := u.resolve(e)
			if l.none || l.n == 0 {
				return u.zero(T)
			}
			return u.zext(u.readLoc(l), T)
		}
		x := u.expr(e.X)
		if c, ok := design.ConstUint(e.Lsb); ok {
			return u.extract(x, c, T)
		}
		if _, ok := e.Lsb.(*design.Const); ok { // huge constant offset
			return u.zero(T)
		}
		return u.resize(u.shift(sir.OpLShr, x, u.expr(e.Lsb)), T)
	case *design.Unary:
		return u.unary(e)
	case *design.Binary:
		return u.binary(e)
	case *design.Cond:
		c := u.expr(e.C)
		if hasCalls(e.Then) || hasCalls(e.Else) {
			res := u.newVar(e.T.Width, nil)
			u.branch(u.nonzero(c), func() { u.setVar(res, u.expr(e.Then)) }, func() { u.setVar(res, u.expr(e.Else)) })
			return res.value()
		}
		return u.mux(u.nonzero(c), u.expr(e.Then), u.expr(e.Else))
	case *design.Concat:
		if len(e.Parts) == 1 {
			return u.resize(u.expr(e.Parts[0]), e.T.Width)
		}
		if x, k, ok := rotation(e); ok {
			// {x[k-1:0], x[W-1:k]}: x rotated right by k, from one read of x.
			b := u.b
			v := u.expr(x).one()
			return value{w: []sir.Reg{b.Op(sir.OpFShr, v, v, b.Const(64, uint64(k)))}, width: e.T.Width}
		}
		out := u.zero(e.T.Width)
		shift := e.T.Width
		for _, p := range e.Parts {
			v := u.expr(p)
			shift -= v.width
			u.insertAt(out, shift, v) // in place: a copy per part is quadratic
		}
		return out
	case *design.Repl:
		return u.repl(u.expr(e.X), e.N)
	case *design.Extend:
		x := u.expr(e.X)
		if e.SignExt {
			return u.sext(x, e.T.Width)
		}
		return u.zext(x, e.T.Width)
	case *design.Trunc:
		return u.trunc(u.expr(e.X), e.T.Width)
	case *design.Call:
		return u.call(e.Func, e.Args, nil, e.T.Width)
	case *design.SysFunc:
		return u.sysFunc(e)
	}
	u.c.fail("cannot lower expression %T", e)
	return u.zero(max(1, e.Type().Width))
}

// hasCalls reports whether e calls a function (so a conditional operator
// must not evaluate both arms: calls may run loops and system tasks).
func hasCalls(e design.Expr) bool {
	found := false
	design.WalkExpr(e, func(x design.Expr) {
		if _, ok := x.(*design.Call); ok {
			found = true
		}
	})
	return found
}

func (u *ub) bit(r sir.Reg) value { return u.single(r) }

func (u *ub) unary(e *design.Unary) value {
	x := u.expr(e.X)
	switch e.Op {
	case design.OpNeg:
		return u.neg(x)
	case design.OpNot:
		return u.not(x)
	case design.OpLogNot:
		return u.bit(u.isZero(x))
	case design.OpRedAnd:
		return u.bit(u.allOnes(x))
	case design.OpRedNand:
		return u.bit(u.lnot(u.allOnes(x)))
	case design.OpRedOr:
		return u.bit(u.nonzero(x))
	case design.OpRedNor:
		return u.bit(u.isZero(x))
	case design.OpRedXor:
		return u.bit(u.parity(x))
	case design.OpRedXnor:
		return u.bit(u.lnot(u.parity(x)))
	}
	u.c.fail("unknown unary operator %v", e.Op)
	return u.zero(e.T.Width)
}

func (u *ub) binary(e *design.Binary) value {
	x := u.expr(e.X)
	y := u.expr(e.Y)
	signed := e.X.Type().Signed
	switch e.Op {
	case design.OpAdd:
		return u.add(x, y)
	case design.OpSub:
		return u.sub(x, y)
	case design.OpMul:
		return u.mul(x, y)
	case design.OpDiv:
		q, _ := u.divrem(x, y, e.T.Signed)
		return q
	case design.OpMod:
		_, r := u.divrem(x, y, e.T.Signed)
		return r
	case design.OpAnd:
		return u.bitwise(sir.OpAnd, x, y)
	case design.OpOr:
		return u.bitwise(sir.OpOr, x, y)
	case design.OpXor:
		return u.bitwise(sir.OpXor, x, y)
	case design.OpXnor:
		return u.not(u.bitwise(sir.OpXor, x, y))
	case design.OpShl:
		return u.shift(sir.OpShl, x, y)
	case design.OpShr:
		return u.shift(sir.OpLShr, x, y)
	case design.OpAShr:
		if !e.T.Signed {
			return u.shift(sir.OpLShr, x, y)
		}
		return u.shift(sir.OpAShr, x, y)
	case design.OpPow:
		return u.pow(x, y, e.T.Signed, e.Y.Type().Signed, e.X)
	case design.OpEq:
		return u.bit(u.eq(x, y))
	case design.OpNe:
		return u.bit(u.lnot(u.eq(x, y)))
	case design.OpLt:
		return u.bit(u.lt(x, y, signed))
	case design.OpGt:
		return u.bit(u.lt(y, x, signed))
	case design.OpLe:
		return u.bit(u.lnot(u.lt(y, x, signed)))
	case design.OpGe:
		return u.bit(u.lnot(u.lt(x, y, signed)))
	}
	u.c.fail("unknown binary operator %v", e.Op)
	return u.zero(e.T.Width)
}

// pow computes x ** y at x's width (IEEE 1800 table 11-4, 2-state).
func (u *ub) pow(x, y value, xSigned, ySigned bool, xe design.Expr) value {
	b := u.b
	W := x.width
	var pos value
	if c, ok := xe.(*design.Const); ok && c.Val.IsInt64() && c.Val.Int64() == 2 {
		// 2 ** y == 1 << y (also for a 2-bit signed 2'b10: equal modulo 4)
		pos = u.shift(sir.OpShl, u.constU(W, 1), y)
	} else {
		res := u.newVar(W, nil)
		one := u.constU(W, 1)
		u.setVar(res, one)
		bs := u.newVar(W, &x)
		for j := range y.w {
			e := b.Reg(64)
			b.CopyTo(e, b.ZExt(64, y.w[j]))
			last := j == len(y.w)-1
			cnt := b.Reg(64)
			b.ConstTo(cnt, uint64(wordWidth(y.width, j)))
			head, body, exit := b.NewBlock(), b.NewBlock(), b.NewBlock()
			b.Jump(head)
			b.SetBlock(head)
			if last {
				b.Branch(b.Ne(e, b.Const(64, 0)), body, exit)
			} else {
				b.Branch(b.Ne(cnt, b.Const(64, 0)), body, exit)
			}
			b.SetBlock(body)
			bit := b.Trunc(1, e)
			u.setVar(res, u.mux(bit, u.mul(res.value(), bs.value()), res.value()))
			u.setVar(bs, u.mul(bs.value(), bs.value()))
			b.OpTo(e, sir.OpLShr, e, b.Const(64, 1), sir.NoReg)
			b.OpTo(cnt, sir.OpSub, cnt, b.Const(64, 1), sir.NoReg)
			b.Jump(head)
			b.SetBlock(exit)
		}
		pos = res.value()
	}
	if !ySigned {
		return pos
	}
	// negative exponent: 1 ** y = 1; (-1) ** y = odd ? -1 : 1; else 0
	neg := b.Extract(1, y.w[len(y.w)-1], wordWidth(y.width, len(y.w)-1)-1)
	isOne := u.eq(x, u.constU(W, 1))
	var negRes value
	if xSigned {
		isM1 := u.allOnes(x)
		odd := b.Trunc(1, y.w[0])
		m1 := u.mux(odd, u.ones(W), u.constU(W, 1))
		negRes = u.mux(isOne, u.constU(W, 1), u.mux(isM1, m1, u.zero(W)))
	} else {
		negRes = u.mux(isOne, u.constU(W, 1), u.zero(W))
	}
	return u.mux(neg, negRes, pos)
}

func (u *ub) sysFunc(e *design.SysFunc) value {
	b := u.b
	T := e.T.Width
	switch e.Fn {
	case design.FnCountOnes:
		return u.popcount(u.expr(e.Args[0]), T)
	case design.FnOneHot, design.FnOneHot0:
		p := u.popcount(u.expr(e.Args[0]), 64).one()
		if e.Fn == design.FnOneHot {
			return u.resize(u.bit(b.Eq(p, b.Const(64, 1))), T)
		}
		return u.resize(u.bit(b.ULt(p, b.Const(64, 2))), T)
	case design.FnClog2:
		x := u.expr(e.Args[0])
		le1 := b.ULt(u.bitlen(x), b.Const(64, 2))
		bl := u.bitlen(u.sub(x, u.constU(x.width, 1)))
		return u.resize(u.single(b.Mux(le1, b.Const(64, 0), bl)), T)
	case design.FnTime:
		t := b.Load(64, 8, sir.Addr{Home: u.c.sp.Sys().ID, Offset: statelayout.SysTime})
		return u.resize(u.single(t), T)
	case design.FnRandom, design.FnURandom:
		a := sir.Addr{Home: u.c.sp.Sys().ID, Offset: statelayout.SysRandom}
		s := b.Load(32, 4, a)
		n := b.Add(b.Mul(s, b.Const(32, 1103515245)), b.Const(32, 12345))
		b.Store(4, a, n)
		return u.resize(u.single(n), T)
	}
	u.c.fail("cannot lower %s", e.Fn)
	return u.zero(T)
}

// rotation reports whether e is {x[k-1:0], x[W-1:k]} for one pure
// expression x of width W <= 64 (a rotate right by k) and returns x and k.
func rotation(e *design.Concat) (design.Expr, int, bool) {
	if len(e.Parts) != 2 || e.T.Width > 64 {
		return nil, 0, false
	}
	hi, ok1 := e.Parts[0].(*design.Slice)
	lo, ok2 := e.Parts[1].(*design.Slice)
	if !ok1 || !ok2 || !sameExpr(hi.X, lo.X) || hi.X.Type().Width != e.T.Width {
		return nil, 0, false
	}
	hl, ok1 := design.ConstUint(hi.Lsb)
	ll, ok2 := design.ConstUint(lo.Lsb)
	k := hi.T.Width
	if !ok1 || !ok2 || hl != 0 || ll != k || k+lo.T.Width != e.T.Width || k == 0 || k == e.T.Width {
		return nil, 0, false
	}
	return hi.X, k, true
}
