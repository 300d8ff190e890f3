package hdl

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/weft-hdl/weft/internal/fileread"
)

// PreprocessOptions configures Preprocess.
type PreprocessOptions struct {
	IncludeDirs []string          // searched in order after the including file's own dir
	Defines     map[string]string // -D NAME=VAL (VAL "" means defined as empty)
	// ReadFile reads an input or include file. nil reads the file from
	// disk, refusing anything but a regular file (a device or FIFO never
	// ends) and stopping at MaxFileBytes; tests inject a map.
	ReadFile func(path string) ([]byte, error)
	// MaxFileBytes bounds the size of each input and include file
	// (0: DefaultMaxFileBytes). It applies to what a custom ReadFile
	// returns too.
	MaxFileBytes int64
}

// DefaultMaxFileBytes is the default PreprocessOptions.MaxFileBytes: far
// above any hand-written or generated source, far below what a runaway read
// would take.
const DefaultMaxFileBytes = 64 << 20

// Input is one file of a compilation unit. A nil Src means read Name with
// PreprocessOptions.ReadFile.
type Input struct {
	Name string
	Src  []byte
}

// Limits that keep hostile or broken input from hanging the preprocessor.
const (
	ppMaxIncludeDepth = 64
	ppMaxMacroDepth   = 64
	// ppMaxPath bounds an `include file name: no file system takes a
	// longer path (Linux's PATH_MAX).
	ppMaxPath = 4096
)

// Budgets that stop a runaway compilation with an error instead of letting
// it exhaust time or memory: the bytes produced by macro expansions (each
// expansion charged at least expansionCost, so a flood of empty expansions
// counts too) and the bytes of included files (each include charged at least
// includeCost). They are variables so the fuzz test can lower them.
var (
	preprocessMacroLimit   = 64 << 20
	preprocessIncludeLimit = 1 << 30
)

const (
	ppExpansionCost = 64
	ppIncludeCost   = 1024
)

// cmdLinePos is where -D macros are reported.
var ppCmdLinePos = Pos{File: "<command line>"}

// Directives the preprocessor executes itself; a macro cannot take their name.
var ppDirectives = map[string]bool{
	"define": true, "undef": true, "undefineall": true, "include": true,
	"ifdef": true, "ifndef": true, "elsif": true, "else": true, "endif": true,
	"timescale": true,
}

// Directives that matter to other tools (timing, net types, synthesis
// attributes) but not to weft: they and the rest of their line are dropped.
var ppDropLine = map[string]bool{
	"default_nettype": true, "line": true, "pragma": true,
	"begin_keywords": true, "unconnected_drive": true,
	"default_decay_time": true, "default_trireg_strength": true,
}

// Argument-less directives that are dropped on their own; text after them on
// the same line is ordinary source.
var ppDropWord = map[string]bool{
	"resetall": true, "celldefine": true, "endcelldefine": true,
	"end_keywords": true, "nounconnected_drive": true,
	"delay_mode_distributed": true, "delay_mode_path": true,
	"delay_mode_unit": true, "delay_mode_zero": true,
}

func init() {
	for _, set := range []map[string]bool{ppDropLine, ppDropWord} {
		for k := range set {
			ppDirectives[k] = true
		}
	}
}

// macro is one `define.
type ppMacro struct {
	name   string
	fn     bool // defined with a parameter list: every use needs (...)
	params []ppParam
	body   []byte // comments removed, continuations turned into newlines
}

type ppParam struct {
	name   string
	def    []byte
	hasDef bool
}

// ppCond is one open `ifdef/`ifndef.
type ppCond struct {
	pos     Pos
	kw      string // "ifdef" or "ifndef", for the missing-`endif message
	name    string
	parent  bool // the enclosing region is active
	taken   bool // some branch was (or, when !parent, counts as) chosen
	on      bool // the current branch is active
	sawElse bool
}

// ppBuffer is text being scanned: a whole file, or the result of one macro
// expansion, which is rescanned for further macro uses.
type ppBuffer struct {
	src   []byte
	file  *File  // nil for a macro expansion
	pos   Pos    // expansion: the use every byte of it is reported at
	macro string // expansion: the macro expanded, named in messages
	dir   string // directory that relative `include names start from
	depth int    // macro expansion depth, 0 in a file
	inc   int    // include depth, 0 for an input file
	conds []ppCond
}

func (b *ppBuffer) posOf(off int) Pos {
	if b.file != nil {
		return b.file.PosOf(off)
	}
	return b.pos
}

func (b *ppBuffer) active() bool {
	n := len(b.conds)
	return n == 0 || b.conds[n-1].on
}

