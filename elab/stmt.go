package elab

import (
	"errors"
	"fmt"
	"math/big"
	"os"
	"path/filepath"
	"strings"

	"github.com/weft-hdl/weft/design"
	"github.com/weft-hdl/weft/hdl"
	"github.com/weft-hdl/weft/internal/fileread"
)

type pkind int

const (
	pkComb pkind = iota
	pkFF
	pkInitial
	pkFunc
)

// Loop limits. A loop with constant control is unrolled when it runs at
// most maxUnroll iterations (and the process stays under maxUnrollTotal
// unrolled iterations); otherwise it is kept as a design.Loop bounded by
// maxLoopIter iterations at run time. A constant loop that would run more
// than maxLoopIter iterations is an elaboration error.
const (
	maxUnroll      = 4096
	maxUnrollTotal = 1 << 16
	maxLoopIter    = 1 << 20
)

// pctx is the state of translating one process or function body.
type pctx struct {
	e         *elab
	kind      pkind
	fn        *design.Function
	localKind design.HomeKind
	// consts binds loop variables of an unrolled loop to their value.
	consts map[*symbol]*cval
	// priv maps module-level variables used as for-loop indexes to
	// process-private copies.
	priv      map[*symbol]*symbol
	unrolling int
	unrolled  int
	loopDepth int
	name      string
	inst      *instCtx
	blocks    []*design.Block
	// autoFn is set in an automatic function or task (pkFunc): its locals
	// are automatic unless declared static.
	autoFn bool
	// statics are the static locals of a function or task outside loops:
	// candidates for KindStatic homes (see promoteStatics).
	statics []*design.Home
	// guarded > 0 while translating a branch taken at run time (an if or
	// case arm): what happens there may not happen at all.
	guarded int
	// reads of the sensitivity list (always @(a or b)), informational
}

func (p *pctx) ex(sc *scope) *ectx { return &ectx{e: p.e, sc: sc, p: p} }

func block(list []design.Stmt) design.Stmt {
	switch len(list) {
	case 0:
		return nil
	case 1:
		return list[0]
	}
	return &design.Block{Stmts: list}
}

func (p *pctx) curBlock() *design.Block {
	if len(p.blocks) == 0 {
		return nil
	}
	return p.blocks[len(p.blocks)-1]
}

// declLocals creates the homes of the variables declared among items
// (already registered in sc) and appends their initializations to blk.
// forInit is set for the declarations of a for statement (automatic).
//
// Lifetimes (IEEE 1800-2017 §6.21): variables declared in a procedural
// block or a static function or task are static unless declared
// automatic; the initializer of a static variable runs once, at time zero
// (it becomes Home.Init). The standard requires the static keyword on such
// a declaration; without it weft warns, as Icarus does, and follows the
// static semantics. Block-local homes already keep their value between
// runs of the process; static function locals are collected in p.statics.
// Declarations inside loop bodies keep their initializer on every entry
// (elab may unroll the loop into copies).
func (p *pctx) declLocals(sc *scope, items []hdl.Item, blk *design.Block, forInit bool) {
	for _, it := range items {
		vd, ok := it.(*hdl.VarDecl)
		if !ok {
			switch it.(type) {
			case *hdl.ParamDecl, *hdl.Typedef, *hdl.Import:
			default:
				p.e.errorf(it.Position(), "this declaration is not allowed in a procedural block")
			}
			continue
		}
		static := vd.Static || (!vd.Automatic && !forInit && !(p.kind == pkFunc && p.autoFn))
		once := static && p.loopDepth == 0 && p.unrolling == 0
		for _, d := range vd.Names {
			s := sc.syms[d.Name]
			if s == nil || s.kind != symVar {
				continue
			}
			h := p.e.ensureHome(s)
			if h == nil {
				continue
			}
			blk.Locals = append(blk.Locals, h)
			if once && p.kind == pkFunc {
				p.statics = append(p.statics, h)
			}
			if d.Init == nil {
				if vd.Automatic && !h.IsArray() && p.kind != pkFunc {
					// Block-local storage is static: an automatic variable
					// starts from its default value on every entry.
					blk.Stmts = append(blk.Stmts, &design.Assign{LHS: &design.HomeRef{Home: h}, RHS: &design.Const{T: h.Type(), Val: new(big.Int)}, Pos: dpos(d.Pos)})
				}
				continue
			}
			ex := p.ex(sc)
			var init []design.Stmt
			if len(s.unpacked) > 0 {
				p.arrayAssign(ex, h, s, d.Init, false, d.Init.Position(), &init)
			} else {
				ex.checkTrunc(&hdl.Ident{At: d.At, Name: d.Name}, d.Init, s.vt.dt())
				if v := ex.assignT(d.Init, s.vt); !ex.failed {
					init = append(init, &design.Assign{LHS: &design.HomeRef{Home: h}, RHS: v, Pos: dpos(d.Pos)})
				}
			}
			if once && len(init) > 0 {
				if in, ok := p.e.staticInit(h, init); ok {
					h.Init = in
					if !vd.Static {
						p.e.warnc(d.Pos, hdl.CodeStaticInit, "'%s' is static (IEEE 1800-2017 §6.21): its initializer runs once, at time zero; write 'static' to say so, or 'automatic' to initialize it on every entry", d.Name)
					}
					continue
				}
				p.e.warnc(d.Pos, hdl.CodeStaticInit, "the initializer of static variable '%s' is not a constant expression: weft runs it on every entry", d.Name)
			}
			blk.Stmts = append(blk.Stmts, init...)
		}
	}
}

// staticInit runs the initializer statements of a static variable h at
// elaboration time; ok is false when they are not constant.
func (e *elab) staticInit(h *design.Home, init []design.Stmt) (*design.Init, bool) {
	m := e.initMachine()
	for _, st := range init {
		if err := m.Run(st); err != nil {
			return nil, false
		}
	}
	return machineInit(m, h), true
}

