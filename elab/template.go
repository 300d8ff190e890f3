package elab

import (
	"fmt"
	"maps"
	"math/big"
	"slices"
	"strings"

	"github.com/weft-hdl/weft/design"
	"github.com/weft-hdl/weft/hdl"
)

// Instances of one module with the same parameter values, whose ports
// collapse into parent signals of the same kinds, elaborate to the same
// homes, processes and scopes up to their names. The first such instance
// is elaborated and a detached copy of what it produced is kept as a
// template; each later one is a copy of the template with its own names,
// which costs a fraction of elaborating it again. An instance that could
// have come out differently is never a template: one that asked for a
// warning or an error, reached outside its own subtree other than through
// collapsed ports (interface ports, its own functions and tasks,
// $dumpvars), or holds interfaces. Options.EachInstance turns copying off;
// the tests elaborate designs both ways and compare every field.

// template is a detached copy of the first instance of a key, taken right
// after its build (what later code does to that instance — an initial
// block elsewhere folding into one of its homes — is not part of it).
type template struct {
	path string // the first instance's path: the prefix copies replace
	sub  *subtree
	// ports are the root's ports in order, each with the parent home it
	// collapsed into (nil when it did not).
	aliases []*design.Home
	// spent is the work the first instance's build charged to the
	// elaboration's limits; every copy charges it again.
	steps, bits, optSteps, optBits, genIters int64
}

// subtree is what one instance's build produced, root first.
type subtree struct {
	insts   []*instCtx // preorder
	scopes  []*scope   // parents before children
	homes   []*design.Home
	comb    []*design.Process
	initial []*design.Process
	groups  []*design.TriggerGroup
}

// mark is where the design's lists stood before a build.
type mark struct {
	insts, homes, comb, initial, groups int
	errs, warns, dumps                  int
	dump                                *design.DumpRequest
	steps, bits, optSteps, optBits      int64
	genIters                            int64
}

func (e *elab) mark() mark {
	w := e.work()
	return mark{insts: len(e.insts), homes: len(e.d.Homes), comb: len(e.comb), initial: len(e.initial), groups: len(e.d.Groups),
		errs: e.errSeq, warns: e.warnSeq, dumps: len(e.dumpCalls), dump: e.dump,
		steps: w.budget.Steps, bits: w.budget.Bits, optSteps: w.optional.Steps, optBits: w.optional.Bits, genIters: w.genIters}
}

// buildOrCopy builds instance ic, or copies it from the template of its
// key; the first instance of a key becomes its template when it can.
func (e *elab) buildOrCopy(ic *instCtx, aliases map[string]*design.Home) {
	key := e.templateKey(ic, aliases)
	if key == "" {
		e.build(ic, aliases)
		return
	}
	t, seen := e.templates[key]
	if t != nil && e.copyFrom(t, ic, aliases) {
		return
	}
	m := e.mark()
	inits := make([]*design.Init, len(ic.ports))
	for i, pi := range ic.ports {
		if h := aliases[pi.name]; h != nil {
			inits[i] = h.Init
		}
	}
	e.build(ic, aliases)
	if seen {
		return
	}
	if e.templates == nil {
		e.templates = map[string]*template{}
	}
	for i, pi := range ic.ports {
		if h := aliases[pi.name]; h != nil && h.Init != inits[i] {
			// An initial block folded into the parent's home: a copy
			// would not repeat it.
			e.templates[key] = nil
			return
		}
	}
	e.templates[key] = e.takeTemplate(ic, aliases, m)
}

// templateKey names what an instance's elaboration depends on besides its
// module: the final values of the parameters its instantiation sets and,
// per port, the kind and shape of the parent home it collapses into. It
// returns "" when the instance must be built on its own.
func (e *elab) templateKey(ic *instCtx, aliases map[string]*design.Home) string {
	if e.opts.EachInstance || e.errSeq > 0 || ic.mod.Interface || ic.typeOverride {
		return ""
	}
	errs := e.errSeq
	var b strings.Builder
	b.WriteString(ic.mod.Name)
	for _, s := range ic.overridden {
		if s.override.val == nil {
			return "" // an assignment pattern: typed by the parameter
		}
		cv := e.paramVal(s, s.pos)
		if cv == nil || e.errSeq != errs {
			return ""
		}
		fmt.Fprintf(&b, ",%s=%d:%t:%t:%s", s.name, cv.t.width, cv.t.signed, cv.str, cv.v.Text(16))
	}
	seen := map[*design.Home]bool{}
	for _, pi := range ic.ports {
		if pi.sym.iport != nil {
			return ""
		}
		h := aliases[pi.name]
		if h == nil {
			b.WriteString("|")
			continue
		}
		if seen[h] {
			return "" // two ports collapse into one home
		}
		seen[h] = true
		fmt.Fprintf(&b, "|%d:%d:%t:%v:%s", h.Kind, h.Width, h.Signed, h.Unpacked, h.TypeName)
	}
	return b.String()
}

