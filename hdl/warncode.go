package hdl

import (
	"fmt"
	"sort"
	"strings"
)

// Warning codes. Every warning names one, printed after its message
// ("... [WIDTHTRUNC]"), so that a user can turn it off by name: with
// `weft lint -Wno-CODE`, or with a `// weft lint_off CODE` comment from that
// line on. Where Verilator has a warning for the same problem the code is
// Verilator's, so the names people know carry over.
const (
	CodeAssignDelay = "ASSIGNDLY"    // a delay on an assignment is ignored
	CodeCaseWithX   = "CASEWITHX"    // a case item with x or z bits never matches
	CodeCombDelay   = "COMBDLY"      // a non-blocking assignment in a combinational process
	CodeCombLoop    = "COMBLOOP"     // a combinational loop
	CodeDivZero     = "DIVZERO"      // a division by zero in a constant expression
	CodeDumpVars    = "DUMPVARS"     // a $dumpfile or $dumpvars weft does not honour
	CodeEdgeWidth   = "EDGEWIDTH"    // an edge of a multi-bit signal
	CodeFileMissing = "FILENOTFOUND" // a file named in the source is not found
	CodeIgnored     = "IGNORED"      // a construct weft ignores (final, assertions, some tasks)
	CodeImplicit    = "IMPLICIT"     // an implicit net declared by a port connection
	CodeInputWrite  = "INPUTWRITE"   // an input port written from inside the design
	CodeLintComment = "LINTCOMMENT"  // a lint_off or lint_on comment naming no known code
	CodeMultiDriven = "MULTIDRIVEN"  // one signal driven by processes of different kinds or clocks
	CodeNoWrite     = "NOWRITE"      // a combinational process that writes nothing
	CodePinMissing  = "PINMISSING"   // an input port left unconnected
	CodeRace        = "RACE"         // processes share a static variable
	CodeSelRange    = "SELRANGE"     // a constant select out of range in an unrolled loop
	CodeSpecifyIgn  = "SPECIFYIGN"   // a specify block is ignored
	CodeStaticInit  = "STATICINIT"   // the initializer of an implicitly static variable
	CodeTimescale   = "TIMESCALE"    // a malformed `timescale directive
	CodeUserWarn    = "USERWARN"     // an elaboration-time $warning or $info
	CodeWidthExpand = "WIDTHEXPAND"  // a value extended to a wider port
	CodeWidthTrunc  = "WIDTHTRUNC"   // a value wider than its target loses bits
	CodeXZConst     = "XZCONST"      // x or z bits of a constant read as 0 at run time
)

// CodeAll names every code in -Wno-all and `lint_off all`.
const CodeAll = "all"

var codeDocs = map[string]string{
	CodeAssignDelay: "a delay on an assignment is ignored (weft is a cycle simulator)",
	CodeCaseWithX:   "a case item with x or z bits never matches a 2-state value",
	CodeCombDelay:   "a non-blocking assignment in a combinational process is treated as blocking",
	CodeCombLoop:    "a combinational loop: logic that reads what it writes without a flop between",
	CodeDivZero:     "a division by zero in a constant expression gives 0",
	CodeDumpVars:    "a $dumpfile or $dumpvars call that weft does not honour",
	CodeEdgeWidth:   "an edge of a multi-bit signal is taken on its least significant bit",
	CodeFileMissing: "a file named in the source ($readmemh) is not found at elaboration",
	CodeIgnored:     "a construct weft ignores: final blocks, assertions, some system tasks",
	CodeImplicit:    "an implicit 1-bit net declared by a port connection",
	CodeInputWrite:  "an input port written from inside the design",
	CodeLintComment: "a lint_off or lint_on comment that names no known code",
	CodeMultiDriven: "parts of one signal driven by processes of different kinds or clocks",
	CodeNoWrite:     "a combinational process that writes nothing",
	CodePinMissing:  "an input port left unconnected reads 0",
	CodeRace:        "processes share a static variable of a function",
	CodeSelRange:    "a constant select out of range in an unrolled loop reads 0",
	CodeSpecifyIgn:  "a specify block is ignored",
	CodeStaticInit:  "the initializer of a static variable in a procedure runs once",
	CodeTimescale:   "a malformed `timescale directive is ignored",
	CodeUserWarn:    "an elaboration-time $warning or $info",
	CodeWidthExpand: "a value narrower than the port it is connected to is extended",
	CodeWidthTrunc:  "a value wider than its target (assignment, port, parameter) loses bits",
	CodeXZConst:     "x or z bits of a constant reach run-time state and read as 0 (weft is 2-state, as Verilator with --x-assign 0)",
}

// verilatorCodes maps Verilator's names for codes weft spells differently,
// so that `// verilator lint_off WIDTH` comments already in a design work.
var verilatorCodes = map[string][]string{
	"WIDTH":        {CodeWidthTrunc, CodeWidthExpand},
	"UNOPTFLAT":    {CodeCombLoop},
	"UNOPT":        {CodeCombLoop},
	"ALWCOMBORDER": {CodeCombLoop},
}

