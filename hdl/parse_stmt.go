package hdl

// Procedural statements.

// procEndKeywords cannot continue a statement list: seeing one where a
// statement is expected means an 'end' (or similar) is missing.
var procEndKeywords = map[string]bool{
	"module": true, "macromodule": true, "package": true, "always": true,
	"always_comb": true, "always_ff": true, "always_latch": true, "initial": true,
	"final": true, "function": true, "task": true, "generate": true, "genvar": true,
	"input": true, "output": true, "inout": true, "wire": true, "interface": true,
}

// stmtListEnds reports whether the current token ends a statement list
// (the caller then checks it is the end keyword it wants).
func (p *parser) stmtListEnds() bool {
	t := p.tok
	return t.Kind == TokEOF || t.Kind == TokKeyword && (endKeywords[t.Text] || procEndKeywords[t.Text])
}

// startsBlockDecl reports whether a block item declaration starts here.
func (p *parser) startsBlockDecl() bool {
	t := p.tok
	if t.Kind == TokIdent {
		return p.looksLikeTypedName()
	}
	if t.Kind != TokKeyword {
		return false
	}
	switch t.Text {
	case "const", "var", "automatic", "static", "typedef", "localparam", "parameter", "import", "event":
		return true
	case "signed", "unsigned":
		return false
	}
	// `void'(f(x));` and `int'(x)` start expression statements.
	return isTypeKeyword(t) && !isTok(p.peek(1), "'(")
}

// blockDecl parses one declaration in a block or subroutine into out.
func (p *parser) blockDecl(out *[]Item) {
	switch {
	case p.is("typedef"):
		*out = append(*out, p.typedef())
	case p.isAny("localparam", "parameter"):
		*out = append(*out, p.paramDecl())
	case p.is("import"):
		p.imports(out)
	case p.is("event"):
		at := At{p.tok.Pos}
		p.skipStmt()
		*out = append(*out, &Unsupported{At: at, What: "event"})
	default:
		if d := p.varDecl(); d != nil {
			*out = append(*out, d)
		}
	}
}

