package hdl

import (
	"fmt"
	"reflect"
	"sort"
	"strconv"
	"strings"
)

// Dump renders a syntax tree (a *SourceText, or any node, data type, range
// or declarator) as compact S-expressions, one line per node when it fits in
// 100 columns and indented otherwise. It exists for tests and debugging: the
// format is stable enough for golden files but not an interchange format.
//
// Expressions read as (op operands...): (+ a b), (- x) for unary minus,
// (idx a 3), (sel a 7 4), (sel+ a i 8), (. s field), (call $clog2 N),
// (cast 8 x). Flags appear as bare words only when set.
func Dump(n any) string {
	var b strings.Builder
	sxRender(&b, toSx(n), 0)
	return b.String()
}

// sx is an S-expression: an atom (list == nil) or a list.
type sx struct {
	atom string
	list []*sx
}

func sxAtom(s string) *sx { return &sx{atom: s} }

func sxList(items ...*sx) *sx {
	out := make([]*sx, 0, len(items))
	for _, it := range items {
		if it != nil {
			out = append(out, it)
		}
	}
	return &sx{list: out}
}

// flag is an atom when on, nothing when off.
func sxFlag(on bool, s string) *sx {
	if on {
		return sxAtom(s)
	}
	return nil
}

func (s *sx) flat(b *strings.Builder) {
	if s.list == nil {
		b.WriteString(s.atom)
		return
	}
	b.WriteByte('(')
	for i, k := range s.list {
		if i > 0 {
			b.WriteByte(' ')
		}
		k.flat(b)
	}
	b.WriteByte(')')
}

const dumpWidth = 100

func sxRender(b *strings.Builder, s *sx, indent int) {
	var f strings.Builder
	s.flat(&f)
	if s.list == nil || indent+f.Len() <= dumpWidth {
		b.WriteString(f.String())
		return
	}
	// Keep leading atoms (the head and flags) on the first line.
	b.WriteByte('(')
	i := 0
	for i < len(s.list) && s.list[i].list == nil {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(s.list[i].atom)
		i++
	}
	for ; i < len(s.list); i++ {
		b.WriteByte('\n')
		b.WriteString(strings.Repeat("  ", indent/2+1))
		sxRender(b, s.list[i], indent+2)
	}
	b.WriteByte(')')
}

func sxIsNil(n any) bool {
	if n == nil {
		return true
	}
	v := reflect.ValueOf(n)
	return v.Kind() == reflect.Pointer && v.IsNil()
}

func sxAll[T any](xs []T) []*sx {
	out := make([]*sx, 0, len(xs))
	for _, x := range xs {
		out = append(out, toSx(x))
	}
	return out
}

func sxHead(name string, rest ...*sx) *sx {
	return sxList(append([]*sx{sxAtom(name)}, rest...)...)
}

func sxHeadList(name string, flags []*sx, kids []*sx) *sx {
	all := append([]*sx{sxAtom(name)}, flags...)
	return sxList(append(all, kids...)...)
}

