package hdl

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Severity says whether a diagnostic stops the compilation.
type Severity int

const (
	SeverityError Severity = iota
	SeverityWarning
)

func (s Severity) String() string {
	if s == SeverityWarning {
		return "warning"
	}
	return "error"
}

// Diagnostic is one source problem: where it is, how bad, and what to do.
// LineText is the offending source line, captured when the diagnostic is made
// so the message stays self-contained after the FileSet is gone. Code names
// a warning's kind (see warncode.go); errors have none.
type Diagnostic struct {
	Pos      Pos
	Severity Severity
	Msg      string
	Code     string
	LineText string
	// caretCol is the caret's column in LineText when LineText is a window
	// of a long line (see quoteLine); 0 means Pos.Col.
	caretCol int
}

// Error formats the diagnostic as
//
//	file:line:col: error: message
//	file:line:col: warning: message [CODE]
//	    the source line
//	        ^
func (d *Diagnostic) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s: %s", d.Pos, d.Severity, d.Msg)
	if d.Code != "" {
		fmt.Fprintf(&b, " [%s]", d.Code)
	}
	if d.LineText != "" && d.Pos.Col > 0 {
		col := d.Pos.Col
		if d.caretCol > 0 {
			col = d.caretCol
		}
		b.WriteString("\n    ")
		b.WriteString(d.LineText)
		b.WriteString("\n    ")
		// Keep tabs so the caret lines up under tab-indented source.
		for i := 0; i < col-1 && i < len(d.LineText); i++ {
			if d.LineText[i] == '\t' {
				b.WriteByte('\t')
			} else {
				b.WriteByte(' ')
			}
		}
		b.WriteByte('^')
	}
	return b.String()
}

// MaxErrors bounds how many errors one Diagnostics collects; past it the
// compilation is abandoned so a pathological input cannot flood the output.
const MaxErrors = 50

// Diagnostics collects the problems of one compilation, in the order found.
// Warnings turned off (Suppress, lint_off comments) are counted in
// Suppressed and not listed.
type Diagnostics struct {
	Files      *FileSet
	List       []*Diagnostic
	Suppressed int

	off map[string]bool // codes turned off by Suppress
}

// NewDiagnostics returns a collector that quotes lines from fs (which may be nil).
func NewDiagnostics(fs *FileSet) *Diagnostics { return &Diagnostics{Files: fs} }

// Errorf records an error at p.
func (ds *Diagnostics) Errorf(p Pos, format string, args ...any) {
	ds.add(p, SeverityError, fmt.Sprintf(format, args...))
}

// Warnf records a warning at p without a code; prefer Warnc, whose code
// lets users turn the warning off.
func (ds *Diagnostics) Warnf(p Pos, format string, args ...any) {
	ds.Warnc(p, "", format, args...)
}

// Warnc records a warning with code at p, unless the code is turned off
// there.
func (ds *Diagnostics) Warnc(p Pos, code, format string, args ...any) {
	if ds.suppressed(p, code) {
		ds.Suppressed++
		return
	}
	ds.add(p, SeverityWarning, fmt.Sprintf(format, args...)).Code = code
}

func (ds *Diagnostics) add(p Pos, sev Severity, msg string) *Diagnostic {
	d := &Diagnostic{Pos: p, Severity: sev, Msg: msg}
	if sev == SeverityError && ds.TooMany() {
		return d
	}
	if ds.Files != nil {
		d.LineText, d.caretCol = ds.Files.quote(p)
	}
	ds.List = append(ds.List, d)
	return d
}

// ErrorCount is the number of errors recorded (warnings excluded).
func (ds *Diagnostics) ErrorCount() int {
	n := 0
	for _, d := range ds.List {
		if d.Severity == SeverityError {
			n++
		}
	}
	return n
}

// TooMany reports whether the error limit is reached; long-running stages
// check it to stop early.
func (ds *Diagnostics) TooMany() bool { return ds.ErrorCount() >= MaxErrors }

// Warnings returns the warnings recorded so far.
func (ds *Diagnostics) Warnings() []*Diagnostic {
	var w []*Diagnostic
	for _, d := range ds.List {
		if d.Severity == SeverityWarning {
			w = append(w, d)
		}
	}
	return w
}

// Err returns nil when no error was recorded, otherwise an error listing every
// diagnostic (warnings included, so their context is not lost).
func (ds *Diagnostics) Err() error {
	if ds.ErrorCount() == 0 {
		return nil
	}
	return &ErrorList{List: ds.List}
}

// ErrorList is the error a failed compilation returns: every diagnostic, in
// source order of discovery. errors.As(err, &list) gives callers the items.
type ErrorList struct {
	List []*Diagnostic
}

func (e *ErrorList) Error() string {
	parts := make([]string, 0, len(e.List)+1)
	errs := 0
	for _, d := range e.List {
		parts = append(parts, d.Error())
		if d.Severity == SeverityError {
			errs++
		}
	}
	if errs >= MaxErrors {
		parts = append(parts, fmt.Sprintf("too many errors (%d), stopping", errs))
	}
	return strings.Join(parts, "\n")
}

// First returns the first error diagnostic, or nil.
func (e *ErrorList) First() *Diagnostic {
	for _, d := range e.List {
		if d.Severity == SeverityError {
			return d
		}
	}
	return nil
}

// maxQuote bounds the source quoted under a diagnostic: a generated line
// can be megabytes long, and quoting all of it buries the message.
const maxQuote = 240

// quoteLine returns the part of line to quote for a diagnostic at column
// col, and the caret's column in it when that is not col: a long line is
// cut to a window around the column, the cuts marked with "...".
func quoteLine[T string | []byte](line T, col int) (string, int) {
	if len(line) <= maxQuote || col < 1 {
		return string(line), 0
	}
	at := min(col-1, len(line))
	start := max(0, at-maxQuote/2)
	end := min(len(line), start+maxQuote)
	for start > 0 && !utf8.RuneStart(line[start]) {
		start--
	}
	for end < len(line) && !utf8.RuneStart(line[end]) {
		end++
	}
	q, caret := string(line[start:end]), at-start+1
	if start > 0 {
		q, caret = "..."+q, caret+3
	}
	if end < len(line) {
		q += "..."
	}
	return q, caret
}