// stmt parses one statement. It returns nil after a syntax error.
func (p *parser) stmt() Stmt {
	if !p.enter() {
		p.leave()
		return nil
	}
	defer p.leave()
	p.proc++
	defer func() { p.proc-- }()

	t := p.tok
	at := At{t.Pos}
	switch t.Kind {
	case TokOp:
		switch t.Text {
		case ";":
			p.next()
			return &NullStmt{At: at}
		case "@":
			return p.eventStmt()
		case "#":
			ds := &DelayStmt{At: at, Delay: p.delayValue()}
			ds.Body = p.stmt()
			return ds
		case "##":
			p.next()
			p.delayOperand()
			p.stmt()
			return &UnsupportedStmt{At: at, What: "cycle delay '##'"}
		case "->", "->>":
			p.skipStmt()
			return &UnsupportedStmt{At: at, What: "event trigger '" + t.Text + "'"}
		case "++", "--":
			p.next()
			lhs := p.lvalue()
			if lhs == nil {
				p.syncStmt()
				return nil
			}
			if !p.expectSemi("after '" + t.Text + "'") {
				p.syncStmt()
			}
			return &IncDecStmt{At: at, LHS: lhs, Op: t.Text}
		case "{":
			return p.assignOrCall()
		}
	case TokIdent:
		if isTok(p.peek(1), ":") {
			// Statement label: `name: begin ... end`, `name: assert ...`.
			label := t.Text
			p.next()
			p.next()
			if p.is("begin") {
				return p.block(label)
			}
			return p.stmt()
		}
		if p.looksLikeTypedName() {
			return p.declStmt()
		}
		return p.assignOrCall()
	case TokSysName:
		return p.assignOrCall()
	case TokKeyword:
		switch t.Text {
		case "begin":
			return p.block("")
		case "if":
			return p.ifStmt(at, QualNone)
		case "unique", "unique0", "priority":
			q := map[string]Qualifier{"unique": QualUnique, "unique0": QualUnique0, "priority": QualPriority}[t.Text]
			p.next()
			switch {
			case p.is("if"):
				return p.ifStmt(at, q)
			case p.isAny("case", "casez", "casex"):
				return p.caseStmt(at, q)
			}
			p.errorHere("expected 'if' or 'case' after '%s', found %s", t.Text, p.tok.describe())
			p.syncStmt()
			return nil
		case "case", "casez", "casex":
			return p.caseStmt(at, QualNone)
		case "for":
			return p.forStmt()
		case "foreach":
			return p.foreachStmt()
		case "while":
			p.next()
			ws := &WhileStmt{At: at}
			ws.Cond = p.parenCond("while")
			ws.Body = p.stmt()
			return ws
		case "do":
			p.next()
			ws := &WhileStmt{At: at, DoWhile: true}
			ws.Body = p.stmt()
			if !p.expect("while", "after the body of 'do'") {
				p.syncStmt()
				return ws
			}
			ws.Cond = p.parenCond("while")
			if !p.expectSemi("after 'do ... while (...)'") {
				p.syncStmt()
			}
			return ws
		case "repeat":
			p.next()
			rs := &RepeatStmt{At: at}
			rs.Count = p.parenCond("repeat")
			rs.Body = p.stmt()
			return rs
		case "forever":
			p.next()
			return &ForeverStmt{At: at, Body: p.stmt()}
		case "return":
			p.next()
			rs := &ReturnStmt{At: at}
			if !p.is(";") {
				rs.Value = p.expr()
			}
			if !p.expectSemi("after return") {
				p.syncStmt()
			}
			return rs
		case "break", "continue":
			p.next()
			if !p.expectSemi("after '" + t.Text + "'") {
				p.syncStmt()
			}
			if t.Text == "break" {
				return &BreakStmt{At: at}
			}
			return &ContinueStmt{At: at}
		case "fork":
			return p.forkStmt()
		case "wait":
			p.next()
			if p.is("fork") {
				p.skipStmt()
				return &UnsupportedStmt{At: at, What: "wait fork"}
			}
			ws := &WaitStmt{At: at}
			ws.Cond = p.parenCond("wait")
			ws.Body = p.stmt()
			return ws
		case "wait_order":
			p.skipStmt()
			return &UnsupportedStmt{At: at, What: "wait_order"}
		case "disable":
			p.skipStmt()
			return &UnsupportedStmt{At: at, What: "disable"}
		case "assert", "assume", "cover", "restrict":
			return p.assertion()
		case "assign", "deassign", "force", "release":
			p.skipStmt()
			return &UnsupportedStmt{At: at, What: "procedural '" + t.Text + "'"}
		case "randcase", "randsequence":
			p.next()
			end := map[string]string{"randcase": "endcase", "randsequence": "endsequence"}[t.Text]
			p.skipToEndKeyword(t, "", end)
			return &UnsupportedStmt{At: at, What: t.Text}
		case "expect":
			p.skipStmt()
			return &UnsupportedStmt{At: at, What: "expect"}
		}
		if p.startsBlockDecl() {
			return p.declStmt()
		}
		if isTypeKeyword(t) || p.isAny("signed", "unsigned", "const") {
			return p.assignOrCall() // casts: void'(f(x));
		}
	}
	p.errorHere("expected a statement, found %s", t.describe())
	p.syncStmt()
	return nil
}

// skipStmt skips an unsupported statement through its ';'.
func (p *parser) skipStmt() {
	depth := 0
	for !p.atEOF() {
		if p.tok.Kind == TokKeyword && endKeywords[p.tok.Text] {
			return
		}
		if p.tok.Kind == TokOp {
			switch p.tok.Text {
			case "(", "[", "{":
				depth++
			case ")", "]", "}":
				depth--
			case ";":
				if depth <= 0 {
					p.next()
					return
				}
			}
		}
		p.next()
	}
}

// delayOperand parses the value after '#' or '##' (used only to skip it).
func (p *parser) delayOperand() {
	if p.is("(") {
		p.skipBalanced()
	} else if p.is("[") {
		p.skipBalanced()
	} else if p.tok.Kind == TokNumber || p.tok.Kind == TokIdent {
		p.next()
	}
}

