package hdl

import (
	"fmt"
	"math"
	"math/big"
	"math/bits"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// MaxTokenBytes bounds the length of one token: an identifier, a number
// literal or a string literal. No design holds a token anywhere near it; a
// longer one is generated junk, and representing it (a big.Int of millions
// of digits, a decoded string, a name every later stage copies) would cost
// far more than the source. It is fixed: a wider constant is written with a
// replication or concatenation, a longer string as a concatenation.
const MaxTokenBytes = 1 << 20

// MaxLineBytes bounds the length of one line of (preprocessed) source.
// The tokens of a line cost up to a hundred times its length, so a line of
// tens of megabytes, which no design or generator writes (a sum of a million
// terms is a 4 MB line), could take gigabytes; a longer line is reported and
// skipped before any of its tokens is made. It is fixed: break the line.
const MaxLineBytes = 8 << 20

// maxTokenBytes and maxLineBytes are MaxTokenBytes and MaxLineBytes,
// variables so that tests can lower them.
var (
	maxTokenBytes = MaxTokenBytes
	maxLineBytes  = MaxLineBytes
)

// Lex splits preprocessed source into tokens. Comments, whitespace and
// attribute instances `(* ... *)` are dropped. The result always ends with a
// TokEOF token. Problems (bad literals, stray characters, unterminated
// strings or comments) are reported to diags at the offending character and
// lexing continues; a malformed literal still yields a TokNumber (value 0) so
// the parser does not report a second error for the same mistake.
func Lex(src *Source, diags *Diagnostics) []Token {
	lx := &lexer{src: src, text: string(src.Text), diags: diags, longAt: math.MaxInt}
	// RTL averages 3 to 5 bytes per token; dense generated code nears 2.
	// Regrowing a slice of 100-byte tokens dominated lexing time, so
	// allocate once, for as many tokens as the text can hold: counted, not
	// guessed from its length alone, since a file of a few long tokens
	// would otherwise reserve fifty times its size.
	bound, long := prescan(lx.text)
	lx.toks = make([]Token, 0, min(bound, len(lx.text)/2)+16)
	for _, l := range long {
		lx.errorf(l[0], "this line is %d bytes long, more than %s, the limit on one line (fixed); break it into shorter lines",
			l[1]-l[0], byteSize(maxLineBytes))
	}
	if len(long) > 0 {
		lx.long, lx.longAt = long, long[0][0]
	}
	lx.run()
	// The preprocessor's warnings and the lexer's own came before some
	// lint_off comments were seen.
	diags.dropSuppressed()
	return lx.toks
}

type lexer struct {
	src   *Source
	text  string
	pos   int
	diags *Diagnostics
	toks  []Token
	// long holds the lines longer than maxLineBytes not yet passed, as
	// [start, end) offsets (end at the newline); longAt is the start of
	// the first, or math.MaxInt.
	long   [][2]int
	longAt int
}

// passLong skips what is left of the over-long line lx.pos has reached.
func (lx *lexer) passLong() {
	if end := lx.long[0][1]; lx.pos < end {
		lx.pos = end
	}
	lx.long = lx.long[1:]
	lx.longAt = math.MaxInt
	if len(lx.long) > 0 {
		lx.longAt = lx.long[0][0]
	}
}

func (lx *lexer) errorf(off int, format string, args ...any) {
	lx.diags.Errorf(lx.src.PosAt(off), format, args...)
}

func (lx *lexer) emit(kind TokenKind, text string, off int) *Token {
	lx.toks = append(lx.toks, Token{Kind: kind, Text: text, Pos: lx.src.PosAt(off), Off: off, End: lx.pos})
	return &lx.toks[len(lx.toks)-1]
}

func lxIdentStart(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_'
}

func lxIdentChar(c byte) bool {
	return lxIdentStart(c) || c >= '0' && c <= '9' || c == '$'
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func lxSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'
}

// Byte classes for prescan.
const (
	lxClassOther = iota // a byte that can start a token of its own
	lxClassWord         // identifier character: a run of them is one token at most
	lxClassSpace
	lxClassNewline
)

var lxClass = func() (c [256]uint8) {
	for i := range c {
		switch b := byte(i); {
		case b == '\n':
			c[i] = lxClassNewline
		case lxIdentChar(b):
			c[i] = lxClassWord
		case lxSpace(b):
			c[i] = lxClassSpace
		}
	}
	return
}()

// prescan returns, near enough, the most tokens text can hold outside its
// lines longer than maxLineBytes, and those lines ([start, end) offsets).
// Every token holds a run of identifier characters or some other non-space
// byte of its own; a string literal is one token and a comment none. (A
// number run into a name, `12ab`, is two tokens in one run, and the rare
// text that misleads this scan, such as a backslash and CR ending a line
// in a string, only makes the token slice grow.)
func prescan(t string) (tokens int, long [][2]int) {
	const (
		code = iota
		str
		lineComment
		blockComment
	)
	n, line, word, mode, escaped := 0, 0, false, code, false
	for i := 0; i <= len(t); i++ {
		c := byte('\n')
		if i < len(t) {
			c = t[i]
		}
		if c == '\n' {
			if i-line > maxLineBytes {
				long = append(long, [2]int{line, i})
			} else {
				tokens += n
			}
			n, line, word = 0, i+1, false
			if mode == lineComment || mode == str && !escaped {
				mode = code
			}
			escaped = false
			continue
		}
		switch mode {
		case str:
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				mode = code
			}
			continue
		case lineComment:
			continue
		case blockComment:
			if c == '*' && i+1 < len(t) && t[i+1] == '/' {
				mode = code
				i++
			}
			continue
		}
		switch lxClass[c] {
		case lxClassWord:
			if !word {
				n++
				word = true
			}
			continue
		case lxClassSpace:
			word = false
			continue
		}
		word = false
		switch {
		case c == '/' && i+1 < len(t) && t[i+1] == '/':
			mode = lineComment
		case c == '/' && i+1 < len(t) && t[i+1] == '*':
			mode = blockComment
			i++
		case c == '"':
			mode = str
			n++
		default:
			n++
		}
	}
	return tokens, long
}

