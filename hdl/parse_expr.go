package hdl

// Expressions, by precedence climbing over IEEE 1800-2017 Table 11-2
// (lowest first):
//
//	-> <->                         right
//	?:                             right
//	||                             left
//	&&                             left
//	|                              left
//	^ ~^ ^~                        left
//	&                              left
//	== != === !== ==? !=?          left
//	< <= > >= inside               left
//	<< >> <<< >>>                  left
//	+ -                            left
//	* / %                          left
//	**                             left (see powRightAssoc)
//	unary + - ! ~ & ~& | ~| ^ ~^ ^~
//	() [] :: . '(

// powRightAssoc selects the associativity of `**`. IEEE 1800-2017 Table 11-2
// and Verilator (`%left yP_POW`) make it left-associative, so `2**3**2` is
// 64; weft follows them because it is tested against Verilator.
const powRightAssoc = false

func binaryPrec(op string) int {
	switch op {
	case "||":
		return 3
	case "&&":
		return 4
	case "|":
		return 5
	case "^", "~^", "^~":
		return 6
	case "&":
		return 7
	case "==", "!=", "===", "!==", "==?", "!=?":
		return 8
	case "<", "<=", ">", ">=":
		return 9
	case "<<", ">>", "<<<", ">>>":
		return 10
	case "+", "-":
		return 11
	case "*", "/", "%":
		return 12
	case "**":
		return 13
	}
	return 0
}

const insidePrec = 9

// expr parses an expression. It returns nil (after reporting) when no
// expression starts at the current token; it then consumes nothing.
func (p *parser) expr() Expr {
	p.exprs++
	x := p.expr1()
	p.exprs--
	if p.exprs == 0 {
		x = p.checkDepth(x)
	}
	return x
}

func (p *parser) expr1() Expr {
	if !p.enter() {
		p.leave()
		return nil
	}
	defer p.leave()
	x := p.condExpr()
	if p.isAny("->", "<->") && x != nil {
		op := p.tok.Text
		p.next()
		return &BinaryExpr{At: At{x.Position()}, Op: op, X: x, Y: p.expr1()}
	}
	return x
}

// checkDepth bounds a whole expression, once it is read, to MaxExprDepth
// levels: the parser builds chains (selects, operator runs it cannot
// balance, conditional chains) in loops, so its own recursion bound does
// not bound the tree.
func (p *parser) checkDepth(x Expr) Expr {
	if x == nil || !deepExpr(x, MaxExprDepth) {
		return x
	}
	p.errorf(x.Position(), "expression nested more than %d levels deep; split it with intermediate signals", MaxExprDepth)
	return nil
}

// condExpr reads `c ? a : b`. A chain `c1 ? a : c2 ? b : ...` nests to
// the right; it is read in a loop so that its length is bounded by
// MaxExprDepth rather than by the parser's recursion limit.
func (p *parser) condExpr() Expr {
	c := p.binary(3)
	if !p.is("?") || c == nil {
		return c
	}
	var root, last *CondExpr
	for {
		q := p.tok
		p.next()
		ce := &CondExpr{At: At{c.Position()}, Cond: c}
		if last == nil {
			root = ce
		} else {
			last.Else = ce
		}
		last = ce
		ce.Then = p.expr()
		if !p.accept(":") {
			p.errorHere("expected ':' in conditional expression ('?' at %s), found %s", p.shortPos(q.Pos), p.tok.describe())
			return root
		}
		c = p.binary(3)
		if c == nil || !p.is("?") {
			ce.Else = c
			return root
		}
	}
}

func (p *parser) binary(minPrec int) Expr {
	x := p.unary()
	if x == nil {
		return nil
	}
	var run opRun
	for {
		op := p.tok
		if op.Kind == TokKeyword && op.Text == "inside" && insidePrec >= minPrec {
			x = p.insideExpr(run.flush(x))
			continue
		}
		if op.Kind == TokKeyword && op.Text == "dist" {
			p.errorHere("'dist' is only allowed in constraints, which are not supported")
			return run.flush(x)
		}
		if op.Kind != TokOp {
			return run.flush(x)
		}
		prec := binaryPrec(op.Text)
		if prec == 0 || prec < minPrec {
			return run.flush(x)
		}
		p.next()
		next := prec + 1
		if op.Text == "**" && powRightAssoc {
			next = prec
		}
		if !p.enter() {
			p.leave()
			return run.flush(x)
		}
		y := p.binary(next)
		p.leave()
		if y == nil {
			return run.flush(x)
		}
		switch {
		case run.extends(op.Text):
			run.push(op.Text, y)
		case runFamily(op.Text) != "":
			x = run.flush(x)
			run.push(op.Text, y)
		default:
			x = run.flush(x)
			x = &BinaryExpr{At: At{x.Position()}, Op: op.Text, X: x, Y: y}
		}
	}
}