// takeTemplate returns a template of ic, just built from m, or nil when ic
// cannot be one.
func (e *elab) takeTemplate(ic *instCtx, aliases map[string]*design.Home, m mark) *template {
	if e.errSeq != m.errs || e.warnSeq != m.warns || len(e.dumpCalls) != m.dumps || e.dump != m.dump ||
		m.insts == 0 || e.insts[m.insts-1] != ic {
		return nil
	}
	// newInstance registered ic before the mark.
	insts := append([]*instCtx{ic}, e.insts[m.insts:]...)
	live := &subtree{insts: insts, homes: e.d.Homes[m.homes:], comb: e.comb[m.comb:],
		initial: e.initial[m.initial:], groups: e.d.Groups[m.groups:]}
	t := &template{path: ic.sc.path}
	for _, pi := range ic.ports {
		t.aliases = append(t.aliases, aliases[pi.name])
	}
	if !e.selfContained(live, t) {
		return nil
	}
	w := e.work()
	t.steps, t.bits = w.budget.Steps-m.steps, w.budget.Bits-m.bits
	t.optSteps, t.optBits = w.optional.Steps-m.optSteps, w.optional.Bits-m.optBits
	t.genIters = w.genIters - m.genIters
	t.sub = e.copySubtree(live, t.path, t.path, nil, nil, false)
	return t
}

// selfContained collects live's scopes and reports whether everything the
// subtree holds is its own or reached through its collapsed ports, and
// named under its path.
func (e *elab) selfContained(live *subtree, t *template) bool {
	inSub := map[*instCtx]bool{}
	inSubInst := map[*design.Instance]bool{}
	for _, ic := range live.insts {
		if ic.mod.Interface {
			return false
		}
		inSub[ic] = true
		inSubInst[ic.inst] = true
	}
	if !under(live.insts[0].sc.path, t.path) {
		return false
	}
	// Scopes reachable from the root's names, parents first.
	seenScope := map[*scope]bool{}
	var visit func(sc *scope) bool
	visit = func(sc *scope) bool {
		if seenScope[sc] {
			return true
		}
		if !inSub[sc.inst] || sc.fn != nil || !under(sc.path, t.path) {
			return false
		}
		seenScope[sc] = true
		live.scopes = append(live.scopes, sc)
		for _, name := range slices.Sorted(maps.Keys(sc.syms)) {
			s := sc.syms[name]
			if e.foreign(s) {
				continue
			}
			if s.iport != nil || s.mp != nil || s.kind == symEnumPending || s.dfn != nil || s.evaluating || s.resolving {
				return false
			}
			if s.sub != nil && !visit(s.sub) {
				return false
			}
			for _, k := range slices.Sorted(maps.Keys(s.subs)) {
				if !visit(s.subs[k]) {
					return false
				}
			}
		}
		return true
	}
	for _, ic := range live.insts {
		if !visit(ic.sc) {
			return false
		}
	}
	for _, sc := range live.scopes {
		if sc.parent != e.unit && !seenScope[sc.parent] {
			return false
		}
	}
	own := map[*design.Home]bool{}
	for _, h := range live.homes {
		if h.Inst == nil || !inSubInst[h.Inst] || !under(h.Path, t.path) || strings.Contains(h.Path, "#") {
			return false
		}
		for _, a := range h.Aliases {
			if !under(a, t.path) {
				return false
			}
		}
		own[h] = true
	}
	for _, h := range t.aliases {
		if h != nil {
			own[h] = true
		}
	}
	ok := true
	home := func(h *design.Home) {
		if h != nil && !own[h] {
			ok = false
		}
	}
	proc := func(p *design.Process) {
		if !under(p.Name, t.path) || strings.Contains(p.Name, "#") || !inSubInst[p.Inst] {
			ok = false
			return
		}
		for _, h := range p.Sensitivity {
			home(h)
		}
		checkBody(p.Body, home, func(f *design.Function) {
			if f.Inst != nil {
				ok = false // the instance's own function: not copied yet
			}
		}, func(scope string) {
			if scope != "" && !under(scope, t.path) {
				ok = false
			}
		})
	}
	for _, p := range live.comb {
		proc(p)
	}
	for _, p := range live.initial {
		proc(p)
	}
	for _, g := range live.groups {
		if !inSubInst[g.Inst] {
			return false
		}
		for _, ev := range g.Events {
			home(ev.Home)
		}
		for _, p := range g.Procs {
			proc(p)
		}
	}
	return ok
}

