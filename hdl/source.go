package hdl

import "sort"

// Source is preprocessed text ready for the lexer: every input file with its
// directives executed and macros expanded, concatenated. Each byte of Text
// maps back to an original position: bytes copied verbatim map to their own
// file position, bytes produced by a macro expansion map to the macro use.
type Source struct {
	Text  []byte
	Files *FileSet
	// Timescales are the `timescale directives executed, in source order.
	Timescales []Timescale
	// Inputs names the input files, in order (not the included ones).
	Inputs []string
	spans  []span // sorted by outStart; span i covers [spans[i].outStart, spans[i+1].outStart)
}

// span is a run of output bytes with one origin.
type span struct {
	outStart int
	file     *File
	fileOff  int  // verbatim: file offset of outStart
	verbatim bool // false: every byte maps to pos
	pos      Pos
}

// AppendVerbatim appends src[off:off+n] of file f, keeping its positions.
func (s *Source) AppendVerbatim(f *File, off, n int) {
	if n <= 0 {
		return
	}
	if k := len(s.spans); k > 0 {
		last := s.spans[k-1]
		if last.verbatim && last.file == f && last.fileOff+(len(s.Text)-last.outStart) == off {
			s.Text = append(s.Text, f.Src[off:off+n]...)
			return
		}
	}
	s.spans = append(s.spans, span{outStart: len(s.Text), file: f, fileOff: off, verbatim: true})
	s.Text = append(s.Text, f.Src[off:off+n]...)
}

// AppendAt appends text whose every byte is attributed to pos (a macro
// expansion is reported at its use site).
func (s *Source) AppendAt(text []byte, pos Pos) {
	if len(text) == 0 {
		return
	}
	if k := len(s.spans); k > 0 {
		last := s.spans[k-1]
		if !last.verbatim && last.pos == pos {
			s.Text = append(s.Text, text...)
			return
		}
	}
	s.spans = append(s.spans, span{outStart: len(s.Text), verbatim: false, pos: pos})
	s.Text = append(s.Text, text...)
}

// PosAt maps an offset in Text to its original position.
func (s *Source) PosAt(off int) Pos {
	if len(s.spans) == 0 {
		return Pos{}
	}
	i := sort.Search(len(s.spans), func(i int) bool { return s.spans[i].outStart > off }) - 1
	if i < 0 {
		i = 0
	}
	sp := s.spans[i]
	if !sp.verbatim {
		return sp.pos
	}
	return sp.file.PosOf(sp.fileOff + off - sp.outStart)
}