// stmt translates s, appending to out.
func (p *pctx) stmt(s hdl.Stmt, sc *scope, out *[]design.Stmt) {
	if p.e.diags.TooMany() {
		return
	}
	switch s := s.(type) {
	case nil, *hdl.NullStmt:
	case *hdl.BlockStmt:
		bsc := sc
		blk := &design.Block{}
		if len(s.Decls) > 0 || s.Label != "" {
			path := sc.path
			if s.Label != "" {
				path += "." + s.Label
			}
			bsc = newScope(sc, path)
			bsc.homeKind = p.localKind
			p.e.registerItems(bsc, s.Decls, true)
			p.declLocals(bsc, s.Decls, blk, false)
		}
		p.blocks = append(p.blocks, blk)
		for _, st := range s.Stmts {
			p.stmt(st, bsc, &blk.Stmts)
		}
		p.blocks = p.blocks[:len(p.blocks)-1]
		if len(blk.Locals) == 0 {
			*out = append(*out, blk.Stmts...)
		} else {
			*out = append(*out, blk)
		}
	case *hdl.DeclStmt:
		blk := p.curBlock()
		if blk == nil || sc.homeKind == design.KindVar {
			p.e.errorf(s.Pos, "declarations must be inside a begin-end block")
			return
		}
		items := []hdl.Item{s.Decl}
		p.e.registerItems(sc, items, true)
		tmp := &design.Block{}
		p.declLocals(sc, items, tmp, false)
		blk.Locals = append(blk.Locals, tmp.Locals...)
		*out = append(*out, tmp.Stmts...)
	case *hdl.AssignStmt:
		rhs := s.RHS
		if s.Op != "" && s.Op != "=" && s.Op != "<=" {
			op := strings.TrimSuffix(s.Op, "=")
			rhs = &hdl.BinaryExpr{At: s.At, Op: op, X: s.LHS, Y: s.RHS}
		}
		if s.Delay != nil {
			p.e.warnOnceC(s.Delay.Position(), hdl.CodeAssignDelay, "intra-assignment delays are ignored")
		}
		if !p.checkProcTarget(sc, s.LHS) {
			return
		}
		p.assign(sc, s.LHS, rhs, s.NonBlocking, s.Pos, out)
	case *hdl.Assertion:
		p.assertion(s, sc, out)
	case *hdl.IncDecStmt:
		op := "+"
		if s.Op == "--" {
			op = "-"
		}
		one := &hdl.Number{At: s.At, Text: "1", Value: big.NewInt(1)}
		if !p.checkProcTarget(sc, s.LHS) {
			return
		}
		p.assign(sc, s.LHS, &hdl.BinaryExpr{At: s.At, Op: op, X: s.LHS, Y: one}, false, s.Pos, out)
	case *hdl.IfStmt:
		c := p.ex(sc).truth(s.Cond)
		if cc, ok := c.(*design.Const); ok {
			// An x or z condition is false (IEEE 1800 12.4).
			if design.Truth(cc) == design.B1 {
				p.checkDeadStmt(s.Else, sc)
				p.stmt(s.Then, sc, out)
			} else {
				p.checkDeadStmt(s.Then, sc)
				p.stmt(s.Else, sc, out)
			}
			return
		}
		var th, el []design.Stmt
		p.guarded++
		p.stmt(s.Then, sc, &th)
		p.stmt(s.Else, sc, &el)
		p.guarded--
		*out = append(*out, &design.If{Cond: c, Then: block(th), Else: block(el), Pos: dpos(s.Pos)})
	case *hdl.CaseStmt:
		p.caseStmt(s, sc, out)
	case *hdl.ForStmt:
		p.forStmt(s, sc, out)
	case *hdl.ForeachStmt:
		p.foreachStmt(s, sc, out)
	case *hdl.WhileStmt:
		ex := p.ex(sc)
		c := ex.truth(s.Cond)
		if cc, ok := c.(*design.Const); ok {
			switch {
			case design.Truth(cc) != design.B1 && !s.DoWhile: // 0, or x: false
				return
			case design.Truth(cc) != design.B1:
				c = design.NewConst(bitT, zero()) // the body runs once
			case !escapes(s.Body):
				p.e.errorf(s.Cond.Position(), "while loop condition is always true and the body never leaves the loop")
				return
			default:
				c = nil // left with break or return
			}
		}
		p.loopDepth++
		var body []design.Stmt
		p.stmt(s.Body, sc, &body)
		p.loopDepth--
		*out = append(*out, &design.Loop{Cond: c, Body: block(body), DoWhile: s.DoWhile, MaxIter: maxLoopIter, Pos: dpos(s.Pos)})
	case *hdl.RepeatStmt:
		p.repeatStmt(s, sc, out)
	case *hdl.ForeverStmt:
		p.e.errorf(s.Pos, "forever loops are not supported (weft simulates RTL; drive time from the Go test bench)")
	case *hdl.EventStmt:
		p.e.errorf(s.Pos, "event controls inside procedural code are not supported")
	case *hdl.DelayStmt:
		p.e.errorf(s.Pos, "delay controls are not supported yet (weft simulates RTL; drive time from the Go test bench)")
	case *hdl.WaitStmt:
		p.e.errorf(s.Pos, "wait statements are not supported yet")
	case *hdl.ExprStmt:
		p.exprStmt(s, sc, out)
	case *hdl.ReturnStmt:
		if p.kind != pkFunc {
			p.e.errorf(s.Pos, "return outside of a function or task")
			return
		}
		if s.Value != nil {
			if p.fn.Result == nil {
				p.e.errorf(s.Value.Position(), "'%s' has no return value; remove the value", p.fn.Name)
				return
			}
			ex := p.ex(sc)
			ex.checkTrunc(&hdl.Ident{At: s.At, Name: p.fn.Name}, s.Value, p.fn.Result.Type())
			v := ex.assignConv(s.Value, p.fn.Result.Type())
			*out = append(*out, &design.Assign{LHS: &design.HomeRef{Home: p.fn.Result}, RHS: v, Pos: dpos(s.Pos)})
		}
		*out = append(*out, &design.Return{Pos: dpos(s.Pos)})
	case *hdl.BreakStmt:
		if p.loopDepth == 0 {
			p.e.errorf(s.Pos, "break outside of a loop")
			return
		}
		*out = append(*out, &design.Break{Pos: dpos(s.Pos)})
	case *hdl.ContinueStmt:
		if p.loopDepth == 0 {
			p.e.errorf(s.Pos, "continue outside of a loop")
			return
		}
		*out = append(*out, &design.Continue{Pos: dpos(s.Pos)})
	case *hdl.UnsupportedStmt:
		p.e.errorf(s.Pos, "%s is not supported yet", s.What)
	default:
		p.e.errorf(s.Position(), "unsupported statement")
	}
}

func (p *pctx) assign(sc *scope, lhs, rhs hdl.Expr, nb bool, pos hdl.Pos, out *[]design.Stmt) {
	ex := p.ex(sc)
	if nb {
		switch p.kind {
		case pkFunc:
			p.e.errorf(pos, "non-blocking assignment in a function or task")
			return
		case pkComb:
			p.e.warnc(pos, hdl.CodeCombDelay, "non-blocking assignment in a combinational process is treated as blocking")
			nb = false
		}
	}
	lv, pt, arr := ex.lvalue(lhs)
	if lv == nil {
		return
	}
	if arr {
		h := lv.(*design.HomeRef).Home
		r := ex.ref(lhs, true)
		if r == nil {
			return
		}
		p.arrayAssign(ex, h, r.sym, rhs, nb, pos, out)
		return
	}
	ex.checkTrunc(lhs, rhs, pt.dt())
	v := ex.assignT(rhs, pt)
	if ex.failed {
		return
	}
	*out = append(*out, &design.Assign{LHS: lv, RHS: v, NonBlocking: nb, Pos: dpos(pos)})
}

