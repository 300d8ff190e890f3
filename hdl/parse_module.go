package hdl

// Design units (modules, packages), module items, generate constructs,
// instantiation, functions and tasks.

// itemCtx says where an item appears; it decides which items are legal.
type itemCtx int

const (
	ctxModule   itemCtx = iota // module body
	ctxGenerate                // generate region or generate block
	ctxPackage                 // package body
	ctxUnit                    // compilation-unit scope (outside any design unit)
)

func (c itemCtx) where() string {
	switch c {
	case ctxPackage:
		return "in a package"
	case ctxUnit:
		return "outside a module"
	}
	return "in a generate block"
}

// unitStart reports whether the current token starts a new design unit,
// which ends an unterminated module or package.
func (p *parser) unitStart() bool {
	return p.isAny("module", "macromodule", "package")
}

func (p *parser) module() *Module {
	kw := p.tok
	p.next()
	if !p.accept("automatic") {
		p.accept("static")
	}
	m := &Module{At: At{kw.Pos}, Interface: kw.Text == "interface"}
	unit, endKw := "module", "endmodule"
	if m.Interface {
		unit, endKw = "interface", "endinterface"
	}
	name, _, ok := p.expectIdent("a " + unit + " name after '" + kw.Text + "'")
	m.Name = name
	if ok {
		var imps []Item
		for p.is("import") {
			start := p.i
			p.imports(&imps)
			if p.i == start {
				break
			}
		}
		for _, it := range imps {
			if im, ok := it.(*Import); ok {
				m.Imports = append(m.Imports, im)
			}
		}
		if p.is("#") {
			m.Params = p.paramPortList()
		}
		if p.is("(") {
			p.portList(m)
		}
		ok = p.expectSemi("after module header")
	}
	if !ok {
		// Skip the rest of a broken header; the body may still parse.
		for !p.atEOF() && !p.is(endKw) && !p.unitStart() {
			if p.accept(";") {
				break
			}
			p.next()
		}
		p.lastErr = max(p.lastErr, p.i)
	}
	where := unit + " '" + m.Name + "'"
	for {
		if p.atEOF() || p.unitStart() {
			p.errorf(kw.Pos, "unterminated %s '%s': expected '%s' before %s", unit, m.Name, endKw, p.tok.describe())
			return m
		}
		if p.is(endKw) {
			m.End = p.tok.Pos
			p.next()
			p.endLabel(endKw, m.Name, unit+" name")
			return m
		}
		if m.Interface && p.is("modport") {
			p.modports(&m.Items)
			continue
		}
		p.bodyItem(ctxModule, &m.Items, where)
	}
}

// modports parses `modport a (input x, output y, import f), b (...);`.
func (p *parser) modports(out *[]Item) {
	p.next()
	for !p.atEOF() {
		name, pos, ok := p.expectIdent("a modport name")
		if !ok {
			p.syncItem()
			return
		}
		mp := &Modport{At: At{pos}, Name: name}
		open := p.tok
		if !p.expect("(", "after modport '"+name+"'") {
			p.syncItem()
			return
		}
		dir, imp := DirNone, false
		for !p.atEOF() && !p.is(")") {
			t := p.tok
			switch {
			case t.Kind == TokKeyword && directions[t.Text] != DirNone:
				dir, imp = directions[t.Text], false
				p.next()
				continue
			case p.isAny("import", "export"):
				if t.Text == "export" {
					p.errorHere("modport exports are not supported yet")
				}
				dir, imp = DirNone, true
				p.next()
				continue
			case p.isAny("function", "task"):
				// An import with a prototype: only the name matters.
				p.next()
				isName := func() bool {
					return p.tok.Kind == TokIdent && (isTok(p.peek(1), "(") || isTok(p.peek(1), ",") || isTok(p.peek(1), ")"))
				}
				for !p.atEOF() && !p.is(")") && !isName() {
					p.next()
				}
				if isName() {
					mp.Ports = append(mp.Ports, &ModportPort{At: At{p.tok.Pos}, Name: p.tok.Text, Import: true})
					p.next()
					if p.is("(") {
						p.skipBalanced()
					}
				}
			case p.is("clocking"):
				p.errorHere("clocking blocks in modports are not supported yet")
				p.next()
				if p.tok.Kind == TokIdent {
					p.next()
				}
			case p.is("."):
				p.errorHere("modport expressions (.name(expr)) are not supported yet")
				p.next()
				if p.tok.Kind == TokIdent {
					p.next()
				}
				if p.is("(") {
					p.skipBalanced()
				}
			case t.Kind == TokIdent:
				if dir == DirNone && !imp {
					p.errorHere("modport '%s': '%s' needs a direction (input, output) or import before it", name, t.Text)
				}
				mp.Ports = append(mp.Ports, &ModportPort{At: At{t.Pos}, Dir: dir, Name: t.Text, Import: imp})
				p.next()
			default:
				p.errorHere("unexpected %s in modport '%s'", t.describe(), name)
				p.skipPastClose()
				*out = append(*out, mp)
				p.syncItem()
				return
			}
			if !p.accept(",") {
				break
			}
		}
		if !p.expectClose(")", open) {
			p.skipPastClose()
		}
		*out = append(*out, mp)
		if !p.accept(",") {
			break
		}
	}
	p.expectSemi("after modport")
}