func toSx(n any) *sx {
	if sxIsNil(n) {
		return sxAtom("<nil>")
	}
	switch n := n.(type) {
	case *SourceText:
		var kids []*sx
		kids = append(kids, sxAll(n.Packages)...)
		kids = append(kids, sxAll(n.Items)...)
		kids = append(kids, sxAll(n.Modules)...)
		return sxHeadList("source", nil, kids)
	case *Package:
		return sxHeadList("package", []*sx{sxAtom(n.Name)}, sxAll(n.Items))
	case *Module:
		kids := []*sx{}
		if len(n.Imports) > 0 {
			kids = append(kids, sxHeadList("imports", nil, sxAll(n.Imports)))
		}
		if len(n.Params) > 0 {
			kids = append(kids, sxHeadList("params", nil, sxAll(n.Params)))
		}
		if len(n.Ports) > 0 {
			kids = append(kids, sxHeadList("ports", nil, sxAll(n.Ports)))
		}
		kids = append(kids, sxAll(n.Items)...)
		head := "module"
		if n.Interface {
			head = "interface"
		}
		return sxHeadList(head, []*sx{sxAtom(n.Name), sxFlag(n.ANSI, "ansi")}, kids)
	case *Modport:
		var ports []*sx
		for _, mp := range n.Ports {
			if mp.Import {
				ports = append(ports, sxHead("import", sxAtom(mp.Name)))
				continue
			}
			ports = append(ports, sxHead(mp.Dir.String(), sxAtom(mp.Name)))
		}
		return sxHeadList("modport", []*sx{sxAtom(n.Name)}, ports)

	// ---- types ----
	case *DataType:
		return dumpType(n)
	case *Range:
		return sxAtom(dumpRange(n))
	case *Declarator:
		if len(n.Unpacked) == 0 && n.Init == nil {
			return sxAtom(n.Name)
		}
		l := []*sx{sxAtom(n.Name)}
		for _, r := range n.Unpacked {
			l = append(l, sxAtom(dumpRange(r)))
		}
		if n.Init != nil {
			l = append(l, sxAtom("="), toSx(n.Init))
		}
		return sxList(l...)
	case *EnumItem:
		if n.Value == nil {
			return sxAtom(n.Name)
		}
		return sxList(sxAtom(n.Name), toSx(n.Value))
	case *StructMember:
		return sxHeadList("member", []*sx{toSx(n.Type)}, sxAll(n.Names))

	// ---- items ----
	case *VarDecl:
		fl := []*sx{sxFlag(n.Net != NetNone, dumpNetName(n.Net)), sxFlag(n.Var, "var"), sxFlag(n.Const, "const"),
			sxFlag(n.Automatic, "automatic"), sxFlag(n.Static, "static"), toSx(n.Type)}
		return sxHeadList("var", fl, sxAll(n.Names))
	case *PortDecl:
		fl := []*sx{sxFlag(n.Dir != DirNone, n.Dir.String()), sxFlag(n.Net != NetNone, dumpNetName(n.Net)), sxFlag(n.Var, "var")}
		if n.Interface != "" {
			fl = append(fl, sxHead("interface", sxAtom(n.Interface)))
		}
		if n.Type != nil {
			fl = append(fl, toSx(n.Type))
		}
		return sxHeadList("port", fl, sxAll(n.Names))
	case *ParamDecl:
		name := "param"
		if n.Local {
			name = "localparam"
		}
		if n.TypeParam {
			var kids []*sx
			for i, d := range n.Names {
				var def *DataType
				if i < len(n.TypeDefaults) {
					def = n.TypeDefaults[i]
				}
				kids = append(kids, sxList(sxAtom(d.Name), toSx(def)))
			}
			return sxHeadList(name, []*sx{sxAtom("type")}, kids)
		}
		var ty *sx
		if n.Type != nil {
			ty = toSx(n.Type)
		}
		return sxHeadList(name, []*sx{ty}, sxAll(n.Names))
	case *Typedef:
		l := []*sx{sxAtom(n.Name), toSx(n.Type)}
		for _, r := range n.Unpacked {
			l = append(l, sxAtom(dumpRange(r)))
		}
		return sxHead("typedef", l...)
	case *Import:
		return sxHead("import", sxAtom(n.Package+"::"+n.Name))
	case *Genvar:
		l := []*sx{}
		for _, g := range n.Names {
			l = append(l, sxAtom(g))
		}
		return sxHead("genvar", l...)
	case *ContAssign:
		var d *sx
		if n.Delay != nil {
			d = sxHead("#", toSx(n.Delay))
		}
		return sxHead("assign", d, toSx(n.LHS), toSx(n.RHS))
	case *AlwaysBlock:
		return sxHead(n.Kind.String(), toSx(n.Body))
	case *Instance:
		l := []*sx{sxAtom(n.Module)}
		if len(n.Params) > 0 {
			l = append(l, sxHeadList("#", nil, sxAll(n.Params)))
		}
		return sxHeadList("inst", l, sxAll(n.Insts))
	case *InstanceName:
		l := []*sx{sxAtom(n.Name)}
		for _, r := range n.Unpacked {
			l = append(l, sxAtom(dumpRange(r)))
		}
		return sxList(append(l, sxAll(n.Conns)...)...)
	case *ParamAssign:
		var v *sx
		if n.Type != nil {
			v = toSx(n.Type)
		} else if n.Value != nil {
			v = toSx(n.Value)
		}
		if n.Name == "" {
			if v == nil {
				return sxAtom("<nil>")
			}
			return v
		}
		return sxList(sxAtom("."+n.Name), v)
	case *PortConn:
		switch {
		case n.Wildcard:
			return sxAtom(".*")
		case n.Implicit:
			return sxList(sxAtom("." + n.Name))
		case n.Name != "":
			if n.Expr == nil {
				return sxList(sxAtom("."+n.Name), sxAtom("()"))
			}
			return sxList(sxAtom("."+n.Name), toSx(n.Expr))
		}
		return toSx(n.Expr)
	case *GenBlock:
		return sxHeadList("genblock", []*sx{sxFlag(n.Label != "", n.Label)}, sxAll(n.Items))
	case *GenFor:
		return sxHead("genfor", sxFlag(n.DeclaresGenvar, "genvar"), sxAtom(n.Var), toSx(n.Init), toSx(n.Cond), toSx(n.Step), toSx(n.Body))
	case *GenIf:
		var e *sx
		if n.Else != nil {
			e = toSx(n.Else)
		}
		return sxHead("genif", toSx(n.Cond), toSx(n.Then), e)
	case *GenCase:
		return sxHeadList("gencase", []*sx{toSx(n.Expr)}, sxAll(n.Items))
	case *GenCaseItem:
		if n.Exprs == nil {
			return sxHead("default", toSx(n.Body))
		}
		return sxHead("item", sxList(sxAll(n.Exprs)...), toSx(n.Body))
	case *GenRegion:
		return sxHeadList("generate", nil, sxAll(n.Items))
	case *Function:
		kids := []*sx{}
		if len(n.Ports) > 0 {
			kids = append(kids, sxHeadList("args", nil, sxAll(n.Ports)))
		}
		if len(n.Decls) > 0 {
			kids = append(kids, sxHeadList("decls", nil, sxAll(n.Decls)))
		}
		kids = append(kids, sxAll(n.Body)...)
		return sxHeadList("function", []*sx{sxFlag(n.Automatic, "automatic"), toSx(n.ReturnType), sxAtom(n.Name)}, kids)
	case *Task:
		kids := []*sx{}
		if len(n.Ports) > 0 {
			kids = append(kids, sxHeadList("args", nil, sxAll(n.Ports)))
		}
		if len(n.Decls) > 0 {
			kids = append(kids, sxHeadList("decls", nil, sxAll(n.Decls)))
		}
		kids = append(kids, sxAll(n.Body)...)
		return sxHeadList("task", []*sx{sxFlag(n.Automatic, "automatic"), sxAtom(n.Name)}, kids)
	case *TFPort:
		l := []*sx{sxAtom(n.Dir.String()), toSx(n.Type), sxAtom(n.Name)}
		for _, r := range n.Unpacked {
			l = append(l, sxAtom(dumpRange(r)))
		}
		if n.Default != nil {
			l = append(l, sxAtom("="), toSx(n.Default))
		}
		return sxHead("arg", l...)
	case *Unsupported:
		return sxHead("unsupported", sxAtom(strconv.Quote(n.What)), sxFlag(n.Name != "", n.Name))
	case *Assertion:
		return sxHead("assertion", sxAtom(strconv.Quote(n.Text)))
	case *ElabTask:
		return sxHead("elabtask", toSx(n.Call))

	// ---- statements ----
	case *BlockStmt:
		kids := sxAll(n.Decls)
		kids = append(kids, sxAll(n.Stmts)...)
		return sxHeadList("begin", []*sx{sxFlag(n.Label != "", n.Label)}, kids)
	case *AssignStmt:
		var d *sx
		if n.Delay != nil {
			d = sxHead("#", toSx(n.Delay))
		}
		return sxHead(n.Op, toSx(n.LHS), d, toSx(n.RHS))
	case *IncDecStmt:
		return sxHead(n.Op, toSx(n.LHS))
	case *IfStmt:
		var e *sx
		if n.Else != nil {
			e = toSx(n.Else)
		}
		return sxHead("if", qualSx(n.Qual), toSx(n.Cond), toSx(n.Then), e)
	case *CaseStmt:
		name := [...]string{"case", "casez", "casex"}[n.Kind]
		return sxHeadList(name, []*sx{qualSx(n.Qual), sxFlag(n.Inside, "inside"), toSx(n.Expr)}, sxAll(n.Items))
	case *CaseItem:
		if n.Exprs == nil {
			return sxHead("default", toSx(n.Body))
		}
		return sxHead("item", sxList(sxAll(n.Exprs)...), toSx(n.Body))
	case *ForStmt:
		init := sxAll(n.InitDecls)
		init = append(init, sxAll(n.Init)...)
		return sxHead("for", sxList(init...), toSx(n.Cond), sxList(sxAll(n.Step)...), toSx(n.Body))
	case *ForeachStmt:
		vars := make([]*sx, len(n.Vars))
		for i, v := range n.Vars {
			if v == "" {
				v = "_"
			}
			vars[i] = sxAtom(v)
		}
		return sxHead("foreach", toSx(n.Array), sxList(vars...), toSx(n.Body))
	case *WhileStmt:
		if n.DoWhile {
			return sxHead("do-while", toSx(n.Cond), toSx(n.Body))
		}
		return sxHead("while", toSx(n.Cond), toSx(n.Body))
	case *RepeatStmt:
		return sxHead("repeat", toSx(n.Count), toSx(n.Body))
	case *ForeverStmt:
		return sxHead("forever", toSx(n.Body))
	case *EventStmt:
		if n.Star {
			return sxHead("@*", toSx(n.Body))
		}
		return sxHead("@", sxList(sxAll(n.Events)...), toSx(n.Body))
	case *EventExpr:
		edge := [...]string{"", "posedge", "negedge", "edge"}[n.Edge]
		var iff *sx
		if n.Iff != nil {
			iff = sxHead("iff", toSx(n.Iff))
		}
		if edge == "" && iff == nil {
			return toSx(n.Expr)
		}
		return sxList(sxFlag(edge != "", edge), toSx(n.Expr), iff)
	case *DelayStmt:
		return sxHead("#", toSx(n.Delay), toSx(n.Body))
	case *WaitStmt:
		return sxHead("wait", toSx(n.Cond), toSx(n.Body))
	case *ExprStmt:
		return sxHead("do", toSx(n.X))
	case *ReturnStmt:
		if n.Value == nil {
			return sxHead("return")
		}
		return sxHead("return", toSx(n.Value))
	case *BreakStmt:
		return sxHead("break")
	case *ContinueStmt:
		return sxHead("continue")
	case *NullStmt:
		return sxHead("null")
	case *DeclStmt:
		return sxHead("decl", toSx(n.Decl))
	case *UnsupportedStmt:
		return sxHead("unsupported", sxAtom(strconv.Quote(n.What)))

	// ---- expressions ----
	case *Ident:
		return sxAtom(n.Name)
	case *ScopedIdent:
		return sxAtom(n.Package + "::" + n.Name)
	case *MemberExpr:
		return sxHead(".", toSx(n.X), sxAtom(n.Name))
	case *Number:
		return sxAtom(n.Text)
	case *StringLit:
		return sxAtom(strconv.Quote(n.Value))
	case *UnaryExpr:
		return sxHead(n.Op, toSx(n.X))
	case *BinaryExpr:
		return sxHead(n.Op, toSx(n.X), toSx(n.Y))
	case *CondExpr:
		return sxHead("?", toSx(n.Cond), toSx(n.Then), toSx(n.Else))
	case *IndexExpr:
		return sxHead("idx", toSx(n.X), toSx(n.Index))
	case *RangeExpr:
		if n.X == nil {
			return sxHead("range", toSx(n.Left), toSx(n.Right))
		}
		name := [...]string{"sel", "sel+", "sel-"}[n.Kind]
		return sxHead(name, toSx(n.X), toSx(n.Left), toSx(n.Right))
	case *ConcatExpr:
		return sxHeadList("concat", nil, sxAll(n.Items))
	case *ReplicateExpr:
		return sxHeadList("repl", []*sx{toSx(n.Count)}, sxAll(n.Items))
	case *StreamExpr:
		dir := ">>"
		if n.Left {
			dir = "<<"
		}
		var sl *sx
		if n.Slice != nil {
			sl = toSx(n.Slice)
		}
		return sxHeadList("stream", []*sx{sxAtom(dir), sl}, sxAll(n.Items))
	case *CallExpr:
		name := n.Name
		if n.Package != "" {
			name = n.Package + "::" + name
		}
		kids := sxAll(n.Args)
		if len(n.NamedArgs) > 0 {
			keys := make([]string, 0, len(n.NamedArgs))
			for k := range n.NamedArgs {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				kids = append(kids, sxList(sxAtom("."+k), toSx(n.NamedArgs[k])))
			}
		}
		if n.Scope != nil {
			kids = append([]*sx{sxHead("scope", toSx(n.Scope))}, kids...)
		}
		return sxHeadList("call", []*sx{sxAtom(name)}, kids)
	case *CastExpr:
		var target *sx
		switch {
		case n.Type != nil:
			target = sxHead("type", toSx(n.Type))
		case n.Signing == SignSigned:
			target = sxAtom("signed")
		case n.Signing == SignUnsigned:
			target = sxAtom("unsigned")
		default:
			target = toSx(n.Width)
		}
		return sxHead("cast", target, toSx(n.X))
	case *InsideExpr:
		return sxHeadList("inside", []*sx{toSx(n.X)}, sxAll(n.Set))
	case *PatternExpr:
		var kids []*sx
		if n.Repeat != nil {
			kids = append(kids, sxHead("repeat", toSx(n.Repeat)))
		}
		for i, it := range n.Items {
			if i < len(n.Keys) && n.Keys[i] != nil {
				kids = append(kids, sxHead("key", toSx(n.Keys[i]), toSx(it)))
			} else {
				kids = append(kids, toSx(it))
			}
		}
		if n.Default != nil {
			kids = append(kids, sxHead("default", toSx(n.Default)))
		}
		return sxHeadList("pattern", nil, kids)
	case *TypeExpr:
		return toSx(n.Type)
	case *ParenExpr:
		return sxHead("paren", toSx(n.X))
	}
	return sxAtom(fmt.Sprintf("<%T>", n))
}

