package dut

import (
	"errors"
	"fmt"
	"strings"

	"github.com/weft-hdl/weft/program"
)

// Scope is one instance of the design's hierarchy.
type Scope struct {
	d  *DUT
	in *program.Scope
}

// Top is the top instance.
func (d *DUT) Top() *Scope { return &Scope{d: d, in: d.d.Top} }

// Scope finds an instance by hierarchical path ("u_core", "top.u_core";
// "" is the top).
func (d *DUT) Scope(path string) (*Scope, error) {
	if in, ok := d.d.Scope(path); ok {
		return &Scope{d: d, in: in}, nil
	}
	var names []string
	for _, in := range d.d.Scopes {
		names = append(names, d.strip(in.Path))
	}
	var sug []string
	for _, n := range names {
		if levenshtein(d.strip(path), n, max(2, len(path)/3)) <= max(2, len(path)/3) {
			sug = append(sug, n)
		}
	}
	msg := fmt.Sprintf("dut: no instance %q in the design", path)
	if len(sug) > 0 {
		msg += fmt.Sprintf("; did you mean %q?", sug[0])
	}
	return nil, errors.New(msg)
}

// Name is the instance name ("u_tx"); Path the hierarchical one; Module
// the module it instantiates.
func (s *Scope) Name() string   { return s.in.Name }
func (s *Scope) Path() string   { return s.in.Path }
func (s *Scope) Module() string { return s.in.Module }

// Instance is the design instance.
func (s *Scope) Instance() *program.Scope { return s.in }

// Parent is the enclosing instance (nil for the top).
func (s *Scope) Parent() *Scope {
	if s.in.Parent() == nil {
		return nil
	}
	return &Scope{d: s.d, in: s.in.Parent()}
}

// Children are the instances directly below, in elaboration order.
func (s *Scope) Children() []*Scope {
	out := make([]*Scope, len(s.in.Children()))
	for i, c := range s.in.Children() {
		out[i] = &Scope{d: s.d, in: c}
	}
	return out
}

// Signals lists the names of the signals of this instance relative to it
// (generate-scope prefixes kept: "g[1].tmp"), ports connected straight to
// a parent signal included, in design order.
func (s *Scope) Signals() []string {
	if s.d.instByPat == nil {
		s.d.instByPat = map[string]*program.Scope{}
		for _, in := range s.d.d.Scopes {
			s.d.instByPat[in.Path] = in
		}
	}
	var out []string
	for _, h := range s.d.d.Signals {
		if h.Kind == program.KindBlockLocal {
			continue
		}
		for _, n := range h.Names() {
			if s.d.owner(n) == s.in {
				out = append(out, strings.TrimPrefix(n, s.in.Path+"."))
			}
		}
	}
	return out
}

// owner is the instance a hierarchical signal name belongs to: the
// longest instance path that prefixes it.
func (d *DUT) owner(name string) *program.Scope {
	p := name
	for {
		i := strings.LastIndexByte(p, '.')
		if i < 0 {
			return nil
		}
		p = p[:i]
		if in, ok := d.instByPat[p]; ok {
			return in
		}
	}
}

// Signal finds a signal relative to the scope.
func (s *Scope) Signal(name string) (*Signal, error) {
	return s.d.Signal(s.in.Path + "." + name)
}
