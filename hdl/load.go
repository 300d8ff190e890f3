package hdl

import (
	"fmt"
	"os"
)

// Load preprocesses inputs and parses the result: the front end in one call,
// for elaboration, cmd/weft and tests. fs and diags may be nil (fresh ones
// are made; pass your own to see the diagnostics). The result is never nil.
func Load(fs *FileSet, inputs []Input, opts PreprocessOptions, diags *Diagnostics) *SourceText {
	if fs == nil {
		fs = NewFileSet()
	}
	if diags == nil {
		diags = NewDiagnostics(fs)
	}
	src := Preprocess(fs, inputs, opts, diags)
	if diags.TooMany() {
		return &SourceText{}
	}
	return Parse(src, diags)
}

// ParseString preprocesses and parses one in-memory file. `include is not
// available (there are no include directories); use Load for that. The
// error, if any, is a *ErrorList holding every diagnostic.
func ParseString(name, text string) (*SourceText, *FileSet, error) {
	fs := NewFileSet()
	diags := NewDiagnostics(fs)
	opts := PreprocessOptions{ReadFile: func(path string) ([]byte, error) {
		return nil, fmt.Errorf("ParseString has no include files: %w", os.ErrNotExist)
	}}
	st := Load(fs, []Input{{Name: name, Src: append([]byte{}, text...)}}, opts, diags)
	return st, fs, diags.Err()
}