type preprocessor struct {
	fs                     *FileSet
	opts                   PreprocessOptions
	diags                  *Diagnostics
	out                    *Source
	macros                 map[string]*ppMacro
	files                  map[string]*File // by path, so an include guard's second visit reads nothing
	macroWork, includeWork int

	// Unwinding after a limit was hit: abortMacro stops every expansion
	// up to the file that started it, abortInclude every included file up
	// to the input, dead everything.
	abortMacro, abortInclude, dead bool
}

// Preprocess runs the directives of every input in order as one compilation
// unit (defines carry across files, like Verilator and Icarus do) and returns
// one Source. Every file read is added to fs; problems go to diags.
func Preprocess(fs *FileSet, inputs []Input, opts PreprocessOptions, diags *Diagnostics) *Source {
	if fs == nil {
		fs = NewFileSet()
	}
	if diags == nil {
		diags = NewDiagnostics(fs)
	}
	if opts.MaxFileBytes <= 0 {
		opts.MaxFileBytes = DefaultMaxFileBytes
	}
	if opts.ReadFile == nil {
		limit := opts.MaxFileBytes
		opts.ReadFile = func(path string) ([]byte, error) { return fileread.Read(path, limit) }
	}
	p := &preprocessor{
		fs: fs, opts: opts, diags: diags,
		out:    &Source{Files: fs},
		macros: map[string]*ppMacro{},
		files:  map[string]*File{},
	}
	p.commandLineDefines()
	for _, in := range inputs {
		p.out.Inputs = append(p.out.Inputs, in.Name)
	}
	for _, in := range inputs {
		if p.dead {
			break
		}
		src := in.Src
		if src == nil {
			data, err := p.readFile(in.Name)
			if err != nil {
				diags.Errorf(Pos{File: in.Name}, "%s", ppReadError("", in.Name, err))
				continue
			}
			src = data
		}
		f := fs.Add(in.Name, ppSkipBOM(src))
		p.files[filepath.Clean(in.Name)] = f
		p.runFile(f, 0)
	}
	return p.out
}

// readFile reads an input or include file, holding a custom ReadFile to
// the size limit too.
func (p *preprocessor) readFile(path string) ([]byte, error) {
	data, err := p.opts.ReadFile(path)
	if err == nil && int64(len(data)) > p.opts.MaxFileBytes {
		return nil, &fileread.TooLargeError{Path: path, Limit: p.opts.MaxFileBytes}
	}
	return data, err
}

// ppReadError words the failure to read file path; what says which kind of
// file it is: "include file ", or "" for an input, whose diagnostic is
// placed at the file and so need not name it again.
func ppReadError(what, path string, err error) string {
	var nr *fileread.NotRegularError
	var big *fileread.TooLargeError
	switch {
	case errors.As(err, &nr) && what == "":
		return fmt.Sprintf("not a regular file (%s); weft reads only regular files", fileread.Kind(nr.Mode))
	case errors.As(err, &nr):
		return fmt.Sprintf("%s%s is not a regular file (%s); weft reads only regular files", what, path, fileread.Kind(nr.Mode))
	case errors.As(err, &big):
		subject := what + path
		if what == "" {
			subject = "the file"
		}
		return fmt.Sprintf("%s is larger than %s, the limit on source files (raise it with --max-source-mb)", subject, fileread.Size(big.Limit))
	}
	return fmt.Sprintf("cannot read %s%s: %v", what, path, err)
}

// ppSkipBOM drops a UTF-8 byte-order mark that some editors put at the
// start of a file: it is not source text, and columns on the first line
// should count from what the editor shows.
func ppSkipBOM(src []byte) []byte {
	return bytes.TrimPrefix(src, []byte("\xef\xbb\xbf"))
}

// commandLineDefines installs opts.Defines, in sorted order so that errors
// come out the same way every run. A key may carry parameters: "MAX(a,b)".
func (p *preprocessor) commandLineDefines() {
	names := make([]string, 0, len(p.opts.Defines))
	for k := range p.opts.Defines {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		m, msg := ppParseDefine([]byte(k + " " + p.opts.Defines[k]))
		if msg == "" && (!strings.HasPrefix(k, m.name) || len(k) > len(m.name) && k[len(m.name)] != '(') {
			msg = "not a macro name"
		}
		if msg != "" {
			p.diags.Errorf(ppCmdLinePos, "-D %s: %s", k, msg)
			continue
		}
		p.macros[m.name] = m
	}
}

func (p *preprocessor) errorAt(b *ppBuffer, pos Pos, format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	if b.file == nil && b.macro != "" {
		msg += " (in expansion of `" + b.macro + ")"
	}
	p.diags.Errorf(pos, "%s", msg)
	if p.diags.TooMany() {
		p.dead = true
	}
}

func (p *preprocessor) errorf(b *ppBuffer, off int, format string, args ...any) {
	p.errorAt(b, b.posOf(off), format, args...)
}