// checkBody calls home for every home s names, fn for every function it
// calls and scope for every %m scope.
func checkBody(s design.Stmt, home func(*design.Home), fn func(*design.Function), scope func(string)) {
	design.WalkStmt(s, func(st design.Stmt) bool {
		switch st := st.(type) {
		case *design.Block:
			for _, h := range st.Locals {
				home(h)
			}
		case *design.SysTask:
			home(st.Target)
			scope(st.Scope)
		case *design.TaskCall:
			fn(st.Func)
		}
		return true
	})
	design.WalkStmtExprs(s, func(x design.Expr) {
		switch x := x.(type) {
		case *design.HomeRef:
			home(x.Home)
		case *design.ElemRef:
			home(x.Home)
		case *design.Call:
			fn(x.Func)
		}
	})
}

// foreign reports whether s belongs to a package or the compilation unit
// (imported into a scope, shared by every instance).
func (e *elab) foreign(s *symbol) bool {
	if e.unit.syms[s.name] == s {
		return true
	}
	for _, ps := range e.pkgs {
		if ps.syms[s.name] == s {
			return true
		}
	}
	return false
}

// under reports whether name is path or a name inside it ("path.x",
// "path:assign@3").
func under(name, path string) bool {
	if !strings.HasPrefix(name, path) {
		return false
	}
	return len(name) == len(path) || name[len(path)] == '.' || name[len(path)] == ':'
}

// copyFrom makes ic, created by newInstance, a copy of t. It returns false,
// having changed nothing, when the copy would not be what building ic
// gives (a name taken, a limit reached, recursion): ic is built then.
func (e *elab) copyFrom(t *template, ic *instCtx, aliases map[string]*design.Home) bool {
	if len(t.aliases) != len(ic.ports) {
		return false
	}
	to := ic.sc.path
	w := e.work()
	if over(w.budget.Steps, t.steps, w.budget.MaxSteps) || over(w.budget.Bits, t.bits, w.budget.MaxBits) ||
		over(w.optional.Steps, t.optSteps, w.optional.MaxSteps) || over(w.optional.Bits, t.optBits, w.optional.MaxBits) ||
		w.genIters+t.genIters > w.limits.GenerateIterations ||
		int64(len(e.d.Instances)+len(t.sub.insts)-1) > w.limits.Instances {
		return false
	}
	root := t.sub.insts[0]
	for _, c := range t.sub.insts[1:] {
		if ic.depth+c.depth-root.depth > maxDepth {
			return false
		}
		for a := ic; a != nil; a = a.parent {
			if a.key == c.key {
				return false // recursion: building reports it
			}
		}
	}
	for _, h := range t.sub.homes {
		if e.paths[rename(h.Path, t.path, to)] > 0 {
			return false
		}
	}
	for _, ps := range [][]*design.Process{t.sub.comb, t.sub.initial} {
		for _, p := range ps {
			if e.procNames[rename(p.Name, t.path, to)] > 0 {
				return false
			}
		}
	}
	for _, g := range t.sub.groups {
		for _, p := range g.Procs {
			if e.procNames[rename(p.Name, t.path, to)] > 0 {
				return false
			}
		}
	}
	outside := map[*design.Home]*design.Home{}
	for i, pi := range ic.ports {
		if (t.aliases[i] == nil) != (aliases[pi.name] == nil) {
			return false
		}
		if t.aliases[i] != nil {
			outside[t.aliases[i]] = aliases[pi.name]
		}
	}
	w.budget.Steps += t.steps
	w.budget.Bits += t.bits
	w.optional.Steps += t.optSteps
	w.optional.Bits += t.optBits
	w.genIters += t.genIters
	e.copySubtree(t.sub, t.path, to, ic, outside, true)
	e.copies += len(t.sub.insts)
	// What build does for collapsed ports.
	for _, pi := range ic.ports {
		if h := aliases[pi.name]; h != nil {
			h.Aliases = append(h.Aliases, to+"."+pi.name)
		}
	}
	return true
}

