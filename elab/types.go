package elab

import (
	"math/big"
	"strings"

	"github.com/weft-hdl/weft/design"
	"github.com/weft-hdl/weft/hdl"
)

// ptype is a resolved packed type. A packed array type has dims (outermost
// first) over a base element type; a base is a 1-bit scalar (base nil), a
// struct/union (fields), or a named type's base. Integer atom types are
// vectors with an implicit [N-1:0] dim.
type ptype struct {
	width  int
	signed bool
	dims   []design.Dim
	base   *ptype // element type of the innermost dim; nil means 1 bit
	fields []*field
	union  bool
	enum   bool
	name   string // typedef name or SV spelling for messages
	// state2 marks a 2-state type (bit, int, byte, ...): weft simulates
	// both kinds alike, but unpacked arrays of a 2-state and a 4-state
	// element type are not assignment compatible (IEEE 1800 §6.22.2).
	state2 bool
	// items are an enum's constants in declaration order.
	items []enumItem
}

// enumItem is one constant of an enum type.
type enumItem struct {
	name string
	v    *big.Int
}

type field struct {
	name   string
	typ    *ptype
	offset int // lsb offset in the struct
}

var bit1 = &ptype{width: 1, name: "logic"}

// vec returns an unsigned or signed [w-1:0] vector type.
func vec(w int, signed bool) *ptype {
	if w == 1 && !signed {
		return bit1
	}
	return &ptype{width: w, signed: signed, dims: []design.Dim{{Left: w - 1, Right: 0}}}
}

// typeOf returns the vector type of a design type.
func typeOf(t design.Type) *ptype { return vec(t.Width, t.Signed) }

func (t *ptype) dt() design.Type { return design.Type{Width: t.width, Signed: t.signed} }

// elemWidth is the width of one element of the outermost dim.
func (t *ptype) elemWidth() int {
	if len(t.dims) == 0 {
		return t.width
	}
	return t.width / t.dims[0].Size()
}

// elem returns the type of one element of the outermost packed dim.
func (t *ptype) elem() *ptype {
	if len(t.dims) == 0 {
		return nil
	}
	if len(t.dims) == 1 {
		if t.base == nil {
			return bit1
		}
		return t.base
	}
	return &ptype{width: t.width / t.dims[0].Size(), dims: t.dims[1:], base: t.base}
}

// selectable reports whether bits of t can be selected with [i] / [a:b]:
// vectors, and (as a flat vector) structs and enums.
func (t *ptype) asVector() *ptype {
	if len(t.dims) > 0 {
		return t
	}
	return &ptype{width: t.width, signed: t.signed, dims: []design.Dim{{Left: t.width - 1, Right: 0}}}
}

func (t *ptype) isStruct() bool { return t != nil && len(t.dims) == 0 && t.fields != nil }

func (t *ptype) String() string {
	if t == nil {
		return "?"
	}
	if t.name != "" && len(t.dims) == 0 {
		return t.name
	}
	var b strings.Builder
	if t.base != nil {
		b.WriteString(t.base.String())
	} else {
		b.WriteString("logic")
	}
	if t.signed {
		b.WriteString(" signed")
	}
	if len(t.dims) > 0 {
		b.WriteString(" ")
	}
	for _, d := range t.dims {
		b.WriteString(d.String())
	}
	return b.String()
}

func prodDims(ds []design.Dim) int {
	n := 1
	for _, d := range ds {
		n *= d.Size()
	}
	return n
}

// maxWidth bounds any packed width (bits) and array size (elements).
const (
	maxWidth = 1 << 24
	maxElems = 1 << 28
)