func (p *parser) pkg() *Package {
	kw := p.tok
	p.next()
	if !p.accept("automatic") {
		p.accept("static")
	}
	pk := &Package{At: At{kw.Pos}}
	name, _, ok := p.expectIdent("a package name after 'package'")
	pk.Name = name
	if ok && !p.expectSemi("after package name") {
		p.syncItem()
	} else if !ok {
		p.syncItem()
	}
	where := "package '" + pk.Name + "'"
	for {
		if p.atEOF() || p.unitStart() {
			p.errorf(kw.Pos, "unterminated package '%s': expected 'endpackage' before %s", pk.Name, p.tok.describe())
			return pk
		}
		if p.is("endpackage") {
			p.next()
			p.endLabel("endpackage", pk.Name, "package name")
			return pk
		}
		p.bodyItem(ctxPackage, &pk.Items, where)
	}
}

// paramPortList parses a module header's `#( ... )`.
func (p *parser) paramPortList() []*ParamDecl {
	p.next() // #
	open := p.tok
	if !p.expect("(", "after '#' in module header") {
		return nil
	}
	var list []*ParamDecl
	if p.accept(")") {
		return list
	}
	var cur *ParamDecl
	for !p.atEOF() {
		at := At{p.tok.Pos}
		kw := ""
		if p.isAny("parameter", "localparam") {
			kw = p.tok.Text
			p.next()
		}
		isType := p.accept("type")
		var dt *DataType
		if !isType && (p.startsDataType() || p.startsImplicitType()) {
			dt = p.dataType(true)
		}
		if kw != "" || isType || dt != nil || cur == nil {
			local := kw == "localparam" || kw == "" && cur != nil && cur.Local
			cur = &ParamDecl{At: at, Local: local, Type: dt, TypeParam: isType}
			list = append(list, cur)
		}
		name, pos, ok := p.expectIdent("a parameter name")
		if !ok {
			p.skipPastClose()
			return list
		}
		d := &Declarator{At: At{pos}, Name: name}
		if cur.TypeParam {
			p.typeNames[name] = true
			var def *DataType
			if p.accept("=") {
				def = p.dataType(false)
			}
			cur.TypeDefaults = append(cur.TypeDefaults, def)
		} else {
			for p.is("[") {
				d.Unpacked = append(d.Unpacked, p.dimension())
			}
			if p.accept("=") {
				d.Init = p.expr()
			}
		}
		cur.Names = append(cur.Names, d)
		if !p.accept(",") {
			if !p.is(")") {
				p.errorHere("expected ',' or ')' after parameter '%s', found %s", name, p.tok.describe())
				p.skipPastClose()
				return list
			}
			break
		}
	}
	if !p.expectClose(")", open) {
		p.skipPastClose()
	}
	return list
}

var directions = map[string]Direction{"input": DirInput, "output": DirOutput, "inout": DirInout, "ref": DirRef}