// declStmt parses a declaration among statements (after the first
// statement of a block, or in a position that is not a block's start).
func (p *parser) declStmt() Stmt {
	at := At{p.tok.Pos}
	var items []Item
	p.blockDecl(&items)
	if len(items) == 0 {
		return nil
	}
	if d, ok := items[0].(*VarDecl); ok && len(items) == 1 {
		return &DeclStmt{At: d.At, Decl: d}
	}
	p.errorf(at.Pos, "this declaration must come before the statements of its block")
	return nil
}

// parenCond parses `( expr )` after a keyword; on a missing ')' it skips to
// the matching one so the body still parses.
func (p *parser) parenCond(kw string) Expr {
	open := p.tok
	if !p.expect("(", "after '"+kw+"'") {
		// Most likely only the parentheses are missing: `if a x = 1;`.
		return p.expr()
	}
	e := p.expr()
	if !p.expectClose(")", open) {
		p.skipPastClose()
	}
	return e
}

// skipPastClose is recovery inside a parenthesised header: skip to the ')'
// that closes the group we are in (consuming it), stopping early at a
// keyword that cannot be part of the header.
func (p *parser) skipPastClose() {
	depth := 1
	for !p.atEOF() {
		t := p.tok
		if t.Kind == TokKeyword && (endKeywords[t.Text] || itemKeywords[t.Text] || t.Text == "begin") {
			break
		}
		if t.Kind == TokOp {
			switch t.Text {
			case "(", "'(":
				depth++
			case ")":
				depth--
				if depth == 0 {
					p.next()
					p.lastErr = max(p.lastErr, p.i-1)
					return
				}
			}
		}
		p.next()
	}
	p.lastErr = max(p.lastErr, p.i)
}

// lvalue parses the target of an assignment (or a task call): a name with
// selects, a concatenation, or a call. Binary operators are not consumed,
// so `<=` after it is the non-blocking assignment.
func (p *parser) lvalue() Expr {
	p.exprs++
	x := p.primary()
	if x != nil {
		x = p.postfix(x)
	}
	p.exprs--
	if p.exprs == 0 {
		x = p.checkDepth(x)
	}
	return x
}

var compoundOps = map[string]bool{
	"+=": true, "-=": true, "*=": true, "/=": true, "%=": true, "&=": true, "|=": true,
	"^=": true, "<<=": true, ">>=": true, "<<<=": true, ">>>=": true,
}

// assignOrCall parses an assignment, x++/x--, or a call statement.
func (p *parser) assignOrCall() Stmt {
	at := At{p.tok.Pos}
	lhs := p.lvalue()
	if lhs == nil {
		p.syncStmt()
		return nil
	}
	t := p.tok
	switch {
	case p.isAny("=", "<="):
		p.next()
		as := &AssignStmt{At: at, LHS: lhs, Op: t.Text, NonBlocking: t.Text == "<="}
		if p.is("#") {
			as.Delay = p.delayValue()
		} else if p.is("@") || p.is("repeat") {
			p.errorHere("intra-assignment event controls are not supported")
			p.syncStmt()
			return as
		}
		as.RHS = p.expr()
		if !p.expectSemi("after assignment") {
			p.syncStmt()
		}
		return as
	case t.Kind == TokOp && compoundOps[t.Text]:
		p.next()
		as := &AssignStmt{At: at, LHS: lhs, Op: t.Text, RHS: p.expr()}
		if !p.expectSemi("after assignment") {
			p.syncStmt()
		}
		return as
	case p.isAny("++", "--"):
		p.next()
		if !p.expectSemi("after '" + t.Text + "'") {
			p.syncStmt()
		}
		return &IncDecStmt{At: at, LHS: lhs, Op: t.Text}
	case p.is(";"):
		p.next()
		return &ExprStmt{At: at, X: asCall(lhs)}
	}
	if _, ok := lhs.(*CallExpr); ok {
		p.errorf(p.src.posAfter(p.prev().End), "expected ';' after call, found %s", t.describe())
	} else {
		p.errorHere("expected '=', '<=' or ';' after %s, found %s", exprNoun(lhs), t.describe())
	}
	p.syncStmt()
	return nil
}