// arrayAssign assigns a whole unpacked array: from an array of the same
// shape (a copy) or from an assignment pattern (per element).
func (p *pctx) arrayAssign(ex *ectx, h *design.Home, s *symbol, rhs hdl.Expr, nb bool, pos hdl.Pos, out *[]design.Stmt) {
	if pat, ok := rhs.(*hdl.PatternExpr); ok {
		elems, def := ex.unpackedPattern(pat, s.unpacked, s.vt)
		if ex.failed {
			return
		}
		n := h.Elems()
		if def != nil && n > 1<<16 {
			p.e.errorf(pos, "assignment pattern for %d elements is too large; use a loop or $readmemh", n)
			return
		}
		for i := 0; i < n; i++ {
			v := elems[i]
			if v == nil {
				v = def
			}
			if v == nil {
				// Every element must be covered (IEEE 1800 §10.9.1).
				at := ""
				for _, k := range ltrIndex(h.Unpacked, ltrPos(h.Unpacked, i)) {
					at += "[" + itoa(k) + "]"
				}
				ex.errorf(pat.Pos, "the pattern gives no value for element %s of '%s'", at, h.Name)
				return
			}
			*out = append(*out, &design.Assign{LHS: elemRefFlat(h, i), RHS: v, NonBlocking: nb, Pos: dpos(pos)})
		}
		return
	}
	r := ex.ref(rhs, false)
	if r == nil {
		return
	}
	if (r.kind != rkVar) || len(r.unpacked) == 0 || len(r.idx) > 0 {
		ex.errorf(rhs.Position(), "an unpacked array can only be assigned from an array of the same shape or an assignment pattern")
		return
	}
	if r.home.Elems() != h.Elems() || r.home.Width != h.Width {
		ex.errorf(rhs.Position(), "array shapes differ: '%s' has %d elements of %d bits, '%s' has %d elements of %d bits",
			h.Name, h.Elems(), h.Width, r.home.Name, r.home.Elems(), r.home.Width)
		return
	}
	if !ex.equivalentElems(rhs.Position(), s.vt, r.pt, h.Name, r.home.Name) {
		return
	}
	*out = p.e.arrayCopy(h, r.home, nb, pos, *out)
}

// equivalentElems checks that unpacked arrays named a and b, of element
// types ta and tb, may be assigned to each other: their element types must
// be equivalent (IEEE 1800 §7.6, §6.22.2), both 2-state or both 4-state and
// of the same signedness.
func (x *ectx) equivalentElems(pos hdl.Pos, ta, tb *ptype, a, b string) bool {
	if ta == nil || tb == nil {
		return true
	}
	if ka, kb := elemKind(ta), elemKind(tb); ka != kb {
		x.errorf(pos, "unpacked arrays '%s' (%s elements) and '%s' (%s elements) have element types that are not equivalent; convert element by element (a loop) or declare both alike", a, ka, b, kb)
		return false
	}
	return true
}

// maxReorderedCopy bounds the element-wise copy between arrays whose
// ranges run in opposite directions.
const maxReorderedCopy = 1 << 16

// arrayCopy appends the assignment of array src to array dst (same element
// count and width). Elements correspond left to right in every dimension
// (IEEE 1800 §7.6): dst[1:0] = src[0:1] puts src[0] in dst[1]. Arrays store
// index Lo first, so a dimension whose direction differs reverses the order
// and the copy is made element by element.
func (e *elab) arrayCopy(dst, src *design.Home, nb bool, pos hdl.Pos, out []design.Stmt) []design.Stmt {
	reorder := false
	if len(dst.Unpacked) == len(src.Unpacked) {
		for k, d := range dst.Unpacked {
			s := src.Unpacked[k]
			if d.Size() != s.Size() {
				// Shapes that only agree in element count: flattened order.
				reorder = false
				break
			}
			reorder = reorder || d.Size() > 1 && (d.Left > d.Right) != (s.Left > s.Right)
		}
	}
	if !reorder {
		return append(out, &design.Assign{LHS: &design.HomeRef{Home: dst}, RHS: &design.HomeRef{Home: src}, NonBlocking: nb, Pos: dpos(pos)})
	}
	n := dst.Elems()
	if n > maxReorderedCopy {
		e.errorf(pos, "copying between arrays '%s' and '%s' whose ranges run in opposite directions is not supported yet for more than %d elements", dst.Name, src.Name, maxReorderedCopy)
		return out
	}
	for i := range n {
		j := ltrPos(src.Unpacked, ltrPos(dst.Unpacked, i))
		out = append(out, &design.Assign{LHS: elemRefFlat(dst, i), RHS: elemRefFlat(src, j), NonBlocking: nb, Pos: dpos(pos)})
	}
	return out
}

// elemRefFlat addresses flattened element i of an array home.
func elemRefFlat(h *design.Home, i int) *design.ElemRef {
	idx := make([]design.Expr, len(h.Unpacked))
	for k := len(h.Unpacked) - 1; k >= 0; k-- {
		sz := h.Unpacked[k].Size()
		idx[k] = cint(int64(i % sz))
		i /= sz
	}
	return &design.ElemRef{Home: h, Index: idx}
}

// unpackedPattern evaluates an assignment pattern for an unpacked array:
// values by flattened element, plus a default.
func (x *ectx) unpackedPattern(pat *hdl.PatternExpr, dims []design.Dim, et *ptype) (map[int]design.Expr, design.Expr) {
	out := map[int]design.Expr{}
	var def design.Expr
	top := pat
	var rec func(pat *hdl.PatternExpr, dims []design.Dim, base int)
	rec = func(pat *hdl.PatternExpr, dims []design.Dim, base int) {
		d := dims[0]
		stride := prodDims(dims[1:])
		leaf := func(n hdl.Expr, at int) {
			if len(dims) > 1 {
				sub, ok := n.(*hdl.PatternExpr)
				if !ok {
					x.subArrayItem(n, dims[1:], et, at, out)
					return
				}
				rec(sub, dims[1:], at)
				return
			}
			out[at] = x.assignT(n, et)
		}
		// The default of a nested pattern covers only its own elements,
		// before the defaults of the patterns around it (§10.9.1).
		var subDef []design.Expr
		if pat.Default != nil && len(dims) > 1 {
			subDef = x.subArrayDefault(pat.Default, dims, et)
		}
		if pat.Default != nil && subDef == nil {
			if v := x.assignT(pat.Default, et); pat == top {
				def = v
			} else {
				subDef = []design.Expr{v}
			}
		}
		items := pat.Items
		keys := pat.Keys
		if pat.Repeat != nil {
			n, ok := x.constIntOf(pat.Repeat, "pattern repeat count")
			if !ok {
				return
			}
			items = nil
			for i := int64(0); i < n && i < int64(d.Size())+1; i++ {
				items = append(items, pat.Items...)
			}
			keys = make([]hdl.Expr, len(items))
		}
		step := 1
		if d.Left > d.Right {
			step = -1
		}
		n := 0
		for i, it := range items {
			var k hdl.Expr
			if i < len(keys) {
				k = keys[i]
			}
			var idx int
			if k == nil {
				idx = d.Left + n*step
				n++
				if n > d.Size() {
					x.errorf(it.Position(), "too many values in the pattern for %d elements", d.Size())
					return
				}
			} else {
				v, ok := x.constIntOf(k, "pattern index")
				if !ok {
					return
				}
				idx = int(v)
			}
			if idx < d.Lo() || idx > d.Hi() {
				x.errorf(it.Position(), "pattern index %d is out of range %s", idx, d)
				return
			}
			leaf(it, base+(idx-d.Lo())*stride)
		}
		if n > 0 && n < d.Size() && pat.Default == nil {
			x.errorf(pat.Pos, "the pattern has %d values for %d elements", n, d.Size())
		}
		fillSubDefault(out, subDef, base, prodDims(dims))
	}
	rec(pat, dims, 0)
	return out, def
}

