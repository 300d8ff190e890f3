// Package elab turns the syntax tree of package hdl into a design.Design:
// parameter evaluation, generate unrolling, hierarchy, type and width
// resolution, constant functions, processes and trigger groups. Its
// warnings carry hdl's codes; lint.go has the width check (WIDTHTRUNC) it
// makes on assignments and typed parameters while the source is at hand.
// An instance of a module and parameter set already elaborated is a copy
// of the first one's homes, processes and scopes, renamed (template.go):
// a generate loop of N instances builds one and copies N-1.
package elab

import (
	"fmt"
	"runtime/debug"
	"sort"
	"strings"

	"github.com/weft-hdl/weft/design"
	"github.com/weft-hdl/weft/hdl"
)

// Options select the top module and override its parameters.
type Options struct {
	// Top is the top module; empty means the single module that no other
	// module instantiates.
	Top string
	// Params overrides parameters of the top module (-G NAME=VALUE). Values
	// are SystemVerilog literals: 8, -3, 'h10, 32'd5, 4'sb1010, "text".
	Params map[string]string
	// Limits bound the elaboration's work (see Limits).
	Limits Limits
	// EachInstance elaborates every instance on its own, even where
	// instances of one module with the same parameters could be copies of
	// the first (see template.go); the design is the same either way.
	EachInstance bool
}

// elab is the state of one elaboration.
type elab struct {
	st    *hdl.SourceText
	fs    *hdl.FileSet
	diags *hdl.Diagnostics
	opts  Options
	d     *design.Design

	modules  map[string]*hdl.Module
	pkgDecls map[string]*hdl.Package
	pkgs     map[string]*scope
	unit     *scope

	comb     []*design.Process
	initial  []*design.Process
	groupIdx map[string]*design.TriggerGroup

	insts []*instCtx
	paths map[string]int
	// staticDecl is the declaration initial value of each KindStatic
	// home (Init may later hold what a folded initial block left): a
	// constant function call starts from it.
	staticDecl map[*design.Home]*design.Init
	// xzSites are the literals whose x or z bits reach run time (xz.go).
	xzSites []design.Pos
	xzSeen  map[design.Pos]bool
	// formals are the declared arguments of each function (see formal).
	formals   map[*design.Function][]formal
	procNames map[string]int
	reported  map[string]bool
	errSeq    int
	// warnSeq counts warnings asked for, reported or not (a template
	// is only taken from an instance that asked for none).
	warnSeq int
	// templates are the instances later instances of the same module
	// and parameters are copied from, by templateKey; nil marks a key
	// whose first instance cannot be one.
	templates map[string]*template
	copies    int // instances copied from a template

	// dump and dumpCalls collect $dumpfile and $dumpvars (resolveDumps).
	dump      *design.DumpRequest
	dumpCalls []*dumpCall

	spent *work // what the elaboration spent of opts.Limits (see work)
}

// Elaborate elaborates st. It returns nil when it reported an error (the
// diagnostics say why). It never panics: an internal failure is reported
// as an "internal error" diagnostic.
func Elaborate(st *hdl.SourceText, fs *hdl.FileSet, opts Options, diags *hdl.Diagnostics) *design.Design {
	d, _ := elaborate(st, fs, opts, diags)
	return d
}