// foreachStmt parses `foreach (name[.name...] [i, j]...) stmt`; the loop
// variables may also be written as separate brackets (`arr[i][j]`).
func (p *parser) foreachStmt() Stmt {
	at := At{p.tok.Pos}
	p.next()
	open := p.tok
	if !p.expect("(", "after 'foreach'") {
		p.syncStmt()
		return nil
	}
	fs := &ForeachStmt{At: at}
	name, pos, ok := p.expectIdent("an array name")
	if !ok {
		p.skipPastClose()
		p.stmt()
		return nil
	}
	fs.Array = &Ident{At: At{pos}, Name: name}
	for p.is(".") && p.peek(1).Kind == TokIdent {
		p.next()
		fs.Array = &MemberExpr{At: At{pos}, X: fs.Array, Name: p.tok.Text}
		p.next()
	}
	if !p.is("[") {
		p.errorHere("expected '[' and loop variables after the array in 'foreach', found %s", p.tok.describe())
	}
	for p.accept("[") {
		for {
			if p.tok.Kind == TokIdent {
				fs.Vars = append(fs.Vars, p.tok.Text)
				p.next()
			} else {
				fs.Vars = append(fs.Vars, "")
			}
			if !p.accept(",") {
				break
			}
		}
		if !p.expect("]", "after the loop variables of 'foreach'") {
			break
		}
	}
	if !p.expectClose(")", open) {
		p.skipPastClose()
	}
	fs.Body = p.stmt()
	return fs
}

// asCall turns a bare name used as a statement into a call without
// arguments (`t;` calls task t).
func asCall(x Expr) Expr {
	switch x := x.(type) {
	case *Ident:
		return &CallExpr{At: x.At, Name: x.Name}
	case *ScopedIdent:
		return &CallExpr{At: x.At, Package: x.Package, Name: x.Name}
	case *MemberExpr:
		return &CallExpr{At: x.At, Scope: x.X, Name: x.Name}
	}
	return x
}

func exprNoun(x Expr) string {
	switch x := x.(type) {
	case *Ident:
		return "'" + x.Name + "'"
	case *ConcatExpr:
		return "concatenation"
	}
	return "assignment target"
}

// block parses `begin [: name] decls stmts end [: name]`; label is a label
// written before `begin` ("" if none).
func (p *parser) block(label string) Stmt {
	begin := p.tok
	b := &BlockStmt{At: At{begin.Pos}, Label: label}
	p.next()
	if p.accept(":") {
		name, _, ok := p.expectIdent("a block name after 'begin :'")
		if ok {
			if label != "" && name != label {
				p.errorf(p.prev().Pos, "block name '%s' after 'begin' does not match label '%s'", name, label)
			}
			b.Label = name
		}
	}
	for p.startsBlockDecl() {
		start := p.i
		p.blockDecl(&b.Decls)
		if p.i == start {
			break
		}
	}
	for !p.is("end") && !p.stmtListEnds() {
		start := p.i
		if s := p.stmt(); s != nil {
			b.Stmts = append(b.Stmts, s)
		}
		if p.i == start {
			p.next()
		}
	}
	if !p.accept("end") {
		p.errorf(begin.Pos, "unterminated 'begin'%s: expected 'end' before %s", labelSuffix(b.Label), p.tok.describe())
		return b
	}
	p.endLabel("end", b.Label, "block name")
	return b
}

func labelSuffix(label string) string {
	if label == "" {
		return ""
	}
	return " block '" + label + "'"
}

func (p *parser) ifStmt(at At, q Qualifier) Stmt {
	p.next() // if
	is := &IfStmt{At: at, Qual: q}
	is.Cond = p.parenCond("if")
	is.Then = p.stmt()
	if p.accept("else") {
		is.Else = p.stmt()
	}
	return is
}

