package hdl

import (
	"fmt"
	"sort"
)

// Pos is a position in an original source file. Line and Col are 1-based;
// Col counts bytes, which is what editors on ASCII HDL sources show.
type Pos struct {
	File string
	Line int
	Col  int
}

// IsValid reports whether p points into a file.
func (p Pos) IsValid() bool { return p.Line > 0 }

func (p Pos) String() string {
	if !p.IsValid() {
		if p.File != "" {
			return p.File
		}
		return "<unknown>"
	}
	return fmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Col)
}

// File is one source file as read from disk (or given as text), with the
// byte offsets of its line starts so offsets map to positions quickly.
type File struct {
	Name       string
	Src        []byte
	lineStarts []int
}

func newFile(name string, src []byte) *File {
	f := &File{Name: name, Src: src, lineStarts: []int{0}}
	for i, c := range src {
		if c == '\n' {
			f.lineStarts = append(f.lineStarts, i+1)
		}
	}
	return f
}

// PosOf maps a byte offset in the file to its position.
func (f *File) PosOf(off int) Pos {
	if off < 0 {
		off = 0
	}
	if off > len(f.Src) {
		off = len(f.Src)
	}
	line := sort.Search(len(f.lineStarts), func(i int) bool { return f.lineStarts[i] > off }) - 1
	return Pos{File: f.Name, Line: line + 1, Col: off - f.lineStarts[line] + 1}
}

// LineText returns line n (1-based) without its line terminator, or "" when
// the file has no such line.
func (f *File) LineText(n int) string {
	return string(f.line(n))
}

// line is LineText without the copy.
func (f *File) line(n int) []byte {
	if n < 1 || n > len(f.lineStarts) {
		return nil
	}
	start := f.lineStarts[n-1]
	end := len(f.Src)
	if n < len(f.lineStarts) {
		end = f.lineStarts[n] - 1
	}
	if end > start && f.Src[end-1] == '\r' {
		end--
	}
	return f.Src[start:end]
}

// FileSet holds every file one compilation read, so diagnostics raised by any
// stage (preprocessor, parser, elaboration) can quote the offending line.
type FileSet struct {
	files map[string]*File
	order []*File
	// lint holds each file's lint_off and lint_on comments in source
	// order, recorded by the lexer.
	lint map[string][]lintDirective
}

// NewFileSet returns an empty file set.
func NewFileSet() *FileSet { return &FileSet{files: map[string]*File{}} }

// Add registers a file's text under name and returns it. Adding the same name
// again replaces the earlier text.
func (fs *FileSet) Add(name string, src []byte) *File {
	f := newFile(name, src)
	if _, ok := fs.files[name]; !ok {
		fs.order = append(fs.order, f)
	} else {
		for i, g := range fs.order {
			if g.Name == name {
				fs.order[i] = f
			}
		}
	}
	fs.files[name] = f
	return f
}

// File returns the file registered under name, or nil.
func (fs *FileSet) File(name string) *File {
	if fs == nil {
		return nil
	}
	return fs.files[name]
}

// Files lists the registered files in the order they were added.
func (fs *FileSet) Files() []*File { return fs.order }

// LineText returns the source line p points into, or "".
func (fs *FileSet) LineText(p Pos) string {
	if f := fs.File(p.File); f != nil {
		return f.LineText(p.Line)
	}
	return ""
}

// quote is the part of the line p points into that a diagnostic at p
// quotes, and the caret's column in it (see quoteLine). Only that part is
// copied: a generated line can be as long as the file, and a copy of it
// for each of many diagnostics would take more memory than the file.
func (fs *FileSet) quote(p Pos) (string, int) {
	if f := fs.File(p.File); f != nil {
		return quoteLine(f.line(p.Line), p.Col)
	}
	return "", 0
}
