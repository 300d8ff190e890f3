package elab

import (
	"math/big"

	"github.com/weft-hdl/weft/design"
	"github.com/weft-hdl/weft/hdl"
)

// Lint checks made while elaborating, where the source expressions are at
// hand: WIDTHTRUNC for assignments and typed parameters. The checks that
// need the whole design (COMBLOOP, MULTIDRIVEN, INPUTWRITE) are in package
// lint.

func (x *ectx) warnc(pos hdl.Pos, code, format string, args ...any) {
	if x.quiet > 0 {
		return
	}
	x.e.warnc(pos, code, format, args...)
}

// widthCode is the code of a port connection width warning: "truncated"
// loses bits, extension does not.
func widthCode(how string) string {
	if how == "truncated" {
		return hdl.CodeWidthTrunc
	}
	return hdl.CodeWidthExpand
}

// checkTrunc warns when rhs, assigned to lhs of type lt, is wider than lt
// and bits are lost (WIDTHTRUNC). Like Verilator it counts a constant
// operand by the bits its value needs, not its declared width, so
// `cnt <= cnt + 1` and `x = 0` stay quiet while `x = y` with a wider y
// does not.
func (x *ectx) checkTrunc(lhs, rhs hdl.Expr, lt design.Type) {
	if x.quiet > 0 || x.p == nil {
		return
	}
	if _, ok := unparen(rhs).(*hdl.PatternExpr); ok {
		return
	}
	s := x.self(rhs)
	if s.fill || s.pattern || s.arr || s.t.Width <= lt.Width {
		return
	}
	need := x.needBits(rhs, s.t.Width)
	if need <= lt.Width {
		return
	}
	name := rootName(lhs)
	if name == "" {
		name = "the target"
	} else {
		name = "'" + name + "'"
	}
	if c, ok := x.e.constEvalQuiet(rhs, x.sc, x.p); ok {
		x.warnc(rhs.Position(), hdl.CodeWidthTrunc,
			"%s is %d bits wide but is assigned %s, which needs %d bits: it becomes %s; write a value that fits or widen %s",
			name, lt.Width, valueText(c), need, numText(design.Mask(c.v, lt.Width)), name)
		return
	}
	x.warnc(rhs.Position(), hdl.CodeWidthTrunc,
		"%s is %d bits wide but is assigned a %d-bit value: the upper %s lost; take the low bits explicitly (a part-select, or the size cast %d'(%s)) or widen %s",
		name, lt.Width, need, plural(need-lt.Width, "bit is", "bits are"), lt.Width, castText(rhs), name)
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return itoa(n) + " " + many
}

// castText is rhs as it goes inside a size cast in a message: a name as
// written, anything longer as "...".
func castText(rhs hdl.Expr) string {
	switch n := unparen(rhs).(type) {
	case *hdl.Ident:
		return n.Name
	case *hdl.Number:
		return n.Text
	}
	return "..."
}

// needBits is the width n's value can take, at most self: operators that
// keep their operands' width (arithmetic, bitwise, shifts, ?:) are counted
// by their operands, and constant operands by the bits their value needs
// (signed constants as two's complement). It is what the value needs
// under Verilator's rules, where `a + 1` is as wide as a.
func (x *ectx) needBits(n hdl.Expr, self int) int {
	if c, ok := x.e.constEvalQuiet(n, x.sc, x.p); ok {
		return min(self, constBits(c.v, c.t.signed, c.t.width))
	}
	w := x.self(n).t.Width
	switch n := n.(type) {
	case *hdl.ParenExpr:
		w = x.needBits(n.X, self)
	case *hdl.UnaryExpr:
		switch n.Op {
		case "-", "+", "~":
			w = x.needBits(n.X, self)
		}
	case *hdl.BinaryExpr:
		switch n.Op {
		case "+", "-", "*", "/", "%", "&", "|", "^", "^~", "~^":
			w = max(x.needBits(n.X, self), x.needBits(n.Y, self))
		case "<<", ">>", "<<<", ">>>", "**":
			w = x.needBits(n.X, self)
		}
	case *hdl.CondExpr:
		w = max(x.needBits(n.Then, self), x.needBits(n.Else, self))
	}
	return min(w, self)
}

// constBits is the number of bits v (width bits, two's complement when
// signed) needs: a negative value counts as fitting in as many bits as
// its magnitude needs plus a sign bit, so `x = -1` fills x with ones
// without a warning.
func constBits(v *big.Int, signed bool, width int) int {
	if signed && width > 0 && v.Bit(width-1) == 1 {
		neg := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), uint(width)), v) // -value
		return max(1, new(big.Int).Sub(neg, big.NewInt(1)).BitLen()+1)
	}
	return max(1, v.BitLen())
}

// checkParamTrunc warns when the value x given to a parameter of type t
// (its default or an override) does not fit in t: the parameter silently
// takes the low bits.
func (e *elab) checkParamTrunc(x hdl.Expr, sc *scope, t *ptype, what string) {
	if _, ok := unparen(x).(*hdl.PatternExpr); ok || len(t.fields) > 0 || t.width <= 0 {
		return
	}
	ex := &ectx{e: e, sc: sc, constOnly: true, quiet: 1, what: what}
	s := ex.self(x)
	if s.fill || s.pattern || s.arr || s.t.Width <= t.width {
		return
	}
	c, ok := e.constEvalQuiet(x, sc, nil)
	if !ok {
		return
	}
	need := constBits(c.v, c.t.signed, c.t.width)
	if need <= t.width {
		return
	}
	e.warnc(x.Position(), hdl.CodeWidthTrunc,
		"the %s, %s, needs %d bits but the parameter is %d bits wide: it becomes %s; give the parameter a wider type or a value that fits",
		what, valueText(c), need, t.width, numText(design.Mask(c.v, t.width)))
}

func valueText(c *cval) string {
	if c.t.signed {
		return numText(design.ToInt(c.v, c.dt()))
	}
	return numText(c.v)
}