// assertion runs a simple immediate assertion as the if statement it is
// (IEEE 1800 §16.3): the pass action when the condition holds, else the
// fail action; assert and assume without one call $error. A cover has
// only a pass action; a restrict does nothing in simulation. Deferred and
// concurrent assertions are ignored with a warning.
func (p *pctx) assertion(s *hdl.Assertion, sc *scope, out *[]design.Stmt) {
	if !s.Immediate {
		p.e.warnOnceC(s.Pos, hdl.CodeIgnored, "deferred and concurrent assertions are ignored (weft checks immediate assertions only)")
		return
	}
	if s.Kind == "restrict" {
		return
	}
	fail := s.Fail
	if fail == nil && (s.Kind == "assert" || s.Kind == "assume") {
		msg := fmt.Sprintf("%s failed: %s", s.Kind, strings.Join(strings.Fields(s.Text), " "))
		fail = &hdl.ExprStmt{At: s.At, X: &hdl.CallExpr{At: s.At, Name: "$error", System: true,
			Args: []hdl.Expr{&hdl.StringLit{At: s.At, Value: msg}}}}
	}
	p.stmt(&hdl.IfStmt{At: s.At, Cond: s.Cond, Then: s.Pass, Else: fail}, sc, out)
}

func (p *pctx) caseStmt(s *hdl.CaseStmt, sc *scope, out *[]design.Stmt) {
	ex := p.ex(sc)
	kind := design.CaseEq
	switch {
	case s.Inside:
		kind = design.CaseInside
	case s.Kind == hdl.CaseZ:
		kind = design.CaseZ
	case s.Kind == hdl.CaseX:
		kind = design.CaseX
	}
	ct := ex.self(s.Expr).t
	var defItem *hdl.CaseItem
	for _, it := range s.Items {
		if it.Exprs == nil {
			if defItem != nil {
				p.e.errorf(it.Pos, "case statement has more than one default")
				return
			}
			defItem = it
			continue
		}
		for _, l := range it.Exprs {
			if r, ok := l.(*hdl.RangeExpr); ok && r.X == nil {
				if !s.Inside {
					p.e.errorf(r.Pos, "value ranges are only allowed in 'case ... inside'")
					return
				}
				a, b := ex.self(r.Left), ex.self(r.Right)
				ct.Width = max(ct.Width, a.t.Width, b.t.Width)
				ct.Signed = ct.Signed && a.t.Signed && b.t.Signed
				continue
			}
			t := ex.self(l)
			ct.Width = max(ct.Width, t.t.Width)
			ct.Signed = ct.Signed && t.t.Signed
		}
	}
	subj := ex.conv(s.Expr, ct)
	cs := &design.Case{Kind: kind, Subject: subj, Pos: dpos(s.Pos)}
	// Every label is built once, in the statement's comparison type.
	labels := make([][]caseLabelExpr, len(s.Items))
	allConst := true
	for i, it := range s.Items {
		for _, l := range it.Exprs {
			le := caseLabelExpr{src: l}
			if r, ok := l.(*hdl.RangeExpr); ok && r.X == nil {
				le.v, le.hi = ex.conv(r.Left, ct), ex.conv(r.Right, ct)
				allConst = allConst && isConst(le.hi)
			} else {
				le.v = ex.conv(l, ct)
			}
			allConst = allConst && isConst(le.v)
			labels[i] = append(labels[i], le)
		}
	}
	if ex.failed {
		return
	}
	// A constant subject against constant labels selects one arm now,
	// x and z bits matched as IEEE 1800 12.5 says.
	if sv, ok := subj.(*design.Const); ok && allConst {
		p.constCase(s, sc, kind, sv, labels, defItem, out)
		return
	}
	type armInfo struct {
		it     *hdl.CaseItem
		labels []*design.CaseLabel
	}
	var arms []armInfo
	for i, it := range s.Items {
		if it.Exprs == nil {
			continue
		}
		var dl []*design.CaseLabel
		for _, le := range labels[i] {
			if le.hi != nil {
				dl = append(dl, &design.CaseLabel{Value: le.v, Hi: le.hi})
			} else if lab, ok := p.caseLabel(ex, kind, le, ct); ok {
				dl = append(dl, lab)
			}
		}
		if len(dl) == 0 {
			p.checkDeadStmt(it.Body, sc)
			continue
		}
		arms = append(arms, armInfo{it, dl})
	}
	p.guarded++
	defer func() { p.guarded-- }()
	for _, a := range arms {
		var body []design.Stmt
		p.stmt(a.it.Body, sc, &body)
		cs.Items = append(cs.Items, &design.CaseItem{Labels: a.labels, Body: block(body)})
	}
	if defItem != nil {
		var body []design.Stmt
		p.stmt(defItem.Body, sc, &body)
		cs.Default = block(body)
	}
	*out = append(*out, cs)
}

// caseLabelExpr is one label of a case statement, built: a value, or a
// value range of case-inside (hi set).
type caseLabelExpr struct {
	src   hdl.Expr
	v, hi design.Expr
}

// constCase elaborates the arm a constant subject selects among constant
// labels.
func (p *pctx) constCase(s *hdl.CaseStmt, sc *scope, kind design.CaseKind, sv *design.Const, labels [][]caseLabelExpr, defItem *hdl.CaseItem, out *[]design.Stmt) {
	for i, it := range s.Items {
		for _, le := range labels[i] {
			var hit bool
			if le.hi != nil {
				in := mkBinary(design.OpAnd, mkBinary(design.OpLe, le.v, sv, bitT), mkBinary(design.OpLe, sv, le.hi, bitT), bitT)
				hit = design.Truth(in.(*design.Const)) == design.B1
			} else {
				hit = design.CaseMatch(kind, sv, le.v.(*design.Const))
			}
			if hit {
				p.checkDeadArms(s, it, sc)
				p.stmt(it.Body, sc, out)
				return
			}
		}
	}
	p.checkDeadArms(s, defItem, sc)
	if defItem != nil {
		p.stmt(defItem.Body, sc, out)
	}
}