// portList parses a module header's port list, ANSI or not.
func (p *parser) portList(m *Module) {
	open := p.tok
	p.next()
	if p.accept(")") {
		return
	}
	if p.tok.Kind == TokIdent && p.peek(1).Kind == TokOp && (p.peek(1).Text == "," || p.peek(1).Text == ")") {
		// Non-ANSI: `module m(a, b, c);` with directions in the body.
		for !p.atEOF() {
			name, pos, ok := p.expectIdent("a port name")
			if !ok {
				if p.isAny(".", "{") {
					p.errorHere("port expressions in a non-ANSI port list are not supported")
				}
				p.skipPastClose()
				return
			}
			m.Ports = append(m.Ports, &PortDecl{At: At{pos}, Names: []*Declarator{{At: At{pos}, Name: name}}})
			if !p.accept(",") {
				break
			}
		}
		if !p.expectClose(")", open) {
			p.skipPastClose()
		}
		return
	}
	m.ANSI = true
	var cur *PortDecl
	for !p.atEOF() {
		at := At{p.tok.Pos}
		dir, hasDir := directions[p.tok.Text]
		if hasDir && p.tok.Kind == TokKeyword {
			p.next()
		} else {
			hasDir = false
		}
		net := NetNone
		if k, ok := netKeywords[p.tok.Text]; ok && p.tok.Kind == TokKeyword {
			net = k
			p.next()
		}
		isVar := p.accept("var")
		var dt *DataType
		iface := ""
		switch {
		case p.tok.Kind == TokIdent && isTok(p.peek(1), ".") && p.peek(2).Kind == TokIdent && p.peek(3).Kind == TokIdent:
			iface = p.tok.Text + "." + p.peek(2).Text
			p.next()
			p.next()
			p.next()
		case p.is("interface"):
			// A generic interface port: any interface instance connects.
			p.next()
			iface = "interface"
			if p.accept(".") {
				if mp, _, ok := p.expectIdent("a modport name"); ok {
					iface += "." + mp
				}
			}
		case p.startsDataType():
			dt = p.dataType(false)
		case p.startsImplicitType():
			dt = p.dataType(true)
		}
		if hasDir || net != NetNone || isVar || dt != nil || iface != "" || cur == nil {
			pd := &PortDecl{At: at, Dir: dir, Net: net, Var: isVar, Type: dt, Interface: iface}
			if !hasDir && cur != nil {
				pd.Dir = cur.Dir
			}
			if dt == nil && iface == "" {
				pd.Type = &DataType{At: at, Kind: TypeImplicit}
			}
			m.Ports = append(m.Ports, pd)
			cur = pd
		}
		if p.is(".") {
			p.errorHere("explicit port expressions (.name(expr)) in a port list are not supported")
			p.skipPastClose()
			return
		}
		name, pos, ok := p.expectIdent("a port name")
		if !ok {
			p.skipPastClose()
			return
		}
		d := &Declarator{At: At{pos}, Name: name}
		for p.is("[") {
			d.Unpacked = append(d.Unpacked, p.dimension())
		}
		if p.accept("=") {
			d.Init = p.expr()
		}
		cur.Names = append(cur.Names, d)
		if !p.accept(",") {
			if !p.is(")") {
				p.errorHere("expected ',' or ')' after port '%s', found %s", name, p.tok.describe())
				p.skipPastClose()
				return
			}
			break
		}
	}
	if !p.expectClose(")", open) {
		p.skipPastClose()
	}
}

var alwaysKinds = map[string]AlwaysKind{
	"always": Always, "always_comb": AlwaysComb, "always_ff": AlwaysFF,
	"always_latch": AlwaysLatch, "initial": Initial, "final": Final,
}

// unsupportedBlocks maps keywords of recognised but unsupported constructs
// to the keyword that ends them.
var unsupportedBlocks = map[string]string{
	"interface": "endinterface", "class": "endclass", "program": "endprogram",
	"covergroup": "endgroup", "property": "endproperty", "sequence": "endsequence",
	"clocking": "endclocking", "checker": "endchecker", "primitive": "endprimitive",
	"config": "endconfig", "specify": "endspecify",
}

var gateKeywords = map[string]bool{
	"and": true, "or": true, "not": true, "nand": true, "nor": true, "xor": true, "xnor": true,
	"buf": true, "bufif0": true, "bufif1": true, "notif0": true, "notif1": true,
	"pullup": true, "pulldown": true, "tran": true, "tranif0": true, "tranif1": true,
	"rtran": true, "rtranif0": true, "rtranif1": true, "cmos": true, "rcmos": true,
	"nmos": true, "pmos": true, "rnmos": true, "rpmos": true,
}

// moduleOnly are items that only make sense inside a module.
var moduleOnly = map[string]bool{
	"assign": true, "always": true, "always_comb": true, "always_ff": true,
	"always_latch": true, "initial": true, "final": true, "generate": true,
	"genvar": true, "for": true, "if": true, "case": true, "begin": true, "defparam": true,
}