// byteSize is n bytes in words: "8 MiB", or "100 bytes".
func byteSize(n int) string {
	if n >= 1<<20 && n%(1<<20) == 0 {
		return strconv.Itoa(n>>20) + " MiB"
	}
	return strconv.Itoa(n) + " bytes"
}

// tooLong reports, at start, the token of the given kind that runs to end
// when it is longer than maxTokenBytes; the caller then skips it. hint, if
// any, says how to write the same thing in shorter tokens.
func (lx *lexer) tooLong(start, end int, what, hint string) bool {
	if end-start <= maxTokenBytes {
		return false
	}
	if hint != "" {
		hint = "; " + hint
	}
	lx.errorf(start, "%s %s... is %d bytes long, more than %s, the limit on one token (fixed)%s",
		what, lx.text[start:start+min(end-start, 16)], end-start, byteSize(maxTokenBytes), hint)
	return true
}

// emitLong emits the token of kind at [start, lx.pos) that tooLong
// reported, as a bad token whose text is only its start: later stages
// never copy millions of bytes for it.
func (lx *lexer) emitLong(kind TokenKind, start int) {
	tok := lx.emit(kind, lx.text[start:min(lx.pos, start+40)], start)
	tok.Bad = true
	if kind == TokNumber {
		tok.Num = newNumber(tok.Text)
	}
}

