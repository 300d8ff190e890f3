package hdl

import "fmt"

// The parser is a hand-written recursive-descent parser over the token
// slice Lex produces. Design rules:
//
//   - Every syntax error is reported at the offending token, except a missing
//     terminating ';', which is reported just after the previous token (where
//     the ';' belongs), as most compilers do. Messages name the construct
//     being parsed ("expected ';' after declaration, found 'endmodule'").
//   - After an error the parser resynchronises (at ';', at an 'end...'
//     keyword, or at a keyword that starts a new item or statement) and goes
//     on, so one file reports several independent errors. An error is only
//     reported if the parser consumed a token since the previous error, which
//     keeps one typo from cascading.
//   - Every loop consumes a token or stops, and nesting depth is bounded
//     (maxNesting), so no input can hang the parser or exhaust the stack.
//     Expression trees, which loops also build (operator runs, selects,
//     conditional chains), are bounded by MaxExprDepth for the passes
//     after the parser.
//   - The tree is partial on errors: a failed expression is nil.

// maxNesting bounds the nesting of expressions, statements and generate
// blocks. Real designs nest a few dozen levels; the bound only exists so a
// pathological input is an error instead of a deep recursion.
const maxNesting = 500

// Parse lexes and parses a preprocessed source. It never returns nil; on
// errors (reported to diags) the tree holds what could be parsed.
func Parse(src *Source, diags *Diagnostics) *SourceText {
	toks := Lex(src, diags)
	p := &parser{src: src, diags: diags, toks: toks, lastErr: -1, typeNames: map[string]bool{}}
	p.tok = &p.toks[0]
	return p.sourceText()
}

type parser struct {
	src   *Source
	diags *Diagnostics
	toks  []Token
	i     int    // index of the current token
	tok   *Token // &toks[i]
	// lastErr is the token index at which the last error was reported or
	// at which the last recovery stopped; errors at or before it are
	// suppressed as likely consequences of that error.
	lastErr int
	depth   int
	// exprs counts the expressions being read, so that the outermost one
	// is checked against MaxExprDepth when it is complete.
	exprs int
	// typeNames collects typedef names and type parameters seen so far. It
	// is only used to tell a type cast `T'(x)` from a size cast `W'(x)`.
	typeNames map[string]bool
	// proc > 0 while parsing procedural code, where recovery also stops at
	// statement keywords.
	proc int
}

// ---- token helpers ----

func (p *parser) next() {
	if p.i < len(p.toks)-1 {
		p.i++
		p.tok = &p.toks[p.i]
	}
}

func (p *parser) peek(n int) *Token {
	if p.i+n < len(p.toks) {
		return &p.toks[p.i+n]
	}
	return &p.toks[len(p.toks)-1]
}

func (p *parser) prev() *Token {
	if p.i > 0 {
		return &p.toks[p.i-1]
	}
	return &p.toks[0]
}

// isTok reports whether t is the keyword or operator s.
func isTok(t *Token, s string) bool {
	return (t.Kind == TokOp || t.Kind == TokKeyword) && t.Text == s
}

func (p *parser) is(s string) bool { return isTok(p.tok, s) }

func (p *parser) isAny(ss ...string) bool {
	if p.tok.Kind != TokOp && p.tok.Kind != TokKeyword {
		return false
	}
	for _, s := range ss {
		if p.tok.Text == s {
			return true
		}
	}
	return false
}

func (p *parser) accept(s string) bool {
	if p.is(s) {
		p.next()
		return true
	}
	return false
}

func (p *parser) atEOF() bool { return p.tok.Kind == TokEOF }

// ---- diagnostics ----

func (p *parser) errorf(pos Pos, format string, args ...any) {
	if p.i <= p.lastErr || p.tok.Bad || p.prev().Bad {
		return
	}
	p.lastErr = p.i
	p.diags.Errorf(pos, format, args...)
	if p.diags.TooMany() {
		p.abandon()
	}
}

// errorHere reports an error at the current token.
func (p *parser) errorHere(format string, args ...any) {
	p.errorf(p.tok.Pos, format, args...)
}

// abandon stops parsing: the rest of the input is skipped and no further
// errors are reported.
func (p *parser) abandon() {
	p.i = len(p.toks) - 1
	p.tok = &p.toks[p.i]
	p.lastErr = len(p.toks)
}

