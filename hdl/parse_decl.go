package hdl

// Data types and declarations: nets, variables, parameters, typedefs,
// imports.

var dataTypeKeywords = map[string]TypeKind{
	"logic": TypeLogic, "reg": TypeReg, "bit": TypeBit, "integer": TypeInteger,
	"int": TypeInt, "byte": TypeByte, "shortint": TypeShortint, "longint": TypeLongint,
	"time": TypeTime, "real": TypeReal, "shortreal": TypeReal, "realtime": TypeReal,
	"string": TypeString, "void": TypeVoid,
}

var netKeywords = map[string]NetKind{
	"wire": NetWire, "tri": NetTri, "supply0": NetSupply0, "supply1": NetSupply1,
	"wand": NetWand, "wor": NetWor, "uwire": NetUwire, "tri0": NetTri, "tri1": NetTri,
	"triand": NetWand, "trior": NetWor, "trireg": NetTri,
}

// isTypeKeyword reports whether t starts a data type by keyword alone.
func isTypeKeyword(t *Token) bool {
	if t.Kind != TokKeyword {
		return false
	}
	if _, ok := dataTypeKeywords[t.Text]; ok {
		return true
	}
	switch t.Text {
	case "enum", "struct", "union", "type":
		return true
	}
	return false
}

// lookaheadLimit bounds how far a lookahead scans for a closing bracket, so
// pathological input cannot make parsing quadratic.
const lookaheadLimit = 4096

// skipBracketsAt returns the index after the balanced `[...]` starting at j,
// or -1 if it is not closed within lookaheadLimit tokens.
func (p *parser) skipBracketsAt(j int) int {
	depth := 0
	for k := j; k < len(p.toks) && k < j+lookaheadLimit; k++ {
		t := &p.toks[k]
		if t.Kind == TokEOF {
			return -1
		}
		if t.Kind != TokOp {
			continue
		}
		switch t.Text {
		case "[", "(", "{", "'{", "'(":
			depth++
		case "]", ")", "}":
			depth--
			if depth == 0 {
				return k + 1
			}
		case ";":
			return -1
		}
	}
	return -1
}

// typedNameAt reports whether the tokens at j are a type name followed by a
// declared name: `t x`, `p::t x`, `t [3:0] x`. This is how a declaration
// with a user-defined type is told apart from an assignment or a call
// without a symbol table.
func (p *parser) typedNameAt(j int) bool {
	if p.toks[j].Kind != TokIdent {
		return false
	}
	j++
	if isTok(&p.toks[j], "::") && p.toks[j+1].Kind == TokIdent {
		j += 2
	}
	for isTok(&p.toks[j], "[") {
		if j = p.skipBracketsAt(j); j < 0 {
			return false
		}
	}
	return p.toks[j].Kind == TokIdent
}

func (p *parser) looksLikeTypedName() bool { return p.typedNameAt(p.i) }

// startsDataType reports whether the current token starts an explicit data
// type (keyword or user-defined type followed by a name).
func (p *parser) startsDataType() bool {
	return isTypeKeyword(p.tok) || p.tok.Kind == TokIdent && p.looksLikeTypedName()
}

// startsImplicitType reports whether the current token starts an implicit
// data type: a signing keyword or a packed dimension.
func (p *parser) startsImplicitType() bool {
	return p.isAny("signed", "unsigned", "[")
}

func (p *parser) signing(dt *DataType) {
	if p.accept("signed") {
		dt.Signing = SignSigned
	} else if p.accept("unsigned") {
		dt.Signing = SignUnsigned
	}
}

func (p *parser) packedDims(dt *DataType) {
	for p.is("[") && !p.atEOF() {
		dt.Packed = append(dt.Packed, p.dimension())
	}
}