func qualSx(q Qualifier) *sx {
	switch q {
	case QualUnique:
		return sxAtom("unique")
	case QualUnique0:
		return sxAtom("unique0")
	case QualPriority:
		return sxAtom("priority")
	}
	return nil
}

func dumpNetName(k NetKind) string {
	return [...]string{"", "wire", "tri", "supply0", "supply1", "wand", "wor", "uwire"}[k]
}

var dumpTypeKinds = [...]string{
	TypeImplicit: "implicit", TypeLogic: "logic", TypeReg: "reg", TypeBit: "bit",
	TypeInteger: "integer", TypeInt: "int", TypeByte: "byte", TypeShortint: "shortint",
	TypeLongint: "longint", TypeTime: "time", TypeReal: "real", TypeString: "string",
	TypeNamed: "named", TypeEnum: "enum", TypeStruct: "struct", TypeUnion: "union",
	TypeVoid: "void", TypeTypeRef: "type",
}

func dumpType(t *DataType) *sx {
	var l []*sx
	switch t.Kind {
	case TypeNamed:
		name := t.Name
		if t.Package != "" {
			name = t.Package + "::" + name
		}
		l = append(l, sxAtom(name))
	case TypeEnum:
		e := []*sx{sxAtom("enum")}
		if t.Enum.Base != nil {
			e = append(e, dumpType(t.Enum.Base))
		}
		e = append(e, sxAll(t.Enum.Items)...)
		l = append(l, sxList(e...))
	case TypeStruct, TypeUnion:
		s := []*sx{sxAtom(dumpTypeKinds[t.Kind]), sxFlag(t.Struct.Packed, "packed")}
		s = append(s, sxAll(t.Struct.Members)...)
		l = append(l, sxList(s...))
	case TypeTypeRef:
		l = append(l, sxHead("type", toSx(t.TypeRef)))
	default:
		l = append(l, sxAtom(dumpTypeKinds[t.Kind]))
	}
	switch t.Signing {
	case SignSigned:
		l = append(l, sxAtom("signed"))
	case SignUnsigned:
		l = append(l, sxAtom("unsigned"))
	}
	for _, r := range t.Packed {
		l = append(l, sxAtom(dumpRange(r)))
	}
	if len(l) == 1 {
		return l[0]
	}
	return sxList(l...)
}

func dumpRange(r *Range) string {
	if r == nil {
		return "<nil>"
	}
	var b strings.Builder
	b.WriteByte('[')
	switch {
	case r.Unsized:
	case r.Size != nil:
		toSx(r.Size).flat(&b)
	default:
		toSx(r.Left).flat(&b)
		b.WriteByte(':')
		toSx(r.Right).flat(&b)
	}
	b.WriteByte(']')
	return b.String()
}
