package design

import (
	"fmt"
	"sort"
	"strings"
)

// ExprString formats an expression compactly: references by hierarchical
// name, operators as `op:type(operands)`, e.g.
// `add:u9(zext:u9(top.a), zext:u9(top.b))`.
func ExprString(e Expr) string {
	var b strings.Builder
	writeExpr(&b, e)
	return b.String()
}

func writeExpr(b *strings.Builder, e Expr) {
	switch e := e.(type) {
	case nil:
		b.WriteString("<nil>")
	case *Const:
		if !e.Known() {
			b.WriteString(FormatBinary(e))
			return
		}
		s := ""
		if e.T.Signed {
			s = "s"
		}
		if e.Val.BitLen() <= 16 {
			fmt.Fprintf(b, "%d'%sd%s", e.T.Width, s, e.Val.String())
		} else {
			fmt.Fprintf(b, "%d'%sh%s", e.T.Width, s, e.Val.Text(16))
		}
	case *HomeRef:
		b.WriteString(e.Home.Path)
	case *ElemRef:
		b.WriteString(e.Home.Path)
		for _, ix := range e.Index {
			b.WriteString("[")
			writeExpr(b, ix)
			b.WriteString("]")
		}
	case *Slice:
		_, isRef := e.X.(*HomeRef)
		_, isElem := e.X.(*ElemRef)
		_, isSlice := e.X.(*Slice)
		if !(isRef || isElem || isSlice) {
			b.WriteString("(")
			writeExpr(b, e.X)
			b.WriteString(")")
		} else {
			writeExpr(b, e.X)
		}
		b.WriteString("[")
		writeExpr(b, e.Lsb)
		fmt.Fprintf(b, "+:%d]", e.T.Width)
		if e.T.Signed {
			b.WriteString("s")
		}
	case *Unary:
		fmt.Fprintf(b, "%s:%s(", e.Op, e.T)
		writeExpr(b, e.X)
		b.WriteString(")")
	case *Binary:
		fmt.Fprintf(b, "%s:%s(", e.Op, e.T)
		writeExpr(b, e.X)
		b.WriteString(", ")
		writeExpr(b, e.Y)
		b.WriteString(")")
	case *Cond:
		fmt.Fprintf(b, "cond:%s(", e.T)
		writeExpr(b, e.C)
		b.WriteString(", ")
		writeExpr(b, e.Then)
		b.WriteString(", ")
		writeExpr(b, e.Else)
		b.WriteString(")")
	case *Concat:
		b.WriteString("{")
		for i, p := range e.Parts {
			if i > 0 {
				b.WriteString(", ")
			}
			writeExpr(b, p)
		}
		b.WriteString("}")
	case *Repl:
		fmt.Fprintf(b, "{%d{", e.N)
		writeExpr(b, e.X)
		b.WriteString("}}")
	case *Extend:
		op := "zext"
		if e.SignExt {
			op = "sext"
		}
		if e.T.Width == e.X.Type().Width {
			op = "cast"
		}
		fmt.Fprintf(b, "%s:%s(", op, e.T)
		writeExpr(b, e.X)
		b.WriteString(")")
	case *Trunc:
		fmt.Fprintf(b, "trunc:%s(", e.T)
		writeExpr(b, e.X)
		b.WriteString(")")
	case *Call:
		fmt.Fprintf(b, "%s:%s(", e.Func.Name, e.T)
		for i, a := range e.Args {
			if i > 0 {
				b.WriteString(", ")
			}
			writeExpr(b, a)
		}
		b.WriteString(")")
	case *SysFunc:
		fmt.Fprintf(b, "%s:%s(", e.Fn, e.T)
		for i, a := range e.Args {
			if i > 0 {
				b.WriteString(", ")
			}
			writeExpr(b, a)
		}
		b.WriteString(")")
	default:
		fmt.Fprintf(b, "<%T>", e)
	}
}

// StmtString formats a statement, one statement per line, indented by
// two spaces per level starting at indent.
func StmtString(s Stmt, indent int) string {
	var b strings.Builder
	writeStmt(&b, s, indent)
	return b.String()
}