func (p *parser) caseStmt(at At, q Qualifier) Stmt {
	kw := p.tok
	cs := &CaseStmt{At: at, Qual: q, Kind: map[string]CaseKind{"case": Case, "casez": CaseZ, "casex": CaseX}[kw.Text]}
	p.next()
	cs.Expr = p.parenCond(kw.Text)
	if p.accept("inside") {
		cs.Inside = true
	} else if p.is("matches") {
		p.errorHere("'case ... matches' is not supported")
		p.next()
	}
	for !p.is("endcase") && !p.stmtListEnds() {
		start := p.i
		it := &CaseItem{At: At{p.tok.Pos}}
		if p.accept("default") {
			p.accept(":")
			it.Body = p.stmt()
		} else {
			ok := true
			for {
				var e Expr
				if cs.Inside {
					e = p.rangeOrExpr()
				} else {
					e = p.expr()
				}
				if e == nil {
					ok = false
					break
				}
				it.Exprs = append(it.Exprs, e)
				if !p.accept(",") {
					break
				}
			}
			if ok && !p.accept(":") {
				p.errorHere("expected ':' after case item, found %s", p.tok.describe())
				ok = false
			}
			if !ok {
				p.syncStmt()
				if p.i == start {
					p.next()
				}
				continue
			}
			it.Body = p.stmt()
		}
		cs.Items = append(cs.Items, it)
		if p.i == start {
			p.next()
		}
	}
	if !p.accept("endcase") {
		p.errorf(kw.Pos, "unterminated '%s': expected 'endcase' before %s", kw.Text, p.tok.describe())
	}
	return cs
}

func (p *parser) forStmt() Stmt {
	fs := &ForStmt{At: At{p.tok.Pos}}
	p.next()
	open := p.tok
	if !p.expect("(", "after 'for'") {
		p.syncStmt()
		return fs
	}
	ok := true
	if !p.is(";") {
		if p.is("var") || p.startsDataType() {
			var cur *VarDecl
			for ok {
				if p.is("var") || p.startsDataType() {
					cur = &VarDecl{At: At{p.tok.Pos}, Var: p.accept("var")}
					cur.Type = p.dataType(!p.startsDataType())
					fs.InitDecls = append(fs.InitDecls, cur)
				}
				name, pos, good := p.expectIdent("a loop variable name")
				if !good {
					ok = false
					break
				}
				d := &Declarator{At: At{pos}, Name: name}
				if p.expect("=", "after the loop variable") {
					d.Init = p.expr()
				} else {
					ok = false
				}
				cur.Names = append(cur.Names, d)
				if !p.accept(",") {
					break
				}
			}
		} else {
			for ok {
				s := p.forStep()
				if s == nil {
					ok = false
					break
				}
				fs.Init = append(fs.Init, s)
				if !p.accept(",") {
					break
				}
			}
		}
	}
	if ok && p.expect(";", "after the for-loop initialisation") {
		if !p.is(";") {
			fs.Cond = p.expr()
		}
		if p.expect(";", "after the for-loop condition") {
			for !p.is(")") && !p.atEOF() {
				s := p.forStep()
				if s == nil {
					ok = false
					break
				}
				fs.Step = append(fs.Step, s)
				if !p.accept(",") {
					break
				}
			}
		} else {
			ok = false
		}
	} else {
		ok = false
	}
	if !ok || !p.expectClose(")", open) {
		p.skipPastClose()
	}
	fs.Body = p.stmt()
	return fs
}

// forStep parses a for-loop initialisation or step assignment: `i = i + 1`,
// `i += 2`, `i++`, `++i`. It returns nil after an error.
func (p *parser) forStep() Stmt {
	at := At{p.tok.Pos}
	if p.isAny("++", "--") {
		op := p.tok.Text
		p.next()
		lhs := p.lvalue()
		if lhs == nil {
			return nil
		}
		return &IncDecStmt{At: at, LHS: lhs, Op: op}
	}
	lhs := p.lvalue()
	if lhs == nil {
		return nil
	}
	t := p.tok
	switch {
	case p.isAny("++", "--"):
		p.next()
		return &IncDecStmt{At: at, LHS: lhs, Op: t.Text}
	case p.is("=") || t.Kind == TokOp && compoundOps[t.Text]:
		p.next()
		return &AssignStmt{At: at, LHS: lhs, Op: t.Text, RHS: p.expr()}
	}
	p.errorHere("expected an assignment, '++' or '--' in for-loop header, found %s", t.describe())
	return nil
}

