package sir

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// maxParseReg bounds register numbers in parsed text so hostile input cannot
// make Parse allocate without limit.
const maxParseReg = 1 << 20

// ParseError is a syntax error in SIR text.
type ParseError struct {
	Line int
	Msg  string
}

func (e *ParseError) Error() string { return fmt.Sprintf("sir: line %d: %s", e.Line, e.Msg) }

// Parse reads one unit in the text form Fprint writes. Comments run from
// ';' or "//" to the end of the line. Block labels may be any identifier;
// blocks are numbered in the order their labels appear. Parse checks syntax
// and register widths only; run Check for the rest. It never panics.
func Parse(text string) (*Unit, error) {
	p := &parser{labels: map[string]BlockID{}, widths: map[Reg]int{}}
	return p.parse(text)
}

type tokKind uint8

const (
	tIdent tokKind = iota + 1
	tNum
	tStr
	tPunct
)

type token struct {
	kind tokKind
	s    string
}

type fixup struct {
	b     BlockID
	which int // 0 Then, 1 Else
	name  string
	line  int
}

type parser struct {
	u      *Unit
	line   int
	toks   []token
	pos    int
	labels map[string]BlockID
	fix    []fixup
	widths map[Reg]int
	used   map[Reg]int // first line a register is read (for errors)
	cur    *Block
	curID  BlockID
}

type parseErr struct{ e *ParseError }

func (p *parser) fail(format string, args ...any) {
	panic(parseErr{&ParseError{Line: p.line, Msg: fmt.Sprintf(format, args...)}})
}

func (p *parser) parse(text string) (u *Unit, err error) {
	defer func() {
		if r := recover(); r != nil {
			pe, ok := r.(parseErr)
			if !ok {
				panic(r)
			}
			u, err = nil, pe.e
		}
	}()
	p.used = map[Reg]int{}
	for i, raw := range strings.Split(text, "\n") {
		p.line = i + 1
		p.toks = p.lex(raw)
		p.pos = 0
		if len(p.toks) == 0 {
			continue
		}
		p.statement()
	}
	if p.u == nil {
		p.line = 0
		p.fail("no unit header")
	}
	for _, f := range p.fix {
		id, ok := p.labels[f.name]
		if !ok {
			p.line = f.line
			p.fail("unknown block %q", f.name)
		}
		t := &p.u.Blocks[f.b].Term
		if f.which == 0 {
			t.Then = id
		} else {
			t.Else = id
		}
	}
	max := Reg(0)
	for r := range p.widths {
		max = maxReg(max, r)
	}
	for r, line := range p.used {
		if _, ok := p.widths[r]; !ok {
			p.line = line
			p.fail("%s is read but never assigned, so its width is unknown", r)
		}
	}
	p.u.Regs = make([]RegInfo, max+1)
	for r := Reg(1); r <= max; r++ {
		w, ok := p.widths[r]
		if !ok {
			w = 64 // never mentioned
		}
		p.u.Regs[r].Width = w
	}
	return p.u, nil
}

func maxReg(a, b Reg) Reg {
	if a > b {
		return a
	}
	return b
}

func (p *parser) lex(s string) []token {
	var toks []token
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\r':
			i++
		case c == ';' || c == '/' && i+1 < len(s) && s[i+1] == '/':
			return toks
		case isIdentStart(c):
			j := i + 1
			for j < len(s) && (isIdentStart(s[j]) || isDigit(s[j]) || s[j] == '.') {
				j++
			}
			toks = append(toks, token{tIdent, s[i:j]})
			i = j
		case isDigit(c):
			j := i + 1
			for j < len(s) && (isDigit(s[j]) || isIdentStart(s[j])) {
				j++
			}
			toks = append(toks, token{tNum, s[i:j]})
			i = j
		case c == '"':
			j := i + 1
			for j < len(s) && s[j] != '"' {
				if s[j] == '\\' {
					j++
				}
				j++
			}
			if j >= len(s) {
				p.fail("unterminated string")
			}
			str, err := strconv.Unquote(s[i : j+1])
			if err != nil {
				p.fail("bad string %s", s[i:j+1])
			}
			toks = append(toks, token{tStr, str})
			i = j + 1
		case strings.IndexByte(":=,+[]*<(){}", c) >= 0:
			toks = append(toks, token{tPunct, s[i : i+1]})
			i++
		default:
			p.fail("unexpected character %q", c)
		}
	}
	return toks
}