// dataType parses a data type. With implicitOK, a missing type keyword
// yields TypeImplicit (with any signing and packed dimensions written).
func (p *parser) dataType(implicitOK bool) *DataType {
	dt := &DataType{At: At{p.tok.Pos}}
	t := p.tok
	if t.Kind == TokKeyword {
		if k, ok := dataTypeKeywords[t.Text]; ok {
			dt.Kind = k
			p.next()
			p.signing(dt)
			p.packedDims(dt)
			return dt
		}
		switch t.Text {
		case "enum":
			p.enumType(dt)
			p.packedDims(dt)
			return dt
		case "struct", "union":
			p.structType(dt)
			p.packedDims(dt)
			return dt
		case "type":
			p.next()
			dt.Kind = TypeTypeRef
			open := p.tok
			if p.expect("(", "after 'type'") {
				if p.startsDataType() || p.startsImplicitType() {
					dt.TypeRef = &TypeExpr{At: At{p.tok.Pos}, Type: p.dataType(true)}
				} else {
					dt.TypeRef = p.expr()
				}
				p.expectClose(")", open)
			}
			return dt
		}
	}
	if t.Kind == TokIdent && (!implicitOK || p.looksLikeTypedName()) {
		dt.Kind = TypeNamed
		dt.Name = t.Text
		p.next()
		if p.is("::") && p.peek(1).Kind == TokIdent {
			p.next()
			dt.Package, dt.Name = dt.Name, p.tok.Text
			p.next()
		}
		p.packedDims(dt)
		return dt
	}
	if !implicitOK {
		p.errorHere("expected a data type, found %s", t.describe())
		return dt
	}
	dt.Kind = TypeImplicit
	p.signing(dt)
	p.packedDims(dt)
	return dt
}

// dimension parses `[l:r]`, `[n]`, `[]`, `[$]`, `[*]`, `[$:n]`, `[type]`.
func (p *parser) dimension() *Range {
	open := p.tok
	r := &Range{At: At{open.Pos}}
	p.next()
	switch {
	case p.is("]"):
		r.Unsized = true
		p.next()
		return r
	case p.isAny("$", "*") && isTok(p.peek(1), "]"):
		r.Unsized = true
		p.next()
		p.next()
		return r
	case p.is("$") || isTypeKeyword(p.tok):
		// Queues with a bound and associative arrays: recorded as unsized so
		// elaboration can reject them; their contents are not needed.
		r.Unsized = true
		for !p.atEOF() && !p.is("]") && !p.is(";") {
			p.next()
		}
		p.expectClose("]", open)
		return r
	}
	left := p.expr()
	if p.accept(":") {
		r.Left, r.Right = left, p.expr()
	} else {
		r.Size = left
	}
	p.expectClose("]", open)
	return r
}

func (p *parser) enumType(dt *DataType) {
	dt.Kind = TypeEnum
	dt.Enum = &EnumType{}
	p.next() // enum
	if !p.is("{") {
		// The base is a type keyword or a type name (a typedef'd vector:
		// `enum action_mask_t {...}`), never an implicit type.
		dt.Enum.Base = p.dataType(p.tok.Kind != TokIdent)
	}
	open := p.tok
	if !p.expect("{", "to start the enum items") {
		return
	}
	for !p.atEOF() && !p.is("}") {
		name, pos, ok := p.expectIdent("an enum item name")
		if !ok {
			break
		}
		it := &EnumItem{At: At{pos}, Name: name}
		if p.is("[") {
			p.errorHere("enum item ranges (%s[N]) are not supported", name)
			p.skipBalanced()
		}
		if p.accept("=") {
			it.Value = p.expr()
		}
		dt.Enum.Items = append(dt.Enum.Items, it)
		if !p.accept(",") {
			break
		}
	}
	p.expectClose("}", open)
}