func (p *parser) eventStmt() Stmt {
	at := At{p.tok.Pos}
	es := &EventStmt{At: at}
	p.next() // @
	switch {
	case p.accept("*"):
		es.Star = true
	case p.is("(") && isTok(p.peek(1), "*") && isTok(p.peek(2), ")"):
		p.next()
		p.next()
		p.next()
		es.Star = true
	case p.is("("):
		open := p.tok
		p.next()
		es.Events = p.eventList()
		if !p.expectClose(")", open) {
			p.skipPastClose()
		}
	case p.tok.Kind == TokIdent:
		ev := &EventExpr{At: At{p.tok.Pos}}
		ev.Expr = p.lvalue()
		es.Events = []*EventExpr{ev}
	default:
		p.errorHere("expected '(', '*' or a name after '@', found %s", p.tok.describe())
		p.syncStmt()
		return nil
	}
	es.Body = p.stmt()
	return es
}

func (p *parser) eventList() []*EventExpr {
	var list []*EventExpr
	for !p.atEOF() {
		ev := &EventExpr{At: At{p.tok.Pos}}
		switch {
		case p.accept("posedge"):
			ev.Edge = EdgePos
		case p.accept("negedge"):
			ev.Edge = EdgeNeg
		case p.accept("edge"):
			ev.Edge = EdgeBoth
		}
		ev.Expr = p.expr()
		if ev.Expr == nil {
			return list
		}
		if p.accept("iff") {
			ev.Iff = p.expr()
		}
		list = append(list, ev)
		if !p.accept("or") && !p.accept(",") {
			break
		}
	}
	return list
}

func (p *parser) forkStmt() Stmt {
	kw := p.tok
	p.next()
	if p.accept(":") {
		p.expectIdent("a block name after 'fork :'")
	}
	for p.startsBlockDecl() {
		start := p.i
		var sink []Item
		p.blockDecl(&sink)
		if p.i == start {
			break
		}
	}
	for !p.isAny("join", "join_any", "join_none") && !p.stmtListEnds() {
		start := p.i
		p.stmt()
		if p.i == start {
			p.next()
		}
	}
	if !p.accept("join") && !p.accept("join_any") && !p.accept("join_none") {
		p.errorf(kw.Pos, "unterminated 'fork': expected 'join' before %s", p.tok.describe())
	} else if p.accept(":") {
		p.expectIdent("a block name")
	}
	return &UnsupportedStmt{At: At{kw.Pos}, What: "fork/join"}
}

// assertion parses an immediate, deferred or concurrent assertion (assert,
// assume, cover, restrict), as an item or a statement. The property itself
// is skipped; its action blocks are parsed so their nesting is respected.
func (p *parser) assertion() *Assertion {
	start := p.tok
	a := &Assertion{At: At{start.Pos}, Text: start.Text, Kind: start.Text}
	p.next()
	a.Immediate = true
	if p.accept("property") || p.accept("sequence") || p.accept("final") {
		a.Immediate = false
	} else if p.is("#") {
		p.next()
		p.delayOperand()
		a.Immediate = false
	}
	if !p.is("(") {
		p.errorHere("expected '(' after '%s', found %s", start.Text, p.tok.describe())
		p.syncStmt()
		a.Immediate = false
		return a
	}
	if a.Immediate {
		a.Cond = p.parenCond(start.Text)
	} else {
		p.skipBalanced()
	}
	p.proc++
	switch {
	case p.accept(";"):
	case p.accept("else"):
		a.Fail = p.stmt()
	default:
		a.Pass = p.stmt()
		if p.accept("else") {
			a.Fail = p.stmt()
		}
	}
	p.proc--
	end := p.prev().End
	if end < start.Off {
		end = start.Off
	}
	a.Text = string(p.src.Text[start.Off:end])
	return a
}
