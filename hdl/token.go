package hdl

// TokenKind classifies a token. Keywords and operators are not split into
// one kind each: the parser compares Text, which the lexer interns (keyword
// and operator spellings are string constants), so the comparisons are cheap.
type TokenKind uint8

const (
	TokEOF     TokenKind = iota
	TokIdent             // identifier; escaped identifiers have the backslash removed
	TokSysName           // $display, $clog2, $unit, $root
	TokKeyword           // a reserved SystemVerilog-2017 keyword
	TokNumber            // integral, real or time literal; Num holds the value
	TokString            // "..."; Str holds the decoded value
	TokOp                // operator or punctuation
)

func (k TokenKind) String() string {
	return [...]string{"end of file", "identifier", "system name", "keyword", "number", "string", "operator"}[k]
}

// Token is one lexical token of a preprocessed Source.
type Token struct {
	Kind TokenKind
	// Text is the spelling: the keyword, the operator, the identifier's name,
	// the literal as written (strings keep their quotes).
	Text string
	Pos  Pos
	// Off and End are the byte range of the token in Source.Text.
	Off, End int
	// Num is the literal's value for TokNumber (Pos is left zero; the parser
	// copies it into a positioned node).
	Num *Number
	// Str is the decoded value of a TokString.
	Str string
	// Bad marks a token the lexer already reported an error for; the parser
	// stays quiet about its immediate surroundings.
	Bad bool
}

// describe names the token the way error messages quote it.
func (t *Token) describe() string {
	switch t.Kind {
	case TokEOF:
		return "end of file"
	case TokString:
		return "string " + truncateForMsg(t.Text)
	}
	return "'" + truncateForMsg(t.Text) + "'"
}

func truncateForMsg(s string) string {
	if len(s) > 40 {
		return s[:37] + "..."
	}
	return s
}

// keywords is every reserved word of IEEE 1800-2017 (Annex B), so that none
// of them can be used as a name by accident, even the ones weft never parses.
var keywords = func() map[string]string {
	words := []string{
		"accept_on", "alias", "always", "always_comb", "always_ff", "always_latch", "and",
		"assert", "assign", "assume", "automatic", "before", "begin", "bind", "bins",
		"binsof", "bit", "break", "buf", "bufif0", "bufif1", "byte", "case", "casex",
		"casez", "cell", "chandle", "checker", "class", "clocking", "cmos", "config",
		"const", "constraint", "context", "continue", "cover", "covergroup", "coverpoint",
		"cross", "deassign", "default", "defparam", "design", "disable", "dist", "do",
		"edge", "else", "end", "endcase", "endchecker", "endclass", "endclocking",
		"endconfig", "endfunction", "endgenerate", "endgroup", "endinterface",
		"endmodule", "endpackage", "endprimitive", "endprogram", "endproperty",
		"endspecify", "endsequence", "endtable", "endtask", "enum", "event", "eventually",
		"expect", "export", "extends", "extern", "final", "first_match", "for", "force",
		"foreach", "forever", "fork", "forkjoin", "function", "generate", "genvar",
		"global", "highz0", "highz1", "if", "iff", "ifnone", "ignore_bins",
		"illegal_bins", "implements", "implies", "import", "incdir", "include",
		"initial", "inout", "input", "inside", "instance", "int", "integer",
		"interconnect", "interface", "intersect", "join", "join_any", "join_none",
		"large", "let", "liblist", "library", "local", "localparam", "logic", "longint",
		"macromodule", "matches", "medium", "modport", "module", "nand", "negedge",
		"nettype", "new", "nexttime", "nmos", "nor", "noshowcancelled", "not", "notif0",
		"notif1", "null", "or", "output", "package", "packed", "parameter", "pmos",
		"posedge", "primitive", "priority", "program", "property", "protected", "pull0",
		"pull1", "pulldown", "pullup", "pulsestyle_ondetect", "pulsestyle_onevent",
		"pure", "rand", "randc", "randcase", "randsequence", "rcmos", "real", "realtime",
		"ref", "reg", "reject_on", "release", "repeat", "restrict", "return", "rnmos",
		"rpmos", "rtran", "rtranif0", "rtranif1", "s_always", "s_eventually",
		"s_nexttime", "s_until", "s_until_with", "scalared", "sequence", "shortint",
		"shortreal", "showcancelled", "signed", "small", "soft", "solve", "specify",
		"specparam", "static", "string", "strong", "strong0", "strong1", "struct",
		"super", "supply0", "supply1", "sync_accept_on", "sync_reject_on", "table",
		"tagged", "task", "this", "throughout", "time", "timeprecision", "timeunit",
		"tran", "tranif0", "tranif1", "tri", "tri0", "tri1", "triand", "trior", "trireg",
		"type", "typedef", "union", "unique", "unique0", "unsigned", "until",
		"until_with", "untyped", "use", "uwire", "var", "vectored", "virtual", "void",
		"wait", "wait_order", "wand", "weak", "weak0", "weak1", "while", "wildcard",
		"wire", "with", "within", "wor", "xnor", "xor",
	}
	m := make(map[string]string, len(words))
	for _, w := range words {
		m[w] = w
	}
	return m
}()

// IsKeyword reports whether s is a reserved SystemVerilog keyword.
func IsKeyword(s string) bool { _, ok := keywords[s]; return ok }

// operators lists every operator and punctuation token, longest first within
// each leading byte so that maximal munch is a linear scan.
var operators = []string{
	"<<<=", ">>>=",
	"<<<", ">>>", "===", "!==", "==?", "!=?", "<->", "<<=", ">>=", "->>", "|->", "|=>",
	"'{", "'(", "**", "->", "+:", "-:", "::", "++", "--", "+=", "-=", "*=", "/=", "%=",
	"&=", "|=", "^=", "==", "!=", "<=", ">=", "&&", "||", "<<", ">>", "~&", "~|", "~^",
	"^~", "##", ".*", "@@",
	"+", "-", "*", "/", "%", "&", "|", "^", "~", "!", "<", ">", "=", "?", ":", ";", ",",
	".", "(", ")", "[", "]", "{", "}", "#", "@", "$",
}

// opsByFirst indexes operators by their first byte.
var opsByFirst = func() [256][]string {
	var t [256][]string
	for _, op := range operators {
		t[op[0]] = append(t[op[0]], op)
	}
	return t
}()