// elaborate is Elaborate returning its state too (tests read what it did).
func elaborate(st *hdl.SourceText, fs *hdl.FileSet, opts Options, diags *hdl.Diagnostics) (d *design.Design, e *elab) {
	if diags == nil {
		diags = hdl.NewDiagnostics(fs)
	}
	defer func() {
		if r := recover(); r != nil {
			stack := string(debug.Stack())
			if i := strings.Index(stack, "panic("); i >= 0 {
				stack = stack[i:]
			}
			if len(stack) > 1500 {
				stack = stack[:1500]
			}
			diags.Errorf(hdl.Pos{File: "<elab>"}, "internal error in elaboration: %v (please report this)\n%s", r, stack)
			d = nil
		}
	}()
	e = &elab{st: st, fs: fs, diags: diags, opts: opts, d: &design.Design{},
		modules: map[string]*hdl.Module{}, pkgDecls: map[string]*hdl.Package{}, pkgs: map[string]*scope{},
		groupIdx: map[string]*design.TriggerGroup{},
		paths:    map[string]int{}, procNames: map[string]int{}, reported: map[string]bool{}}
	if st == nil {
		diags.Errorf(hdl.Pos{}, "nothing to elaborate")
		return nil, e
	}
	return e.run(), e
}

func dpos(p hdl.Pos) design.Pos { return design.Pos{File: p.File, Line: p.Line, Col: p.Col} }

func itoa(i int) string { return fmt.Sprint(i) }

func (e *elab) errorf(pos hdl.Pos, format string, args ...any) {
	e.errSeq++
	msg := fmt.Sprintf(format, args...)
	key := pos.String() + "\x00" + msg
	if e.reported[key] {
		return
	}
	e.reported[key] = true
	e.diags.Errorf(pos, "%s", msg)
}

func (e *elab) errCount() int { return e.errSeq }

// warnc reports a warning with code (one of hdl's Code constants) once per
// position and message.
func (e *elab) warnc(pos hdl.Pos, code, format string, args ...any) {
	e.warnSeq++
	msg := fmt.Sprintf(format, args...)
	key := "w" + pos.String() + "\x00" + msg
	if e.reported[key] {
		return
	}
	e.reported[key] = true
	e.diags.Warnc(pos, code, "%s", msg)
}

// warnf is warnc without a code, kept so that work in flight still builds;
// TestWarningsHaveCodes fails while any call is left.
func (e *elab) warnf(pos hdl.Pos, format string, args ...any) { e.warnc(pos, "", format, args...) }

// warnOnceC reports a warning once per message text.
func (e *elab) warnOnceC(pos hdl.Pos, code, format string, args ...any) {
	e.warnSeq++
	msg := fmt.Sprintf(format, args...)
	if e.reported["once\x00"+msg] {
		return
	}
	e.reported["once\x00"+msg] = true
	e.diags.Warnc(pos, code, "%s", msg)
}

// warnOnce is warnOnceC without a code (see warnf).
func (e *elab) warnOnce(pos hdl.Pos, format string, args ...any) {
	e.warnOnceC(pos, "", format, args...)
}

func firstFile(st *hdl.SourceText) hdl.Pos {
	if len(st.Modules) > 0 {
		return hdl.Pos{File: st.Modules[0].Pos.File}
	}
	return hdl.Pos{}
}

// instantiated collects the module names instantiated anywhere in items.
func instantiated(items []hdl.Item, out map[string]bool) {
	eachInstance(items, func(in *hdl.Instance) { out[in.Module] = true })
}

