package hdl

import (
	"fmt"
	"strings"

	"github.com/weft-hdl/weft/program"
)

// Timescale is one `timescale directive (IEEE 1800 §22.7). Unit and
// Precision are powers of ten of a second: -9 is 1ns, -10 is 100ps, -15 is
// 1fs. weft does not scale delays (it has none) or $time by it: the
// directive is recorded so that tools that write time (a VCD dump) can use
// the precision the design declares.
type Timescale struct {
	Unit, Precision int
	Pos             Pos
}

// parseTimescale reads the arguments of a `timescale directive
// ("1ns / 1ps"), comments already removed.
func parseTimescale(args string) (unit, prec int, err error) {
	us, ps, ok := strings.Cut(args, "/")
	if !ok {
		return 0, 0, fmt.Errorf("`timescale needs a unit and a precision: `timescale 1ns/1ps")
	}
	if unit, err = program.ParseTimeUnit(us); err != nil {
		return 0, 0, fmt.Errorf("`timescale unit: %w", err)
	}
	if prec, err = program.ParseTimeUnit(ps); err != nil {
		return 0, 0, fmt.Errorf("`timescale precision: %w", err)
	}
	if prec > unit {
		return 0, 0, fmt.Errorf("`timescale precision %s is coarser than its unit %s; the precision must be at least as fine", strings.TrimSpace(ps), strings.TrimSpace(us))
	}
	return unit, prec, nil
}

// ppMaxTimescale bounds the text of a `timescale line that is parsed
// (and quoted in its warning); "1ns / 1ps" is a dozen bytes.
const ppMaxTimescale = 1024

// timescale records a `timescale directive whose name ends at j and
// returns where scanning resumes (the end of its line).
func (p *preprocessor) timescale(b *ppBuffer, bt, j int) int {
	end := p.skipLine(b, j)
	if end-j > ppMaxTimescale {
		p.diags.Warnc(b.posOf(bt), CodeTimescale, "`timescale arguments of %d bytes are no unit and precision (1ns/1ps); the directive is ignored", end-j)
		return end
	}
	args := stripComments(b.src[j:end])
	unit, prec, err := parseTimescale(args)
	if err != nil {
		// A warning, not an error: weft simulates without the directive,
		// and it accepted any `timescale before it recorded them.
		p.diags.Warnc(b.posOf(bt), CodeTimescale, "%v; the directive is ignored", err)
		return end
	}
	p.out.Timescales = append(p.out.Timescales, Timescale{Unit: unit, Precision: prec, Pos: b.posOf(bt)})
	return end
}

// stripComments removes // and /* */ comments from one directive line.
func stripComments(src []byte) string {
	var b strings.Builder
	for i := 0; i < len(src); i++ {
		switch {
		case src[i] == '/' && i+1 < len(src) && src[i+1] == '/':
			return b.String()
		case src[i] == '/' && i+1 < len(src) && src[i+1] == '*':
			e := ppCommentEnd(src, i)
			if e < 0 {
				return b.String()
			}
			b.WriteByte(' ')
			i = e - 1
		default:
			b.WriteByte(src[i])
		}
	}
	return b.String()
}