func writeStmt(b *strings.Builder, s Stmt, ind int) {
	pad := strings.Repeat("  ", ind)
	switch s := s.(type) {
	case nil:
	case *Block:
		if s == nil {
			return
		}
		for _, l := range s.Locals {
			fmt.Fprintf(b, "%slocal %s %s%s\n", pad, l.Path, l.Type(), dimsString(l.Unpacked))
		}
		for _, st := range s.Stmts {
			writeStmt(b, st, ind)
		}
	case *Assign:
		op := "="
		if s.NonBlocking {
			op = "<="
		}
		fmt.Fprintf(b, "%s%s %s %s\n", pad, ExprString(s.LHS), op, ExprString(s.RHS))
	case *If:
		fmt.Fprintf(b, "%sif %s\n", pad, ExprString(s.Cond))
		writeStmt(b, s.Then, ind+1)
		if s.Else != nil {
			fmt.Fprintf(b, "%selse\n", pad)
			writeStmt(b, s.Else, ind+1)
		}
	case *Case:
		fmt.Fprintf(b, "%s%s %s\n", pad, s.Kind, ExprString(s.Subject))
		for _, it := range s.Items {
			var ls []string
			for _, l := range it.Labels {
				t := ExprString(l.Value)
				if l.Hi != nil {
					t = "[" + t + " .. " + ExprString(l.Hi) + "]"
				}
				if l.Mask != nil {
					t += fmt.Sprintf(" mask 'h%s", l.Mask.Text(16))
				}
				ls = append(ls, t)
			}
			fmt.Fprintf(b, "%s  %s:\n", pad, strings.Join(ls, ", "))
			writeStmt(b, it.Body, ind+2)
		}
		if s.Default != nil {
			fmt.Fprintf(b, "%s  default:\n", pad)
			writeStmt(b, s.Default, ind+2)
		}
	case *Loop:
		kw := "while"
		if s.DoWhile {
			kw = "do-while"
		}
		c := "1"
		if s.Cond != nil {
			c = ExprString(s.Cond)
		}
		fmt.Fprintf(b, "%s%s %s (max %d)\n", pad, kw, c, s.MaxIter)
		writeStmt(b, s.Body, ind+1)
		if s.Step != nil {
			fmt.Fprintf(b, "%s  step:\n", pad)
			writeStmt(b, s.Step, ind+2)
		}
	case *Break:
		fmt.Fprintf(b, "%sbreak\n", pad)
	case *Continue:
		fmt.Fprintf(b, "%scontinue\n", pad)
	case *Return:
		fmt.Fprintf(b, "%sreturn\n", pad)
	case *SysTask:
		var parts []string
		if s.HasFormat {
			parts = append(parts, fmt.Sprintf("%q", s.Format))
		}
		if s.File != "" {
			parts = append(parts, fmt.Sprintf("%q", s.File))
		}
		if s.Target != nil {
			parts = append(parts, s.Target.Path)
		}
		for _, a := range s.Args {
			parts = append(parts, ExprString(a))
		}
		fmt.Fprintf(b, "%s%s(%s)\n", pad, s.Kind, strings.Join(parts, ", "))
	case *TaskCall:
		var parts []string
		for i := range s.Func.Args {
			var p string
			if i < len(s.Args) && s.Args[i] != nil {
				p = ExprString(s.Args[i])
			}
			if i < len(s.Outs) && s.Outs[i] != nil {
				p += "->" + ExprString(s.Outs[i])
			}
			parts = append(parts, p)
		}
		fmt.Fprintf(b, "%scall %s(%s)\n", pad, s.Func.Name, strings.Join(parts, ", "))
	default:
		fmt.Fprintf(b, "%s<%T>\n", pad, s)
	}
}

func dimsString(ds []Dim) string {
	var b strings.Builder
	for _, d := range ds {
		b.WriteString(d.String())
	}
	return b.String()
}

// String formats an access: `top.a` (whole), `top.a[7:4]` (bits),
// `top.mem@3` or `top.mem@0..15` (elements), with ` dyn` when dynamic.
func (a Access) String() string {
	var b strings.Builder
	b.WriteString(a.Home.Path)
	if a.Home.IsArray() {
		if a.ElemLo == a.ElemHi {
			fmt.Fprintf(&b, "@%d", a.ElemLo)
		} else {
			fmt.Fprintf(&b, "@%d..%d", a.ElemLo, a.ElemHi)
		}
	}
	if a.Lo != 0 || a.Hi != a.Home.Width-1 {
		if a.Lo == a.Hi {
			fmt.Fprintf(&b, "[%d]", a.Lo)
		} else {
			fmt.Fprintf(&b, "[%d:%d]", a.Hi, a.Lo)
		}
	}
	if a.Dynamic {
		b.WriteString(" dyn")
	}
	return b.String()
}

// AccessList formats accesses separated by spaces.
func AccessList(as []Access) string {
	s := make([]string, len(as))
	for i, a := range as {
		s[i] = a.String()
	}
	return strings.Join(s, " ")
}