// nameTooLong reports, at at, the directive, macro or macro-parameter name
// src[from:to] of b when it is longer than a token may be (MaxTokenBytes):
// such a name would be copied into every message and map that holds it.
func (p *preprocessor) nameTooLong(b *ppBuffer, at, from, to int, what string) bool {
	if to-from <= maxTokenBytes {
		return false
	}
	if b.active() {
		p.errorf(b, at, "%s %s... is %d bytes long, more than %s, the limit on one token (fixed)", what, b.src[from:from+16], to-from, byteSize(maxTokenBytes))
	}
	return true
}

// stopped reports whether scanning b must end because a limit was hit.
func (p *preprocessor) stopped(b *ppBuffer) bool {
	return p.dead || p.abortMacro && b.depth > 0 || p.abortInclude && b.inc > 0
}

// spend charges n bytes of macro expansion text, or of an included file, to
// the compilation's budget; false means the budget is spent and everything
// stops.
func (p *preprocessor) spend(b *ppBuffer, off, n int, include bool) bool {
	used, limit, least, what := &p.macroWork, preprocessMacroLimit, ppExpansionCost, "macro expansions"
	if include {
		used, limit, least, what = &p.includeWork, preprocessIncludeLimit, ppIncludeCost, "included files"
	}
	*used += max(n, least)
	if *used > limit {
		p.errorf(b, off, "preprocessing stopped: %s produced more than %d MiB of text (a runaway macro or include?)", what, limit>>20)
		p.dead = true
		return false
	}
	return true
}

func (p *preprocessor) runFile(f *File, inc int) {
	if inc == 0 {
		// Most input text is copied through: size the output once instead
		// of doubling it (and the span list) all the way up.
		p.out.Text = slices.Grow(p.out.Text, len(f.Src)+len(f.Src)/8)
		p.out.spans = slices.Grow(p.out.spans, len(f.Src)/16)
	}
	p.run(&ppBuffer{src: f.Src, file: f, dir: filepath.Dir(f.Name), inc: inc})
	// Without a final newline the next file's (or the including line's)
	// text would join this file's last line, possibly inside a // comment.
	if n := len(f.Src); !p.dead && n > 0 && f.Src[n-1] != '\n' {
		p.out.AppendAt([]byte{'\n'}, f.PosOf(n))
	}
}

// run scans b, copying text and executing directives and macro uses.
func (p *preprocessor) run(b *ppBuffer) {
	src := b.src
	start, i := 0, 0
	for i < len(src) {
		switch c := src[i]; c {
		case '"':
			i = ppSkipString(src, i)
		case '/':
			switch {
			case i+1 < len(src) && src[i+1] == '/':
				i = ppLineEnd(src, i)
			case i+1 < len(src) && src[i+1] == '*':
				e := ppCommentEnd(src, i)
				if e < 0 {
					p.errorf(b, i, "unterminated block comment: missing */")
					e = len(src)
				}
				i = e
			default:
				i++
			}
		case '\\':
			i = ppSkipEscaped(src, i)
		case '`':
			p.emit(b, start, i)
			i = p.directive(b, i)
			start = i
			if p.stopped(b) {
				return
			}
		default:
			i++
		}
	}
	p.emit(b, start, len(src))
	where := "file"
	if b.file == nil {
		where = "macro expansion"
	}
	for _, c := range b.conds {
		p.errorAt(b, c.pos, "missing `endif: `%s %s is still open at the end of the %s", c.kw, c.name, where)
	}
}

// emit copies src[from:to] of b to the output, or only its newlines when b
// is in an inactive `ifdef branch.
func (p *preprocessor) emit(b *ppBuffer, from, to int) {
	if from >= to {
		return
	}
	if !b.active() {
		p.emitNewlines(b, from, to)
		return
	}
	if b.file != nil {
		p.out.AppendVerbatim(b.file, from, to-from)
	} else {
		p.out.AppendAt(b.src[from:to], b.pos)
	}
}

// emitNewlines keeps the line structure of text that is dropped.
func (p *preprocessor) emitNewlines(b *ppBuffer, from, to int) {
	for from < to {
		k := bytes.IndexByte(b.src[from:to], '\n')
		if k < 0 {
			return
		}
		p.newline(b, from+k)
		from += k + 1
	}
}

func (p *preprocessor) newline(b *ppBuffer, off int) {
	if b.file != nil {
		p.out.AppendVerbatim(b.file, off, 1)
	} else {
		p.out.AppendAt([]byte{'\n'}, b.pos)
	}
}

