package elab

import (
	"errors"
	"fmt"
	"math/big"
	"strings"

	"github.com/weft-hdl/weft/design"
	"github.com/weft-hdl/weft/hdl"
)

// cval is a constant value with its type. v holds two's complement bits;
// u, when not nil, marks the x and z bits (v is 0 there): a parameter may
// hold them, a width or a count may not.
type cval struct {
	v *big.Int
	u *design.Unknown
	t *ptype
	// str is set when the value came from a string literal (for file names).
	str bool
}

func zero() *big.Int           { return new(big.Int) }
func add1(v *big.Int) *big.Int { return new(big.Int).Add(v, big.NewInt(1)) }

func newCval(t *ptype, v *big.Int) *cval { return &cval{v: design.Mask(v, t.width), t: t} }

func (c *cval) dt() design.Type { return c.t.dt() }

// int returns the integer value (negative for signed values with the top bit set).
func (c *cval) int() *big.Int { return design.ToInt(c.v, c.dt()) }

// convert is assignment conversion to t: extend by c's signedness, truncate.
func (c *cval) convert(t *ptype) *cval {
	if c.u != nil {
		k := adapt(c.constExpr(), t.width).(*design.Const)
		return &cval{v: k.Val, u: k.U, t: t, str: c.str}
	}
	nc := &cval{v: design.Mask(c.int(), t.width), t: t, str: c.str}
	return nc
}

func (c *cval) constExpr() *design.Const { return &design.Const{T: c.dt(), Val: c.v, U: c.u} }

// text decodes a string-literal value (8 bits per character, leading NULs
// dropped).
func (c *cval) text() string {
	b := c.v.Bytes()
	return strings.TrimLeft(string(b), "\x00")
}

// override is a parameter value given by an instantiation (or -G).
type override struct {
	val *cval
	typ *ptype
	pos hdl.Pos
	// expr and sc are the value's expression and the scope it was written
	// in: a typed parameter evaluates it again in its type's context, so
	// that #(.P('1)) fills P's width.
	expr hdl.Expr
	sc   *scope
}

// constEval evaluates x as a constant expression in sc. what names the
// context for messages ("parameter value", "range bound").
func (e *elab) constEval(x hdl.Expr, sc *scope, what string) (*cval, bool) {
	return e.constEvalP(x, sc, nil, what)
}

func (e *elab) constEvalP(x hdl.Expr, sc *scope, p *pctx, what string) (*cval, bool) {
	return e.constEvalXZ(x, sc, p, what, false)
}

// paramEval is constEval for a parameter's value, which may hold x and z
// bits.
func (e *elab) paramEval(x hdl.Expr, sc *scope, what string) (*cval, bool) {
	return e.constEvalXZ(x, sc, nil, what, true)
}

// constEvalXZ is constEvalP; a value with x or z bits is an error unless
// allowXZ.
func (e *elab) constEvalXZ(x hdl.Expr, sc *scope, p *pctx, what string, allowXZ bool) (*cval, bool) {
	ex := &ectx{e: e, sc: sc, p: p, constOnly: p == nil, what: what}
	st := ex.self(x)
	var de design.Expr
	if st.fill {
		de = ex.conv(x, design.Type{Width: 1})
	} else {
		de = ex.conv(x, st.t)
	}
	if ex.failed {
		return nil, false
	}
	k, err := e.fold(de)
	if err != nil {
		e.constErr(x.Position(), what, err)
		return nil, false
	}
	if k.U != nil && !allowXZ {
		e.mustBeKnown(x.Position(), what, k)
		return nil, false
	}
	pt := st.pt
	if pt == nil || pt.width != de.Type().Width {
		pt = typeOf(de.Type())
	}
	_, isStr := x.(*hdl.StringLit)
	return &cval{v: k.Val, u: k.U, t: pt, str: isStr}, true
}

// mustBeKnown reports a constant with x or z bits where weft needs a
// number (a width, a count, an index, a file name).
func (e *elab) mustBeKnown(pos hdl.Pos, what string, k *design.Const) {
	e.errorf(pos, "%s is %s: it has x or z bits, and it must be a known number here", what, design.FormatBinary(k))
}

// fold evaluates an expression that should be constant. The result has x
// and z bits only when de is a constant with them: a constant function
// call that would read one is refused (design.Machine.XZ is nil here).
func (e *elab) fold(de design.Expr) (*design.Const, error) {
	if c, ok := de.(*design.Const); ok {
		return c, nil
	}
	m := design.NewMachine()
	m.MaxSteps = 1 << 20
	m.Budget = e.budget()
	m.Missing = func(h *design.Home) ([]*big.Int, error) {
		if h.Kind == design.KindStatic {
			// A constant function call starts from the declaration
			// values of the function's static variables (as Icarus does).
			in := e.staticDecl[h]
			vals := make([]*big.Int, h.Elems())
			for i := range vals {
				vals[i] = in.Elem(i)
			}
			return vals, nil
		}
		return nil, fmt.Errorf("it reads '%s'", h.Name)
	}
	v, err := m.Eval(de)
	if err == nil {
		err = writesOutside(m, design.KindStatic)
	}
	if err != nil {
		var be *design.BudgetError
		if errors.As(err, &be) {
			return nil, be
		}
		var ee *design.EvalError
		if errors.As(err, &ee) {
			return nil, errors.New(ee.Msg)
		}
		return nil, err
	}
	return &design.Const{T: de.Type(), Val: v}, nil
}