func isIdentStart(c byte) bool { return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isDigit(c byte) bool      { return c >= '0' && c <= '9' }

func (p *parser) peek() token {
	if p.pos < len(p.toks) {
		return p.toks[p.pos]
	}
	return token{}
}

func (p *parser) next() token {
	t := p.peek()
	if t.kind == 0 {
		p.fail("unexpected end of line")
	}
	p.pos++
	return t
}

func (p *parser) isPunct(s string) bool {
	t := p.peek()
	return t.kind == tPunct && t.s == s
}

func (p *parser) expect(s string) {
	if t := p.next(); t.kind != tPunct || t.s != s {
		p.fail("want %q, found %q", s, t.s)
	}
}

func (p *parser) end() {
	if p.pos != len(p.toks) {
		p.fail("unexpected %q", p.toks[p.pos].s)
	}
}

func (p *parser) num() int {
	t := p.next()
	if t.kind != tNum {
		p.fail("want a number, found %q", t.s)
	}
	v, err := strconv.ParseUint(t.s, 0, 31)
	if err != nil {
		p.fail("bad number %q", t.s)
	}
	return int(v)
}

func (p *parser) imm() uint64 {
	t := p.next()
	if t.kind != tNum {
		p.fail("want a number, found %q", t.s)
	}
	v, err := strconv.ParseUint(t.s, 0, 64)
	if err != nil {
		p.fail("bad number %q", t.s)
	}
	return v
}

func (p *parser) regName() Reg {
	t := p.next()
	if t.kind != tIdent || len(t.s) < 2 || t.s[0] != 'r' {
		p.fail("want a register, found %q", t.s)
	}
	v, err := strconv.ParseUint(t.s[1:], 10, 31)
	if err != nil || v < 1 || v > maxParseReg {
		p.fail("bad register %q", t.s)
	}
	return Reg(v)
}

// use reads a register operand.
func (p *parser) use() Reg {
	r := p.regName()
	if _, ok := p.used[r]; !ok {
		p.used[r] = p.line
	}
	return r
}

func (p *parser) statement() {
	first := p.peek()
	if p.u == nil {
		if first.kind != tIdent || first.s != "unit" {
			p.fail("want unit header")
		}
		p.next()
		name := p.next()
		if name.kind != tStr && name.kind != tIdent {
			p.fail("want a unit name")
		}
		p.end()
		p.u = NewUnit(name.s)
		return
	}
	// Label?
	if first.kind == tIdent && len(p.toks) == 2 && p.toks[1].kind == tPunct && p.toks[1].s == ":" {
		if _, dup := p.labels[first.s]; dup {
			p.fail("block %q defined twice", first.s)
		}
		p.curID = p.u.NewBlock()
		p.cur = p.u.Blocks[p.curID]
		p.labels[first.s] = p.curID
		return
	}
	if p.cur == nil {
		p.fail("instruction outside a block")
	}
	if p.cur.Term.Kind != TermNone {
		p.fail("instruction after the block's terminator")
	}
	switch first.s {
	case "jump", "branch", "ret":
		if first.kind == tIdent {
			p.terminator()
			p.end()
			return
		}
	}
	var in Inst
	if first.kind == tIdent && first.s[0] == 'r' && p.pos+1 < len(p.toks) && p.toks[1].kind == tPunct && p.toks[1].s == ":" {
		in.Dst = p.regName()
		p.expect(":")
		w := p.num()
		if w < 1 || w > 64 {
			p.fail("register width %d outside 1..64", w)
		}
		if old, ok := p.widths[in.Dst]; ok && old != w {
			p.fail("%s assigned with width %d, earlier %d", in.Dst, w, old)
		}
		p.widths[in.Dst] = w
		p.expect("=")
	}
	opTok := p.next()
	if opTok.kind != tIdent {
		p.fail("want an opcode, found %q", opTok.s)
	}
	name, size := opTok.s, 0
	if i := strings.IndexByte(name, '.'); i >= 0 {
		n, err := strconv.Atoi(name[i+1:])
		if err != nil {
			p.fail("bad size in %q", name)
		}
		name, size = name[:i], n
	}
	op, ok := opByName[name]
	if !ok {
		p.fail("unknown opcode %q", name)
	}
	if (op == OpLoad || op == OpStore) != (size != 0) {
		p.fail("%q: only load and store take a .SIZE suffix", opTok.s)
	}
	in.Op, in.Size = op, size
	if op.HasDst() && in.Dst == NoReg {
		p.fail("%s needs a destination", op)
	}
	if !op.HasDst() && in.Dst != NoReg {
		p.fail("%s has no destination", op)
	}
	switch op {
	case OpConst:
		in.Imm = p.imm()
	case OpLoad:
		in.Addr = p.addr()
	case OpLoadBits:
		in.Addr = p.addr()
		p.expect(",")
		in.Lo = p.num()
	case OpStore:
		in.Addr = p.addr()
		p.expect(",")
		in.A = p.use()
	case OpStoreBits:
		in.Addr = p.addr()
		p.expect(",")
		in.Lo = p.num()
		p.expect(",")
		in.A = p.use()
	case OpExtract:
		in.A = p.use()
		p.expect(",")
		in.Lo = p.num()
	case OpInsert:
		in.A = p.use()
		p.expect(",")
		in.B = p.use()
		p.expect(",")
		in.Lo = p.num()
	case OpEvent:
		in.Ev = p.event()
	default:
		regs := [3]*Reg{&in.A, &in.B, &in.C}
		for i := 0; i < op.NumArgs(); i++ {
			if i > 0 {
				p.expect(",")
			}
			*regs[i] = p.use()
		}
	}
	p.end()
	p.cur.Insts = append(p.cur.Insts, in)
}

func (p *parser) addr() Addr {
	var a Addr
	t := p.next()
	switch {
	case t.kind == tIdent && t.s == "ring":
		a.Home = RingHome
	case t.kind == tIdent && len(t.s) > 1 && t.s[0] == 'h':
		v, err := strconv.ParseUint(t.s[1:], 10, 31)
		if err != nil {
			p.fail("bad home %q", t.s)
		}
		a.Home = HomeID(v)
	default:
		p.fail("want a home (hN), found %q", t.s)
	}
	p.expect("+")
	a.Offset = p.num()
	if p.isPunct("[") {
		p.next()
		a.Index = p.use()
		p.expect("*")
		a.Stride = p.num()
		p.expect("<")
		a.Count = p.num()
		p.expect("]")
	}
	return a
}

func (p *parser) event() *Event {
	k := p.next()
	ev := &Event{}
	for i := EvDisplay; i < numEventKinds; i++ {
		if eventKindNames[i] == k.s {
			ev.Kind = i
		}
	}
	if ev.Kind == 0 || k.kind != tIdent {
		p.fail("unknown event kind %q", k.s)
	}
	for _, f := range []struct {
		name string
		v    *int
	}{{"fmt", &ev.Format}, {"level", &ev.Level}} {
		if t := p.next(); t.kind != tIdent || t.s != f.name {
			p.fail("want %s=, found %q", f.name, t.s)
		}
		p.expect("=")
		*f.v = p.num()
	}
	if t := p.peek(); t.kind == tIdent && t.s == "seq" {
		p.next()
		p.expect("=")
		n := p.num()
		if n < 0 || n > math.MaxUint32 {
			p.fail("seq=%d out of range", n)
		}
		ev.Seq = uint32(n)
	}
	p.expect("(")
	for !p.isPunct(")") {
		if len(ev.Args) > 0 {
			p.expect(",")
		}
		var a EventArg
		if p.isPunct("{") {
			p.next()
			for {
				a.Words = append(a.Words, p.use())
				if p.isPunct("}") {
					p.next()
					break
				}
				p.expect(",")
			}
		} else {
			a.Words = []Reg{p.use()}
		}
		p.expect(":")
		t := p.next()
		if t.kind != tIdent || len(t.s) < 2 || (t.s[0] != 's' && t.s[0] != 'u') {
			p.fail("want an argument type like u8 or s100, found %q", t.s)
		}
		w, err := strconv.ParseUint(t.s[1:], 10, 31)
		if err != nil {
			p.fail("bad argument type %q", t.s)
		}
		a.Width, a.Signed = int(w), t.s[0] == 's'
		ev.Args = append(ev.Args, a)
	}
	p.next()
	return ev
}

func (p *parser) terminator() {
	t := &p.cur.Term
	switch p.next().s {
	case "jump":
		t.Kind = TermJump
		p.target(0)
	case "branch":
		t.Kind = TermBranch
		t.Cond = p.use()
		p.expect(",")
		p.target(0)
		p.expect(",")
		p.target(1)
	case "ret":
		t.Kind = TermReturn
		s := p.next()
		switch s.kind {
		case tNum:
			v, err := strconv.ParseUint(s.s, 0, 32)
			if err != nil {
				p.fail("bad status %q", s.s)
			}
			t.Status = Status(v)
		case tIdent:
			found := false
			for i, n := range statusNames {
				if n == s.s {
					t.Status, found = Status(i), true
				}
			}
			if !found {
				p.fail("unknown status %q", s.s)
			}
		default:
			p.fail("want a status, found %q", s.s)
		}
	}
}

func (p *parser) target(which int) {
	t := p.next()
	if t.kind != tIdent {
		p.fail("want a block label, found %q", t.s)
	}
	p.fix = append(p.fix, fixup{p.curID, which, t.s, p.line})
}