// directive handles the backtick at bt and returns where scanning resumes.
func (p *preprocessor) directive(b *ppBuffer, bt int) int {
	src := b.src
	nameEnd := ppIdentEnd(src, bt+1)
	if p.nameTooLong(b, bt, bt+1, nameEnd, "directive or macro name") {
		return nameEnd
	}
	name := string(src[bt+1 : nameEnd])
	if name == "" {
		if b.active() {
			p.errorf(b, bt, "stray '`': expected a directive or macro name after it")
		}
		return bt + 1
	}
	switch name {
	case "ifdef", "ifndef", "elsif", "else", "endif":
		return p.conditional(b, bt, name, nameEnd)
	case "define":
		// Scanned even when inactive, so a continued body cannot end the
		// inactive region early.
		text, end := p.defineText(b, nameEnd)
		if b.active() {
			if m, msg := ppParseDefine(text); msg != "" {
				p.errorf(b, bt, "%s", msg)
			} else {
				p.macros[m.name] = m
			}
		}
		return end
	}
	if !b.active() {
		return nameEnd
	}
	switch {
	case name == "undef":
		k := ppSkipHSpace(src, nameEnd)
		e := ppIdentEnd(src, k)
		if e == k {
			p.errorf(b, bt, "`undef needs a macro name: `undef NAME")
			return nameEnd
		}
		if p.nameTooLong(b, k, k, e, "macro name") {
			return e
		}
		delete(p.macros, string(src[k:e]))
		return e
	case name == "undefineall":
		p.macros = map[string]*ppMacro{}
		return nameEnd
	case name == "include":
		return p.include(b, bt, nameEnd)
	case name == "timescale":
		return p.timescale(b, bt, nameEnd)
	case ppDropLine[name]:
		return p.skipLine(b, nameEnd)
	case ppDropWord[name]:
		return nameEnd
	}
	return p.macroUse(b, bt, name, nameEnd)
}

func (p *preprocessor) defined(name string) bool {
	return name != "" && (p.macros[name] != nil || name == "__FILE__" || name == "__LINE__")
}

// conditional handles `ifdef, `ifndef, `elsif, `else and `endif.
func (p *preprocessor) conditional(b *ppBuffer, bt int, kw string, j int) int {
	src := b.src
	n := len(b.conds)
	var top *ppCond
	if n > 0 {
		top = &b.conds[n-1]
	}
	switch kw {
	case "else":
		switch {
		case top == nil:
			p.errorf(b, bt, "`else without `ifdef")
		case top.sawElse:
			p.errorf(b, bt, "second `else for `%s %s", top.kw, top.name)
			top.on = false
		default:
			top.sawElse = true
			top.on = top.parent && !top.taken
			top.taken = true
		}
		return j
	case "endif":
		if top == nil {
			p.errorf(b, bt, "`endif without `ifdef")
		} else {
			b.conds = b.conds[:n-1]
		}
		return j
	}
	k := ppSkipHSpace(src, j)
	end := ppIdentEnd(src, k)
	var name string
	if p.nameTooLong(b, k, k, end, "macro name") {
		// Its start, as a name no macro has.
		name = string(src[k:k+16]) + "..."
	} else {
		name = string(src[k:end])
	}
	if name == "" {
		end = j
	}
	if kw == "elsif" {
		switch {
		case top == nil:
			p.errorf(b, bt, "`elsif without `ifdef")
		case top.sawElse:
			p.errorf(b, bt, "`elsif after `else of `%s %s", top.kw, top.name)
			top.on = false
		default:
			if name == "" && top.parent && !top.taken {
				p.errorf(b, bt, "`elsif needs a macro name: `elsif NAME")
			}
			top.on = top.parent && !top.taken && p.defined(name)
			if top.on {
				top.taken = true
			}
		}
		return end
	}
	parent := b.active()
	if name == "" && parent {
		p.errorf(b, bt, "`%s needs a macro name: `%s NAME", kw, kw)
	}
	on := parent && p.defined(name) == (kw == "ifdef")
	b.conds = append(b.conds, ppCond{pos: b.posOf(bt), kw: kw, name: name, parent: parent, taken: on, on: on})
	return end
}

