package elab

import (
	"fmt"
	"slices"
	"strings"

	"github.com/weft-hdl/weft/design"
	"github.com/weft-hdl/weft/hdl"
)

// $dumpfile and $dumpvars (IEEE 1800 §21.7) are requests to the simulator
// to write a VCD file. weft's simulator writes none itself: elaboration
// records the requests in Design.Dump, and the test bench hands them to its
// VCD writer (package vcd). They are honoured in straight-line code of
// initial blocks, where they run exactly once at time zero; anywhere else,
// and for the tasks that switch a running dump ($dumpon, $dumpoff,
// $dumpall, $dumpflush), elaboration warns that the call is ignored.

// dumpCall is one $dumpvars call whose scope arguments are resolved once
// the whole hierarchy exists (an argument may name an instance elaborated
// after the calling one, or the calling instance's own module).
type dumpCall struct {
	levels int
	named  bool // the call had scope arguments (none: the whole design)
	args   []dumpArg
	from   string // the calling scope's path (generate prefixes included)
	inst   *design.Instance
	pos    hdl.Pos
}

// dumpArg is one scope-or-signal argument, as a dotted name ("u_tx",
// "g[1].u_alu", "uart_top.u_rx.state").
type dumpArg struct {
	name string
	pos  hdl.Pos
}

// dumpTask records a $dumpfile or $dumpvars call of an initial block.
func (p *pctx) dumpTask(c *hdl.CallExpr, sc *scope) {
	name := c.Name
	switch {
	case p.kind != pkInitial:
		p.e.warnc(c.Pos, hdl.CodeDumpVars, "%s outside an initial block is ignored (weft honours $dumpfile and $dumpvars only in initial blocks, at time zero)", name)
		return
	case p.guarded > 0 || p.loopDepth > 0:
		p.e.warnc(c.Pos, hdl.CodeDumpVars, "%s under a run-time condition or in a loop is ignored (weft honours it only in straight-line initial code; select the dump with a parameter or `ifdef)", name)
		return
	}
	e := p.e
	if e.dump == nil {
		e.dump = &design.DumpRequest{}
	}
	ex := p.ex(sc)
	if name == "$dumpfile" {
		if len(c.Args) != 1 || c.Args[0] == nil {
			e.errorf(c.Pos, "$dumpfile takes one argument, the file name: $dumpfile(\"waves.vcd\")")
			return
		}
		var file string
		if s, ok := unparen(c.Args[0]).(*hdl.StringLit); ok {
			file = s.Value
		} else {
			cv, ok := e.constEvalP(c.Args[0], sc, p, "$dumpfile file name")
			if !ok {
				return
			}
			file = cv.text()
		}
		if e.dump.File != "" && e.dump.File != file {
			e.warnc(c.Pos, hdl.CodeDumpVars, "$dumpfile(%q) replaces $dumpfile(%q) at %s: one dump file per run", file, e.dump.File, e.dump.FilePos)
		}
		e.dump.File, e.dump.FilePos = file, dpos(c.Pos)
		return
	}
	call := &dumpCall{from: sc.path, inst: sc.inst.inst, pos: c.Pos}
	if len(c.Args) > 0 && c.Args[0] != nil {
		v, ok := ex.constIntOf(c.Args[0], "the $dumpvars levels argument")
		if !ok {
			return
		}
		if v < 0 {
			e.errorf(c.Args[0].Position(), "$dumpvars levels must not be negative (0 dumps every level)")
			return
		}
		call.levels = int(v)
	}
	for _, a := range c.Args[min(1, len(c.Args)):] {
		call.named = true
		n, ok := p.dumpName(ex, a)
		if !ok {
			continue
		}
		call.args = append(call.args, dumpArg{n, a.Position()})
	}
	e.dumpCalls = append(e.dumpCalls, call)
}

// dumpName spells a $dumpvars scope argument as a dotted name; constant
// indexes select generate-block iterations and instance-array elements.
func (p *pctx) dumpName(ex *ectx, a hdl.Expr) (string, bool) {
	switch a := unparen(a).(type) {
	case *hdl.Ident:
		return a.Name, true
	case *hdl.MemberExpr:
		x, ok := p.dumpName(ex, a.X)
		return x + "." + a.Name, ok
	case *hdl.IndexExpr:
		x, ok := p.dumpName(ex, a.X)
		if !ok {
			return "", false
		}
		i, ok := ex.constIntOf(a.Index, "a $dumpvars scope index")
		return fmt.Sprintf("%s[%d]", x, i), ok
	case nil:
		return "", false
	}
	p.e.warnc(a.Position(), hdl.CodeDumpVars, "$dumpvars argument is ignored: it must name an instance or a signal (u_core, g[1].u_alu, top.u_rx.state)")
	return "", false
}

// resolveDumps turns the recorded $dumpvars calls into Design.Dump, now
// that every instance and home exists and the design is indexed.
func (e *elab) resolveDumps() {
	if e.dump == nil {
		return
	}
	insts := map[string]bool{}
	for _, in := range e.d.Instances {
		insts[in.Path] = true
	}
	for _, c := range e.dumpCalls {
		dv := design.DumpVars{Levels: c.levels, Pos: dpos(c.pos)}
		for _, a := range c.args {
			path, isInst, ok := e.resolveDumpName(a.name, c, insts)
			switch {
			case !ok:
				e.warnc(a.pos, hdl.CodeDumpVars, "$dumpvars argument '%s' names no instance or signal seen from %s; it is ignored", a.name, c.from)
			case isInst:
				dv.Scopes = append(dv.Scopes, path)
			default:
				if h, _ := e.d.Lookup(path); h.IsArray() {
					e.warnc(a.pos, hdl.CodeDumpVars, "$dumpvars argument '%s' is an unpacked array: it is dumped element by element", a.name)
				}
				dv.Signals = append(dv.Signals, path)
			}
		}
		if c.named && len(dv.Scopes)+len(dv.Signals) == 0 {
			continue // every argument was ignored: not the whole design
		}
		e.dump.Vars = append(e.dump.Vars, dv)
	}
	e.d.Dump = e.dump
}

// resolveDumpName finds what a $dumpvars argument names, the way a
// hierarchical reference resolves (IEEE 1800 §23.8): downwards from the
// calling scope and each scope enclosing it within the instance, then
// upwards, where the first name may be an ancestor instance's name or
// module name (so that `$dumpvars(0, uart_top)` in uart_top is the whole
// instance) or a scope below an ancestor.
func (e *elab) resolveDumpName(name string, c *dumpCall, insts map[string]bool) (path string, isInst, ok bool) {
	try := func(p string) bool {
		if insts[p] {
			path, isInst, ok = p, true, true
			return true
		}
		if h, found := e.d.Lookup(p); found && h.Kind != design.KindBlockLocal && (h.Path == p || slices.Contains(h.Aliases, p)) {
			path, ok = p, true
			return true
		}
		return false
	}
	for q := c.from; len(q) >= len(c.inst.Path); q = design.ParentPath(q) {
		if try(q + "." + name) {
			return
		}
		if q == c.inst.Path {
			break
		}
	}
	first, rest, _ := strings.Cut(name, ".")
	if rest != "" {
		rest = "." + rest
	}
	for a := c.inst; a != nil; a = a.Parent {
		if (a.Name == first || a.Module == first) && try(a.Path+rest) {
			return
		}
		if a != c.inst && try(a.Path+"."+name) {
			return
		}
	}
	return "", false, false
}
