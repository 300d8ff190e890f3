package kernels

import (
	"fmt"
	"math/big"
	"strings"

	"github.com/weft-hdl/weft/design"
	"github.com/weft-hdl/weft/sir"
)

// Message formats one runtime-event record the way SystemVerilog's
// $display family does: %d %h/%x %b %o %c %s %t %m %% with an optional
// field width ("%0d" drops the padding, "%08h" pads with zeros); %d pads
// to the widest decimal of the argument's width, %h/%b/%o to its digits.
// Arguments left over after the format's specifiers (or all of them when
// the task had no format string) print as with %d. The result has no
// trailing newline ($display adds one, $write does not: see Newline).
func (p *Program) Message(rec sir.Record) string {
	if rec.Format < 0 || rec.Format >= len(p.Formats) {
		return fmt.Sprintf("<event %s: unknown format %d>", rec.Kind, rec.Format)
	}
	f := p.Formats[rec.Format]
	return FormatArgs(f.Text, f.HasFormat, f.Scope, rec.Args)
}

// Newline reports whether the record's task ends its output with a
// newline ($display, $error, ... but not $write).
func Newline(k sir.EventKind) bool { return k != sir.EvWrite }

// FormatArgs formats args with a SystemVerilog format string (see
// Program.Message).
func FormatArgs(text string, hasFormat bool, scope string, args []sir.Value) string {
	var sb strings.Builder
	next := 0
	arg := func() (sir.Value, bool) {
		if next >= len(args) {
			return sir.Value{}, false
		}
		next++
		return args[next-1], true
	}
	if hasFormat {
		for i := 0; i < len(text); i++ {
			c := text[i]
			if c != '%' {
				sb.WriteByte(c)
				continue
			}
			i++
			if i >= len(text) {
				sb.WriteByte('%')
				break
			}
			// flags and width
			zero, width, hasWidth := false, 0, false
			if text[i] == '-' {
				i++
			}
			if i < len(text) && text[i] == '0' {
				zero = true
				hasWidth = true
				i++
			}
			for i < len(text) && text[i] >= '0' && text[i] <= '9' {
				width = width*10 + int(text[i]-'0')
				hasWidth = true
				i++
			}
			if i < len(text) && text[i] == '.' { // precision (reals): skip
				i++
				for i < len(text) && text[i] >= '0' && text[i] <= '9' {
					i++
				}
			}
			if i >= len(text) {
				break
			}
			spec := text[i]
			switch spec {
			case '%':
				sb.WriteByte('%')
				continue
			case 'm', 'M':
				sb.WriteString(scope)
				continue
			case 'l', 'L':
				continue
			}
			v, ok := arg()
			if !ok {
				sb.WriteString("<missing argument>")
				continue
			}
			sb.WriteString(formatValue(spec, v, zero, hasWidth, width))
		}
	}
	for next < len(args) {
		v, _ := arg()
		sb.WriteString(formatValue('d', v, false, false, 0))
	}
	return sb.String()
}

func valueBig(v sir.Value) *big.Int {
	x := new(big.Int)
	for i := len(v.Words) - 1; i >= 0; i-- {
		x.Lsh(x, 64)
		x.Or(x, new(big.Int).SetUint64(v.Words[i]))
	}
	return design.Mask(x, v.Width)
}

func formatValue(spec byte, v sir.Value, zero, hasWidth bool, width int) string {
	x := valueBig(v)
	var s string
	// Padding as Icarus does it: "%0x" none; "%0Nx" zeros to N; "%Nx"
	// the natural padding (spaces for %d, zeros for %h/%b/%o), then
	// spaces to N; "%x" the natural padding alone.
	pad := func(natural int, fill byte) string {
		switch {
		case zero:
			if len(s) < width {
				s = strings.Repeat("0", width-len(s)) + s
			}
			return s
		}
		if len(s) < natural {
			s = strings.Repeat(string(fill), natural-len(s)) + s
		}
		if hasWidth && len(s) < width {
			s = strings.Repeat(" ", width-len(s)) + s
		}
		return s
	}
	switch spec {
	case 'd', 'D', 'i', 'u', 'U':
		n := x
		if v.Signed && (spec == 'd' || spec == 'D' || spec == 'i') {
			n = design.ToInt(x, design.Type{Width: v.Width, Signed: true})
		}
		s = n.String()
		natural := len(design.Ones(v.Width).String())
		if v.Signed {
			natural = len(new(big.Int).Lsh(big.NewInt(1), uint(v.Width-1)).String()) + 1
		}
		return pad(natural, ' ')
	case 'h', 'H', 'x', 'X':
		s = x.Text(16)
		return pad((v.Width+3)/4, '0')
	case 'b', 'B':
		s = x.Text(2)
		return pad(v.Width, '0')
	case 'o', 'O':
		s = x.Text(8)
		return pad((v.Width+2)/3, '0')
	case 'c', 'C':
		return string(rune(byte(x.Uint64())))
	case 's', 'S':
		bs := x.Bytes()
		s = string(bs)
		return pad((v.Width+7)/8, ' ')
	case 't', 'T':
		s = x.String()
		return pad(20, ' ')
	case 'e', 'f', 'g', 'E', 'F', 'G':
		s = x.String()
		return s
	}
	return "%" + string(spec)
}