// item parses one module, package, generate or compilation-unit item into
// out. It always consumes at least one token.
func (p *parser) item(ctx itemCtx, out *[]Item) {
	if !p.enter() {
		p.leave()
		return
	}
	defer p.leave()
	t := p.tok
	at := At{t.Pos}
	if (ctx == ctxPackage || ctx == ctxUnit) && (t.Kind == TokKeyword && moduleOnly[t.Text] ||
		t.Kind == TokIdent && !isTok(p.peek(1), ":") && !p.looksLikeTypedName()) {
		what := "'" + t.Text + "'"
		if t.Kind == TokIdent {
			what = "module instantiation"
		}
		p.errorHere("%s is not allowed %s", what, ctx.where())
		var sink []Item
		p.item(ctxModule, &sink)
		return
	}
	switch t.Kind {
	case TokOp:
		if t.Text == ";" {
			p.next()
			return
		}
	case TokSysName:
		// An elaboration system task: `$error("...");` in a generate scope.
		x := p.primary()
		c, ok := x.(*CallExpr)
		if !ok || !p.expectSemi("after system task") {
			p.syncItem()
		}
		if ok {
			*out = append(*out, &ElabTask{At: at, Call: c})
		}
		return
	case TokIdent:
		if isTok(p.peek(1), ":") {
			label := t.Text
			p.next()
			p.next()
			switch {
			case p.is("begin"):
				*out = append(*out, p.genBlock(label))
			case p.isAny("assert", "assume", "cover", "restrict"):
				*out = append(*out, p.assertion())
			case p.isAny("for", "if", "case"):
				// A label on a generate construct names its block.
				p.item(ctx, out)
			default:
				p.errorHere("expected 'begin' or an assertion after label '%s:', found %s", label, p.tok.describe())
				p.syncItem()
			}
			return
		}
		p.identItem(out)
		return
	case TokKeyword:
		if k, ok := alwaysKinds[t.Text]; ok {
			p.next()
			*out = append(*out, &AlwaysBlock{At: at, Kind: k, Body: p.stmt()})
			return
		}
		if end, ok := unsupportedBlocks[t.Text]; ok {
			p.next()
			for p.isAny("static", "automatic", "virtual") {
				p.next()
			}
			name := ""
			if p.tok.Kind == TokIdent {
				name = p.tok.Text
			}
			p.skipToEndKeyword(t, name, end)
			if t.Text == "specify" {
				// Timing only: irrelevant to a cycle simulator.
				p.diags.Warnc(t.Pos, CodeSpecifyIgn, "specify block ignored")
				return
			}
			*out = append(*out, &Unsupported{At: at, What: t.Text, Name: name})
			return
		}
		if gateKeywords[t.Text] {
			p.skipStmt()
			*out = append(*out, &Unsupported{At: at, What: "gate primitive '" + t.Text + "'"})
			return
		}
		switch t.Text {
		case "input", "output", "inout", "ref":
			if ctx != ctxModule {
				p.errorHere("port declarations are not allowed %s", ctx.where())
			}
			if pd := p.portDecl(); pd != nil && ctx == ctxModule {
				*out = append(*out, pd)
			}
			return
		case "parameter", "localparam":
			*out = append(*out, p.paramDecl())
			return
		case "typedef":
			*out = append(*out, p.typedef())
			return
		case "import":
			p.imports(out)
			return
		case "export", "timeunit", "timeprecision", "specparam", "nettype":
			p.skipStmt()
			return
		case "genvar":
			p.next()
			g := &Genvar{At: at}
			for {
				name, _, ok := p.expectIdent("a genvar name")
				if !ok {
					p.syncItem()
					return
				}
				g.Names = append(g.Names, name)
				if !p.accept(",") {
					break
				}
			}
			if !p.expectSemi("after genvar declaration") {
				p.syncItem()
			}
			*out = append(*out, g)
			return
		case "assign":
			p.contAssign(out)
			return
		case "generate":
			*out = append(*out, p.genRegion())
			return
		case "for":
			*out = append(*out, p.genFor())
			return
		case "if":
			*out = append(*out, p.genIf())
			return
		case "case":
			*out = append(*out, p.genCase())
			return
		case "begin":
			*out = append(*out, p.genBlock(""))
			return
		case "function":
			*out = append(*out, p.function())
			return
		case "task":
			*out = append(*out, p.task())
			return
		case "assert", "assume", "cover", "restrict":
			*out = append(*out, p.assertion())
			return
		case "defparam":
			p.skipStmt()
			*out = append(*out, &Unsupported{At: at, What: "defparam"})
			return
		case "modport", "let", "alias", "bind", "extern", "pure":
			p.skipStmt()
			*out = append(*out, &Unsupported{At: at, What: t.Text})
			return
		case "virtual":
			if isTok(p.peek(1), "class") {
				p.next()
				p.item(ctx, out)
				return
			}
			p.skipStmt()
			*out = append(*out, &Unsupported{At: at, What: "virtual interface"})
			return
		case "default":
			// `default clocking ...` and `default disable iff ...;` only
			// set the clock and reset of concurrent assertions (and of `##`
			// cycle delays, which are unsupported statements), so they are
			// kept as an Assertion: ignored with the same warning, not an
			// error that would reject a design weft can simulate.
			p.next()
			if p.is("clocking") && p.clockingBlockFollows() {
				p.next()
				name := ""
				if p.tok.Kind == TokIdent {
					name = p.tok.Text
				}
				p.skipToEndKeyword(t, name, "endclocking")
			} else {
				p.skipStmt()
			}
			end := p.prev().End
			if end < t.Off {
				end = t.Off
			}
			*out = append(*out, &Assertion{At: at, Text: string(p.src.Text[t.Off:end])})
			return
		case "event":
			p.skipStmt()
			*out = append(*out, &Unsupported{At: at, What: "event"})
			return
		case "chandle":
			p.skipStmt()
			*out = append(*out, &Unsupported{At: at, What: "chandle"})
			return
		}
		if _, ok := netKeywords[t.Text]; ok || isTypeKeyword(t) || p.isAny("var", "const", "automatic", "static") {
			if d := p.varDecl(); d != nil {
				*out = append(*out, d)
			}
			return
		}
	}
	noun := "module item"
	switch ctx {
	case ctxPackage:
		noun = "package item"
	case ctxUnit:
		noun = "module, package or declaration"
	}
	p.errorHere("expected a %s, found %s", noun, t.describe())
	p.next()
	p.syncItem()
}