// caseLabel makes label le of a case statement whose subject is a 2-state
// run-time value: its casez/casex/inside don't-care bits become the
// label's mask, and a label with an x or z bit that must match never
// matches (ok false, with a warning).
func (p *pctx) caseLabel(ex *ectx, kind design.CaseKind, le caseLabelExpr, ct design.Type) (*design.CaseLabel, bool) {
	l, lv := le.src, le.v
	if k, isConst := lv.(*design.Const); isConst {
		if k.U == nil {
			return &design.CaseLabel{Value: lv}, true
		}
		var wild *big.Int
		switch kind {
		case design.CaseEq:
			wild = new(big.Int)
		case design.CaseZ:
			wild = k.ZBits()
		default:
			wild = k.XZBits()
		}
		if new(big.Int).AndNot(k.U.XZ, wild).Sign() != 0 {
			p.unmatchable(kind, hpos(k.U.At), design.FormatBinary(k))
			return nil, false
		}
		mask := new(big.Int).AndNot(design.Ones(ct.Width), wild)
		return &design.CaseLabel{Value: design.NewConst(ct, k.Val), Mask: mask}, true
	}
	// A label that is not a constant keeps the wildcards written in its
	// literals ({7'b???????, 3'b000, OP}).
	if n := unmatchableLabel(l, kind); n != nil {
		p.unmatchable(kind, n.Pos, n.Text)
		return nil, false
	}
	lab := &design.CaseLabel{Value: lv}
	if kind != design.CaseEq && !ex.failed {
		if wild, _, ok := ex.wildcardBits(l, kind); ok && wild.Sign() != 0 {
			lab.Mask = new(big.Int).AndNot(design.Ones(ct.Width), wild)
		}
	}
	// The wildcard bits are masked off: their x and z read as nothing.
	design.WalkExpr(lv, func(e design.Expr) {
		if c, ok := e.(*design.Const); ok {
			c.U = nil
		}
	})
	return lab, true
}

// unmatchable warns of a case label that no 2-state subject matches.
func (p *pctx) unmatchable(kind design.CaseKind, pos hdl.Pos, text string) {
	if kind == design.CaseZ {
		p.e.warnc(pos, hdl.CodeCaseWithX, "casez item %s has x bits, which no 2-state value has: it never matches (weft is 2-state; in casez only z and ? are don't-care bits)", text)
	} else {
		p.e.warnc(pos, hdl.CodeCaseWithX, "case item %s has x or z bits, which no 2-state value has: it never matches (weft is 2-state; for don't-care bits use casez with ? or z)", text)
	}
}

func unparen(n hdl.Expr) hdl.Expr {
	for {
		p, ok := n.(*hdl.ParenExpr)
		if !ok {
			return n
		}
		n = p.X
	}
}

// rootName returns the variable an lvalue expression assigns.
func rootName(n hdl.Expr) string {
	switch n := n.(type) {
	case *hdl.Ident:
		return n.Name
	case *hdl.IndexExpr:
		return rootName(n.X)
	case *hdl.RangeExpr:
		return rootName(n.X)
	case *hdl.MemberExpr:
		return rootName(n.X)
	case *hdl.ParenExpr:
		return rootName(n.X)
	}
	return ""
}

// assignsAny reports whether s assigns one of names.
func assignsAny(s hdl.Stmt, names map[string]bool) bool {
	found := false
	var walk func(s hdl.Stmt)
	lhs := func(n hdl.Expr) {
		if c, ok := n.(*hdl.ConcatExpr); ok {
			for _, it := range c.Items {
				if names[rootName(it)] {
					found = true
				}
			}
			return
		}
		if names[rootName(n)] {
			found = true
		}
	}
	walk = func(s hdl.Stmt) {
		switch s := s.(type) {
		case *hdl.BlockStmt:
			for _, st := range s.Stmts {
				walk(st)
			}
		case *hdl.AssignStmt:
			lhs(s.LHS)
		case *hdl.IncDecStmt:
			lhs(s.LHS)
		case *hdl.IfStmt:
			walk(s.Then)
			walk(s.Else)
		case *hdl.Assertion:
			walk(s.Pass)
			walk(s.Fail)
		case *hdl.CaseStmt:
			for _, it := range s.Items {
				walk(it.Body)
			}
		case *hdl.ForStmt:
			for _, st := range s.Init {
				walk(st)
			}
			for _, st := range s.Step {
				walk(st)
			}
			walk(s.Body)
		case *hdl.ForeachStmt:
			walk(s.Body)
		case *hdl.WhileStmt:
			walk(s.Body)
		case *hdl.RepeatStmt:
			walk(s.Body)
		case *hdl.ForeverStmt:
			walk(s.Body)
		case *hdl.ExprStmt:
			if c, ok := s.X.(*hdl.CallExpr); ok && !c.System {
				for _, a := range c.Args {
					if names[rootName(a)] {
						found = true // may be an output argument
					}
				}
			}
		}
	}
	walk(s)
	return found
}

// escapes reports whether s has a break/continue that leaves the loop it
// is the body of, or a return.
func escapes(s hdl.Stmt) bool {
	found := false
	var walk func(s hdl.Stmt, inner bool)
	walk = func(s hdl.Stmt, inner bool) {
		switch s := s.(type) {
		case *hdl.BlockStmt:
			for _, st := range s.Stmts {
				walk(st, inner)
			}
		case *hdl.BreakStmt, *hdl.ContinueStmt:
			if !inner {
				found = true
			}
		case *hdl.ReturnStmt:
			found = true
		case *hdl.IfStmt:
			walk(s.Then, inner)
			walk(s.Else, inner)
		case *hdl.Assertion:
			walk(s.Pass, inner)
			walk(s.Fail, inner)
		case *hdl.CaseStmt:
			for _, it := range s.Items {
				walk(it.Body, inner)
			}
		case *hdl.ForStmt, *hdl.ForeachStmt:
			walk(loopBody(s), true)
		case *hdl.WhileStmt:
			walk(s.Body, true)
		case *hdl.RepeatStmt:
			walk(s.Body, true)
		case *hdl.ForeverStmt:
			walk(s.Body, true)
		}
	}
	walk(s, false)
	return found
}

func (p *pctx) forStmt(s *hdl.ForStmt, sc *scope, out *[]design.Stmt) {
	lsc := sc
	blk := &design.Block{}
	var vars []*symbol
	declared := map[*symbol]bool{}
	if len(s.InitDecls) > 0 {
		lsc = newScope(sc, sc.path)
		lsc.homeKind = p.localKind
		items := make([]hdl.Item, len(s.InitDecls))
		for i, d := range s.InitDecls {
			items[i] = d
		}
		p.e.registerItems(lsc, items, true)
		p.declLocals(lsc, items, blk, true)
		for _, d := range s.InitDecls {
			for _, n := range d.Names {
				if sym := lsc.syms[n.Name]; sym != nil && sym.kind == symVar {
					vars = append(vars, sym)
					declared[sym] = true
				}
			}
		}
	}
	for _, st := range s.Init {
		if a, ok := st.(*hdl.AssignStmt); ok {
			if id, ok := unparen(a.LHS).(*hdl.Ident); ok {
				if sym := p.ex(lsc).lookup(id.Name); sym != nil && sym.kind == symVar {
					vars = append(vars, sym)
				}
			}
		}
	}
	if stmts, ok, done := p.unrollFor(s, lsc, vars, declared); done {
		return
	} else if ok {
		blk.Stmts = stmts
		p.emitBlock(blk, out)
		return
	}
	for _, st := range s.Init {
		p.stmt(st, lsc, &blk.Stmts)
	}
	var cond design.Expr
	if s.Cond != nil {
		cond = p.ex(lsc).truth(s.Cond)
		if c, ok := cond.(*design.Const); ok {
			if design.Truth(c) != design.B1 { // 0, or x: false
				p.emitBlock(blk, out)
				return
			}
			cond = nil
		}
	}
	p.loopDepth++
	var body, step []design.Stmt
	p.stmt(s.Body, lsc, &body)
	for _, st := range s.Step {
		p.stmt(st, lsc, &step)
	}
	p.loopDepth--
	blk.Stmts = append(blk.Stmts, &design.Loop{Cond: cond, Body: block(body), Step: block(step), MaxIter: maxLoopIter, Pos: dpos(s.Pos)})
	p.emitBlock(blk, out)
}

