package elab

import (
	"fmt"
	"strings"

	"github.com/weft-hdl/weft/hdl"
)

// Interfaces (IEEE 1800 §25) elaborate like modules: an interface instance
// is an instance with its own scope, homes and processes. What differs is
// how other instances reach it. A module's interface port is a scope
// symbol bound, at instantiation, to the interface instance its connection
// names, so `b.data` inside the module is the instance's home itself (no
// port copy). A modport restricts such an access: only the names it lists,
// and no writes to its inputs. Interface instances are elaborated before
// the other items of their scope, so that every process and instance of
// that scope finds their homes.

// modportInfo is one modport of an interface: the direction of each signal
// it lists and the functions and tasks it imports.
type modportInfo struct {
	name    string
	iface   string
	dirs    map[string]hdl.Direction
	imports map[string]bool
}

// ifacePort is a module's interface port as declared: the interface it
// needs ("" for a generic `interface` port) and the modport named in the
// declaration ("" for none).
type ifacePort struct {
	iface   string
	modport string
	// unpacked are the dimensions of an array of interface ports.
	unpacked []*hdl.Range
}

// registerModport declares a modport of the interface whose scope is sc.
func (e *elab) registerModport(sc *scope, mp *hdl.Modport) {
	if sc.inst == nil || !sc.inst.mod.Interface {
		e.errorf(mp.Pos, "modport '%s' outside an interface", mp.Name)
		return
	}
	info := &modportInfo{name: mp.Name, iface: sc.inst.mod.Name, dirs: map[string]hdl.Direction{}, imports: map[string]bool{}}
	for _, p := range mp.Ports {
		if p.Import {
			info.imports[p.Name] = true
			continue
		}
		switch p.Dir {
		case hdl.DirInout, hdl.DirRef:
			e.errorf(p.Pos, "%s modport ports are not supported yet ('%s' of modport '%s')", p.Dir, p.Name, mp.Name)
			continue
		}
		info.dirs[p.Name] = p.Dir
	}
	e.declare(sc, &symbol{kind: symModport, name: mp.Name, pos: mp.Pos, declScope: sc, mp: info})
}

// checkModport validates the names a modport lists once the interface's
// items are registered.
func (e *elab) checkModports(sc *scope, items []hdl.Item) {
	for _, it := range items {
		mp, ok := it.(*hdl.Modport)
		if !ok {
			continue
		}
		for _, p := range mp.Ports {
			s := sc.syms[p.Name]
			switch {
			case s == nil:
				e.errorf(p.Pos, "modport '%s' lists '%s', which interface '%s' does not declare%s", mp.Name, p.Name, sc.inst.mod.Name, sc.suggest(p.Name))
			case p.Import && s.kind != symFunc:
				e.errorf(p.Pos, "modport '%s' imports '%s', which is not a function or task", mp.Name, p.Name)
			case !p.Import && s.kind != symVar:
				e.errorf(p.Pos, "modport '%s' lists '%s', which is not a variable or net", mp.Name, p.Name)
			}
		}
	}
}

// isInterface reports whether name is a declared interface.
func (e *elab) isInterface(name string) bool {
	m := e.modules[name]
	return m != nil && m.Interface
}

// interfaceInstances elaborates the interface instances among items
// before anything else in sc needs them.
func (e *elab) interfaceInstances(sc *scope, items []hdl.Item) {
	for _, it := range items {
		if in, ok := it.(*hdl.Instance); ok && e.isInterface(in.Module) {
			e.instantiate(sc, in)
		}
	}
}

// declareIfacePort declares interface port name of the module being
// instantiated in ic; instance1 binds it.
func (e *elab) declareIfacePort(ic *instCtx, name string, pos hdl.Pos, ip *ifacePort) {
	if ic.parent == nil {
		e.errorf(pos, "the top module '%s' has an interface port '%s'; instantiate it in a wrapper that connects an interface instance", ic.mod.Name, name)
		return
	}
	if ip.iface != "" && !e.isInterface(ip.iface) {
		e.errorf(pos, "unknown interface '%s' (port '%s')", ip.iface, name)
		return
	}
	s := &symbol{kind: symScope, name: name, pos: pos, declScope: ic.sc, isPort: true, iport: ip}
	if len(ip.unpacked) > 0 {
		s.kind = symScopeArray
	}
	if !e.declare(ic.sc, s) {
		return
	}
	pi := &portInfo{name: name, pos: pos, sym: s}
	ic.ports = append(ic.ports, pi)
	ic.byName[name] = pi
}

// parseIfacePort splits a port's interface text ("bus_if.slave",
// "interface", "interface.mp") into what it requires.
func parseIfacePort(text string) *ifacePort {
	name, mp, _ := strings.Cut(text, ".")
	if name == "interface" {
		name = ""
	}
	return &ifacePort{iface: name, modport: mp}
}

// bindIfacePort binds interface port pi of ic to the interface instance
// (or one of its modports) that connection c names in the parent scope sc.
func (e *elab) bindIfacePort(sc *scope, ic *instCtx, pi *portInfo, c *conn) {
	s := pi.sym
	where := fmt.Sprintf("interface port '%s' of '%s'", pi.name, ic.inst.Name)
	if c == nil || c.expr == nil {
		e.errorf(pi.pos, "%s is not connected; connect it to an interface instance", where)
		return
	}
	ex := &ectx{e: e, sc: sc, what: "interface connection"}
	r := ex.ref(c.expr, false)
	if r == nil {
		return
	}
	if s.kind == symScopeArray {
		e.bindIfacePortArray(ic, pi, c, r, where)
		return
	}
	if r.kind == rkScopeArr {
		e.errorf(c.expr.Position(), "%s is connected to an array of interfaces; select one element, or declare the port as an array", where)
		return
	}
	sub, mp, ok := e.ifaceTarget(s, pi, c, r, where)
	if ok {
		s.sub, s.mp = sub, mp
	}
}