// foldNoTasks is fold for a call that may also run at run time: it fails
// when the evaluation reaches a system task, which must not be dropped.
func (e *elab) foldNoTasks(de design.Expr) (*design.Const, error) {
	m := design.NewMachine()
	m.MaxSteps = 1 << 20
	m.Budget = e.optionalBudget()
	m.Missing = func(h *design.Home) ([]*big.Int, error) {
		return nil, fmt.Errorf("it reads '%s'", h.Name)
	}
	m.SysTask = func(*design.SysTask) error { return errNotConst }
	v, err := m.Eval(de)
	if err == nil && writesOutside(m, design.KindFuncLocal) != nil {
		// Folding would drop the call's writes to module variables.
		return nil, errNotConst
	}
	if err != nil {
		return nil, err
	}
	return &design.Const{T: de.Type(), Val: v}, nil
}

// writesOutside reports the first home m wrote that is not local to the
// functions it ran (nor of kind also): a constant has no side effects.
func writesOutside(m *design.Machine, also design.HomeKind) error {
	for _, h := range m.Written {
		if h.Kind != design.KindFuncLocal && h.Kind != also {
			return fmt.Errorf("it writes '%s'", h.Name)
		}
	}
	return nil
}

// constInt evaluates x to an integer that fits in an int64.
func (e *elab) constInt(x hdl.Expr, sc *scope, what string) (int64, bool) {
	c, ok := e.constEval(x, sc, what)
	if !ok {
		return 0, false
	}
	v := c.int()
	if !v.IsInt64() || v.Int64() > 1<<40 || v.Int64() < -(1<<40) {
		e.errorf(x.Position(), "%s %s is too large", what, numText(v))
		return 0, false
	}
	return v.Int64(), true
}

// paramVal returns a value parameter's value, evaluating it on first use.
func (e *elab) paramVal(s *symbol, use hdl.Pos) *cval {
	if s.val != nil {
		return s.val
	}
	if s.kind == symEnumPending {
		s.enumResolve()
		if s.val == nil {
			return nil
		}
		return s.val
	}
	if s.evaluating {
		e.errorf(use, "parameter '%s' depends on itself", s.name)
		return nil
	}
	if s.param == nil {
		return nil
	}
	if !e.enterAt(use) {
		return nil
	}
	defer e.leave()
	s.evaluating = true
	defer func() { s.evaluating = false }()
	pd, d := s.param, s.decl
	var val *cval
	if ov := s.override; ov != nil && (ov.val != nil || ov.expr != nil) {
		val = ov.val
		if ov.val == nil && !explicitParamType(pd, d) {
			e.errorf(ov.pos, "parameter '%s' has no declared type, so an assignment pattern cannot override it; declare its type (parameter int %s [3] = ...)", s.name, s.name)
			return nil
		}
		if ov.expr != nil && explicitParamType(pd, d) {
			t := e.paramDeclType(pd, d, s.declScope)
			if t == nil {
				return nil
			}
			s.val = e.assignedConst(ov.expr, ov.sc, t, "parameter override")
			return s.val
		}
	} else if d.Init == nil {
		e.errorf(d.Pos, "parameter '%s' has no default value and is not overridden", s.name)
		return nil
	} else {
		var ok bool
		what := fmt.Sprintf("value of parameter '%s'", s.name)
		if pd.Local {
			what = fmt.Sprintf("value of localparam '%s'", s.name)
		}
		_, isPat := d.Init.(*hdl.PatternExpr)
		if isPat && pd.Type != nil || explicitParamType(pd, d) {
			// A typed parameter's value is assigned to its type: '1
			// fills the declared width, and the operands of N + 4'd1 are
			// extended to it before they are added, as for a variable.
			t := e.paramDeclType(pd, d, s.declScope)
			if t == nil {
				return nil
			}
			s.val = e.assignedConst(d.Init, s.declScope, t, what)
			return s.val
		}
		val, ok = e.paramEval(d.Init, s.declScope, what)
		if !ok {
			return nil
		}
	}
	if pd.Type != nil && pd.Type.Kind == hdl.TypeString && len(d.Unpacked) == 0 {
		// `parameter string IMPL = "generic"`: weft has no string variables,
		// but a string parameter is just its text, held like the value of an
		// untyped parameter set to a string literal (8 bits a character).
		s.val = &cval{v: val.v, t: val.t, str: true}
		return s.val
	}
	if pd.Type != nil {
		if explicitParamType(pd, d) {
			t := e.paramDeclType(pd, d, s.declScope)
			if t == nil {
				return nil
			}
			val = val.convert(t)
		} else if pd.Type.Signing != hdl.SignDefault {
			val = val.convert(vec(val.t.width, pd.Type.Signing == hdl.SignSigned))
		}
	}
	s.val = val
	return val
}