func (lx *lexer) run() {
	t := lx.text
	for {
		lx.skipTrivia()
		if lx.pos >= len(t) || lx.diags.TooMany() {
			break
		}
		start := lx.pos
		c := t[start]
		switch {
		case lxIdentStart(c):
			lx.pos++
			for lx.pos < len(t) && lxIdentChar(t[lx.pos]) {
				lx.pos++
			}
			if lx.tooLong(start, lx.pos, "identifier", "") {
				lx.emitLong(TokIdent, start)
				continue
			}
			word := t[start:lx.pos]
			if kw, ok := keywords[word]; ok {
				lx.emit(TokKeyword, kw, start)
			} else {
				lx.emit(TokIdent, word, start)
			}
		case c == '\\':
			lx.pos++
			for lx.pos < len(t) && !lxSpace(t[lx.pos]) {
				lx.pos++
			}
			if lx.pos == start+1 {
				lx.errorf(start, "empty escaped identifier")
				continue
			}
			if lx.tooLong(start, lx.pos, "escaped identifier", "") {
				lx.emitLong(TokIdent, start)
				continue
			}
			lx.emit(TokIdent, t[start+1:lx.pos], start)
		case c == '$':
			lx.pos++
			if lx.pos < len(t) && lxIdentChar(t[lx.pos]) {
				for lx.pos < len(t) && lxIdentChar(t[lx.pos]) {
					lx.pos++
				}
				if lx.tooLong(start, lx.pos, "system name", "") {
					lx.emitLong(TokSysName, start)
					continue
				}
				lx.emit(TokSysName, t[start:lx.pos], start)
			} else {
				lx.emit(TokOp, "$", start)
			}
		case isDigit(c):
			lx.number()
		case c == '\'':
			lx.tick()
		case c == '"':
			lx.str()
		case c == '`':
			lx.pos++
			for lx.pos < len(t) && lxIdentChar(t[lx.pos]) {
				lx.pos++
			}
			lx.errorf(start, "compiler directive '%s' reached the parser; directives must be handled by the preprocessor", truncateForMsg(t[start:lx.pos]))
			// The directive's arguments (`timescale 1ns/1ps) would only
			// produce confusing follow-on errors.
			for lx.pos < len(t) && t[lx.pos] != '\n' {
				lx.pos++
			}
		default:
			matched := false
			for _, op := range opsByFirst[c] {
				if strings.HasPrefix(t[start:], op) {
					lx.pos += len(op)
					lx.emit(TokOp, op, start)
					matched = true
					break
				}
			}
			if !matched {
				lx.badBytes(start)
			}
		}
	}
	lx.pos = len(t)
	lx.toks = append(lx.toks, Token{Kind: TokEOF, Pos: lx.eofPos(), Off: len(t), End: len(t)})
}

// badBytes reports the character at start that begins no token. A run of
// non-ASCII or control bytes is one error: a UTF-8 character or a stray
// byte-order mark is several bytes, and one error per byte would only
// repeat the first.
func (lx *lexer) badBytes(start int) {
	t := lx.text
	c := t[start]
	if c >= 0x20 && c < 0x7f {
		lx.pos = start + 1
		lx.errorf(start, "unexpected character '%c'", c)
		return
	}
	lx.pos = start + 1
	for lx.pos < len(t) && (t[lx.pos] >= 0x80 || t[lx.pos] < 0x20 && !lxSpace(t[lx.pos])) {
		lx.pos++
	}
	if c < 0x80 {
		lx.errorf(start, "unexpected character 0x%02x", c)
		return
	}
	const ascii = "outside strings and comments, SystemVerilog source is ASCII"
	r, n := utf8.DecodeRuneInString(t[start:lx.pos])
	switch {
	case r == '\ufeff':
		lx.errorf(start, "unexpected byte 0x%02x: a UTF-8 byte-order mark (0xef 0xbb 0xbf), which weft skips only at the start of a file", c)
	case r == utf8.RuneError && n <= 1:
		lx.errorf(start, "unexpected byte 0x%02x: not ASCII, nor UTF-8 text (%s)", c, ascii)
	case unicode.IsPrint(r):
		lx.errorf(start, "unexpected byte 0x%02x: the non-ASCII character '%c' (%U); %s", c, r, r, ascii)
	default:
		lx.errorf(start, "unexpected byte 0x%02x: the non-ASCII character %U; %s", c, r, ascii)
	}
}

// eofPos is where "before end of file" errors point: just past the last
// byte of the source.
func (lx *lexer) eofPos() Pos {
	if len(lx.text) == 0 {
		return lx.src.PosAt(0)
	}
	return lx.src.posAfter(len(lx.text))
}

