package elab

import (
	"strings"
	"testing"

	"github.com/weft-hdl/weft/design"
	"github.com/weft-hdl/weft/hdl"
)

// elabString parses and elaborates src (file "t.sv"). It fails the test on
// parse errors, internal errors and malformed designs.
func elabString(t *testing.T, src string, opts Options) (*design.Design, *hdl.Diagnostics) {
	t.Helper()
	st, fs, err := hdl.ParseString("t.sv", src)
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	// Every design of these tests is elaborated both ways too: copies
	// of templates must be what elaborating each instance gives. A
	// single module has nothing to copy, and the large generated sources
	// of the limit tests are left to one way.
	var d *design.Design
	var diags *hdl.Diagnostics
	if len(st.Modules) > 1 && len(src) < 1<<16 {
		d, diags = elabBothWays(t, st, fs, opts)
	} else {
		diags = hdl.NewDiagnostics(fs)
		d = Elaborate(st, fs, opts, diags)
	}
	for _, dg := range diags.List {
		if strings.Contains(dg.Msg, "internal error") {
			t.Fatalf("internal error: %s", dg.Error())
		}
	}
	if d != nil {
		for _, err := range design.Check(d) {
			t.Errorf("check: %v", err)
		}
	}
	return d, diags
}

// mustElab elaborates src and fails on any error.
func mustElab(t *testing.T, src string) *design.Design {
	t.Helper()
	d, diags := elabString(t, src, Options{})
	if d == nil || diags.ErrorCount() > 0 {
		var msgs []string
		for _, dg := range diags.List {
			msgs = append(msgs, dg.Error())
		}
		t.Fatalf("elaboration failed:\n%s", strings.Join(msgs, "\n"))
	}
	return d
}

func home(t *testing.T, d *design.Design, path string) *design.Home {
	t.Helper()
	h, ok := d.Lookup(path)
	if !ok {
		var names []string
		for _, h := range d.Homes {
			names = append(names, h.Names()...)
		}
		t.Fatalf("no home %q; have %v", path, names)
	}
	return h
}

// procWriting returns the process that writes h.
func procWriting(t *testing.T, d *design.Design, path string) *design.Process {
	t.Helper()
	h := home(t, d, path)
	for _, p := range d.Processes() {
		for _, w := range p.Writes {
			if w.Home == h {
				return p
			}
		}
	}
	t.Fatalf("no process writes %s", path)
	return nil
}

// rhsOf returns the printed RHS of the single assignment to path.
func rhsOf(t *testing.T, d *design.Design, path string) string {
	t.Helper()
	p := procWriting(t, d, path)
	var found string
	design.WalkStmt(p.Body, func(s design.Stmt) bool {
		if a, ok := s.(*design.Assign); ok && found == "" {
			found = design.ExprString(a.RHS)
		}
		return true
	})
	return found
}

func hposOf(file string) hdl.Pos { return hdl.Pos{File: file, Line: 1, Col: 1} }

// expectError elaborates src and fails unless one diagnostic's first line
// is want and no design came back.
func expectError(t *testing.T, src string, opts Options, want string) {
	t.Helper()
	d, diags := elabString(t, src, opts)
	var got []string
	found := false
	for _, dg := range diags.List {
		line := strings.SplitN(dg.Error(), "\n", 2)[0]
		got = append(got, line)
		found = found || line == want
	}
	if !found {
		t.Errorf("want %q\n got:\n  %s", want, strings.Join(got, "\n  "))
	}
	if d != nil {
		t.Errorf("a design was returned despite errors")
	}
}
