package sim

import (
	"bytes"
	"errors"
	"fmt"
	"math/big"
	"strings"

	"github.com/weft-hdl/weft/internal/fileread"
	"github.com/weft-hdl/weft/program"
)

// DefaultMaxMemFileBytes is the default Options.MaxMemFileBytes: room for a
// memory image of tens of millions of words, far below what reading a device
// or a runaway file would take.
const DefaultMaxMemFileBytes = 256 << 20

// MaxMemWordBytes bounds one word of a $readmem file: a 4-Mbit element in
// hexadecimal. A longer word is junk (a file of binary data, say), and
// parsing it would hold several copies of it.
const MaxMemWordBytes = 1 << 20

// readmem performs one $readmemh/$readmemb into state memory.
func (s *Simulator) readmem(r program.Readmem) error {
	limit := s.opts.MaxMemFileBytes
	if limit <= 0 {
		limit = DefaultMaxMemFileBytes
	}
	src, err := fileread.Read(r.File, limit)
	if err != nil {
		var nr *fileread.NotRegularError
		var big *fileread.TooLargeError
		switch {
		case errors.As(err, &nr):
			return fmt.Errorf("%s: %s file %s is not a regular file (%s); weft reads only regular files", r.Pos, r.Task(), r.File, fileread.Kind(nr.Mode))
		case errors.As(err, &big):
			return fmt.Errorf("%s: %s file %s is larger than %s, the limit on memory files (raise it with --max-memfile-mb)", r.Pos, r.Task(), r.File, fileread.Size(big.Limit))
		}
		return fmt.Errorf("%s: %w", r.Pos, err)
	}
	h := s.p.Signals[r.Signal]
	lo, hi := 0, h.Elems()-1 // addresses; element = address - base
	base := 0
	if len(h.Unpacked) == 1 {
		base = h.Unpacked[0].Lo()
		lo, hi = base, base+h.Elems()-1
	}
	start, end := lo, hi
	if r.Start >= 0 {
		start = r.Start
	}
	if r.End >= 0 {
		end = r.End
	}
	for _, a := range []int{start, end} {
		if a < lo || a > hi {
			return fmt.Errorf("%s: address %d outside %s [%d:%d]", r.Pos, a, h.Path, lo, hi)
		}
	}
	dir := 1
	if end < start {
		dir = -1
	}
	addr := start
	// Words are stored as they are parsed, so that a file with more words
	// than the memory holds stops at the first extra one instead of being
	// held whole as parsed words first.
	err = parseMem(r.File, src, r.Hex, func(w MemWord) error {
		if w.At {
			addr = w.Addr
			if w.Addr < lo || w.Addr > hi || (w.Addr-start)*dir < 0 || (end-w.Addr)*dir < 0 {
				return fmt.Errorf("%s:%d: address @%x outside the range loaded [%d:%d]", r.File, w.Line, w.Addr, start, end)
			}
			return nil
		}
		if (addr-start)*dir < 0 || (end-addr)*dir < 0 {
			return fmt.Errorf("%s:%d: more words than the range [%d:%d] of %s holds", r.File, w.Line, start, end, h.Path)
		}
		ws, _ := BigToWords(maskBig(w.Value, h.Width), h.Width)
		if err := s.write(h, addr-base, ws); err != nil {
			return fmt.Errorf("%s:%d: %w", r.File, w.Line, err)
		}
		addr += dir
		return nil
	})
	if err != nil {
		return fmt.Errorf("%s: %w", r.Pos, err)
	}
	return nil
}

// MemWord is one item of a $readmem file: an address (At) or a value.
type MemWord struct {
	Line  int
	At    bool
	Addr  int
	Value *big.Int
}

// ParseMem parses the text of a $readmemh (hex) or $readmemb file: white
// space separated values (underscores allowed; x, z and ? digits read as
// 0), @hex addresses, // and /* */ comments. Errors name file:line.
func ParseMem(file string, src []byte, hex bool) ([]MemWord, error) {
	var out []MemWord
	err := parseMem(file, src, hex, func(w MemWord) error {
		out = append(out, w)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// parseMem is ParseMem handing each item to fn as it is parsed; an error
// from fn stops it.
func parseMem(file string, text []byte, hex bool, fn func(MemWord) error) error {
	line := 1
	for i := 0; i < len(text); {
		c := text[i]
		switch {
		case c == '\n':
			line++
			i++
		case c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v':
			i++
		case bytes.HasPrefix(text[i:], []byte("//")):
			for i < len(text) && text[i] != '\n' {
				i++
			}
		case bytes.HasPrefix(text[i:], []byte("/*")):
			startLine := line
			j := bytes.Index(text[i+2:], []byte("*/"))
			if j < 0 {
				return fmt.Errorf("%s:%d: unterminated /* comment", file, startLine)
			}
			line += bytes.Count(text[i:i+2+j], []byte("\n"))
			i += j + 4
		default:
			j := i
			for j < len(text) && !memSpace(text[j]) && !bytes.HasPrefix(text[j:], []byte("//")) && !bytes.HasPrefix(text[j:], []byte("/*")) {
				j++
			}
			if j-i > MaxMemWordBytes {
				return fmt.Errorf("%s:%d: a word of %d bytes (%q), more than %d, the limit on one word", file, line, j-i, memQuote(string(text[i:i+41])), MaxMemWordBytes)
			}
			tok := string(text[i:j])
			i = j
			var w MemWord
			if tok[0] == '@' {
				a, ok := parseDigits(tok[1:], 16)
				if !ok || !a.IsInt64() || a.Int64() > 1<<40 {
					return fmt.Errorf("%s:%d: bad address %q (want @ and hex digits)", file, line, memQuote(tok))
				}
				w = MemWord{Line: line, At: true, Addr: int(a.Int64())}
			} else {
				base := 2
				if hex {
					base = 16
				}
				v, ok := parseDigits(tok, base)
				if !ok {
					what := "binary"
					if hex {
						what = "hex"
					}
					return fmt.Errorf("%s:%d: bad %s word %q", file, line, what, memQuote(tok))
				}
				w = MemWord{Line: line, Value: v}
			}
			if err := fn(w); err != nil {
				return err
			}
		}
	}
	return nil
}

func memSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v'
}

// memQuote shortens a bad token for its message: a file of binary junk can
// be one token of any length.
func memQuote(tok string) string {
	if len(tok) > 40 {
		return tok[:40] + "..."
	}
	return tok
}

// parseDigits parses digits of base 2 or 16 with underscores; x/z/? are 0.
func parseDigits(tok string, base int) (*big.Int, bool) {
	var b strings.Builder
	for i := 0; i < len(tok); i++ {
		c := tok[i]
		switch {
		case c == '_' && i > 0:
			continue
		case c == 'x' || c == 'X' || c == 'z' || c == 'Z' || c == '?':
			b.WriteByte('0')
		case base == 16 && (c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'):
			b.WriteByte(c)
		case base == 2 && (c == '0' || c == '1'):
			b.WriteByte(c)
		default:
			return nil, false
		}
	}
	if b.Len() == 0 {
		return nil, false
	}
	return new(big.Int).SetString(b.String(), base)
}

// maskBig is v's low w bits (v non-negative).
func maskBig(v *big.Int, w int) *big.Int {
	if v.BitLen() <= w {
		return v
	}
	m := new(big.Int).Lsh(big.NewInt(1), uint(w))
	return new(big.Int).And(v, m.Sub(m, big.NewInt(1)))
}