// String formats an event: "posedge top.clk", "negedge top.v[3]".
func (e Event) String() string {
	s := e.Edge.String() + " " + e.Home.Path
	if e.Home.IsArray() {
		s += fmt.Sprintf("@%d", e.Elem)
	}
	if e.Home.Width > 1 {
		s += fmt.Sprintf("[%d]", e.Bit)
	}
	return s
}

// EventsString formats a trigger group's event set: "@(posedge top.clk or negedge top.rst_n)".
func (g *TriggerGroup) EventsString() string {
	s := make([]string, len(g.Events))
	for i, e := range g.Events {
		s[i] = e.String()
	}
	return "@(" + strings.Join(s, " or ") + ")"
}

// HomeString describes a home on one line.
func HomeString(h *Home) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s %s", h.Path, h.Kind, h.Type())
	if h.TypeName != "" {
		fmt.Fprintf(&b, " (%s)", h.TypeName)
	}
	if len(h.Packed) > 0 {
		fmt.Fprintf(&b, " packed%s", dimsString(h.Packed))
	}
	if len(h.Unpacked) > 0 {
		fmt.Fprintf(&b, " array%s", dimsString(h.Unpacked))
	}
	if h.Init != nil {
		fmt.Fprintf(&b, " init=%s", h.Init)
	}
	if len(h.Aliases) > 0 {
		fmt.Fprintf(&b, " aka %s", strings.Join(h.Aliases, ","))
	}
	return b.String()
}

// Dump formats the whole design for tests and `weft lint --dump`.
func Dump(d *Design) string {
	var b strings.Builder
	fmt.Fprintf(&b, "design %s: %s\n", d.topName(), d.Summary())
	b.WriteString("instances:\n")
	for _, in := range d.Instances {
		depth := strings.Count(in.Path, ".") - strings.Count(d.Top.Path, ".")
		fmt.Fprintf(&b, "%s%s (%s)", strings.Repeat("  ", depth+1), in.Path, in.Module)
		var ps []string
		for _, p := range in.Params {
			ps = append(ps, p.Name+"="+p.String())
		}
		if len(ps) > 0 {
			fmt.Fprintf(&b, " #(%s)", strings.Join(ps, ", "))
		}
		b.WriteString("\n")
	}
	if d.Timescale != nil {
		fmt.Fprintf(&b, "timescale %s (%s)\n", d.Timescale, d.Timescale.Pos)
	}
	if d.Dump != nil {
		fmt.Fprintf(&b, "dumpfile %q\n", d.Dump.File)
		for _, v := range d.Dump.Vars {
			fmt.Fprintf(&b, "dumpvars levels %d scopes %q signals %q (%s)\n", v.Levels, v.Scopes, v.Signals, v.Pos)
		}
	}
	b.WriteString("homes:\n")
	for _, h := range d.Homes {
		fmt.Fprintf(&b, "  h%d %s\n", h.ID, HomeString(h))
	}
	writeProc := func(p *Process) {
		fmt.Fprintf(&b, "  p%d %s [%s]\n", p.ID, p.Name, p.Kind)
		fmt.Fprintf(&b, "    reads:  %s\n", AccessList(p.Reads))
		fmt.Fprintf(&b, "    writes: %s\n", AccessList(p.Writes))
		writeStmt(&b, p.Body, 3)
	}
	b.WriteString("comb:\n")
	for _, p := range d.Comb {
		writeProc(p)
	}
	b.WriteString("groups:\n")
	for _, g := range d.Groups {
		fmt.Fprintf(&b, " g%d %s %s\n", g.ID, g.Inst.Path, g.EventsString())
		for _, p := range g.Procs {
			writeProc(p)
		}
	}
	if len(d.Initial) > 0 {
		b.WriteString("initial:\n")
		for _, p := range d.Initial {
			writeProc(p)
		}
	}
	if len(d.Functions) > 0 {
		b.WriteString("functions:\n")
		fs := append([]*Function{}, d.Functions...)
		sort.SliceStable(fs, func(i, j int) bool { return fs[i].Name < fs[j].Name })
		for _, f := range fs {
			var as []string
			for i, a := range f.Args {
				dir := [...]string{"in", "out", "inout"}[f.ArgDirs[i]]
				as = append(as, fmt.Sprintf("%s %s %s", dir, a.Name, a.Type()))
			}
			res := "void"
			if f.Result != nil {
				res = f.Result.Type().String()
			}
			fmt.Fprintf(&b, "  %s(%s) %s\n", f.Name, strings.Join(as, ", "), res)
			writeStmt(&b, f.Body, 2)
		}
	}
	return b.String()
}

func (d *Design) topName() string {
	if d.Top == nil {
		return "<none>"
	}
	return d.Top.Path
}