func (e *elab) run() *design.Design {
	st := e.st
	for _, m := range st.Modules {
		if old, ok := e.modules[m.Name]; ok {
			e.errorf(m.Pos, "module '%s' is defined twice (first at %s)", m.Name, old.Pos)
			continue
		}
		e.modules[m.Name] = m
	}
	for _, p := range st.Packages {
		if old, ok := e.pkgDecls[p.Name]; ok {
			e.errorf(p.Pos, "package '%s' is defined twice (first at %s)", p.Name, old.Pos)
			continue
		}
		e.pkgDecls[p.Name] = p
	}
	for _, it := range st.Items {
		u, ok := it.(*hdl.Unsupported)
		switch {
		case !ok:
		case u.What == "class":
			// Ignoring a class would leave the design's test-bench
			// half silently missing.
			e.errorf(u.Pos, "classes are not supported (weft simulates RTL; write the test bench in Go)")
		default:
			e.errorf(u.Pos, "%s is not supported yet", u.What)
		}
	}
	e.unit = newScope(nil, "")
	e.unit.homeKind = design.KindVar
	for _, it := range st.Items {
		if vd, ok := it.(*hdl.VarDecl); ok {
			e.errorf(vd.Pos, "variables outside modules are not supported")
		}
	}
	e.registerItems(e.unit, st.Items, true)

	// Top module.
	var top *hdl.Module
	if e.opts.Top != "" {
		top = e.modules[e.opts.Top]
		if top == nil {
			names := make([]string, 0, len(e.modules))
			for n := range e.modules {
				names = append(names, n)
			}
			sort.Strings(names)
			if len(names) == 0 {
				e.errorf(e.inputsPos(st), "unknown top module '%s': no module to elaborate: %s", e.opts.Top, e.noModuleReason(st, nil))
				return nil
			}
			e.errorf(e.inputsPos(st), "unknown top module '%s'%s (modules: %s)", e.opts.Top, suggestFrom(e.opts.Top, names), strings.Join(names, ", "))
			return nil
		}
		if top.Interface {
			e.errorf(top.Pos, "'%s' is an interface; the top must be a module (instantiate the interface in a wrapper module)", top.Name)
			return nil
		}
	} else {
		used := map[string]bool{}
		for _, m := range st.Modules {
			instantiated(m.Items, used)
		}
		var cands []*hdl.Module
		for _, m := range st.Modules {
			if !used[m.Name] && e.modules[m.Name] == m && !m.Interface {
				cands = append(cands, m)
			}
		}
		switch len(cands) {
		case 0:
			e.noTop(st)
			return nil
		case 1:
			top = cands[0]
		default:
			var names []string
			for _, c := range cands {
				names = append(names, c.Name)
			}
			e.errorf(cands[1].Pos, "several modules could be the top (%s); choose one with --top", strings.Join(names, ", "))
			return nil
		}
	}

	// -G overrides.
	named := map[string]*override{}
	keys := make([]string, 0, len(e.opts.Params))
	for k := range e.opts.Params {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		x, err := parseParamValue(e.opts.Params[k])
		if err != nil {
			e.errorf(hdl.Pos{File: "<-G>"}, "bad value for parameter '%s': %s", k, err)
			continue
		}
		cv, ok := e.constEval(x, e.unit, fmt.Sprintf("value of -G %s", k))
		if !ok {
			continue
		}
		named[k] = &override{val: cv, pos: top.Pos}
	}
	if e.diags.ErrorCount() > 0 {
		return nil
	}
	ic := e.newInstance(top, top.Name, top.Name, nil, named, nil, top.Pos)
	e.d.Top = ic.inst
	e.build(ic, nil)
	e.recordParams()
	if e.diags.ErrorCount() > 0 {
		return nil
	}
	e.finish()
	if e.diags.ErrorCount() > 0 {
		return nil
	}
	e.resolveDumps()
	e.d.Timescale = finestTimescale(st.Timescales)
	return e.d
}

// recordParams stores the final parameter values of every instance.
func (e *elab) recordParams() {
	for _, ic := range e.insts {
		var items []hdl.Item
		for _, p := range ic.mod.Params {
			items = append(items, p)
		}
		items = append(items, ic.mod.Items...)
		for _, it := range flatten(items, nil) {
			pd, ok := it.(*hdl.ParamDecl)
			if !ok {
				continue
			}
			for _, d := range pd.Names {
				s := ic.sc.syms[d.Name]
				if s == nil || s.param != pd {
					continue
				}
				if s.kind == symType {
					t := e.symType(s)
					ic.inst.Params = append(ic.inst.Params, design.ParamValue{Name: d.Name, Local: s.local, TypeParam: typeSV(t)})
					continue
				}
				v := e.paramVal(s, d.Pos)
				if v == nil {
					continue
				}
				ic.inst.Params = append(ic.inst.Params, design.ParamValue{Name: d.Name, Value: v.v, Type: v.dt(), Local: s.local})
			}
		}
	}
}