// defineText reads a `define from src[i:] up to the first newline not
// preceded by a backslash and returns its text, with comments removed and
// continuations turned into newlines, and the offset of that ending newline
// (which is left for the caller as ordinary text). Newlines consumed on the
// way are emitted so the output keeps its line structure.
func (p *preprocessor) defineText(b *ppBuffer, i int) ([]byte, int) {
	src := b.src
	var out []byte
	inStr := false // inside `" ... `", where // is text, not a comment
	for i < len(src) {
		c := src[i]
		switch {
		case c == '\n':
			return out, i
		case c == '\\':
			if nl := ppContinuation(src, i); nl > 0 {
				out = append(out, '\n')
				p.newline(b, nl)
				i = nl + 1
				continue
			}
			// Keep escapes whole so \" does not end a string.
			e := min(i+2, len(src))
			out = append(out, src[i:e]...)
			i = e
		case c == '`' && i+1 < len(src) && src[i+1] == '"':
			inStr = !inStr
			out = append(out, '`', '"')
			i += 2
		case c == '"' && !inStr:
			out = append(out, '"')
			i++
		str:
			for i < len(src) && src[i] != '\n' {
				switch {
				case ppContinuation(src, i) > 0:
					nl := ppContinuation(src, i)
					out = append(out, '\n')
					p.newline(b, nl)
					i = nl + 1
				case src[i] == '\\' && i+1 < len(src) && src[i+1] != '\n':
					out = append(out, src[i], src[i+1])
					i += 2
				default:
					out = append(out, src[i])
					i++
					if src[i-1] == '"' {
						break str
					}
				}
			}
		case c == '/' && i+1 < len(src) && src[i+1] == '/' && !inStr:
			// A // comment is not part of the body, but a backslash
			// ending its line still continues the definition.
			e := ppLineEnd(src, i)
			if e == len(src) {
				return out, e
			}
			if nl := ppContinuation(src, ppLastNonCR(src, i, e)); nl == e {
				out = append(out, '\n')
				p.newline(b, e)
				i = e + 1
				continue
			}
			return out, e
		case c == '/' && i+1 < len(src) && src[i+1] == '*' && !inStr:
			e := ppCommentEnd(src, i)
			if e < 0 {
				p.errorf(b, i, "unterminated block comment: missing */")
				p.emitNewlines(b, i, len(src))
				return out, len(src)
			}
			p.emitNewlines(b, i, e)
			out = append(out, ' ')
			i = e
		default:
			out = append(out, c)
			i++
		}
	}
	return out, len(src)
}

// continuation returns the offset of the newline when src[i] is a backslash
// ending its line (\ LF or \ CR LF), else -1.
func ppContinuation(src []byte, i int) int {
	if i < 0 || i >= len(src) || src[i] != '\\' {
		return -1
	}
	if i+1 < len(src) && src[i+1] == '\n' {
		return i + 1
	}
	if i+2 < len(src) && src[i+1] == '\r' && src[i+2] == '\n' {
		return i + 2
	}
	return -1
}

// lastNonCR returns the offset of the last byte of src[from:to] that is not
// a carriage return, or -1.
func ppLastNonCR(src []byte, from, to int) int {
	for k := to - 1; k >= from; k-- {
		if src[k] != '\r' {
			return k
		}
	}
	return -1
}

// parseDefine parses the text after `define: NAME, an optional parameter
// list that must follow the name without a space, and the body. It returns
// a message instead of a macro when the text is malformed.
func ppParseDefine(text []byte) (*ppMacro, string) {
	i := ppSkipSpace(text, 0)
	e := ppIdentEnd(text, i)
	if e == i {
		return nil, "`define needs a macro name: `define NAME text"
	}
	if e-i > maxTokenBytes {
		return nil, fmt.Sprintf("macro name %s... is %d bytes long, more than %s, the limit on one token (fixed)", text[i:i+16], e-i, byteSize(maxTokenBytes))
	}
	m := &ppMacro{name: string(text[i:e])}
	if ppDirectives[m.name] {
		return nil, fmt.Sprintf("cannot `define %s: `%s is a compiler directive", m.name, m.name)
	}
	i = e
	if i < len(text) && text[i] == '(' {
		m.fn = true
		params, next, msg := ppParseParams(text, i, m.name)
		if msg != "" {
			return nil, msg
		}
		m.params, i = params, next
	}
	m.body = bytes.TrimSpace(text[i:])
	return m, ""
}

// parseParams parses "(a, b = default)" at text[i].
func ppParseParams(text []byte, i int, name string) ([]ppParam, int, string) {
	unterminated := fmt.Sprintf("unterminated parameter list in `define %s: missing ')'", name)
	var ps []ppParam
	i++
	for {
		i = ppSkipSpace(text, i)
		if i >= len(text) {
			return nil, 0, unterminated
		}
		if text[i] == ')' && len(ps) == 0 {
			return nil, i + 1, ""
		}
		e := ppIdentEnd(text, i)
		if e == i {
			return nil, 0, fmt.Sprintf("bad parameter list in `define %s: expected a parameter name, found %q", name, text[i])
		}
		prm := ppParam{name: string(text[i:e])}
		for _, q := range ps {
			if q.name == prm.name {
				return nil, 0, fmt.Sprintf("bad parameter list in `define %s: parameter %s appears twice", name, prm.name)
			}
		}
		i = ppSkipSpace(text, e)
		if i < len(text) && text[i] == '=' {
			d, next, ok := ppScanArg(text, i+1)
			if !ok {
				return nil, 0, unterminated
			}
			prm.def, prm.hasDef, i = d, true, next
		}
		ps = append(ps, prm)
		if i >= len(text) {
			return nil, 0, unterminated
		}
		switch text[i] {
		case ',':
			i++
		case ')':
			return ps, i + 1, ""
		default:
			return nil, 0, fmt.Sprintf("bad parameter list in `define %s: expected ',' or ')' after %s", name, prm.name)
		}
	}
}