// WarningCode is one code and what it warns about.
type WarningCode struct{ Code, Doc string }

// WarningCodes lists every code, sorted.
func WarningCodes() []WarningCode {
	out := make([]WarningCode, 0, len(codeDocs))
	for c, d := range codeDocs {
		out = append(out, WarningCode{c, d})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Code < out[j].Code })
	return out
}

// KnownCode reports whether code is a warning code (or "all").
func KnownCode(code string) bool {
	_, ok := codeDocs[code]
	return ok || code == CodeAll
}

// CodeList is the codes as one comma-separated line, for messages.
func CodeList() string {
	var cs []string
	for _, c := range WarningCodes() {
		cs = append(cs, c.Code)
	}
	return strings.Join(cs, ", ")
}

// Suppress turns warnings with the given codes off ("all" for every
// warning), the way -Wno-CODE does. An unknown code is an error so that a
// misspelt flag does not silently do nothing.
func (ds *Diagnostics) Suppress(codes ...string) error {
	for _, c := range codes {
		if !KnownCode(c) {
			return fmt.Errorf("unknown warning code %q (known: %s, all)", c, CodeList())
		}
		if ds.off == nil {
			ds.off = map[string]bool{}
		}
		ds.off[c] = true
	}
	return nil
}

// suppressed reports whether a warning with code at p is turned off, by
// Suppress or by a lint_off comment.
func (ds *Diagnostics) suppressed(p Pos, code string) bool {
	if ds.off[CodeAll] || code != "" && ds.off[code] {
		return true
	}
	return ds.Files.lintOff(p, code)
}

// dropSuppressed removes the warnings a lint_off comment read after they
// were reported turns off: the preprocessor and the lexer warn before the
// lexer has seen every comment of a file.
func (ds *Diagnostics) dropSuppressed() {
	if ds == nil || ds.Files == nil || len(ds.Files.lint) == 0 {
		return
	}
	kept := ds.List[:0]
	for _, d := range ds.List {
		if d.Severity == SeverityWarning && ds.suppressed(d.Pos, d.Code) {
			ds.Suppressed++
			continue
		}
		kept = append(kept, d)
	}
	ds.List = kept
}

// lintDirective is one `// weft lint_off CODE` or `lint_on` comment: from
// Line (and Col) of its file on, Code is turned off (Off) or back on.
type lintDirective struct {
	Line, Col int
	Code      string
	Off       bool
}

// lintOff reports whether the lint comments of p's file turn code off at p:
// the last directive before p that names code (or all) decides.
func (fs *FileSet) lintOff(p Pos, code string) bool {
	if fs == nil {
		return false
	}
	off := false
	for _, d := range fs.lint[p.File] {
		if d.Line > p.Line {
			continue
		}
		if d.Code == CodeAll || d.Code == code && code != "" {
			off = d.Off
		}
	}
	return off
}

// lintComment records the lint directive a comment holds, if any:
//
//	// weft lint_off CODE[, CODE...]      (also /* ... */; "all" or no code: every code)
//	// weft lint_on CODE
//	// verilator lint_off CODE            (Verilator's codes weft knows are honoured)
//
// It returns the codes of a weft directive that are not known, so the
// caller can warn about a misspelling.
func (fs *FileSet) lintComment(text string, p Pos) (unknown []string) {
	fields := strings.FieldsFunc(text, func(r rune) bool { return r == ' ' || r == '\t' || r == ',' || r == '\r' })
	if len(fields) < 2 || fields[0] != "weft" && fields[0] != "verilator" {
		return nil
	}
	var off bool
	switch fields[1] {
	case "lint_off":
		off = true
	case "lint_on":
	default:
		return nil
	}
	var codes []string
	for i, f := range fields[2:] {
		// Verilator's long form: lint_off -rule CODE.
		if i == 0 && f == "-rule" {
			continue
		}
		// A reason may follow the codes: "lint_off WIDTHTRUNC -- the top bit is parity".
		if !looksLikeCode(f) {
			break
		}
		codes = append(codes, f)
	}
	if len(codes) == 0 {
		codes = []string{CodeAll}
	}
	add := func(c string) {
		if fs.lint == nil {
			fs.lint = map[string][]lintDirective{}
		}
		fs.lint[p.File] = append(fs.lint[p.File], lintDirective{Line: p.Line, Col: p.Col, Code: c, Off: off})
	}
	for _, c := range codes {
		switch {
		case KnownCode(c):
			add(c)
		case fields[0] == "verilator":
			// Codes weft does not check are nothing to turn off.
			for _, w := range verilatorCodes[c] {
				add(w)
			}
		default:
			unknown = append(unknown, c)
		}
	}
	return unknown
}

func looksLikeCode(s string) bool {
	if s == CodeAll {
		return true
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' && i > 0 || c == '_' && i > 0) {
			return false
		}
	}
	return s != ""
}