// finish numbers processes, computes read/write sets, checks drivers, and
// collects functions and modules.
func (e *elab) finish() {
	d := e.d
	d.Comb = e.comb
	d.Initial = e.initial
	id := 0
	for _, p := range d.Comb {
		p.ID = id
		id++
	}
	for i, g := range d.Groups {
		g.ID = i
		for _, p := range g.Procs {
			p.ID = id
			id++
		}
	}
	for _, p := range d.Initial {
		p.ID = id
		id++
	}
	all := d.Processes()
	for _, p := range all {
		design.Analyze(p)
	}
	// Functions reachable from processes (directly or through functions).
	var visit func(f *design.Function)
	seen := map[*design.Function]bool{}
	visit = func(f *design.Function) {
		if seen[f] {
			return
		}
		seen[f] = true
		d.Functions = append(d.Functions, f)
		eachCall(f.Body, visit)
	}
	for _, p := range all {
		eachCall(p.Body, visit)
	}
	for _, f := range d.Functions {
		design.AnalyzeFunction(f)
		if f.Recursive {
			e.errorf(hdl.Pos{File: f.Pos.File, Line: f.Pos.Line, Col: f.Pos.Col},
				"recursive function '%s' is called with non-constant arguments; only constant calls of recursive functions are supported", f.Name)
		}
	}
	e.warnRunTimeXZ(all, d.Functions)
	e.checkDrivers(all)
	for _, p := range d.Comb {
		if len(p.Writes) == 0 && p.Kind != design.ProcContAssign {
			e.warnc(hpos(p.Pos), hdl.CodeNoWrite, "%s writes nothing", p.Kind)
		}
	}
	mods := map[string]bool{}
	for _, in := range d.Instances {
		mods[in.Module] = true
	}
	for m := range mods {
		d.Modules = append(d.Modules, m)
	}
	sort.Strings(d.Modules)
	d.Index()
	if errs := design.Check(d); len(errs) > 0 {
		for i, err := range errs {
			if i == 5 {
				break
			}
			e.errorf(hdl.Pos{File: "<elab>"}, "internal error: malformed design: %v (please report this)", err)
		}
	}
}

// eachCall calls fn for every function called in s.
func eachCall(s design.Stmt, fn func(*design.Function)) {
	var ex func(x design.Expr)
	ex = func(x design.Expr) {
		switch x := x.(type) {
		case *design.Call:
			fn(x.Func)
			for _, a := range x.Args {
				ex(a)
			}
		case *design.Unary:
			ex(x.X)
		case *design.Binary:
			ex(x.X)
			ex(x.Y)
		case *design.Cond:
			ex(x.C)
			ex(x.Then)
			ex(x.Else)
		case *design.Concat:
			for _, p := range x.Parts {
				ex(p)
			}
		case *design.Repl:
			ex(x.X)
		case *design.Extend:
			ex(x.X)
		case *design.Trunc:
			ex(x.X)
		case *design.Slice:
			ex(x.X)
			ex(x.Lsb)
		case *design.ElemRef:
			for _, i := range x.Index {
				ex(i)
			}
		case *design.SysFunc:
			for _, a := range x.Args {
				ex(a)
			}
		}
	}
	design.WalkStmt(s, func(st design.Stmt) bool {
		switch st := st.(type) {
		case *design.Assign:
			ex(st.LHS)
			ex(st.RHS)
		case *design.If:
			ex(st.Cond)
		case *design.Case:
			ex(st.Subject)
			for _, it := range st.Items {
				for _, l := range it.Labels {
					ex(l.Value)
					if l.Hi != nil {
						ex(l.Hi)
					}
				}
			}
		case *design.Loop:
			if st.Cond != nil {
				ex(st.Cond)
			}
		case *design.SysTask:
			for _, a := range st.Args {
				ex(a)
			}
		case *design.TaskCall:
			fn(st.Func)
			for _, a := range st.Args {
				if a != nil {
					ex(a)
				}
			}
			for _, o := range st.Outs {
				if o != nil {
					ex(o)
				}
			}
		}
		return true
	})
}