func (p *parser) unary() Expr {
	if p.tok.Kind == TokOp {
		switch p.tok.Text {
		case "+", "-", "!", "~", "&", "~&", "|", "~|", "^", "~^", "^~":
			op := p.tok
			p.next()
			if !p.enter() {
				p.leave()
				return nil
			}
			x := p.unary()
			p.leave()
			if x == nil {
				return nil
			}
			return &UnaryExpr{At: At{op.Pos}, Op: op.Text, X: x}
		case "++", "--":
			p.errorHere("'%s' inside an expression is not supported; use it as a statement", p.tok.Text)
			p.next()
			return p.unary()
		}
	}
	x := p.primary()
	if x == nil {
		return nil
	}
	return p.postfix(x)
}

// postfix parses selects and member accesses after a primary.
func (p *parser) postfix(x Expr) Expr {
	for {
		switch {
		case p.is("["):
			x = p.selectExpr(x)
		case p.is(".") && p.peek(1).Kind == TokIdent:
			p.next()
			name := p.tok.Text
			p.next()
			if p.is("(") {
				// A function of an interface instance or port: bus.f(a).
				c := &CallExpr{At: At{x.Position()}, Scope: x, Name: name}
				p.callArgs(c)
				return c
			}
			x = &MemberExpr{At: At{x.Position()}, X: x, Name: name}
		default:
			return x
		}
	}
}

func (p *parser) selectExpr(x Expr) Expr {
	open := p.tok
	p.next()
	at := At{x.Position()}
	var res Expr
	idx := p.expr()
	switch {
	case p.accept(":"):
		res = &RangeExpr{At: at, X: x, Kind: SelConst, Left: idx, Right: p.expr()}
	case p.accept("+:"):
		res = &RangeExpr{At: at, X: x, Kind: SelPlus, Left: idx, Right: p.expr()}
	case p.accept("-:"):
		res = &RangeExpr{At: at, X: x, Kind: SelMinus, Left: idx, Right: p.expr()}
	default:
		res = &IndexExpr{At: at, X: x, Index: idx}
	}
	p.expectClose("]", open)
	return res
}

// castTarget makes the CastExpr for `name'(...)` or `name'{...}`: a known
// type name (typedef or type parameter seen earlier) becomes a type cast,
// anything else a size cast; elaboration must still accept a Width that
// names a type, because a typedef may be declared after its use.
func (p *parser) castTarget(at At, pkg, name string, e Expr) *CastExpr {
	if p.typeNames[name] {
		return &CastExpr{At: at, Type: &DataType{At: at, Kind: TypeNamed, Package: pkg, Name: name}}
	}
	return &CastExpr{At: at, Width: e}
}

// castOperand parses the `'(x)` or `'{...}` after a cast target.
func (p *parser) castOperand(c *CastExpr) Expr {
	if p.is("'{") {
		c.X = p.pattern()
		return c
	}
	open := p.tok
	p.next() // '(
	c.X = p.expr()
	p.expectClose(")", open)
	return c
}