func (p *parser) structType(dt *DataType) {
	dt.Kind = TypeStruct
	if p.is("union") {
		dt.Kind = TypeUnion
	}
	st := &StructType{Union: dt.Kind == TypeUnion}
	dt.Struct = st
	p.next()
	if p.is("tagged") {
		p.errorHere("tagged unions are not supported")
		p.next()
	}
	if p.accept("packed") {
		st.Packed = true
		p.signing(dt)
	}
	open := p.tok
	if !p.expect("{", "to start the "+map[bool]string{false: "struct", true: "union"}[st.Union]+" members") {
		return
	}
	for !p.atEOF() && !p.is("}") {
		if p.tok.Kind == TokKeyword && endKeywords[p.tok.Text] || p.unitStart() {
			break // a missing '}': reported below
		}
		start := p.i
		p.accept("rand")
		p.accept("randc")
		m := &StructMember{At: At{p.tok.Pos}}
		if !p.startsDataType() && p.tok.Kind != TokIdent {
			p.errorHere("expected a member declaration, found %s", p.tok.describe())
			p.syncMember()
		} else {
			m.Type = p.dataType(false)
			names, ok := p.declarators()
			m.Names = names
			st.Members = append(st.Members, m)
			if !ok || !p.expectSemi("after struct member") {
				p.syncMember()
			}
		}
		if p.i == start {
			p.next()
		}
	}
	p.expectClose("}", open)
}

// syncMember skips to the next ';' inside a struct body, stopping at '}'.
func (p *parser) syncMember() {
	for !p.atEOF() && !p.is("}") {
		if p.accept(";") {
			break
		}
		if p.tok.Kind == TokKeyword && endKeywords[p.tok.Text] {
			break
		}
		p.next()
	}
	p.lastErr = max(p.lastErr, p.i)
}

// declarators parses `name [dims] [= init] {, ...}`. ok is false after a
// syntax error (the caller recovers).
func (p *parser) declarators() ([]*Declarator, bool) {
	var list []*Declarator
	for {
		name, pos, ok := p.expectIdent("a name to declare")
		if !ok {
			return list, false
		}
		d := &Declarator{At: At{pos}, Name: name}
		for p.is("[") {
			d.Unpacked = append(d.Unpacked, p.dimension())
		}
		if p.accept("=") {
			d.Init = p.expr()
		}
		list = append(list, d)
		if !p.accept(",") {
			return list, true
		}
	}
}

// skipDelay skips a `#delay` (after a net keyword, `assign`, or in an
// intra-assignment position) and returns it as an expression.
func (p *parser) delayValue() Expr {
	hash := p.tok
	p.next() // #
	switch {
	case p.is("("):
		open := p.tok
		p.next()
		e := p.expr()
		// min:typ:max delays keep the typical value.
		if p.accept(":") {
			e = p.expr()
			if p.expect(":", "in min:typ:max delay") {
				p.expr()
			}
		}
		p.expectClose(")", open)
		return e
	case p.tok.Kind == TokNumber:
		return p.primary()
	case p.tok.Kind == TokIdent:
		e := Expr(&Ident{At: At{p.tok.Pos}, Name: p.tok.Text})
		p.next()
		if p.is("::") && p.peek(1).Kind == TokIdent {
			p.next()
			e = &ScopedIdent{At: e.(*Ident).At, Package: e.(*Ident).Name, Name: p.tok.Text}
			p.next()
		}
		return e
	}
	p.errorf(hash.Pos, "expected a delay value after '#', found %s", p.tok.describe())
	return nil
}

// varDecl parses a net or variable declaration through its ';'. It returns
// nil after a syntax error (recovery done).
func (p *parser) varDecl() *VarDecl {
	d := &VarDecl{At: At{p.tok.Pos}}
	for {
		switch {
		case p.accept("const"):
			d.Const = true
			continue
		case p.accept("var"):
			d.Var = true
			continue
		case p.accept("automatic"):
			d.Automatic = true
			continue
		case p.accept("static"):
			d.Static = true
			continue
		}
		break
	}
	if k, ok := netKeywords[p.tok.Text]; ok && p.tok.Kind == TokKeyword {
		d.Net = k
		p.next()
		if p.is("(") {
			p.skipBalanced() // drive or charge strength
		}
		p.accept("vectored")
		p.accept("scalared")
		if p.startsDataType() {
			d.Type = p.dataType(false)
		} else {
			d.Type = p.dataType(true)
		}
		if p.is("#") {
			p.delayValue() // net delays do not matter to a 2-state cycle simulator
		}
	} else if d.Var || d.Const || d.Automatic || d.Static {
		d.Type = p.dataType(!p.startsDataType())
	} else {
		d.Type = p.dataType(false)
	}
	names, ok := p.declarators()
	d.Names = names
	if !ok || !p.expectSemi("after declaration") {
		p.recover()
		if len(names) == 0 {
			return nil
		}
	}
	return d
}