// clockingBlockFollows reports whether `clocking` after `default` starts a
// block (has an event before its ';') rather than naming one.
func (p *parser) clockingBlockFollows() bool {
	for j := p.i; j < len(p.toks) && j < p.i+lookaheadLimit; j++ {
		t := &p.toks[j]
		if t.Kind == TokEOF || isTok(t, ";") {
			return false
		}
		if isTok(t, "@") {
			return true
		}
	}
	return false
}

// identItem parses an item starting with an identifier: an instantiation
// or a declaration with a user-defined type.
func (p *parser) identItem(out *[]Item) {
	next := p.peek(1)
	switch {
	case isTok(next, "#"):
		*out = append(*out, p.instance())
		return
	case next.Kind == TokIdent:
		j := p.i + 2
		for isTok(&p.toks[j], "[") {
			if j = p.skipBracketsAt(j); j < 0 {
				break
			}
		}
		if j >= 0 && isTok(&p.toks[j], "(") {
			*out = append(*out, p.instance())
			return
		}
	}
	if p.looksLikeTypedName() {
		if d := p.varDecl(); d != nil {
			*out = append(*out, d)
		}
		return
	}
	if isTok(next, "(") {
		p.errorf(next.Pos, "expected an instance name after '%s', found '('", p.tok.Text)
	} else if isTok(next, "=") || isTok(next, "<=") || isTok(next, "[") || isTok(next, ".") {
		p.errorHere("expected a module item, found '%s' (an assignment outside a procedural block needs 'assign')", p.tok.Text)
	} else {
		p.errorHere("expected a module item, found '%s'", p.tok.Text)
	}
	p.next()
	p.syncItem()
}

// portDecl parses a non-ANSI port declaration in a module body.
func (p *parser) portDecl() *PortDecl {
	pd := &PortDecl{At: At{p.tok.Pos}, Dir: directions[p.tok.Text]}
	p.next()
	if k, ok := netKeywords[p.tok.Text]; ok && p.tok.Kind == TokKeyword {
		pd.Net = k
		p.next()
	}
	pd.Var = p.accept("var")
	if p.startsDataType() {
		pd.Type = p.dataType(false)
	} else {
		pd.Type = p.dataType(true)
	}
	names, ok := p.declarators()
	pd.Names = names
	if !ok || !p.expectSemi("after port declaration") {
		p.syncItem()
	}
	return pd
}

// instance parses `mod #(params) u0 (conns), u1 (conns);`.
func (p *parser) instance() Item {
	inst := &Instance{At: At{p.tok.Pos}, Module: p.tok.Text}
	p.next()
	if p.is("#") {
		inst.Params = p.paramAssigns()
	}
	for !p.atEOF() {
		name, pos, ok := p.expectIdent("an instance name")
		if !ok {
			p.syncItem()
			return inst
		}
		in := &InstanceName{At: At{pos}, Name: name}
		for p.is("[") {
			in.Unpacked = append(in.Unpacked, p.dimension())
		}
		open := p.tok
		if !p.expect("(", "after instance name '"+name+"'") {
			p.syncItem()
			return inst
		}
		in.Conns = p.portConns()
		inst.Insts = append(inst.Insts, in)
		if !p.expectClose(")", open) {
			p.syncItem()
			return inst
		}
		if !p.accept(",") {
			break
		}
	}
	if !p.expectSemi("after instance") {
		p.syncItem()
	}
	return inst
}