func (p *parser) primary() Expr {
	t := p.tok
	at := At{t.Pos}
	switch t.Kind {
	case TokNumber:
		// Each token becomes at most one node, so the lexer's Number is
		// used as the node itself.
		n := t.Num
		n.At = at
		p.next()
		if p.is("'(") && n.Base == 0 && !n.Real && n.Fill == 0 {
			return p.castOperand(&CastExpr{At: at, Width: n})
		}
		return n
	case TokString:
		p.next()
		return &StringLit{At: at, Value: t.Str}
	case TokIdent:
		p.next()
		pkg, name := "", t.Text
		var e Expr = &Ident{At: at, Name: name}
		if p.is("::") {
			p.next()
			if p.tok.Kind != TokIdent {
				p.errorHere("expected a name after '%s::', found %s", name, p.tok.describe())
				return e
			}
			pkg, name = name, p.tok.Text
			e = &ScopedIdent{At: at, Package: pkg, Name: name}
			p.next()
		}
		switch {
		case p.is("("):
			c := &CallExpr{At: at, Package: pkg, Name: name}
			p.callArgs(c)
			if p.is("'(") {
				// A constant function call as a cast size: f(W)'(x).
				return p.castOperand(&CastExpr{At: at, Width: c})
			}
			return c
		case p.is("'(") || p.is("'{"):
			return p.castOperand(p.castTarget(at, pkg, name, e))
		case p.is("#") && isTok(p.peek(1), "("):
			p.errorHere("parameterized class scopes are not supported")
			p.next()
			p.skipBalanced()
		}
		return e
	case TokSysName:
		p.next()
		if t.Text == "$unit" && p.is("::") && p.peek(1).Kind == TokIdent {
			p.next()
			e := &ScopedIdent{At: at, Package: "$unit", Name: p.tok.Text}
			p.next()
			return e
		}
		if t.Text == "$root" {
			return &Ident{At: at, Name: t.Text}
		}
		c := &CallExpr{At: at, Name: t.Text, System: true}
		if p.is("(") {
			p.callArgs(c)
		}
		if p.is("'(") {
			// A size cast whose size is a system function: $bits(a)'(x).
			return p.castOperand(&CastExpr{At: at, Width: c})
		}
		return c
	case TokKeyword:
		switch t.Text {
		case "signed", "unsigned":
			if isTok(p.peek(1), "'(") {
				p.next()
				c := &CastExpr{At: at, Signing: SignSigned}
				if t.Text == "unsigned" {
					c.Signing = SignUnsigned
				}
				return p.castOperand(c)
			}
		case "const":
			if isTok(p.peek(1), "'(") {
				p.next()
				open := p.tok
				p.next()
				x := p.expr()
				p.expectClose(")", open)
				return x
			}
		case "null", "this", "super", "new":
			p.errorHere("'%s' is not supported (classes are not supported)", t.Text)
			p.next()
			return nil
		}
		if isTypeKeyword(t) {
			dt := p.dataType(false)
			if p.is("'(") || p.is("'{") {
				return p.castOperand(&CastExpr{At: at, Type: dt})
			}
			p.errorf(t.Pos, "expected expression, found type '%s' (a type is only allowed as a cast '%s'(x) or a system function argument)", t.Text, t.Text)
			return nil
		}
	case TokOp:
		switch t.Text {
		case "(":
			p.next()
			x := p.expr()
			if p.is(":") {
				// min:typ:max: keep the typical value, as simulators do.
				p.next()
				x = p.expr()
				if p.expect(":", "in min:typ:max expression") {
					p.expr()
				}
			}
			p.expectClose(")", t)
			if x != nil && p.is("'(") {
				return p.castOperand(&CastExpr{At: at, Width: x})
			}
			return x
		case "{":
			return p.concat()
		case "'{":
			return p.pattern()
		case "$":
			// `[lo:$]` in an inside set or a queue bound.
			p.next()
			return &Ident{At: at, Name: "$"}
		}
	}
	p.errorHere("expected expression, found %s", t.describe())
	return nil
}

// callArgs parses `(a, b, .name(c))` into c. An empty argument (as in
// `$display(a,,b)`) is recorded as nil.
func (p *parser) callArgs(c *CallExpr) {
	open := p.tok
	p.next()
	if p.accept(")") {
		return
	}
	for !p.atEOF() {
		switch {
		case p.is(",") || p.is(")"):
			c.Args = append(c.Args, nil)
		case p.is(".") && p.peek(1).Kind == TokIdent && isTok(p.peek(2), "("):
			p.next()
			name := p.tok.Text
			p.next()
			inner := p.tok
			p.next()
			var e Expr
			if !p.is(")") {
				e = p.expr()
			}
			p.expectClose(")", inner)
			if c.NamedArgs == nil {
				c.NamedArgs = map[string]Expr{}
			}
			c.NamedArgs[name] = e
		case isTypeKeyword(p.tok) && !isTok(p.peek(1), "'(") && !isTok(p.peek(1), "'{"):
			at := At{p.tok.Pos}
			c.Args = append(c.Args, &TypeExpr{At: at, Type: p.dataType(false)})
		default:
			c.Args = append(c.Args, p.expr())
		}
		if !p.accept(",") {
			break
		}
	}
	p.expectClose(")", open)
}