// resolveType turns a written data type into a ptype in scope sc. implicitNet
// says a missing base means a 1-bit logic (always true today). It returns
// nil after reporting an error.
func (e *elab) resolveType(dt *hdl.DataType, sc *scope) *ptype {
	if dt == nil {
		return bit1
	}
	var base *ptype
	signed := dt.Signing == hdl.SignSigned
	intAtom := func(w int, s bool, name string) *ptype {
		if dt.Signing == hdl.SignUnsigned {
			s = false
		} else if dt.Signing == hdl.SignSigned {
			s = true
		}
		if len(dt.Packed) > 0 {
			e.errorf(dt.Pos, "packed dimensions are not allowed on '%s'", name)
			return nil
		}
		return &ptype{width: w, signed: s, dims: []design.Dim{{Left: w - 1, Right: 0}}, name: name, state2: name != "integer" && name != "time"}
	}
	switch dt.Kind {
	case hdl.TypeImplicit, hdl.TypeLogic, hdl.TypeReg, hdl.TypeBit:
		base = nil
	case hdl.TypeInteger:
		return intAtom(32, true, "integer")
	case hdl.TypeInt:
		return intAtom(32, true, "int")
	case hdl.TypeByte:
		return intAtom(8, true, "byte")
	case hdl.TypeShortint:
		return intAtom(16, true, "shortint")
	case hdl.TypeLongint:
		return intAtom(64, true, "longint")
	case hdl.TypeTime:
		return intAtom(64, false, "time")
	case hdl.TypeReal:
		e.errorf(dt.Pos, "real types are not supported yet")
		return nil
	case hdl.TypeString:
		e.errorf(dt.Pos, "the string type is not supported yet")
		return nil
	case hdl.TypeVoid:
		e.errorf(dt.Pos, "void is only allowed as a function return type")
		return nil
	case hdl.TypeNamed:
		t := e.lookupType(dt, sc)
		if t == nil {
			return nil
		}
		if dt.Signing != hdl.SignDefault {
			cp := *t
			cp.signed = dt.Signing == hdl.SignSigned
			t = &cp
		}
		if len(dt.Packed) == 0 {
			return t
		}
		// A packed array is signed only when declared so; its elements keep
		// the named type's signedness (IEEE 1800-2017 §7.4.1).
		base = t
		signed = dt.Signing == hdl.SignSigned
		if len(t.dims) > 0 && !t.isStruct() && !t.enum && !t.signed {
			// typedef logic [7:0] byte_t; byte_t [3:0] w → [3:0][7:0]
			dims, ok := e.evalDims(dt.Packed, sc)
			if !ok {
				return nil
			}
			all := append(dims, t.dims...)
			w := prodDims(all)
			if t.base != nil {
				w *= t.base.width
			}
			if w > maxWidth {
				e.errorf(dt.Pos, "type is %d bits wide; the limit is %d", w, maxWidth)
				return nil
			}
			return &ptype{width: w, signed: signed, dims: all, base: t.base, state2: t.state2}
		}
	case hdl.TypeEnum:
		t := e.resolveEnum(dt, sc)
		if t == nil || len(dt.Packed) == 0 {
			return t
		}
		base = t
	case hdl.TypeStruct, hdl.TypeUnion:
		t := e.resolveStruct(dt, sc)
		if t == nil || len(dt.Packed) == 0 {
			return t
		}
		base = t
		signed = dt.Signing == hdl.SignSigned
	case hdl.TypeTypeRef:
		x := &ectx{e: e, sc: sc, quiet: 0}
		st := x.self(dt.TypeRef)
		if len(dt.Packed) > 0 {
			e.errorf(dt.Pos, "packed dimensions on type() are not supported")
		}
		if st.pt != nil {
			return st.pt
		}
		return vec(st.t.Width, st.t.Signed)
	default:
		e.errorf(dt.Pos, "unsupported data type")
		return nil
	}
	dims, ok := e.evalDims(dt.Packed, sc)
	if !ok {
		return nil
	}
	bw := 1
	if base != nil {
		bw = base.width
	}
	w := prodDims(dims) * bw
	if w > maxWidth || w <= 0 {
		e.errorf(dt.Pos, "type is %d bits wide; the limit is %d", w, maxWidth)
		return nil
	}
	state2 := dt.Kind == hdl.TypeBit
	if base != nil {
		state2 = base.state2
	}
	if len(dims) == 0 {
		if signed || state2 {
			return &ptype{width: 1, signed: signed, state2: state2}
		}
		return bit1
	}
	return &ptype{width: w, signed: signed, dims: dims, base: base, state2: state2}
}

// evalDims evaluates packed or unpacked ranges ([l:r] or [size]).
func (e *elab) evalDims(rs []*hdl.Range, sc *scope) ([]design.Dim, bool) {
	var out []design.Dim
	for _, r := range rs {
		if r.Unsized {
			e.errorf(r.Pos, "dynamic arrays and queues are not supported yet")
			return nil, false
		}
		if r.Size != nil {
			n, ok := e.constInt(r.Size, sc, "array size")
			if !ok {
				return nil, false
			}
			if n <= 0 {
				e.errorf(r.Size.Position(), "array size must be positive, got %d", n)
				return nil, false
			}
			out = append(out, design.Dim{Left: 0, Right: int(n) - 1})
			continue
		}
		l, ok1 := e.constInt(r.Left, sc, "range bound")
		rr, ok2 := e.constInt(r.Right, sc, "range bound")
		if !ok1 || !ok2 {
			return nil, false
		}
		if l > 1<<30 || l < -(1<<30) || rr > 1<<30 || rr < -(1<<30) {
			e.errorf(r.Pos, "range [%d:%d] is too large", l, rr)
			return nil, false
		}
		d := design.Dim{Left: int(l), Right: int(rr)}
		if d.Size() > maxWidth {
			e.errorf(r.Pos, "range [%d:%d] is too large", l, rr)
			return nil, false
		}
		out = append(out, d)
	}
	return out, true
}