// skipTrivia skips whitespace, comments and attribute instances.
func (lx *lexer) skipTrivia() {
	t := lx.text
	for lx.pos < len(t) {
		if lx.pos >= lx.longAt {
			lx.passLong()
			continue
		}
		c := t[lx.pos]
		switch {
		case lxSpace(c):
			lx.pos++
		case c == '/' && lx.pos+1 < len(t) && t[lx.pos+1] == '/':
			start := lx.pos
			for lx.pos < len(t) && t[lx.pos] != '\n' {
				lx.pos++
			}
			lx.comment(start, t[start+2:lx.pos])
		case c == '/' && lx.pos+1 < len(t) && t[lx.pos+1] == '*':
			start := lx.pos
			end := strings.Index(t[lx.pos+2:], "*/")
			if end < 0 {
				lx.errorf(start, "unterminated comment: '/*' without '*/'")
				lx.pos = len(t)
				return
			}
			lx.comment(start, t[start+2:start+2+end])
			lx.pos += 2 + end + 2
		case c == '(' && lx.isAttributeStart():
			start := lx.pos
			end := strings.Index(t[lx.pos+2:], "*)")
			if end < 0 {
				lx.errorf(start, "unterminated attribute: '(*' without '*)'")
				lx.pos = len(t)
				return
			}
			lx.pos += 2 + end + 2
		default:
			return
		}
	}
}

// comment records the lint_off and lint_on directive that the comment
// starting at off holds, if any.
func (lx *lexer) comment(off int, text string) {
	if !strings.Contains(text, "lint_o") || lx.src.Files == nil {
		return
	}
	text = strings.TrimSpace(text)
	p := lx.src.PosAt(off)
	if bad := lx.src.Files.lintComment(text, p); len(bad) > 0 {
		list := strings.Join(bad[:min(len(bad), 8)], ", ")
		if len(bad) > 8 {
			list = truncateForMsg(list) + fmt.Sprintf(" and %d more", len(bad)-8)
		}
		lx.diags.Warnc(p, CodeLintComment, "unknown warning code %s in a lint comment; it turns nothing off (known codes: %s, all)",
			list, CodeList())
	}
}

// isAttributeStart tells `(* keep *)` from the `(*)` of `@(*)`: an attribute
// instance always starts with a name, `@(*)` and `@( * )` never do.
func (lx *lexer) isAttributeStart() bool {
	t := lx.text
	i := lx.pos + 1
	if i >= len(t) || t[i] != '*' {
		return false
	}
	i++
	for i < len(t) && lxSpace(t[i]) {
		i++
	}
	return i < len(t) && (lxIdentStart(t[i]) || t[i] == '\\')
}

// ---- numbers ----

func isBaseChar(c byte) bool {
	switch c {
	case 'b', 'B', 'o', 'O', 'd', 'D', 'h', 'H':
		return true
	}
	return false
}

// scanDecimal consumes [0-9_]* and returns the end offset.
func (lx *lexer) scanDecimal(i int) int {
	for i < len(lx.text) && (isDigit(lx.text[i]) || lx.text[i] == '_') {
		i++
	}
	return i
}

var timeUnits = []string{"step", "ms", "us", "ns", "ps", "fs", "s"}