func (p *pctx) emitBlock(blk *design.Block, out *[]design.Stmt) {
	if len(blk.Locals) == 0 {
		*out = append(*out, blk.Stmts...)
		return
	}
	*out = append(*out, blk)
}

// unrollFor unrolls a for loop whose control depends only on its loop
// variables and constants. ok reports success; done means an error was
// reported and nothing should be emitted.
func (p *pctx) unrollFor(s *hdl.ForStmt, sc *scope, vars []*symbol, declared map[*symbol]bool) (stmts []design.Stmt, ok, done bool) {
	if len(vars) == 0 || s.Cond == nil {
		return nil, false, false
	}
	names := map[string]bool{}
	for _, v := range vars {
		if v.home == nil || (v.home.Kind != design.KindBlockLocal && v.home.Kind != design.KindFuncLocal) {
			return nil, false, false
		}
		names[v.name] = true
	}
	if assignsAny(s.Body, names) || escapes(s.Body) {
		return nil, false, false
	}
	var m *design.Machine
	initVals := func() bool {
		m = design.NewMachine()
		for _, v := range vars {
			m.Set(v.home, 0, new(big.Int))
		}
		for _, d := range s.InitDecls {
			for _, n := range d.Names {
				sym := sc.syms[n.Name]
				if sym == nil || n.Init == nil {
					continue
				}
				c, ok := p.e.constEvalQuiet(n.Init, sc, p)
				if !ok {
					return false
				}
				m.Set(sym.home, 0, c.convert(sym.vt).v)
			}
		}
		for _, st := range s.Init {
			a, ok := st.(*hdl.AssignStmt)
			if !ok || (a.Op != "=" && a.Op != "") {
				return false
			}
			id, _ := unparen(a.LHS).(*hdl.Ident)
			if id == nil {
				return false
			}
			sym := p.ex(sc).lookup(id.Name)
			c, ok := p.e.constEvalQuiet(a.RHS, sc, p)
			if !ok || sym == nil || sym.home == nil {
				return false
			}
			m.Set(sym.home, 0, c.convert(sym.vt).v)
		}
		return true
	}
	saved := map[*symbol]*cval{}
	for _, v := range vars {
		if old, ok := p.consts[v]; ok {
			saved[v] = old
		}
	}
	bind := func() {
		for _, v := range vars {
			val, _ := m.Get(v.home, 0)
			p.consts[v] = &cval{v: val, t: v.vt}
		}
	}
	restore := func() {
		for _, v := range vars {
			if old, ok := saved[v]; ok {
				p.consts[v] = old
			} else {
				delete(p.consts, v)
			}
		}
	}
	defer restore()
	// The control (condition and step) is translated once with the loop
	// variables as variables and run in the interpreter: it must depend on
	// nothing else.
	cex := p.ex(sc)
	cex.quiet++
	condE := cex.truth(s.Cond)
	var stepS []design.Stmt
	for _, st := range s.Step {
		p.stmt(st, sc, &stepS)
	}
	if cex.failed {
		return nil, false, false
	}
	run := func(st []design.Stmt) bool {
		for _, x := range st {
			if err := m.Run(x); err != nil {
				return false
			}
		}
		return true
	}
	test := func() (bool, bool) {
		v, err := m.Eval(condE)
		if err != nil {
			return false, false
		}
		return v.Sign() != 0, true
	}
	if !initVals() {
		return nil, false, false
	}
	iters := 0
	for {
		c, ok := test()
		if !ok {
			return nil, false, false
		}
		if !c {
			break
		}
		iters++
		if iters > maxLoopIter {
			p.e.errorf(s.Pos, "for loop runs more than %d iterations", maxLoopIter)
			return nil, false, true
		}
		if !run(stepS) {
			return nil, false, false
		}
	}
	if iters > maxUnroll || p.unrolled+iters > maxUnrollTotal {
		return nil, false, false // kept as a loop
	}
	initVals()
	for i := 0; i < iters; i++ {
		bind()
		p.unrolling++
		p.stmt(s.Body, sc, &stmts)
		p.unrolling--
		run(stepS)
	}
	p.unrolled += iters
	// Variables that outlive the loop get their final value.
	for _, v := range vars {
		if declared[v] {
			continue
		}
		val, _ := m.Get(v.home, 0)
		stmts = append(stmts, &design.Assign{LHS: &design.HomeRef{Home: v.home}, RHS: &design.Const{T: v.home.Type(), Val: val}, Pos: dpos(s.Pos)})
	}
	return stmts, true, false
}

// constEvalQuiet evaluates x with the process's loop bindings, without
// reporting errors.
func (e *elab) constEvalQuiet(x hdl.Expr, sc *scope, p *pctx) (*cval, bool) {
	ex := &ectx{e: e, sc: sc, p: p, quiet: 1}
	st := ex.self(x)
	v := ex.conv(x, st.t)
	c, ok := v.(*design.Const)
	if !ok || c.U != nil {
		return nil, false
	}
	return &cval{v: c.Val, t: typeOf(c.T)}, true
}

func (p *pctx) repeatStmt(s *hdl.RepeatStmt, sc *scope, out *[]design.Stmt) {
	ex := p.ex(sc)
	cnt := ex.selfv(s.Count)
	if ex.failed {
		return
	}
	if c, ok := cnt.(*design.Const); ok && !escapes(s.Body) {
		n := design.ToInt(c.Val, c.T)
		if n.Sign() <= 0 || c.U != nil { // an x or z count repeats 0 times (IEEE 1800 12.7.2)
			return
		}
		if n.IsInt64() && n.Int64() <= maxUnroll && p.unrolled+int(n.Int64()) <= maxUnrollTotal {
			p.unrolled += int(n.Int64())
			for i := int64(0); i < n.Int64(); i++ {
				p.stmt(s.Body, sc, out)
			}
			return
		}
		if !n.IsInt64() || n.Int64() > maxLoopIter {
			p.e.errorf(s.Count.Position(), "repeat count %s is more than %d iterations", n, maxLoopIter)
			return
		}
	}
	// A hidden counter runs the loop at run time.
	t := cnt.Type()
	h := p.e.newHome(sc, "repeat$"+itoa(s.Pos.Line), typeOf(design.Type{Width: t.Width}), nil, p.localKind, s.Pos)
	blk := &design.Block{Locals: []*design.Home{h}}
	ref := &design.HomeRef{Home: h}
	blk.Stmts = append(blk.Stmts, &design.Assign{LHS: ref, RHS: cast(cnt, false), Pos: dpos(s.Pos)})
	if t.Signed {
		// A negative count runs zero times.
		neg := mkBinary(design.OpLt, cnt, design.NewConst(t, zero()), bitT)
		blk.Stmts = append(blk.Stmts, &design.If{Cond: neg, Then: &design.Assign{LHS: ref, RHS: design.NewConst(h.Type(), zero())}})
	}
	p.loopDepth++
	var body []design.Stmt
	p.stmt(s.Body, sc, &body)
	p.loopDepth--
	ht := h.Type()
	dec := &design.Assign{LHS: ref, RHS: mkBinary(design.OpSub, ref, design.NewConst(ht, big.NewInt(1)), ht)}
	blk.Stmts = append(blk.Stmts, &design.Loop{
		Cond:    mkBinary(design.OpNe, ref, design.NewConst(ht, zero()), bitT),
		Body:    block(body),
		Step:    dec,
		MaxIter: maxLoopIter,
		Pos:     dpos(s.Pos),
	})
	*out = append(*out, blk)
}