// scanArg reads one macro argument from src[i:] up to the ',' or ')' that
// ends it at nesting level zero and returns it trimmed, with comments
// removed, and the offset of that delimiter. ok is false when the text ends
// first.
func ppScanArg(src []byte, i int) (arg []byte, end int, ok bool) {
	depth := 0
	for i < len(src) {
		c := src[i]
		switch {
		case c == '"':
			e := ppSkipString(src, i)
			arg = append(arg, src[i:e]...)
			i = e
		case c == '/' && i+1 < len(src) && src[i+1] == '/':
			i = ppLineEnd(src, i)
		case c == '/' && i+1 < len(src) && src[i+1] == '*':
			e := ppCommentEnd(src, i)
			if e < 0 {
				return nil, len(src), false
			}
			arg = append(arg, ' ')
			i = e
		case c == '\\':
			e := ppSkipEscaped(src, i)
			arg = append(arg, src[i:e]...)
			i = e
		case c == '(' || c == '[' || c == '{':
			depth++
			arg = append(arg, c)
			i++
		case c == ')' || c == ']' || c == '}':
			if depth == 0 && c == ')' {
				return bytes.TrimSpace(arg), i, true
			}
			if depth > 0 {
				depth--
			}
			arg = append(arg, c)
			i++
		case c == ',' && depth == 0:
			return bytes.TrimSpace(arg), i, true
		default:
			arg = append(arg, c)
			i++
		}
	}
	return nil, len(src), false
}

// skipLine skips the arguments of a dropped directive up to the end of its
// line, honouring strings and comments.
func (p *preprocessor) skipLine(b *ppBuffer, i int) int {
	src := b.src
	for i < len(src) {
		c := src[i]
		switch {
		case c == '\n':
			return i
		case c == '"':
			i++
			for i < len(src) && src[i] != '"' && src[i] != '\n' {
				if src[i] == '\\' && i+1 < len(src) && src[i+1] != '\n' {
					i++
				}
				i++
			}
			if i < len(src) && src[i] == '"' {
				i++
			}
		case c == '/' && i+1 < len(src) && src[i+1] == '/':
			return ppLineEnd(src, i)
		case c == '/' && i+1 < len(src) && src[i+1] == '*':
			e := ppCommentEnd(src, i)
			if e < 0 {
				p.errorf(b, i, "unterminated block comment: missing */")
				e = len(src)
			}
			p.emitNewlines(b, i, e)
			i = e
		default:
			i++
		}
	}
	return i
}

// include handles `include "file" / <file> / `MACRO; j follows the keyword.
func (p *preprocessor) include(b *ppBuffer, bt, j int) int {
	src := b.src
	k := ppSkipHSpace(src, j)
	var spec []byte
	end := k
	switch {
	case k < len(src) && src[k] == '`':
		// The file name comes from a macro: expand it on the side.
		e := ppIdentEnd(src, k+1)
		if p.nameTooLong(b, k, k+1, e, "macro name") {
			return e
		}
		name := string(src[k+1 : e])
		if name == "" || ppDirectives[name] {
			p.errorf(b, bt, "`include needs a file name: `include \"file.svh\"")
			return j
		}
		saved, errs := p.out, p.diags.ErrorCount()
		p.out = &Source{}
		end = p.macroUse(b, k, name, e)
		spec = bytes.TrimSpace(p.out.Text)
		p.out = saved
		if p.stopped(b) || p.diags.ErrorCount() > errs {
			return end // the macro's own error says what went wrong
		}
	case k < len(src) && (src[k] == '"' || src[k] == '<'):
		closer := byte('"')
		if src[k] == '<' {
			closer = '>'
		}
		le := ppLineEnd(src, k)
		c := bytes.IndexByte(src[k+1:le], closer)
		if c < 0 {
			p.errorf(b, bt, "`include file name is missing its closing %c", closer)
			return le
		}
		end = k + 1 + c + 1
		spec = src[k:end]
	}
	if len(spec) > ppMaxPath+2 {
		p.errorf(b, bt, "`include file name %s... is %d bytes long; no path is longer than %d bytes", spec[:16], len(spec)-2, ppMaxPath)
		return end
	}
	var name string
	if len(spec) >= 2 && (spec[0] == '"' && spec[len(spec)-1] == '"' || spec[0] == '<' && spec[len(spec)-1] == '>') {
		name = string(spec[1 : len(spec)-1])
	}
	if name == "" {
		p.errorf(b, bt, "`include needs a file name: `include \"file.svh\"")
		if end == k {
			return j
		}
		return end
	}
	if b.inc >= ppMaxIncludeDepth {
		p.errorf(b, bt, "`include \"%s\" nests more than %d files deep (does a file include itself without an include guard?)", name, ppMaxIncludeDepth)
		p.abortInclude = true
		return end
	}
	f := p.findInclude(b, bt, name)
	if f == nil || !p.spend(b, bt, len(f.Src), true) {
		return end
	}
	p.runFile(f, b.inc+1)
	if b.inc == 0 {
		p.abortInclude = false
	}
	return end
}