// number lexes a literal that starts with a decimal digit: a plain decimal,
// a real, a time literal, or a sized based literal (`8'hFF`, `8 'h ff`).
func (lx *lexer) number() {
	t := lx.text
	start := lx.pos
	i := lx.scanDecimal(start)
	real := false
	if i+1 < len(t) && t[i] == '.' && isDigit(t[i+1]) {
		real = true
		i = lx.scanDecimal(i + 1)
	}
	if i < len(t) && (t[i] == 'e' || t[i] == 'E') {
		j := i + 1
		if j < len(t) && (t[j] == '+' || t[j] == '-') {
			j++
		}
		if j < len(t) && isDigit(t[j]) {
			real = true
			i = lx.scanDecimal(j)
		}
	}
	// A time literal (`10ns`, `1.5us`, `1step`) only appears in delays, which
	// elaboration ignores or rejects; it is kept as a real-flagged number.
	for _, u := range timeUnits {
		if strings.HasPrefix(t[i:], u) && (i+len(u) >= len(t) || !lxIdentChar(t[i+len(u)])) {
			i += len(u)
			real = true
			break
		}
	}
	if real {
		lx.pos = i
		if lx.tooLong(start, i, "number literal", numberHint) {
			lx.emitLong(TokNumber, start)
			return
		}
		tok := lx.emit(TokNumber, t[start:i], start)
		tok.Num = newNumber(tok.Text)
		tok.Num.Real = true
		return
	}
	digitsEnd := i
	// Sized literal? White space may separate the size from the tick.
	j := i
	for j < len(t) && lxSpace(t[j]) {
		j++
	}
	if j < len(t) && t[j] == '\'' {
		k := j + 1
		if k < len(t) && (t[k] == 's' || t[k] == 'S') {
			k++
		}
		if k < len(t) && isBaseChar(t[k]) {
			lx.based(start, digitsEnd, j)
			return
		}
	}
	lx.pos = digitsEnd
	if lx.tooLong(start, digitsEnd, "number literal", numberHint) {
		lx.emitLong(TokNumber, start)
		return
	}
	tok := lx.emit(TokNumber, t[start:digitsEnd], start)
	tok.Num = newNumber(tok.Text)
	tok.Num.Signed = true
	if u, err := strconv.ParseUint(tok.Text, 10, 64); err == nil {
		tok.Num.Value.SetUint64(u)
	} else {
		setDecimal(tok.Num.Value, strings.ReplaceAll(tok.Text, "_", ""))
	}
}

// numberHint is what to do about a number literal longer than a token may be.
const numberHint = "write a wide constant as a concatenation or replication of shorter literals"

// setDecimal sets z to the value of a string of decimal digits in time
// near linear in their number: big.Int.SetString takes time quadratic in
// it, which a literal of a million digits turns into seconds. The digits
// are split in two, hi*10^len(lo) + lo, down to pieces SetString does
// quickly; the low parts' lengths are powers of two so that pieces at one
// level share their power of ten.
func setDecimal(z *big.Int, digits string) {
	const leaf = 1024
	if len(digits) <= leaf {
		z.SetString(digits, 10)
		return
	}
	pow := map[int]*big.Int{}
	var set func(z *big.Int, d string)
	set = func(z *big.Int, d string) {
		if len(d) <= leaf {
			z.SetString(d, 10)
			return
		}
		n := leaf
		for 2*n < len(d) {
			n *= 2
		}
		p := pow[n]
		if p == nil {
			p = new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(n)), nil)
			pow[n] = p
		}
		var lo big.Int
		set(z, d[:len(d)-n])
		set(&lo, d[len(d)-n:])
		z.Mul(z, p)
		z.Add(z, &lo)
	}
	set(z, digits)
}

// newNumber allocates a Number and its three big.Ints in one allocation;
// a design has many literals and separate allocations showed in profiles.
func newNumber(text string) *Number {
	a := &struct {
		n        Number
		v, xz, z big.Int
	}{}
	a.n.Text = text
	a.n.Value, a.n.XZ, a.n.Z = &a.v, &a.xz, &a.z
	return &a.n
}

// maxLiteralWidth bounds literal sizes (IEEE 1800 lets tools limit them; a
// 16M-bit literal is surely a typo and would be costly to represent).
const maxLiteralWidth = 1 << 24