func (p *pctx) exprStmt(s *hdl.ExprStmt, sc *scope, out *[]design.Stmt) {
	x := unparen(s.X)
	if c, ok := x.(*hdl.CastExpr); ok && c.Type != nil && c.Type.Kind == hdl.TypeVoid {
		x = unparen(c.X)
	}
	var call *hdl.CallExpr
	switch n := x.(type) {
	case *hdl.CallExpr:
		call = n
	case *hdl.Ident:
		call = &hdl.CallExpr{At: n.At, Name: n.Name}
	case *hdl.ScopedIdent:
		call = &hdl.CallExpr{At: n.At, Package: n.Package, Name: n.Name}
	default:
		p.e.errorf(s.Pos, "this expression statement has no effect; only calls can be statements")
		return
	}
	if call.System {
		p.sysTask(call, sc, out)
		return
	}
	ex := p.ex(sc)
	sym := ex.funcSym(call)
	if sym == nil {
		if call.Scope == nil {
			ex.call(call) // reports the unknown name
		}
		return
	}
	f := p.e.function(sym)
	if f == nil {
		return
	}
	args, outs := ex.callArgs(call, sym, f)
	if args == nil && len(f.Args) > 0 {
		return
	}
	if args == nil {
		args = []design.Expr{}
	}
	*out = append(*out, &design.TaskCall{Func: f, Args: args, Outs: outs, Pos: dpos(s.Pos)})
}

func (p *pctx) sysTask(c *hdl.CallExpr, sc *scope, out *[]design.Stmt) {
	ex := p.ex(sc)
	// %m names the enclosing scope: sc.path is the instance path extended
	// by generate blocks, named blocks and the task or function.
	st := &design.SysTask{Pos: dpos(c.Pos), Scope: strings.Replace(sc.path, "::", ".", 1)}
	// formatted builds one format string for the whole argument list, as
	// SystemVerilog reads it: a string literal that no earlier specifier
	// consumes is itself a format (its specifiers consume the arguments after
	// it), any other unconsumed argument is printed in the task's default
	// radix, and an empty argument prints a space.
	formatted := func(args []hdl.Expr) {
		radix := "%d"
		switch c.Name[len(c.Name)-1] {
		case 'h':
			radix = "%h"
		case 'b':
			radix = "%b"
		case 'o':
			radix = "%o"
		}
		var text strings.Builder
		pending := 0
		for _, a := range args {
			lit, isString := unparen(a).(*hdl.StringLit)
			switch {
			case a == nil:
				if pending == 0 {
					text.WriteByte(' ')
				}
			case pending > 0:
				pending--
				if isString {
					st.Args = append(st.Args, strConst(lit.Value))
				} else {
					st.Args = append(st.Args, ex.selfv(a))
				}
			case isString:
				text.WriteString(lit.Value)
				pending = formatSpecifiers(lit.Value)
			case inlineSformatf(a) != nil:
				// $error($sformatf("n=%0d", n)) prints what
				// $error("n=%0d", n) prints: the call's format and
				// arguments join the task's.
				f := inlineSformatf(a)
				text.WriteString(unparen(f.Args[0]).(*hdl.StringLit).Value)
				for _, fa := range f.Args[1:] {
					if l, ok := unparen(fa).(*hdl.StringLit); ok {
						st.Args = append(st.Args, strConst(l.Value))
					} else {
						st.Args = append(st.Args, ex.selfv(fa))
					}
				}
			default:
				text.WriteString(radix)
				st.Args = append(st.Args, ex.selfv(a))
			}
		}
		st.Format, st.HasFormat = text.String(), true
	}
	name := c.Name
	switch name {
	case "$display", "$displayb", "$displayh", "$displayo", "$strobe":
		if name == "$strobe" {
			p.e.warnOnceC(c.Pos, hdl.CodeIgnored, "$strobe is treated as $display")
		}
		st.Kind = design.TaskDisplay
		formatted(c.Args)
	case "$write", "$writeb", "$writeh", "$writeo":
		st.Kind = design.TaskWrite
		formatted(c.Args)
	case "$error", "$warning", "$info":
		st.Kind = map[string]design.SysTaskKind{"$error": design.TaskError, "$warning": design.TaskWarning, "$info": design.TaskInfo}[name]
		formatted(c.Args)
	case "$fatal":
		st.Kind = design.TaskFatal
		st.Level = 1
		args := c.Args
		if len(args) > 0 {
			if _, isStr := unparen(args[0]).(*hdl.StringLit); !isStr {
				v, ok := ex.constIntOf(args[0], "$fatal finish number")
				if !ok {
					return
				}
				st.Level = int(v)
				args = args[1:]
			}
		}
		formatted(args)
	case "$finish", "$stop":
		st.Kind = design.TaskFinish
		if name == "$stop" {
			st.Kind = design.TaskStop
		}
		st.Level = 1
		if len(c.Args) > 0 {
			v, ok := ex.constIntOf(c.Args[0], name+" argument")
			if !ok {
				return
			}
			st.Level = int(v)
		}
	case "$readmemh", "$readmemb":
		st.Kind = design.TaskReadmemh
		if name == "$readmemb" {
			st.Kind = design.TaskReadmemb
		}
		if len(c.Args) < 2 || len(c.Args) > 4 {
			p.e.errorf(c.Pos, "%s takes a file name, a memory and optional start and end addresses", name)
			return
		}
		var file string
		if s, ok := unparen(c.Args[0]).(*hdl.StringLit); ok {
			file = s.Value
		} else {
			cv, ok := p.e.constEvalP(c.Args[0], sc, p, name+" file name")
			if !ok {
				return
			}
			file = cv.text()
		}
		st.File = p.e.resolveFile(file, c.Pos)
		// The simulator would refuse it at run time; saying so here lets
		// weft lint catch it.
		var nr *fileread.NotRegularError
		if err := fileread.Check(st.File); errors.As(err, &nr) {
			p.e.errorf(c.Pos, "%s file %s is not a regular file (%s); weft reads only regular files", name, st.File, fileread.Kind(nr.Mode))
			return
		}
		r := ex.ref(c.Args[1], true)
		if r == nil {
			return
		}
		if r.kind != rkVar || len(r.unpacked) == 0 || len(r.idx) > 0 {
			p.e.errorf(c.Args[1].Position(), "%s needs an unpacked array (a memory) as its second argument", name)
			return
		}
		st.Target = r.home
		for _, a := range c.Args[2:] {
			st.Args = append(st.Args, ex.selfv(a))
		}
	case "$dumpfile", "$dumpvars":
		p.dumpTask(c, sc)
		return
	case "$dumpon", "$dumpoff", "$dumpall", "$dumpflush":
		p.e.warnOnceC(c.Pos, hdl.CodeDumpVars, "%s is ignored (weft honours $dumpfile and $dumpvars of initial blocks; the test bench's VCD writer dumps every time step from then on)", name)
		return
	case "$timeformat", "$printtimescale", "$fflush":
		p.e.warnOnceC(c.Pos, hdl.CodeIgnored, "%s is ignored", name)
		return
	case "$monitor", "$fopen", "$fclose", "$fdisplay", "$fwrite", "$sformat", "$swrite", "$fscanf", "$sscanf", "$system":
		p.e.errorf(c.Pos, "system task '%s' is not supported yet", name)
		return
	default:
		p.e.errorf(c.Pos, "system task '%s' is not supported yet", name)
		return
	}
	if ex.failed {
		return
	}
	*out = append(*out, st)
}

