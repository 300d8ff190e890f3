package sim

import (
	"fmt"
	"math/big"
	"os"
	"strings"

	"github.com/weft-hdl/weft/design"
	"github.com/weft-hdl/weft/kernels"
)

func readmemName(r kernels.Readmem) string {
	if r.Hex {
		return "$readmemh"
	}
	return "$readmemb"
}

// readmem performs one $readmemh/$readmemb into state memory.
func (s *Simulator) readmem(r kernels.Readmem) error {
	src, err := os.ReadFile(r.File)
	if err != nil {
		return fmt.Errorf("%s: %w", r.Pos, err)
	}
	words, err := ParseMem(r.File, src, r.Hex)
	if err != nil {
		return fmt.Errorf("%s: %w", r.Pos, err)
	}
	h := r.Home
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
	for _, w := range words {
		if w.At {
			addr = w.Addr
			if w.Addr < lo || w.Addr > hi || (w.Addr-start)*dir < 0 || (end-w.Addr)*dir < 0 {
				return fmt.Errorf("%s: %s:%d: address @%x outside the range loaded [%d:%d]", r.Pos, r.File, w.Line, w.Addr, start, end)
			}
			continue
		}
		if (addr-start)*dir < 0 || (end-addr)*dir < 0 {
			return fmt.Errorf("%s: %s:%d: more words than the range [%d:%d] of %s holds", r.Pos, r.File, w.Line, start, end, h.Path)
		}
		ws, _ := BigToWords(design.Mask(w.Value, h.Width), h.Width)
		if err := s.write(h, addr-base, ws); err != nil {
			return fmt.Errorf("%s: %s:%d: %w", r.Pos, r.File, w.Line, err)
		}
		addr += dir
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
	line := 1
	text := string(src)
	for i := 0; i < len(text); {
		c := text[i]
		switch {
		case c == '\n':
			line++
			i++
		case c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v':
			i++
		case strings.HasPrefix(text[i:], "//"):
			for i < len(text) && text[i] != '\n' {
				i++
			}
		case strings.HasPrefix(text[i:], "/*"):
			startLine := line
			j := strings.Index(text[i+2:], "*/")
			if j < 0 {
				return nil, fmt.Errorf("%s:%d: unterminated /* comment", file, startLine)
			}
			line += strings.Count(text[i:i+2+j], "\n")
			i += j + 4
		default:
			j := i
			for j < len(text) && !strings.ContainsRune(" \t\r\n\f\v", rune(text[j])) && !strings.HasPrefix(text[j:], "//") && !strings.HasPrefix(text[j:], "/*") {
				j++
			}
			tok := text[i:j]
			i = j
			if tok[0] == '@' {
				a, ok := parseDigits(tok[1:], 16)
				if !ok || !a.IsInt64() || a.Int64() > 1<<40 {
					return nil, fmt.Errorf("%s:%d: bad address %q (want @ and hex digits)", file, line, tok)
				}
				out = append(out, MemWord{Line: line, At: true, Addr: int(a.Int64())})
				continue
			}
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
				return nil, fmt.Errorf("%s:%d: bad %s word %q", file, line, what, tok)
			}
			out = append(out, MemWord{Line: line, Value: v})
		}
	}
	return out, nil
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