// startsTypeArg reports whether a parameter value is a data type: it starts
// with a type keyword that is not a cast.
func (p *parser) startsTypeArg() bool {
	return isTypeKeyword(p.tok) && !isTok(p.peek(1), "'(") && !isTok(p.peek(1), "'{")
}

// paramAssigns parses an instance's `#(8, .D(2))`, `#8` or `#W`.
func (p *parser) paramAssigns() []*ParamAssign {
	p.next() // #
	if !p.is("(") {
		at := At{p.tok.Pos}
		if p.tok.Kind == TokNumber || p.tok.Kind == TokIdent {
			return []*ParamAssign{{At: at, Value: p.primary()}}
		}
		p.errorHere("expected '(' or a value after '#', found %s", p.tok.describe())
		return nil
	}
	open := p.tok
	p.next()
	var list []*ParamAssign
	if p.accept(")") {
		return list
	}
	for !p.atEOF() {
		pa := &ParamAssign{At: At{p.tok.Pos}}
		if p.is(".") && p.peek(1).Kind == TokIdent {
			p.next()
			pa.Name = p.tok.Text
			p.next()
			inner := p.tok
			if !p.expect("(", "after '."+pa.Name+"'") {
				p.skipPastClose()
				return list
			}
			if !p.is(")") {
				if p.startsTypeArg() {
					pa.Type = p.dataType(false)
				} else {
					pa.Value = p.expr()
				}
			}
			p.expectClose(")", inner)
		} else if p.startsTypeArg() {
			pa.Type = p.dataType(false)
		} else {
			pa.Value = p.expr()
		}
		list = append(list, pa)
		if !p.accept(",") {
			break
		}
	}
	if !p.expectClose(")", open) {
		p.skipPastClose()
	}
	return list
}

// portConns parses an instance's connection list up to (not including) ')'.
func (p *parser) portConns() []*PortConn {
	if p.is(")") {
		return nil
	}
	var list []*PortConn
	for !p.atEOF() {
		c := &PortConn{At: At{p.tok.Pos}}
		switch {
		case p.accept(".*"):
			c.Wildcard = true
		case p.is(".") && p.peek(1).Kind == TokIdent:
			p.next()
			c.Name = p.tok.Text
			p.next()
			if p.is("(") {
				inner := p.tok
				p.next()
				if !p.is(")") {
					c.Expr = p.expr()
				}
				p.expectClose(")", inner)
			} else {
				c.Implicit = true
			}
		case p.is(",") || p.is(")"):
			// Unconnected positional port.
		default:
			c.Expr = p.expr()
		}
		list = append(list, c)
		if !p.accept(",") {
			break
		}
	}
	return list
}

// contAssign parses `assign [strength] [#d] a = b, c = d;`.
func (p *parser) contAssign(out *[]Item) {
	kw := p.tok
	p.next()
	if p.is("(") {
		p.skipBalanced() // drive strength
	}
	var delay Expr
	if p.is("#") {
		delay = p.delayValue()
	}
	first := true
	for !p.atEOF() {
		at := At{p.tok.Pos}
		if first {
			at = At{kw.Pos}
		}
		first = false
		lhs := p.lvalue()
		if lhs == nil {
			p.syncItem()
			return
		}
		if !p.accept("=") {
			p.errorHere("expected '=' in continuous assignment, found %s", p.tok.describe())
			p.syncItem()
			return
		}
		*out = append(*out, &ContAssign{At: at, LHS: lhs, RHS: p.expr(), Delay: delay})
		if !p.accept(",") {
			break
		}
	}
	if !p.expectSemi("after continuous assignment") {
		p.syncItem()
	}
}

// ---- generate ----

func (p *parser) genRegion() Item {
	kw := p.tok
	p.next()
	g := &GenRegion{At: At{kw.Pos}}
	for !p.is("endgenerate") {
		if p.atEOF() || p.unitStart() || p.is("endmodule") {
			p.errorf(kw.Pos, "unterminated 'generate': expected 'endgenerate' before %s", p.tok.describe())
			return g
		}
		p.bodyItem(ctxGenerate, &g.Items, "generate region")
	}
	p.next()
	return g
}

// bodyItem parses one item of a module, package, generate region or
// generate block into items. A stray end keyword is reported and skipped;
// the parser always advances, so the loops around it terminate.
func (p *parser) bodyItem(ctx itemCtx, items *[]Item, where string) {
	if p.tok.Kind == TokKeyword && endKeywords[p.tok.Text] {
		p.errorHere("unexpected '%s' in %s", p.tok.Text, where)
		p.next()
		return
	}
	start := p.i
	p.item(ctx, items)
	if p.i == start {
		p.next()
	}
}