// expect consumes the keyword or operator s, or reports
// "expected 's' <where>, found X" at the current token.
func (p *parser) expect(s, where string) bool {
	if p.accept(s) {
		return true
	}
	p.errorHere("expected '%s' %s, found %s", s, where, p.tok.describe())
	return false
}

// expectSemi consumes a ';' that ends something, or reports its absence just
// after the previous token.
func (p *parser) expectSemi(where string) bool {
	if p.accept(";") {
		return true
	}
	p.errorf(p.src.posAfter(p.prev().End), "expected ';' %s, found %s", where, p.tok.describe())
	return false
}

// expectClose consumes the closing bracket matching the one at open, or
// reports "missing ')' to close '(' at 12:7".
func (p *parser) expectClose(closer string, open *Token) bool {
	if p.accept(closer) {
		return true
	}
	p.errorHere("missing '%s' to close '%s' at %s, found %s", closer, open.Text, p.shortPos(open.Pos), p.tok.describe())
	return false
}

// shortPos prints line:col, with the file only when it differs from the
// current token's, so messages stay short.
func (p *parser) shortPos(pos Pos) string {
	if pos.File == p.tok.Pos.File {
		return fmt.Sprintf("%d:%d", pos.Line, pos.Col)
	}
	return pos.String()
}

// expectIdent consumes an identifier and returns its name, or reports
// "expected <what>, found X" and returns "".
func (p *parser) expectIdent(what string) (string, Pos, bool) {
	if p.tok.Kind == TokIdent {
		name, pos := p.tok.Text, p.tok.Pos
		p.next()
		return name, pos, true
	}
	if p.tok.Kind == TokKeyword {
		p.errorHere("expected %s, found keyword '%s' (keywords cannot be used as names)", what, p.tok.Text)
	} else {
		p.errorHere("expected %s, found %s", what, p.tok.describe())
	}
	return "", p.tok.Pos, false
}

// enter guards recursion; callers `defer p.leave()` right after.
func (p *parser) enter() bool {
	p.depth++
	if p.depth > maxNesting {
		if p.lastErr < len(p.toks) {
			p.errorHere("nesting too deep (more than %d levels); giving up on this file", maxNesting)
			p.abandon()
		}
		return false
	}
	return true
}

func (p *parser) leave() { p.depth-- }

// ---- recovery ----

// Keywords that end a construct: recovery never skips past one.
var endKeywords = map[string]bool{
	"end": true, "endcase": true, "endfunction": true, "endtask": true, "endmodule": true,
	"endgenerate": true, "endpackage": true, "endinterface": true, "endprogram": true,
	"endclass": true, "join": true, "join_any": true, "join_none": true,
	"endproperty": true, "endsequence": true, "endclocking": true, "endgroup": true,
	"endspecify": true, "endchecker": true, "endprimitive": true, "endconfig": true,
}

// Keywords that start a module item; item recovery stops before them.
var itemKeywords = map[string]bool{
	"module": true, "macromodule": true, "package": true, "input": true, "output": true, "inout": true, "parameter": true,
	"localparam": true, "typedef": true, "import": true, "genvar": true, "assign": true,
	"always": true, "always_comb": true, "always_ff": true, "always_latch": true,
	"initial": true, "final": true, "generate": true, "function": true, "task": true,
	"wire": true, "reg": true, "logic": true, "bit": true, "integer": true, "int": true,
	"defparam": true, "tri": true, "supply0": true, "supply1": true, "uwire": true,
	"wand": true, "wor": true, "var": true,
}

// Keywords that start a statement; statement recovery stops before them.
var stmtKeywords = map[string]bool{
	"begin": true, "if": true, "case": true, "casez": true, "casex": true, "for": true,
	"while": true, "do": true, "repeat": true, "forever": true, "unique": true,
	"unique0": true, "priority": true, "return": true, "break": true, "continue": true,
	"fork": true, "else": true,
}

// syncItem skips to the end of a broken module item: past the next ';' at
// bracket depth 0, or up to (not past) an end keyword or a keyword that
// starts an item.
func (p *parser) syncItem() { p.sync(itemKeywords, nil) }