// checkDrivers reports bits written by more than one process (initial
// blocks excepted) and writes to the top module's inputs.
func (e *elab) checkDrivers(all []*design.Process) {
	type w struct {
		p *design.Process
		a design.Access
	}
	by := map[*design.Home][]w{}
	var homes []*design.Home
	for _, p := range all {
		if p.Kind == design.ProcInitial {
			continue
		}
		for _, a := range p.Writes {
			if a.Home.Kind == design.KindInput && a.Home.Inst == e.d.Top {
				e.errorf(hpos(p.Pos), "input port '%s' of the top module is assigned by %s", a.Home.Name, p.Name)
				continue
			}
			if _, ok := by[a.Home]; !ok {
				homes = append(homes, a.Home)
			}
			by[a.Home] = append(by[a.Home], w{p, a})
		}
	}
	sort.Slice(homes, func(i, j int) bool { return homes[i].ID < homes[j].ID })
	for _, h := range homes {
		ws := by[h]
		if h.Kind == design.KindStatic {
			// Calls of a static function from several processes share
			// its static variables: a race the standard allows (§13.3.1).
			for j := 1; j < len(ws); j++ {
				if ws[j].p != ws[0].p {
					a, b := ws[0].p, ws[j].p
					if b.Pos.Before(a.Pos) {
						a, b = b, a
					}
					e.warnc(hpos(b.Pos), hdl.CodeRace, "static variable '%s' is shared by the calls of %s (%s) and %s (%s): the order in which they update it is not defined (declare the function automatic for a copy per call)", h.Path, a.Name, a.Pos, b.Name, b.Pos)
					break
				}
			}
			continue
		}
		if len(ws) > 64 {
			// Many writers of one array (a generate loop writing one
			// element each): the pairwise search below would be quadratic,
			// so a sweep over element ranges says first whether any two
			// processes overlap at all.
			acc := make([]driverAccess, len(ws))
			for i, x := range ws {
				acc[i] = driverAccess{x.p, x.a}
			}
			if !driversOverlap(acc) {
				continue
			}
		}
	outer:
		for j := 1; j < len(ws); j++ {
			for i := 0; i < j; i++ {
				if ws[i].p != ws[j].p && ws[i].a.Overlaps(ws[j].a) {
					a, b := ws[i].p, ws[j].p
					if b.Pos.Before(a.Pos) {
						a, b = b, a
					}
					e.errorf(hpos(b.Pos), "'%s' is driven by more than one process: %s (%s) and %s (%s)", h.Path, a.Name, a.Pos, b.Name, b.Pos)
					break outer
				}
			}
		}
	}
}

// driverAccess is one process's write of a home.
type driverAccess struct {
	p *design.Process
	a design.Access
}

// driversOverlap reports whether two accesses of different processes
// share a bit: a sweep over the accesses sorted by first element, each
// compared only with those whose elements reach it.
func driversOverlap(acc []driverAccess) bool {
	sort.Slice(acc, func(i, j int) bool { return acc[i].a.ElemLo < acc[j].a.ElemLo })
	var active []driverAccess
	for _, x := range acc {
		live := active[:0]
		for _, y := range active {
			if y.a.ElemHi >= x.a.ElemLo {
				live = append(live, y)
			}
		}
		active = live
		for _, y := range active {
			if y.p != x.p && y.a.Overlaps(x.a) {
				return true
			}
		}
		active = append(active, x)
	}
	return false
}

func hpos(p design.Pos) hdl.Pos { return hdl.Pos{File: p.File, Line: p.Line, Col: p.Col} }