// genBlock parses a generate block: `begin [: name] items end [: name]` or a
// single item. label is a label written before `begin`.
func (p *parser) genBlock(label string) *GenBlock {
	if !p.enter() {
		p.leave()
		return &GenBlock{At: At{p.tok.Pos}}
	}
	defer p.leave()
	if label == "" && p.tok.Kind == TokIdent && isTok(p.peek(1), ":") && isTok(p.peek(2), "begin") {
		label = p.tok.Text
		p.next()
		p.next()
	}
	b := &GenBlock{At: At{p.tok.Pos}, Label: label}
	if !p.is("begin") {
		p.item(ctxGenerate, &b.Items)
		return b
	}
	begin := p.tok
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
	for !p.is("end") {
		if p.atEOF() || p.unitStart() || p.isAny("endmodule", "endgenerate") {
			p.errorf(begin.Pos, "unterminated 'begin'%s: expected 'end' before %s", labelSuffix(b.Label), p.tok.describe())
			return b
		}
		p.bodyItem(ctxGenerate, &b.Items, "generate block")
	}
	p.next()
	p.endLabel("end", b.Label, "block name")
	return b
}

func (p *parser) genFor() Item {
	gf := &GenFor{At: At{p.tok.Pos}}
	p.next()
	open := p.tok
	if !p.expect("(", "after 'for'") {
		p.syncItem()
		return gf
	}
	ok := true
	gf.DeclaresGenvar = p.accept("genvar")
	if name, _, good := p.expectIdent("a genvar name"); good {
		gf.Var = name
	} else {
		ok = false
	}
	if ok && p.expect("=", "after the generate loop variable") {
		gf.Init = p.expr()
	} else {
		ok = false
	}
	if ok && p.expect(";", "after the generate-for initialisation") {
		gf.Cond = p.expr()
	} else {
		ok = false
	}
	if ok && p.expect(";", "after the generate-for condition") {
		p.proc++
		gf.Step = p.forStep()
		p.proc--
		ok = gf.Step != nil
	} else {
		ok = false
	}
	if !ok || !p.expectClose(")", open) {
		p.skipPastClose()
	}
	gf.Body = p.genBlock("")
	return gf
}

func (p *parser) genIf() Item {
	gi := &GenIf{At: At{p.tok.Pos}}
	p.next()
	gi.Cond = p.parenCond("if")
	gi.Then = p.genBlock("")
	if p.accept("else") {
		gi.Else = p.genBlock("")
	}
	return gi
}

func (p *parser) genCase() Item {
	kw := p.tok
	gc := &GenCase{At: At{kw.Pos}}
	p.next()
	gc.Expr = p.parenCond("case")
	for !p.is("endcase") {
		if p.atEOF() || p.unitStart() || p.tok.Kind == TokKeyword && endKeywords[p.tok.Text] {
			p.errorf(kw.Pos, "unterminated 'case': expected 'endcase' before %s", p.tok.describe())
			return gc
		}
		start := p.i
		it := &GenCaseItem{At: At{p.tok.Pos}}
		if p.accept("default") {
			p.accept(":")
		} else {
			for {
				e := p.expr()
				if e == nil {
					break
				}
				it.Exprs = append(it.Exprs, e)
				if !p.accept(",") {
					break
				}
			}
			if !p.accept(":") {
				p.errorHere("expected ':' after case item, found %s", p.tok.describe())
				p.syncItem()
				if p.i == start {
					p.next()
				}
				continue
			}
		}
		it.Body = p.genBlock("")
		gc.Items = append(gc.Items, it)
	}
	p.next()
	return gc
}

// ---- functions and tasks ----

func (p *parser) function() Item {
	kw := p.tok
	fn := &Function{At: At{kw.Pos}}
	p.next()
	if p.accept("automatic") {
		fn.Automatic = true
	} else {
		p.accept("static")
	}
	switch {
	case isTypeKeyword(p.tok) || p.startsImplicitType():
		fn.ReturnType = p.dataType(true)
	case p.tok.Kind == TokIdent && p.looksLikeTypedName():
		fn.ReturnType = p.dataType(false)
	default:
		fn.ReturnType = &DataType{At: At{p.tok.Pos}, Kind: TypeImplicit}
	}
	name, _, ok := p.expectIdent("a function name")
	fn.Name = name
	if ok && p.is("::") {
		p.errorHere("out-of-class method definitions are not supported")
		ok = false
	}
	if ok && p.is("(") {
		fn.Ports = p.tfPorts()
	}
	if !ok || !p.expectSemi("after function header") {
		p.syncStmt()
	}
	p.tfBody(kw, fn.Name, "endfunction", &fn.Ports, &fn.Decls, &fn.Body)
	return fn
}