// paramDecl parses a body `parameter`/`localparam` declaration through ';'.
func (p *parser) paramDecl() *ParamDecl {
	pd := &ParamDecl{At: At{p.tok.Pos}, Local: p.is("localparam")}
	p.next()
	if p.accept("type") {
		pd.TypeParam = true
		for {
			name, pos, ok := p.expectIdent("a type parameter name")
			if !ok {
				p.recover()
				return pd
			}
			p.typeNames[name] = true
			pd.Names = append(pd.Names, &Declarator{At: At{pos}, Name: name})
			var def *DataType
			if p.accept("=") {
				def = p.dataType(false)
			}
			pd.TypeDefaults = append(pd.TypeDefaults, def)
			if !p.accept(",") {
				break
			}
		}
	} else {
		if p.startsDataType() || p.startsImplicitType() {
			pd.Type = p.dataType(true)
		}
		names, ok := p.declarators()
		pd.Names = names
		if !ok {
			p.recover()
			return pd
		}
	}
	if !p.expectSemi("after parameter declaration") {
		p.recover()
	}
	return pd
}

// typedef parses `typedef type name [dims];` and forward typedefs.
func (p *parser) typedef() Item {
	td := &Typedef{At: At{p.tok.Pos}}
	p.next()
	// Forward declarations: `typedef name;`, `typedef enum name;`, ...
	if p.tok.Kind == TokIdent && isTok(p.peek(1), ";") {
		td.Name = p.tok.Text
	} else if p.isAny("enum", "struct", "union", "class") && p.peek(1).Kind == TokIdent && isTok(p.peek(2), ";") {
		p.next()
		td.Name = p.tok.Text
	} else if p.is("interface") && isTok(p.peek(1), "class") {
		p.skipStmt()
		return &Unsupported{At: td.At, What: "interface class typedef"}
	}
	if td.Name != "" {
		p.typeNames[td.Name] = true
		p.next()
		p.next() // ;
		return td
	}
	td.Type = p.dataType(false)
	if p.is(".") {
		// `typedef bus_if.data_t t;`: a type from an interface port.
		p.recover()
		return &Unsupported{At: td.At, What: "interface-based typedef"}
	}
	name, _, ok := p.expectIdent("a name for the typedef")
	if !ok {
		p.recover()
		return td
	}
	td.Name = name
	p.typeNames[name] = true
	for p.is("[") {
		td.Unpacked = append(td.Unpacked, p.dimension())
	}
	if !p.expectSemi("after typedef") {
		p.recover()
	}
	return td
}

// imports parses `import p::*, q::name;` (one Import per item), or a DPI
// import, which is recorded as Unsupported.
func (p *parser) imports(out *[]Item) {
	kw := p.tok
	p.next()
	if p.tok.Kind == TokString {
		// import "DPI-C" function ...;
		p.skipStmt()
		*out = append(*out, &Unsupported{At: At{kw.Pos}, What: "DPI import"})
		return
	}
	for {
		pkg, pos, ok := p.expectIdent("a package name after 'import'")
		if !ok {
			p.recover()
			return
		}
		if !p.expect("::", "after the package name in import") {
			p.recover()
			return
		}
		im := &Import{At: At{pos}, Package: pkg}
		if p.accept("*") {
			im.Name = "*"
		} else {
			name, _, ok := p.expectIdent("a name or '*' after '::'")
			if !ok {
				p.recover()
				return
			}
			im.Name = name
		}
		*out = append(*out, im)
		if !p.accept(",") {
			break
		}
	}
	if !p.expectSemi("after import") {
		p.recover()
	}
}
