package sir

import (
	"fmt"
	"io"
	"strings"
)

// String returns u in SIR text form (see Fprint).
func (u *Unit) String() string {
	var sb strings.Builder
	Fprint(&sb, u)
	return sb.String()
}

// Fprint writes u in SIR's stable text form, which Parse reads back:
//
//	unit "name"
//	b0:
//	  r1:8 = load.1 h3+4
//	  r2:8 = load.1 h3+0[r1*4<16]
//	  r3:8 = add r1, r2
//	  r4:1 = ult r3, r1
//	  r5:4 = extract r3, 2
//	  r6:8 = insert r3, r5, 4
//	  store.2 h3+4, r3
//	  storebits h3+4, 3, r5
//	  event display fmt=3 level=0 (r1:s8, {r7, r8}:u100)
//	  branch r4, b1, b2
//	b1:
//	  ret ok
//
// A register's width follows its name wherever it is assigned. Addresses
// are hHOME+OFFSET with an optional [INDEX*STRIDE<COUNT]. Malformed units
// print without panicking.
func Fprint(w io.Writer, u *Unit) error {
	var sb strings.Builder
	fmt.Fprintf(&sb, "unit %q\n", u.Name)
	for bi, b := range u.Blocks {
		fmt.Fprintf(&sb, "b%d:\n", bi)
		if b == nil {
			sb.WriteString("  ; nil block\n")
			continue
		}
		for i := range b.Insts {
			sb.WriteString("  ")
			sb.WriteString(u.InstString(&b.Insts[i]))
			sb.WriteByte('\n')
		}
		sb.WriteString("  ")
		sb.WriteString(TermString(&b.Term))
		sb.WriteByte('\n')
	}
	_, err := io.WriteString(w, sb.String())
	return err
}

// InstString formats one instruction of u.
func (u *Unit) InstString(in *Inst) string {
	var sb strings.Builder
	if in.Dst != NoReg {
		fmt.Fprintf(&sb, "%s:%d = ", in.Dst, u.Width(in.Dst))
	}
	switch in.Op {
	case OpConst:
		fmt.Fprintf(&sb, "const %s", imm(in.Imm))
	case OpLoad:
		fmt.Fprintf(&sb, "load.%d %s", in.Size, in.Addr)
	case OpLoadBits:
		fmt.Fprintf(&sb, "loadbits %s, %d", in.Addr, in.Lo)
	case OpStore:
		fmt.Fprintf(&sb, "store.%d %s, %s", in.Size, in.Addr, in.A)
	case OpStoreBits:
		fmt.Fprintf(&sb, "storebits %s, %d, %s", in.Addr, in.Lo, in.A)
	case OpExtract:
		fmt.Fprintf(&sb, "extract %s, %d", in.A, in.Lo)
	case OpInsert:
		fmt.Fprintf(&sb, "insert %s, %s, %d", in.A, in.B, in.Lo)
	case OpEvent:
		sb.WriteString("event ")
		if in.Ev == nil {
			sb.WriteString("<nil>")
			break
		}
		fmt.Fprintf(&sb, "%s fmt=%d level=%d ", in.Ev.Kind, in.Ev.Format, in.Ev.Level)
		if in.Ev.Seq != 0 {
			fmt.Fprintf(&sb, "seq=%d ", in.Ev.Seq)
		}
		sb.WriteByte('(')
		for i, a := range in.Ev.Args {
			if i > 0 {
				sb.WriteString(", ")
			}
			if len(a.Words) == 1 {
				sb.WriteString(a.Words[0].String())
			} else {
				sb.WriteByte('{')
				for j, r := range a.Words {
					if j > 0 {
						sb.WriteString(", ")
					}
					sb.WriteString(r.String())
				}
				sb.WriteByte('}')
			}
			s := 'u'
			if a.Signed {
				s = 's'
			}
			fmt.Fprintf(&sb, ":%c%d", s, a.Width)
		}
		sb.WriteByte(')')
	default:
		sb.WriteString(in.Op.String())
		regs := [3]Reg{in.A, in.B, in.C}
		for i, r := range regs[:in.Op.NumArgs()] {
			if i > 0 {
				sb.WriteByte(',')
			}
			sb.WriteByte(' ')
			sb.WriteString(r.String())
		}
	}
	return sb.String()
}

func imm(v uint64) string {
	if v < 10 {
		return fmt.Sprintf("%d", v)
	}
	return fmt.Sprintf("%#x", v)
}

func (a Addr) String() string {
	s := fmt.Sprintf("%s+%d", a.Home, a.Offset)
	if a.Index != NoReg || a.Stride != 0 || a.Count != 0 {
		s += fmt.Sprintf("[%s*%d<%d]", a.Index, a.Stride, a.Count)
	}
	return s
}

// TermString formats a terminator.
func TermString(t *Term) string {
	switch t.Kind {
	case TermJump:
		return "jump " + t.Then.String()
	case TermBranch:
		return fmt.Sprintf("branch %s, %s, %s", t.Cond, t.Then, t.Else)
	case TermReturn:
		return "ret " + t.Status.String()
	case TermNone:
		return "; no terminator"
	}
	return fmt.Sprintf("; terminator kind %d", t.Kind)
}