func (e *elab) resolveEnum(dt *hdl.DataType, sc *scope) *ptype {
	et := dt.Enum
	var base *ptype
	if et.Base == nil {
		base = vec(32, true)
		base.state2 = true // int
	} else {
		base = e.resolveType(et.Base, sc)
		if base == nil {
			return nil
		}
	}
	t := *base
	t.enum = true
	t.name = ""
	// Enumerator values: consecutive from 0 or the last explicit value.
	prev := (*cval)(nil)
	for _, it := range et.Items {
		var v *cval
		if it.Value != nil {
			c, ok := e.constEval(it.Value, sc, "enum value")
			if !ok {
				return nil
			}
			v = c.convert(base)
		} else if prev == nil {
			v = newCval(base, zero())
		} else {
			v = newCval(base, design.Mask(add1(prev.v), base.width))
		}
		prev = v
		t.items = append(t.items, enumItem{name: it.Name, v: v.v})
		cv := &cval{v: v.v, t: &t}
		if s := sc.syms[it.Name]; s != nil && s.enumItem == it {
			s.val = cv
			s.kind = symParam
		} else if s == nil {
			sc.syms[it.Name] = &symbol{kind: symParam, name: it.Name, pos: it.Pos, val: cv}
		}
	}
	return &t
}

func (e *elab) resolveStruct(dt *hdl.DataType, sc *scope) *ptype {
	st := dt.Struct
	if !st.Packed {
		what := "struct"
		if st.Union {
			what = "union"
		}
		e.errorf(dt.Pos, "unpacked %ss are not supported yet (declare it '%s packed')", what, what)
		return nil
	}
	var fields []*field
	for _, m := range st.Members {
		mt := e.resolveType(m.Type, sc)
		if mt == nil {
			return nil
		}
		for _, d := range m.Names {
			if len(d.Unpacked) > 0 {
				e.errorf(d.Pos, "unpacked dimensions are not allowed in a packed struct member")
				return nil
			}
			fields = append(fields, &field{name: d.Name, typ: mt})
		}
	}
	t := &ptype{fields: fields, union: st.Union, signed: dt.Signing == hdl.SignSigned, name: "struct", state2: true}
	for _, f := range fields {
		t.state2 = t.state2 && f.typ.state2
	}
	if st.Union {
		t.name = "union"
		for _, f := range fields {
			if t.width != 0 && f.typ.width != t.width {
				e.errorf(dt.Pos, "members of a packed union must have the same width ('%s' is %d bits, expected %d)", f.name, f.typ.width, t.width)
				return nil
			}
			t.width = max(t.width, f.typ.width)
		}
	} else {
		off := 0
		for i := len(fields) - 1; i >= 0; i-- {
			fields[i].offset = off
			off += fields[i].typ.width
		}
		t.width = off
	}
	if t.width == 0 {
		e.errorf(dt.Pos, "empty struct")
		return nil
	}
	return t
}

func (e *elab) lookupType(dt *hdl.DataType, sc *scope) *ptype {
	var s *symbol
	if dt.Package != "" {
		ps := e.pkgScope(dt.Package, dt.Pos)
		if ps == nil {
			return nil
		}
		s = ps.local(dt.Name)
		if s == nil {
			e.errorf(dt.Pos, "unknown type '%s::%s'", dt.Package, dt.Name)
			return nil
		}
	} else {
		s = sc.lookup(dt.Name)
		if s == nil {
			e.errorf(dt.Pos, "unknown type '%s'%s", dt.Name, sc.suggest(dt.Name))
			return nil
		}
	}
	if s.kind != symType {
		e.errorf(dt.Pos, "'%s' is not a type", dt.Name)
		return nil
	}
	return e.symType(s)
}

// symType resolves a typedef or type parameter symbol (lazily).
func (e *elab) symType(s *symbol) *ptype {
	if s.typ != nil {
		return s.typ
	}
	if s.resolving {
		e.errorf(s.pos, "type '%s' refers to itself", s.name)
		return nil
	}
	if s.typedef == nil && s.typeParam == nil {
		if s.param != nil && s.typ == nil {
			e.errorf(s.pos, "type parameter '%s' has no default type and is not overridden", s.name)
		}
		return nil
	}
	if !e.enterAt(s.pos) {
		return nil
	}
	defer e.leave()
	s.resolving = true
	defer func() { s.resolving = false }()
	if s.typedef == nil {
		t := e.resolveType(s.typeParam, s.declScope)
		s.typ = t
		return t
	}
	t := e.resolveType(s.typedef.Type, s.declScope)
	if t == nil {
		return nil
	}
	if len(s.typedef.Unpacked) > 0 {
		e.errorf(s.typedef.Pos, "unpacked typedefs are not supported yet")
		return nil
	}
	if len(t.dims) == 0 || t.isStruct() || t.enum {
		cp := *t
		cp.name = s.name
		t = &cp
	}
	s.typ = t
	return t
}

func typeSV(t *ptype) string {
	if t == nil {
		return "?"
	}
	return t.String()
}