// tick lexes what follows a `'` that is not preceded by a size: an unsized
// based literal, an unbased unsized literal, or the `'{` / `'(` operators.
func (lx *lexer) tick() {
	t := lx.text
	start := lx.pos
	if start+1 < len(t) {
		switch c := t[start+1]; c {
		case '{', '(':
			lx.pos += 2
			lx.emit(TokOp, t[start:lx.pos], start)
			return
		case '0', '1', 'x', 'X', 'z', 'Z':
			lx.pos += 2
			if lx.pos < len(t) && lxIdentChar(t[lx.pos]) {
				for lx.pos < len(t) && lxIdentChar(t[lx.pos]) {
					lx.pos++
				}
				lx.errorf(start, "invalid literal %s: an unbased unsized literal is '0, '1, 'x or 'z", truncateForMsg(t[start:lx.pos]))
				lx.emitBad(start)
				return
			}
			tok := lx.emit(TokNumber, t[start:lx.pos], start)
			n := newNumber(tok.Text)
			switch c {
			case '0':
				n.Fill = '0'
			case '1':
				n.Fill = '1'
				n.Value.SetInt64(1)
			case 'x', 'X':
				n.Fill = 'x'
				n.XZ.SetInt64(1)
			default:
				n.Fill = 'z'
				n.XZ.SetInt64(1)
				n.Z.SetInt64(1)
			}
			tok.Num = n
			return
		}
		k := start + 1
		if t[k] == 's' || t[k] == 'S' {
			k++
		}
		if k < len(t) && isBaseChar(t[k]) {
			lx.based(start, start, start)
			return
		}
	}
	lx.pos++
	end := lx.pos
	for end < len(t) && lxIdentChar(t[end]) {
		end++
	}
	if end > lx.pos {
		lx.errorf(start, "invalid literal %s: expected a base (b, o, d, h) or 0, 1, x, z after '''", truncateForMsg(t[start:end]))
		lx.pos = end
		lx.emitBad(start)
		return
	}
	lx.errorf(start, "stray ''': expected a literal, '{ or '(")
}

// emitBad emits a zero-valued number for a literal already reported as bad.
func (lx *lexer) emitBad(start int) {
	tok := lx.emit(TokNumber, lx.text[start:lx.pos], start)
	tok.Bad = true
	tok.Num = newNumber(tok.Text)
}

// based lexes a based literal. start is where the literal begins (the size,
// or the tick when unsized), sizeEnd ends the size digits (== start when
// unsized) and tickAt is the offset of the `'`.
func (lx *lexer) based(start, sizeEnd, tickAt int) {
	t := lx.text
	i := tickAt + 1
	signed := false
	if t[i] == 's' || t[i] == 'S' {
		signed = true
		i++
	}
	base := t[i] | 0x20 // lower case
	i++
	baseEnd := i
	// White space may separate the base from the digits; only skip it when
	// digits really follow, so `'h` alone is reported at the right place.
	j := i
	for j < len(t) && lxSpace(t[j]) {
		j++
	}
	if j < len(t) && j > i && isDigitOfBase(t[j], base) {
		i = j
	}
	digitsStart := i
	for i < len(t) && (lxIdentChar(t[i]) && t[i] != '$' || t[i] == '?') {
		i++
	}
	lx.pos = i
	if lx.tooLong(start, i, "number literal", numberHint) {
		lx.emitLong(TokNumber, start)
		return
	}
	tok := lx.emit(TokNumber, t[start:i], start)
	n := newNumber(tok.Text)
	n.Signed, n.Base = signed, base
	tok.Num = n

	ok := true
	if sizeEnd > start {
		sizeText := strings.ReplaceAll(t[start:sizeEnd], "_", "")
		size, err := strconv.Atoi(sizeText)
		switch {
		case err != nil || size > maxLiteralWidth:
			lx.errorf(start, "literal size %s is too large (at most %d bits)", truncateForMsg(sizeText), maxLiteralWidth)
			ok = false
			tok.Bad = true
		case size == 0:
			lx.errorf(start, "literal size must be at least 1, not 0")
			ok = false
			tok.Bad = true
		default:
			n.Width = size
		}
	}
	digits := t[digitsStart:i]
	if strings.Trim(digits, "_") == "" {
		lx.errorf(baseEnd, "missing digits after %s", truncateForMsg(t[start:baseEnd]))
		tok.Bad = true
		return
	}
	for k := 0; k < len(digits); k++ {
		if c := digits[k]; c != '_' && !isDigitOfBase(c, base) {
			lx.errorf(digitsStart+k, "invalid digit '%c' in %s literal %s", c, baseName(base), truncateForMsg(tok.Text))
			tok.Bad = true
			return
		}
	}
	if !ok {
		return
	}
	if !lx.literalValue(n, digits, digitsStart) {
		tok.Bad = true
	}
}

func baseName(base byte) string {
	switch base {
	case 'b':
		return "binary"
	case 'o':
		return "octal"
	case 'd':
		return "decimal"
	}
	return "hexadecimal"
}