func (p *parser) task() Item {
	kw := p.tok
	tk := &Task{At: At{kw.Pos}}
	p.next()
	if p.accept("automatic") {
		tk.Automatic = true
	} else {
		p.accept("static")
	}
	name, _, ok := p.expectIdent("a task name")
	tk.Name = name
	if ok && p.is("(") {
		tk.Ports = p.tfPorts()
	}
	if !ok || !p.expectSemi("after task header") {
		p.syncStmt()
	}
	p.tfBody(kw, tk.Name, "endtask", &tk.Ports, &tk.Decls, &tk.Body)
	return tk
}

// tfPorts parses a function or task argument list `(input logic a, b, ...)`.
// An argument without a direction takes the previous one's (input for the
// first); one without a type and direction also takes the previous type.
func (p *parser) tfPorts() []*TFPort {
	open := p.tok
	p.next()
	var list []*TFPort
	if p.accept(")") {
		return list
	}
	prevDir := DirInput
	var prevType *DataType
	for !p.atEOF() {
		at := At{p.tok.Pos}
		p.accept("const")
		dir, hasDir := directions[p.tok.Text]
		if hasDir && p.tok.Kind == TokKeyword {
			p.next()
		} else {
			hasDir = false
		}
		p.accept("var")
		var dt *DataType
		switch {
		case p.startsDataType():
			dt = p.dataType(false)
		case p.startsImplicitType():
			dt = p.dataType(true)
		}
		switch {
		case !hasDir && dt == nil:
			dir, dt = prevDir, prevType
		case !hasDir:
			dir = prevDir
		}
		if dt == nil {
			dt = &DataType{At: at, Kind: TypeImplicit}
		}
		name, _, ok := p.expectIdent("an argument name")
		if !ok {
			p.skipPastClose()
			return list
		}
		tp := &TFPort{At: at, Dir: dir, Type: dt, Name: name}
		for p.is("[") {
			tp.Unpacked = append(tp.Unpacked, p.dimension())
		}
		if p.accept("=") {
			tp.Default = p.expr()
		}
		list = append(list, tp)
		prevDir, prevType = dir, dt
		if !p.accept(",") {
			break
		}
	}
	if !p.expectClose(")", open) {
		p.skipPastClose()
	}
	return list
}

// tfBody parses a function or task body up to and including its end
// keyword: old-style argument declarations, local declarations, statements.
func (p *parser) tfBody(kw *Token, name, endKw string, ports *[]*TFPort, decls *[]Item, body *[]Stmt) {
	p.proc++
	defer func() { p.proc-- }()
	for !p.is(endKw) {
		if p.atEOF() || p.unitStart() || p.tok.Kind == TokKeyword && endKeywords[p.tok.Text] && p.tok.Text != "end" ||
			p.isAny("function", "task", "always", "always_comb", "always_ff", "initial", "assign") {
			p.errorf(kw.Pos, "unterminated %s '%s': expected '%s' before %s", kw.Text, name, endKw, p.tok.describe())
			return
		}
		start := p.i
		switch {
		case p.isAny("input", "output", "inout", "ref"):
			*ports = append(*ports, p.tfPortDecl()...)
		case len(*body) == 0 && p.startsBlockDecl():
			p.blockDecl(decls)
		default:
			if s := p.stmt(); s != nil {
				*body = append(*body, s)
			}
		}
		if p.i == start {
			p.next()
		}
	}
	p.next()
	p.endLabel(endKw, name, kw.Text+" name")
}

// tfPortDecl parses an old-style argument declaration in a subroutine body:
// `input [7:0] a, b;`.
func (p *parser) tfPortDecl() []*TFPort {
	at := At{p.tok.Pos}
	dir := directions[p.tok.Text]
	p.next()
	p.accept("var")
	var dt *DataType
	if p.startsDataType() {
		dt = p.dataType(false)
	} else {
		dt = p.dataType(true)
	}
	names, ok := p.declarators()
	var list []*TFPort
	for _, d := range names {
		list = append(list, &TFPort{At: at, Dir: dir, Type: dt, Name: d.Name, Unpacked: d.Unpacked, Default: d.Init})
	}
	if !ok || !p.expectSemi("after argument declaration") {
		p.syncStmt()
	}
	return list
}