// over reports whether spending more on top of spent passes max (0: no
// limit).
func over(spent, more, max int64) bool { return max > 0 && spent+more > max }

// rename moves name from under path from to under path to.
func rename(name, from, to string) string {
	if from == to || !under(name, from) {
		return name
	}
	return to + name[len(from):]
}

// copySubtree copies src, named under path from, to path to. root, when not
// nil, is the copy's root instance (made by newInstance: its scope receives
// the copied names, its ports the copied symbols); otherwise the root is a
// detached copy too. outside maps the parent homes src's ports collapse
// into to the copy's. register adds the copy to the design (homes get IDs,
// processes join the design's lists); a detached copy is a template.
func (e *elab) copySubtree(src *subtree, from, to string, root *instCtx, outside map[*design.Home]*design.Home, register bool) *subtree {
	ren := func(s string) string { return rename(s, from, to) }
	out := &subtree{}
	icMap := make(map[*instCtx]*instCtx, len(src.insts))
	instMap := make(map[*design.Instance]*design.Instance, len(src.insts))
	for i, sic := range src.insts {
		var nic *instCtx
		if i == 0 && root != nil {
			nic = root
		} else {
			nin := &design.Instance{Name: sic.inst.Name, Path: ren(sic.inst.Path), Module: sic.inst.Module, Pos: sic.inst.Pos}
			nic = &instCtx{inst: nin, mod: sic.mod, key: sic.key, depth: sic.depth, byName: map[string]*portInfo{},
				overridden: sic.overridden, typeOverride: sic.typeOverride}
			if i > 0 {
				nic.parent = icMap[sic.parent]
				nic.depth = nic.parent.depth + 1
				nin.Parent = nic.parent.inst
				nin.Parent.Children = append(nin.Parent.Children, nin)
			} else {
				nic.parent = sic.parent
			}
			if register {
				e.d.Instances = append(e.d.Instances, nin)
				e.insts = append(e.insts, nic)
			}
		}
		icMap[sic] = nic
		instMap[sic.inst] = nic.inst
		out.insts = append(out.insts, nic)
	}

	// Scopes, then their names.
	scMap := make(map[*scope]*scope, len(src.scopes))
	for i, ssc := range src.scopes {
		var nsc *scope
		if i == 0 && root != nil {
			nsc = root.sc
			nsc.genCount = ssc.genCount
		} else {
			nsc = &scope{parent: ssc.parent, path: ren(ssc.path), pkg: ssc.pkg, genCount: ssc.genCount, homeKind: ssc.homeKind,
				imports: append([]*scope(nil), ssc.imports...)}
		}
		nsc.inst = icMap[ssc.inst]
		if ssc.laterInst != nil {
			nsc.laterInst = make(map[string]hdl.Pos, len(ssc.laterInst))
			for k, v := range ssc.laterInst {
				nsc.laterInst[k] = v
			}
		} else {
			nsc.laterInst = nil
		}
		scMap[ssc] = nsc
		out.scopes = append(out.scopes, nsc)
	}
	for i, ssc := range src.scopes {
		if p, ok := scMap[ssc.parent]; ok && (i > 0 || root == nil) {
			scMap[ssc].parent = p
		}
	}
	for _, sic := range src.insts {
		icMap[sic].sc = scMap[sic.sc]
	}

	homeMap := make(map[*design.Home]*design.Home, len(src.homes)+len(outside))
	for k, v := range outside {
		homeMap[k] = v
	}
	for _, h := range src.homes {
		nh := *h
		nh.Path = ren(h.Path)
		if h.Aliases != nil {
			nh.Aliases = make([]string, len(h.Aliases))
			for i, a := range h.Aliases {
				nh.Aliases[i] = ren(a)
			}
		}
		nh.Inst = instMap[h.Inst]
		nh.Init = copyInit(h.Init)
		if register {
			e.paths[nh.Path]++
			nh.ID = len(e.d.Homes)
			e.d.Homes = append(e.d.Homes, &nh)
		}
		nh.Inst.Homes = append(nh.Inst.Homes, &nh)
		homeMap[h] = &nh
		out.homes = append(out.homes, &nh)
	}
	mapHome := func(h *design.Home) *design.Home {
		if n, ok := homeMap[h]; ok {
			return n
		}
		return h
	}

	symMap := map[*symbol]*symbol{}
	var rootSyms map[string]*symbol
	if root != nil {
		rootSyms = root.sc.syms
	}
	for i, ssc := range src.scopes {
		nsc := scMap[ssc]
		syms := make(map[string]*symbol, len(ssc.syms))
		for name, s := range ssc.syms {
			if e.foreign(s) {
				syms[name] = s
				continue
			}
			ns := symMap[s]
			if ns == nil {
				c := *s
				ns = &c
				ns.home = mapHome(s.home)
				if d, ok := scMap[s.declScope]; ok {
					ns.declScope = d
				}
				if s.sub != nil {
					ns.sub = scMap[s.sub]
				}
				if s.subs != nil {
					ns.subs = make(map[int]*scope, len(s.subs))
					for k, v := range s.subs {
						ns.subs[k] = scMap[v]
					}
				}
				if i == 0 && rootSyms != nil {
					// The instantiation's own overrides (same values:
					// the template key says so).
					if f := rootSyms[name]; f != nil && f.override != nil {
						ns.override = f.override
					}
				}
				symMap[s] = ns
			}
			syms[name] = ns
		}
		nsc.syms = syms
	}
	for _, sic := range src.insts {
		nic := icMap[sic]
		if nic == root {
			for _, pi := range nic.ports {
				if sp := sic.byName[pi.name]; sp != nil && symMap[sp.sym] != nil {
					pi.sym = symMap[sp.sym]
				}
			}
			continue
		}
		nic.ports = make([]*portInfo, len(sic.ports))
		for j, pi := range sic.ports {
			np := *pi
			if ns := symMap[pi.sym]; ns != nil {
				np.sym = ns
			}
			nic.ports[j] = &np
			nic.byName[np.name] = &np
		}
	}

	cp := &design.Copier{Home: mapHome, Scope: ren}
	procMap := map[*design.Process]*design.Process{}
	proc := func(p *design.Process) *design.Process {
		np := &design.Process{ID: p.ID, Kind: p.Kind, Inst: instMap[p.Inst], Name: ren(p.Name), Pos: p.Pos, Body: cp.Stmt(p.Body)}
		if p.Sensitivity != nil {
			np.Sensitivity = make([]*design.Home, len(p.Sensitivity))
			for i, h := range p.Sensitivity {
				np.Sensitivity[i] = mapHome(h)
			}
		}
		if register {
			e.procNames[np.Name] = 1
		}
		procMap[p] = np
		return np
	}
	for _, p := range src.comb {
		out.comb = append(out.comb, proc(p))
	}
	for _, p := range src.initial {
		out.initial = append(out.initial, proc(p))
	}
	for _, g := range src.groups {
		ng := &design.TriggerGroup{ID: g.ID, Inst: instMap[g.Inst], Events: make([]design.Event, len(g.Events))}
		for i, ev := range g.Events {
			ev.Home = mapHome(ev.Home)
			ng.Events[i] = ev
		}
		for _, p := range g.Procs {
			np := proc(p)
			np.Group = ng
			ng.Procs = append(ng.Procs, np)
		}
		out.groups = append(out.groups, ng)
	}
	if register {
		e.comb = append(e.comb, out.comb...)
		e.initial = append(e.initial, out.initial...)
		for _, g := range out.groups {
			sortEvents(g.Events)
			e.groupIdx[groupKey(g.Inst, g.Events)] = g
			e.d.Groups = append(e.d.Groups, g)
		}
	}
	return out
}

func copyInit(in *design.Init) *design.Init {
	if in == nil {
		return nil
	}
	n := &design.Init{Value: in.Value}
	if in.Elems != nil {
		n.Elems = make(map[int]*big.Int, len(in.Elems))
		for k, v := range in.Elems {
			n.Elems[k] = v
		}
	}
	return n
}