// concat parses `{a, b}`, `{n{a, b}}` and streaming `{<< 8 {x}}`.
func (p *parser) concat() Expr {
	open := p.tok
	at := At{open.Pos}
	p.next()
	if p.isAny("<<", ">>") {
		s := &StreamExpr{At: at, Left: p.is("<<")}
		p.next()
		if !p.is("{") {
			if isTypeKeyword(p.tok) {
				s.Slice = &TypeExpr{At: At{p.tok.Pos}, Type: p.dataType(false)}
			} else {
				s.Slice = p.expr()
			}
		}
		inner := p.tok
		if p.expect("{", "after the streaming operator") {
			s.Items = p.exprList()
			p.expectClose("}", inner)
		}
		p.expectClose("}", open)
		return s
	}
	if p.is("}") {
		p.errorHere("empty concatenation '{}' is not supported")
		p.next()
		return &ConcatExpr{At: at}
	}
	first := p.expr()
	if p.is("{") {
		inner := p.tok
		p.next()
		r := &ReplicateExpr{At: at, Count: first, Items: p.exprList()}
		p.expectClose("}", inner)
		p.expectClose("}", open)
		return r
	}
	c := &ConcatExpr{At: at, Items: []Expr{first}}
	for p.accept(",") {
		c.Items = append(c.Items, p.expr())
	}
	p.expectClose("}", open)
	return c
}

func (p *parser) exprList() []Expr {
	list := []Expr{p.expr()}
	for p.accept(",") {
		list = append(list, p.expr())
	}
	return list
}

// pattern parses an assignment pattern after `'{`.
func (p *parser) pattern() Expr {
	open := p.tok
	pe := &PatternExpr{At: At{open.Pos}}
	p.next()
	if p.is("}") {
		p.errorHere("empty assignment pattern '{}")
		p.next()
		return pe
	}
	for !p.atEOF() {
		switch {
		case p.is("default") && isTok(p.peek(1), ":"):
			p.next()
			p.next()
			pe.Default = p.expr()
		case isTypeKeyword(p.tok) && isTok(p.peek(1), ":"):
			key := &TypeExpr{At: At{p.tok.Pos}, Type: p.dataType(false)}
			p.next() // :
			pe.Keys = append(pe.Keys, key)
			pe.Items = append(pe.Items, p.expr())
		default:
			e := p.expr()
			if p.is("{") && len(pe.Items) == 0 && pe.Repeat == nil && pe.Default == nil {
				inner := p.tok
				p.next()
				pe.Repeat = e
				for _, it := range p.exprList() {
					pe.Keys = append(pe.Keys, nil)
					pe.Items = append(pe.Items, it)
				}
				p.expectClose("}", inner)
			} else if p.accept(":") {
				pe.Keys = append(pe.Keys, e)
				pe.Items = append(pe.Items, p.expr())
			} else {
				pe.Keys = append(pe.Keys, nil)
				pe.Items = append(pe.Items, e)
			}
		}
		if !p.accept(",") {
			break
		}
	}
	p.expectClose("}", open)
	return pe
}

// insideExpr parses `x inside {a, [lo:hi]}` after x.
func (p *parser) insideExpr(x Expr) Expr {
	ie := &InsideExpr{At: At{x.Position()}, X: x}
	p.next() // inside
	open := p.tok
	if !p.expect("{", "after 'inside'") {
		return ie
	}
	for !p.atEOF() {
		ie.Set = append(ie.Set, p.rangeOrExpr())
		if !p.accept(",") {
			break
		}
	}
	p.expectClose("}", open)
	return ie
}

// rangeOrExpr parses an item of an inside set or case-inside label: an
// expression or a value range `[lo:hi]` (a RangeExpr with X nil).
func (p *parser) rangeOrExpr() Expr {
	if !p.is("[") {
		return p.expr()
	}
	open := p.tok
	p.next()
	r := &RangeExpr{At: At{open.Pos}, Kind: SelConst}
	r.Left = p.expr()
	if p.expect(":", "in value range") {
		r.Right = p.expr()
	}
	p.expectClose("]", open)
	return r
}