// ifaceTarget checks that r, a connection of interface port s, is an
// instance of the interface s needs, and returns its scope and the modport
// that restricts access through s.
func (e *elab) ifaceTarget(s *symbol, pi *portInfo, c *conn, r *ref, where string) (*scope, *modportInfo, bool) {
	if r.kind != rkScope || r.sc.inst == nil || !r.sc.inst.mod.Interface || r.sc != r.sc.inst.sc {
		e.errorf(c.expr.Position(), "%s must be connected to an interface instance or interface port", where)
		return nil, nil, false
	}
	got := r.sc.inst.mod.Name
	if s.iport.iface != "" && got != s.iport.iface {
		e.errorf(c.expr.Position(), "%s needs interface '%s', but is connected to an instance of '%s'", where, s.iport.iface, got)
		return nil, nil, false
	}
	mp := r.mp
	if s.iport.modport != "" {
		ms := r.sc.syms[s.iport.modport]
		if ms == nil || ms.kind != symModport {
			e.errorf(pi.pos, "interface '%s' has no modport '%s'", got, s.iport.modport)
			return nil, nil, false
		}
		if mp != nil && mp.name != ms.mp.name {
			e.errorf(c.expr.Position(), "%s uses modport '%s', but the connection names modport '%s'", where, s.iport.modport, mp.name)
			return nil, nil, false
		}
		mp = ms.mp
	}
	return r.sc, mp, true
}

// bindIfacePortArray binds an array of interface ports to an array of
// interface instances (or a parent's interface port array) of the same
// size, element by element from the left (IEEE 1800 §25.3.3).
func (e *elab) bindIfacePortArray(ic *instCtx, pi *portInfo, c *conn, r *ref, where string) {
	s := pi.sym
	dims, ok := e.evalDims(s.iport.unpacked, ic.sc)
	if !ok {
		return
	}
	if len(dims) != 1 {
		e.errorf(pi.pos, "multi-dimensional arrays of interface ports are not supported yet (port '%s')", pi.name)
		return
	}
	d := dims[0]
	if r.kind != rkScopeArr || r.adim == nil {
		e.errorf(c.expr.Position(), "%s is an array of %d interfaces; connect it to an array of interface instances of the same size", where, d.Size())
		return
	}
	if r.adim.Size() != d.Size() {
		e.errorf(c.expr.Position(), "%s is an array of %d interfaces, but is connected to an array of %d", where, d.Size(), r.adim.Size())
		return
	}
	subs := map[int]*scope{}
	var mp *modportInfo
	for k := 0; k < d.Size(); k++ {
		i := indexFromLeft(*r.adim, k)
		sub := r.subs[i]
		if sub == nil {
			return // the instance failed (reported)
		}
		el := &ref{kind: rkScope, sc: sub, name: fmt.Sprintf("%s[%d]", r.name, i), mp: r.mp}
		sc, m, ok := e.ifaceTarget(s, pi, c, el, where)
		if !ok {
			return
		}
		subs[indexFromLeft(d, k)], mp = sc, m
	}
	s.subs, s.mp, s.adim = subs, mp, &d
}

// throughModport checks access to member m of an interface reached through
// modport mp (nil: no restriction); lv is set for a write.
func (x *ectx) throughModport(mp *modportInfo, m *symbol, name string, pos hdl.Pos, lv bool) bool {
	if mp == nil {
		return true
	}
	switch m.kind {
	case symParam, symType, symEnumPending:
		return true // parameters and types of the interface stay visible
	case symFunc:
		if !mp.imports[m.name] {
			x.errorf(pos, "'%s' is not imported by modport '%s' of interface '%s'", m.name, mp.name, mp.iface)
			return false
		}
		return true
	}
	dir, ok := mp.dirs[m.name]
	if !ok {
		x.errorf(pos, "'%s' is not in modport '%s' of interface '%s'", m.name, mp.name, mp.iface)
		return false
	}
	if lv && dir == hdl.DirInput {
		x.errorf(pos, "cannot assign to '%s': it is an input of modport '%s'", name, mp.name)
		return false
	}
	return true
}

// scopedFunc resolves the function of a call through an interface
// instance or port (`bus.write(a)`); it reports its own errors, marking
// the expression failed.
func (x *ectx) scopedFunc(n *hdl.CallExpr) *symbol {
	x.quiet++
	r := x.ref(n.Scope, false)
	x.quiet--
	if r == nil || r.kind != rkScope || r.sc.inst == nil || !r.sc.inst.mod.Interface {
		if x.quiet == 0 {
			x.errorf(n.Pos, "'%s(...)': only functions and tasks of an interface can be called through a hierarchical name", n.Name)
		}
		x.failed = true
		return nil
	}
	s := r.sc.syms[n.Name]
	if s == nil || s.kind != symFunc {
		if x.quiet == 0 {
			x.errorf(n.Pos, "interface '%s' has no function or task '%s'", r.sc.inst.mod.Name, n.Name)
		}
		x.failed = true
		return nil
	}
	if !x.throughModport(r.mp, s, n.Name, n.Pos, false) {
		x.failed = true
		return nil
	}
	return s
}