// assignedConst evaluates x, written in sc, as a constant assigned to type t.
func (e *elab) assignedConst(x hdl.Expr, sc *scope, t *ptype, what string) *cval {
	e.checkParamTrunc(x, sc, t, what)
	ex := &ectx{e: e, sc: sc, constOnly: true, what: what}
	de := ex.assignT(x, t)
	if ex.failed {
		return nil
	}
	k, err := e.fold(de)
	if err != nil {
		e.constErr(x.Position(), what, err)
		return nil
	}
	_, isStr := x.(*hdl.StringLit)
	k = adapt(k, t.width).(*design.Const)
	return &cval{v: k.Val, u: k.U, t: t, str: isStr}
}

// explicitParamType reports whether parameter d of pd declares a type
// (other than string) that its value is converted to.
func explicitParamType(pd *hdl.ParamDecl, d *hdl.Declarator) bool {
	if pd.Type == nil || pd.Type.Kind == hdl.TypeString && len(d.Unpacked) == 0 {
		return false
	}
	return pd.Type.Kind != hdl.TypeImplicit || len(pd.Type.Packed) > 0 || len(d.Unpacked) > 0
}

// paramDeclType resolves the declared type of parameter d of pd. A
// parameter declared as an unpacked array (`localparam logic [31:0] M [4] =
// '{...}`) is held as the packed array of the same dimensions with the
// declared type as its element: a constant has no storage, so M[i] selects
// element i (with the element's signedness) and a pattern fills the elements
// in the same order either way.
func (e *elab) paramDeclType(pd *hdl.ParamDecl, d *hdl.Declarator, sc *scope) *ptype {
	t := e.resolveType(pd.Type, sc)
	if t == nil || len(d.Unpacked) == 0 {
		return t
	}
	dims, ok := e.evalDims(d.Unpacked, sc)
	if !ok {
		return nil
	}
	w := prodDims(dims) * t.width
	if w > maxWidth || w <= 0 {
		e.errorf(d.Pos, "parameter '%s' is %d bits wide; the limit is %d", d.Name, w, maxWidth)
		return nil
	}
	return &ptype{width: w, dims: dims, base: t}
}

// parseParamValue parses a -G override value: a decimal (optionally
// negative), a based literal (8'hFF, 'h10, 4'sd3, 'b1010), or a string.
func parseParamValue(text string) (hdl.Expr, error) {
	s := strings.TrimSpace(text)
	pos := hdl.Pos{File: "<-G>", Line: 1, Col: 1}
	if s == "" {
		return nil, fmt.Errorf("empty value")
	}
	if strings.HasPrefix(s, "\"") && strings.HasSuffix(s, "\"") && len(s) >= 2 {
		return &hdl.StringLit{At: hdl.At{Pos: pos}, Value: s[1 : len(s)-1]}, nil
	}
	neg := false
	if strings.HasPrefix(s, "-") {
		neg = true
		s = strings.TrimSpace(s[1:])
	}
	n := &hdl.Number{At: hdl.At{Pos: pos}, Text: text, Value: new(big.Int), XZ: new(big.Int), Z: new(big.Int)}
	s = strings.ReplaceAll(s, "_", "")
	if i := strings.IndexByte(s, '\''); i >= 0 {
		if i > 0 {
			w, ok := new(big.Int).SetString(s[:i], 10)
			if !ok || !w.IsInt64() || w.Int64() <= 0 || w.Int64() > maxWidth {
				return nil, fmt.Errorf("bad size in %q", text)
			}
			n.Width = int(w.Int64())
		}
		rest := s[i+1:]
		if strings.HasPrefix(rest, "s") || strings.HasPrefix(rest, "S") {
			n.Signed = true
			rest = rest[1:]
		}
		if rest == "" {
			return nil, fmt.Errorf("bad literal %q", text)
		}
		base := strings.ToLower(rest[:1])[0]
		digits := rest[1:]
		radix := map[byte]int{'b': 2, 'o': 8, 'd': 10, 'h': 16}[base]
		if radix == 0 || digits == "" {
			return nil, fmt.Errorf("bad literal %q", text)
		}
		v, ok := new(big.Int).SetString(digits, radix)
		if !ok {
			return nil, fmt.Errorf("bad digits in %q", text)
		}
		n.Base = base
		n.Value = v
		if n.Width > 0 {
			n.Value = design.Mask(v, n.Width)
		}
	} else {
		v, ok := new(big.Int).SetString(s, 10)
		if !ok {
			return nil, fmt.Errorf("cannot parse %q (use a number such as 8, 'h10 or 32'd5, or a \"string\")", text)
		}
		n.Value = v
	}
	if neg {
		return &hdl.UnaryExpr{At: hdl.At{Pos: pos}, Op: "-", X: n}, nil
	}
	return n, nil
}