// resolveFile resolves a file named by source code: relative to the
// directory of the source file that names it, then to that directory's
// ancestors (paths written relative to a project root), then to the
// working directory. A file found nowhere is kept as written, with a
// warning.
func (e *elab) resolveFile(name string, pos hdl.Pos) string {
	if filepath.IsAbs(name) || name == "" {
		return name
	}
	if pos.File != "" {
		dir := filepath.Dir(pos.File)
		if abs, err := filepath.Abs(dir); err == nil {
			dir = abs
		}
		for i := 0; i < 32; i++ {
			cand := filepath.Join(dir, name)
			if _, err := os.Stat(cand); err == nil {
				return cand
			}
			up := filepath.Dir(dir)
			if up == dir {
				break
			}
			dir = up
		}
	}
	if _, err := os.Stat(name); err == nil {
		return name
	}
	if e.diags != nil {
		e.warnc(pos, hdl.CodeFileMissing, "file '%s' not found (looked next to %s and in its parent directories); the simulator will look for it in its working directory", name, pos.File)
	}
	return name
}

// wildcardBits returns the bits of a casez/casex/case-inside label that were
// written as wildcards (z and ? for casez; x, z and ? otherwise), at their
// positions in the label's value, and the label's width. It looks through
// concatenations and constant replications, so `{7'b???????, 3'b000, OP}`
// keeps its wildcards; other operands contribute no wildcard bits.
// unmatchableLabel returns the literal that keeps case label l from ever
// matching a 2-state subject, or nil: an x or z bit in a case label, an x
// bit in a casez label (where only z is a wildcard).
func unmatchableLabel(l hdl.Expr, kind design.CaseKind) *hdl.Number {
	switch n := l.(type) {
	case *hdl.ParenExpr:
		return unmatchableLabel(n.X, kind)
	case *hdl.Number:
		var bad *big.Int
		switch kind {
		case design.CaseEq:
			bad = n.XZ
			if n.Fill == 'x' || n.Fill == 'z' {
				return n
			}
		case design.CaseZ:
			if n.XZ != nil {
				bad = new(big.Int).AndNot(n.XZ, n.Z)
			}
			if n.Fill == 'x' {
				return n
			}
		}
		if bad != nil && bad.Sign() != 0 {
			return n
		}
	case *hdl.ConcatExpr:
		for _, it := range n.Items {
			if b := unmatchableLabel(it, kind); b != nil {
				return b
			}
		}
	case *hdl.ReplicateExpr:
		for _, it := range n.Items {
			if b := unmatchableLabel(it, kind); b != nil {
				return b
			}
		}
	}
	return nil
}

func (x *ectx) wildcardBits(e hdl.Expr, kind design.CaseKind) (*big.Int, int, bool) {
	switch n := unparen(e).(type) {
	case *hdl.Number:
		wild := n.XZ
		if kind == design.CaseZ {
			wild = n.Z
		}
		w := x.self(n).t.Width
		if wild == nil {
			return new(big.Int), w, true
		}
		return new(big.Int).And(wild, design.Ones(w)), w, true
	case *hdl.ConcatExpr:
		acc, total := new(big.Int), 0
		for i := len(n.Items) - 1; i >= 0; i-- {
			wb, w, ok := x.wildcardBits(n.Items[i], kind)
			if !ok {
				return nil, 0, false
			}
			acc.Or(acc, new(big.Int).Lsh(wb, uint(total)))
			total += w
		}
		return acc, total, true
	case *hdl.ReplicateExpr:
		count, ok := x.constIntOf(n.Count, "replication count")
		if !ok || count < 0 {
			return nil, 0, false
		}
		one, w, ok := x.wildcardBits(&hdl.ConcatExpr{At: n.At, Items: n.Items}, kind)
		if !ok {
			return nil, 0, false
		}
		acc := new(big.Int)
		for i := int64(0); i < count; i++ {
			acc.Or(acc, new(big.Int).Lsh(one, uint(int64(w)*i)))
		}
		return acc, w * int(count), true
	default:
		return new(big.Int), x.self(e).t.Width, true
	}
}

// inlineSformatf returns a, a call of $sformatf (or $psprintf) whose
// format is a string literal with one specifier per argument, or nil: in a
// task's argument list such a call prints exactly as its format and
// arguments written in its place.
func inlineSformatf(a hdl.Expr) *hdl.CallExpr {
	c, ok := unparen(a).(*hdl.CallExpr)
	if !ok || !c.System || (c.Name != "$sformatf" && c.Name != "$psprintf") || len(c.Args) == 0 {
		return nil
	}
	f, ok := unparen(c.Args[0]).(*hdl.StringLit)
	if !ok || formatSpecifiers(f.Value) != len(c.Args)-1 {
		return nil
	}
	for _, x := range c.Args[1:] {
		if x == nil {
			return nil
		}
	}
	return c
}

// formatSpecifiers counts the arguments a format string consumes: every
// %-specifier (after its flags - + 0, width and precision) except %%, %m
// and %l.
func formatSpecifiers(f string) int {
	n := 0
	for i := 0; i < len(f); i++ {
		if f[i] != '%' {
			continue
		}
		i++
		for i < len(f) && (f[i] == '-' || f[i] == '+' || f[i] == '.' || (f[i] >= '0' && f[i] <= '9')) {
			i++
		}
		if i < len(f) && !strings.ContainsRune("%mMlL", rune(f[i])) {
			n++
		}
	}
	return n
}
