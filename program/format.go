package program

import (
	"fmt"
	"math/big"
	"strings"

	"github.com/weft-hdl/weft/sir"
)

// Message formats one runtime-event record the way SystemVerilog's
// $display family does (as Icarus Verilog does it): %d %h/%x %b %o %c %s
// %t %m %% with optional flags and field width: "-" left-justifies, "+"
// signs a decimal, a leading "0" pads with zeros, N is the minimum field
// width. Without a width, %d pads to the widest decimal of the argument's
// width, %h/%b/%o to its digits, %s to its bytes; "%0x" drops the padding.
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
			// flags and width: [-+]* 0? N?
			var fl flags
			fl.width = -1
			for i < len(text) && (text[i] == '-' || text[i] == '+') {
				if text[i] == '-' {
					fl.left = true
				} else {
					fl.plus = true
				}
				i++
			}
			if i < len(text) && text[i] == '0' {
				fl.zero = true
				i++
			}
			if i < len(text) && text[i] >= '0' && text[i] <= '9' {
				fl.width = 0
				for i < len(text) && text[i] >= '0' && text[i] <= '9' {
					fl.width = fl.width*10 + int(text[i]-'0')
					i++
				}
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
				sb.WriteString(fl.justify(scope, max(fl.width, 0)))
				continue
			case 'l', 'L':
				continue
			}
			v, ok := arg()
			if !ok {
				sb.WriteString("<missing argument>")
				continue
			}
			sb.WriteString(formatValue(spec, v, fl))
		}
	}
	for next < len(args) {
		v, _ := arg()
		sb.WriteString(formatValue('d', v, flags{width: -1}))
	}
	return sb.String()
}

func valueBig(v sir.Value) *big.Int {
	x := new(big.Int)
	for i := len(v.Words) - 1; i >= 0; i-- {
		x.Lsh(x, 64)
		x.Or(x, new(big.Int).SetUint64(v.Words[i]))
	}
	return maskBig(x, v.Width)
}

// flags are the flags and field width of one format specifier.
type flags struct {
	left  bool // "-": left-justify
	plus  bool // "+": sign a non-negative decimal
	zero  bool // a leading "0"
	width int  // the field width; -1 when none is given
}

// justify pads s with spaces to at least width characters, on the left or
// (with "-") on the right.
func (fl flags) justify(s string, width int) string {
	if len(s) >= width {
		return s
	}
	if fl.left {
		return s + strings.Repeat(" ", width-len(s))
	}
	return strings.Repeat(" ", width-len(s)) + s
}

// zeroPad inserts zeros after the sign of s (if any) up to width
// characters.
func zeroPad(s string, width int) string {
	if len(s) >= width {
		return s
	}
	sign := ""
	if s != "" && (s[0] == '-' || s[0] == '+') {
		sign, s = s[:1], s[1:]
	}
	return sign + strings.Repeat("0", width-len(s)-len(sign)) + s
}

// formatValue formats one argument. The padding rules are Icarus
// Verilog's (vpi/sys_display.c):
//
//   - %d: the decimal, zero-padded after the sign to N with "%0N"; then
//     right-justified (left with "-") in N characters, or without N in the
//     widest decimal of the argument's width ("%0d": none).
//   - %h/%b/%o: all the digits of the argument's width; "%0" without N
//     strips the leading zeros, "%0N" zero-pads to N, "%-0N" strips them;
//     then justified in N.
//   - %s: the bytes (zero bytes dropped), justified in N, or without N in
//     the argument's byte count ("%0s": none); never zero-filled.
//   - %c: the character, padded to N with spaces (zeros with "%0N").
//   - %t: the time, zero-padded to N with "%0N", justified in N or without
//     N in 20 characters ("%0t": none).
func formatValue(spec byte, v sir.Value, fl flags) string {
	x := valueBig(v)
	width := fl.width
	switch spec {
	case 'd', 'D', 'i', 'u', 'U':
		n := x
		if v.Signed && (spec == 'd' || spec == 'D' || spec == 'i') {
			n = signedBig(x, v.Width)
		}
		s := n.String()
		if fl.plus && n.Sign() >= 0 {
			s = "+" + s
		}
		if !fl.left && fl.zero {
			s = zeroPad(s, width)
		}
		if width < 0 {
			width = 0
			if !fl.zero {
				width = len(onesBig(v.Width).String())
				if v.Signed {
					width = len(new(big.Int).Lsh(big.NewInt(1), uint(v.Width-1)).String()) + 1
				}
			}
		}
		return fl.justify(s, width)
	case 'h', 'H', 'x', 'X', 'b', 'B', 'o', 'O':
		base, bits := 16, 4
		switch spec {
		case 'b', 'B':
			base, bits = 2, 1
		case 'o', 'O':
			base, bits = 8, 3
		}
		s := x.Text(base)
		if digits := (v.Width + bits - 1) / bits; len(s) < digits {
			s = strings.Repeat("0", digits-len(s)) + s
		}
		if fl.zero {
			switch {
			case width < 0 || fl.left:
				s = strings.TrimLeft(s, "0")
				if s == "" {
					s = "0"
				}
			default:
				s = zeroPad(s, width)
			}
		}
		return fl.justify(s, max(width, 0))
	case 'c', 'C':
		s := string(rune(byte(x.Uint64())))
		if !fl.left && fl.zero && width > 1 {
			return strings.Repeat("0", width-1) + s
		}
		return fl.justify(s, width)
	case 's', 'S':
		var sb strings.Builder
		for _, c := range x.Bytes() {
			if c != 0 {
				sb.WriteByte(c)
			}
		}
		if width < 0 {
			width = 0
			if !fl.zero {
				width = (v.Width + 7) / 8
			}
		}
		return fl.justify(sb.String(), width)
	case 't', 'T':
		s := x.String()
		if fl.zero {
			if width < 0 {
				width = 0
			} else if !fl.left {
				s = zeroPad(s, width)
			}
		}
		if width < 0 {
			width = 20
		}
		return fl.justify(s, width)
	case 'e', 'f', 'g', 'E', 'F', 'G':
		return x.String()
	}
	return "%" + string(spec)
}

// onesBig is 2^w - 1.
func onesBig(w int) *big.Int {
	m := new(big.Int).Lsh(big.NewInt(1), uint(w))
	return m.Sub(m, big.NewInt(1))
}

// maskBig is v's low w bits.
func maskBig(v *big.Int, w int) *big.Int {
	if v.Sign() >= 0 && v.BitLen() <= w {
		return v
	}
	return new(big.Int).And(v, onesBig(w))
}

// signedBig reads the w bits v as a two's complement number.
func signedBig(v *big.Int, w int) *big.Int {
	if w > 0 && v.Bit(w-1) == 1 {
		return new(big.Int).Sub(v, new(big.Int).Lsh(big.NewInt(1), uint(w)))
	}
	return v
}