// syncStmt is syncItem for statements: it also stops at statement keywords.
func (p *parser) syncStmt() { p.sync(itemKeywords, stmtKeywords) }

// recover resynchronises after an error in a construct that appears both
// as an item and as a statement (declarations).
func (p *parser) recover() {
	if p.proc > 0 {
		p.syncStmt()
	} else {
		p.syncItem()
	}
}

func (p *parser) sync(a, b map[string]bool) {
	depth := 0
	for !p.atEOF() {
		t := p.tok
		if t.Kind == TokKeyword && (endKeywords[t.Text] || a[t.Text] || b[t.Text]) {
			break
		}
		if t.Kind == TokOp {
			switch t.Text {
			case "(", "[", "{", "'{", "'(":
				depth++
			case ")", "]", "}":
				if depth > 0 {
					depth--
				}
			case ";":
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

// skipBalanced skips a parenthesised group starting at the current '(' (or
// '[' / '{'), used for constructs weft does not parse (property bodies,
// drive strengths). It reports an unclosed group.
func (p *parser) skipBalanced() {
	open := p.tok
	depth := 0
	for !p.atEOF() {
		if p.tok.Kind == TokOp {
			switch p.tok.Text {
			case "(", "[", "{", "'{", "'(":
				depth++
			case ")", "]", "}":
				depth--
			}
		}
		p.next()
		if depth <= 0 {
			return
		}
	}
	p.errorf(open.Pos, "unclosed '%s'", open.Text)
}

// skipToEndKeyword skips a recognised but unsupported construct up to and
// including its end keyword (and an optional `: label`). It gives up (and
// reports the construct as unterminated) at a keyword that starts a new
// design unit.
func (p *parser) skipToEndKeyword(start *Token, name, endKw string) {
	for !p.atEOF() {
		if p.is(endKw) {
			p.next()
			if name != "" {
				p.endLabel(endKw, name, "")
			} else if p.is(":") && p.peek(1).Kind == TokIdent {
				p.next()
				p.next()
			}
			return
		}
		if p.tok != start && p.isAny("module", "macromodule", "package", "endmodule", "endpackage") {
			break
		}
		p.next()
	}
	what := start.Text
	if name != "" {
		what += " '" + name + "'"
	}
	p.errorf(start.Pos, "unterminated %s: expected '%s' before %s", what, endKw, p.tok.describe())
}

// endLabel parses an optional `: label` after an end keyword and checks it
// against the construct's name. kind names the construct for the message
// ("module name", "block label"); "" means use "name".
func (p *parser) endLabel(endKw, name, kind string) {
	if !p.is(":") {
		return
	}
	p.next()
	if p.tok.Kind != TokIdent {
		p.errorHere("expected a label after '%s :', found %s", endKw, p.tok.describe())
		return
	}
	label, pos := p.tok.Text, p.tok.Pos
	p.next()
	if kind == "" {
		kind = "name"
	}
	if name == "" {
		p.errorf(pos, "'%s' label '%s' given, but the %s has no label", endKw, label, kindNoun(endKw))
		return
	}
	if label != name {
		p.errorf(pos, "'%s' label '%s' does not match %s '%s'", endKw, label, kind, name)
	}
}

func kindNoun(endKw string) string {
	if endKw == "end" {
		return "block"
	}
	return "construct"
}

// ---- source text ----

func (p *parser) sourceText() *SourceText {
	st := &SourceText{Timescales: p.src.Timescales, Inputs: p.src.Inputs}
	for !p.atEOF() {
		start := p.i
		switch {
		case p.isAny("module", "macromodule") || p.is("interface") && !isTok(p.peek(1), "class"):
			if m := p.module(); m != nil {
				st.Modules = append(st.Modules, m)
			}
		case p.is("package"):
			if pk := p.pkg(); pk != nil {
				st.Packages = append(st.Packages, pk)
			}
		case p.tok.Kind == TokKeyword && endKeywords[p.tok.Text]:
			p.errorHere("'%s' without a matching start", p.tok.Text)
			p.next()
		default:
			p.item(ctxUnit, &st.Items)
		}
		if p.i == start {
			// Defensive: item() always consumes, but never loop forever.
			p.errorHere("unexpected %s", p.tok.describe())
			p.next()
		}
	}
	return st
}