// findInclude looks for name in the including file's directory, then in
// IncludeDirs, and reads the first match (once per compilation).
func (p *preprocessor) findInclude(b *ppBuffer, bt int, name string) *File {
	dirs := append([]string{b.dir}, p.opts.IncludeDirs...)
	if filepath.IsAbs(name) {
		dirs = []string{""}
	}
	for _, d := range dirs {
		path := filepath.Join(d, name)
		if f := p.files[path]; f != nil {
			return f
		}
		data, err := p.readFile(path)
		if err == nil {
			f := p.fs.Add(path, ppSkipBOM(data))
			p.files[path] = f
			return f
		}
		if !errors.Is(err, os.ErrNotExist) {
			p.errorf(b, bt, "%s", ppReadError("include file ", path, err))
			return nil
		}
	}
	quoted := make([]string, len(dirs))
	for i, d := range dirs {
		quoted[i] = strconv.Quote(d)
	}
	p.errorf(b, bt, "include file \"%s\" not found (searched %s); add its directory to the include path", name, strings.Join(quoted, ", "))
	return nil
}

// macroUse expands the use of macro name whose backtick is at bt; nameEnd
// follows the name. It returns where scanning resumes.
func (p *preprocessor) macroUse(b *ppBuffer, bt int, name string, nameEnd int) int {
	src := b.src
	usePos := b.posOf(bt)
	m := p.macros[name]
	if m == nil {
		switch name {
		case "__FILE__":
			p.out.AppendAt([]byte(strconv.Quote(usePos.File)), usePos)
		case "__LINE__":
			p.out.AppendAt([]byte(strconv.Itoa(usePos.Line)), usePos)
		default:
			p.errorf(b, bt, "undefined macro `%s", truncateForMsg(name))
		}
		return nameEnd
	}
	if !m.fn {
		p.expand(b, bt, m, nil, usePos)
		return nameEnd
	}
	k := ppSkipSpace(src, nameEnd)
	if k >= len(src) || src[k] != '(' {
		p.errorf(b, bt, "macro `%s takes arguments: use `%s(...)", name, name)
		return nameEnd
	}
	var args [][]byte
	end := 0
	for i := k + 1; ; {
		a, e, ok := ppScanArg(src, i)
		if !ok {
			p.errorf(b, bt, "unterminated argument list for macro `%s: missing ')'", name)
			return nameEnd
		}
		args = append(args, a)
		if src[e] == ')' {
			end = e + 1
			break
		}
		i = e + 1
	}
	np := len(m.params)
	if np == 0 && len(args) == 1 && len(args[0]) == 0 {
		args = nil // `F() of a macro defined as `define F()
	}
	if len(args) > np {
		p.errorf(b, bt, "macro `%s expects %s, got %d", name, ppPlural(np, "argument"), len(args))
		return end
	}
	actual := make([][]byte, np)
	for j, prm := range m.params {
		switch {
		case j < len(args) && len(args[j]) > 0:
			actual[j] = args[j]
		case prm.hasDef:
			actual[j] = prm.def
		case j >= len(args):
			p.errorf(b, bt, "macro `%s expects %s, got %d (%s has no default)", name, ppPlural(np, "argument"), len(args), prm.name)
			return end
		}
		// An explicitly empty argument without a default is empty text.
	}
	p.expand(b, bt, m, actual, usePos)
	return end
}

func ppPlural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return strconv.Itoa(n) + " " + word + "s"
}

// expand substitutes args into m's body and rescans the result, reporting
// all of it at usePos.
func (p *preprocessor) expand(b *ppBuffer, bt int, m *ppMacro, args [][]byte, usePos Pos) {
	if b.depth >= ppMaxMacroDepth {
		p.diags.Errorf(usePos, "macro `%s nests more than %d expansions deep (does it expand to itself?)", m.name, ppMaxMacroDepth)
		if p.diags.TooMany() {
			p.dead = true
		}
		p.abortMacro = true
		return
	}
	text := ppSubstitute(m, args)
	if !p.spend(b, bt, len(text), false) {
		return
	}
	p.run(&ppBuffer{src: text, pos: usePos, macro: m.name, dir: b.dir, depth: b.depth + 1, inc: b.inc})
	if b.depth == 0 {
		p.abortMacro = false
	}
}