func isDigitOfBase(c, base byte) bool {
	switch c {
	case 'x', 'X', 'z', 'Z', '?':
		return true
	}
	switch base {
	case 'b':
		return c == '0' || c == '1'
	case 'o':
		return c >= '0' && c <= '7'
	case 'd':
		return isDigit(c)
	}
	return isDigit(c) || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// literalValue fills in Value/XZ/Z from already validated digits, applying
// the IEEE 1800 §5.7.1 rules: a leading x or z digit extends to the left,
// and a value wider than its size is truncated (with a warning).
func (lx *lexer) literalValue(n *Number, digits string, digitsStart int) bool {
	digits = strings.ReplaceAll(digits, "_", "")
	var written int // bits the digits define
	leadXZ := byte(0)
	if n.Base == 'd' {
		c := digits[0] | 0x20
		if c == 'x' || c == 'z' || c == '?' {
			if len(digits) != 1 {
				lx.errorf(digitsStart, "a decimal literal with x or z must have exactly one digit: %s", truncateForMsg(n.Text))
				return false
			}
			leadXZ = c
			written = 0
		} else {
			for k := 0; k < len(digits); k++ {
				if !isDigit(digits[k]) {
					lx.errorf(digitsStart, "a decimal literal cannot mix x or z with digits: %s", truncateForMsg(n.Text))
					return false
				}
			}
			setDecimal(n.Value, digits)
			written = n.Value.BitLen()
		}
	} else {
		bpd := uint(4)
		if n.Base == 'b' {
			bpd = 1
		} else if n.Base == 'o' {
			bpd = 3
		}
		setBasedDigits(n, digits, bpd)
		written = len(digits) * int(bpd)
		if c := digits[0] | 0x20; c == 'x' || c == 'z' || c == '?' {
			leadXZ = c
		}
	}
	width := n.Width
	if width == 0 {
		// Unsized literals are at least 32 bits (IEEE 1800 §5.7.1).
		width = max(32, written)
	}
	if leadXZ != 0 && width > written {
		ext := new(big.Int).Lsh(big.NewInt(1), uint(width-written))
		ext.Sub(ext, big.NewInt(1))
		ext.Lsh(ext, uint(written))
		n.XZ.Or(n.XZ, ext)
		if leadXZ != 'x' {
			n.Z.Or(n.Z, ext)
		}
	}
	if n.Width > 0 {
		mask := new(big.Int).Lsh(big.NewInt(1), uint(n.Width))
		mask.Sub(mask, big.NewInt(1))
		over := new(big.Int).AndNot(n.Value, mask)
		overXZ := new(big.Int).AndNot(n.XZ, mask)
		if over.Sign() != 0 || overXZ.Sign() != 0 {
			lx.diags.Warnc(lx.src.PosAt(digitsStart), CodeWidthTrunc, "literal %s does not fit in %d bits; truncated", truncateForMsg(n.Text), n.Width)
		}
		n.Value.And(n.Value, mask)
		n.XZ.And(n.XZ, mask)
		n.Z.And(n.Z, mask)
	}
	return true
}

// setBasedDigits sets n's Value, XZ and Z from validated binary, octal or
// hexadecimal digits (bpd bits each, no underscores), word by word: shifting
// the whole value for each digit took time quadratic in their number.
func setBasedDigits(n *Number, digits string, bpd uint) {
	const w = bits.UintSize
	words := (len(digits)*int(bpd) + w - 1) / w
	val := make([]big.Word, words)
	var xz, z []big.Word
	put := func(ws []big.Word, p uint, d big.Word) {
		ws[p/w] |= d << (p % w)
		if p%w+bpd > w {
			ws[p/w+1] |= d >> (w - p%w)
		}
	}
	mask := big.Word(1)<<bpd - 1
	for k := 0; k < len(digits); k++ {
		p := uint(len(digits)-1-k) * bpd
		switch c := digits[k] | 0x20; c {
		case 'x', 'z', '?':
			if xz == nil {
				xz = make([]big.Word, words)
			}
			put(xz, p, mask)
			if c != 'x' {
				if z == nil {
					z = make([]big.Word, words)
				}
				put(z, p, mask)
			}
		default:
			d := c - '0'
			if c >= 'a' {
				d = c - 'a' + 10
			}
			put(val, p, big.Word(d))
		}
	}
	n.Value.SetBits(val)
	if xz != nil {
		n.XZ.SetBits(xz)
	}
	if z != nil {
		n.Z.SetBits(z)
	}
}

// ---- strings ----

func (lx *lexer) str() {
	t := lx.text
	start := lx.pos
	i := start + 1
	var b strings.Builder
	for {
		if i-start > maxTokenBytes {
			lx.longString(start)
			return
		}
		if i >= len(t) || t[i] == '\n' {
			lx.errorf(start, "unterminated string literal")
			lx.pos = i
			tok := lx.emit(TokString, t[start:i], start)
			tok.Str = b.String()
			tok.Bad = true
			return
		}
		c := t[i]
		if c == '"' {
			i++
			break
		}
		if c != '\\' {
			b.WriteByte(c)
			i++
			continue
		}
		i++
		if i >= len(t) {
			continue
		}
		e := t[i]
		i++
		switch e {
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case 'v':
			b.WriteByte('\v')
		case 'f':
			b.WriteByte('\f')
		case 'a':
			b.WriteByte('\a')
		case '\\', '"':
			b.WriteByte(e)
		case '\n': // line continuation
		case '\r':
			if i < len(t) && t[i] == '\n' {
				i++
			}
		case 'x':
			v, k := 0, 0
			for ; k < 2 && i < len(t) && isHex(t[i]); k++ {
				d, _ := strconv.ParseUint(t[i:i+1], 16, 8)
				v = v*16 + int(d)
				i++
			}
			if k == 0 {
				lx.errorf(i-2, "'\\x' escape without hexadecimal digits")
			}
			b.WriteByte(byte(v))
		default:
			if e >= '0' && e <= '7' {
				v := int(e - '0')
				for k := 0; k < 2 && i < len(t) && t[i] >= '0' && t[i] <= '7'; k++ {
					v = v*8 + int(t[i]-'0')
					i++
				}
				if v > 255 {
					lx.errorf(i-4, "octal escape \\%o is larger than a byte", v)
				}
				b.WriteByte(byte(v))
			} else {
				// IEEE 1800 leaves unknown escapes to the tool; the common
				// choice is the character itself.
				b.WriteByte(e)
			}
		}
	}
	lx.pos = i
	tok := lx.emit(TokString, t[start:i], start)
	tok.Str = b.String()
}

// longString reports the string literal at start that is longer than a
// token may be, and skips it: to its closing quote, or to the end of its
// line when it has none, as str does.
func (lx *lexer) longString(start int) {
	t := lx.text
	i := start + 1
	for i < len(t) && t[i] != '"' && t[i] != '\n' {
		if t[i] == '\\' {
			i++
			if i+1 < len(t) && t[i] == '\r' && t[i+1] == '\n' {
				i++
			}
		}
		i++
	}
	if i < len(t) && t[i] == '"' {
		i++
	}
	lx.pos = min(i, len(t))
	lx.tooLong(start, lx.pos, "string literal", "split it into a concatenation {\"...\", \"...\"}")
	tok := lx.emit(TokString, t[start:min(lx.pos, start+40)], start)
	tok.Bad = true
}

func isHex(c byte) bool {
	return isDigit(c) || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// posAfter is the position just past the byte at off-1: where a missing
// terminator (`;`) belongs. For text produced by a macro expansion every
// byte maps to the macro use, which is then the best answer.
func (s *Source) posAfter(off int) Pos {
	if off <= 0 || len(s.spans) == 0 {
		return s.PosAt(off)
	}
	p := s.PosAt(off - 1)
	i := len(s.spans) - 1
	for i > 0 && s.spans[i].outStart > off-1 {
		i--
	}
	if s.spans[i].verbatim && p.IsValid() {
		if off-1 < len(s.Text) && s.Text[off-1] == '\n' {
			return s.PosAt(off)
		}
		p.Col++
	}
	return p
}