// substitute builds the text of one expansion: parameters replaced by their
// arguments, the paste operator (two backticks) removed, `" and `\`" turned
// into quotes. Parameters are not replaced inside ordinary string literals,
// only inside `"...`".
func ppSubstitute(m *ppMacro, args [][]byte) []byte {
	body := m.body
	out := make([]byte, 0, len(body)+16)
	inStr := false
	for i := 0; i < len(body); {
		c := body[i]
		switch {
		case c == '`' && i+1 < len(body) && body[i+1] == '`':
			i += 2
		case c == '`' && i+1 < len(body) && body[i+1] == '"':
			out = append(out, '"')
			inStr = !inStr
			i += 2
		case c == '`' && i+3 < len(body) && body[i+1] == '\\' && body[i+2] == '`' && body[i+3] == '"':
			out = append(out, '\\', '"')
			i += 4
		case c == '`':
			// A macro or directive name: a different namespace from the
			// parameters, so it is copied as is.
			e := ppIdentEnd(body, i+1)
			out = append(out, body[i:e]...)
			i = e
		case c == '"' && !inStr:
			e := ppSkipString(body, i)
			out = append(out, body[i:e]...)
			i = e
		case c == '\\':
			e := min(i+2, len(body))
			if !inStr {
				e = ppSkipEscaped(body, i)
			}
			out = append(out, body[i:e]...)
			i = e
		case ppIdentStart(c):
			e := ppIdentEnd(body, i)
			word := body[i:e]
			replaced := false
			for j, prm := range m.params {
				if j < len(args) && string(word) == prm.name {
					if inStr {
						out = ppAppendStringified(out, args[j])
					} else {
						out = append(out, args[j]...)
					}
					replaced = true
					break
				}
			}
			if !replaced {
				out = append(out, word...)
			}
			i = e
		case c == '$' || c >= '0' && c <= '9':
			// Numbers and system names: never a parameter.
			e := i + 1
			for e < len(body) && ppIdentChar(body[e]) {
				e++
			}
			out = append(out, body[i:e]...)
			i = e
		default:
			out = append(out, c)
			i++
		}
	}
	return out
}

// ppAppendStringified appends a macro argument that lands inside `"...`".
// An argument may span lines (`ASSERT(name, a |->\n b)), but a string
// literal may not, so each run of white space holding a line break becomes
// one space, as other tools do.
func ppAppendStringified(out, arg []byte) []byte {
	for i := 0; i < len(arg); {
		c := arg[i]
		if !ppIsSpace(c) {
			out = append(out, c)
			i++
			continue
		}
		e := i
		nl := false
		for e < len(arg) && ppIsSpace(arg[e]) {
			nl = nl || arg[e] == '\n'
			e++
		}
		if nl {
			out = append(out, ' ')
		} else {
			out = append(out, arg[i:e]...)
		}
		i = e
	}
	return out
}

func ppIdentStart(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_'
}

func ppIdentChar(c byte) bool {
	return ppIdentStart(c) || c >= '0' && c <= '9' || c == '$'
}

// identEnd returns the end of the identifier starting at src[i], or i.
func ppIdentEnd(src []byte, i int) int {
	if i >= len(src) || !ppIdentStart(src[i]) {
		return i
	}
	i++
	for i < len(src) && ppIdentChar(src[i]) {
		i++
	}
	return i
}

func ppIsSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'
}

// skipHSpace skips blanks on the current line.
func ppSkipHSpace(src []byte, i int) int {
	for i < len(src) && (src[i] == ' ' || src[i] == '\t' || src[i] == '\r' || src[i] == '\f' || src[i] == '\v') {
		i++
	}
	return i
}

// skipSpace skips blanks including newlines.
func ppSkipSpace(src []byte, i int) int {
	for i < len(src) && ppIsSpace(src[i]) {
		i++
	}
	return i
}

// skipString returns the offset after the string literal opening at src[i].
// A string unterminated on its line ends before the newline; the lexer
// reports it.
func ppSkipString(src []byte, i int) int {
	for j := i + 1; j < len(src); j++ {
		switch src[j] {
		case '\\':
			j++ // an escape, or a backslash-newline continuation
		case '"':
			return j + 1
		case '\n':
			return j
		}
	}
	return len(src)
}

// skipEscaped skips an escaped identifier (\name up to white space), whose
// characters may include ` " and /, which must not be read as syntax.
func ppSkipEscaped(src []byte, i int) int {
	j := i + 1
	for j < len(src) && !ppIsSpace(src[j]) {
		j++
	}
	return j
}

// lineEnd returns the offset of the newline ending the line of src[i], or
// len(src).
func ppLineEnd(src []byte, i int) int {
	if k := bytes.IndexByte(src[i:], '\n'); k >= 0 {
		return i + k
	}
	return len(src)
}

// commentEnd returns the offset after the */ closing the block comment that
// opens at src[i], or -1.
func ppCommentEnd(src []byte, i int) int {
	if k := bytes.Index(src[i+2:], []byte("*/")); k >= 0 {
		return i + 2 + k + 2
	}
	return -1
}
