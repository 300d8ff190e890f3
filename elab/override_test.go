package elab

import (
	"strings"
	"testing"
)

// An assignment pattern overrides a parameter only through the
// parameter's declared type.
func TestPatternOverrideNeedsType(t *testing.T) {
	d, diags := elabString(t, `module sub #(parameter A = 1) (); endmodule
module t; sub #(.A('{4, 5})) u (); endmodule`, Options{})
	want := "t.sv:2:17: error: parameter 'A' has no declared type, so an assignment pattern cannot override it; declare its type (parameter int A [3] = ...)"
	var got []string
	for _, dg := range diags.List {
		got = append(got, strings.SplitN(dg.Error(), "\n", 2)[0])
	}
	if !strings.Contains(strings.Join(got, "\n"), want) {
		t.Errorf("want %q\n got:\n  %s", want, strings.Join(got, "\n  "))
	}
	if d != nil {
		t.Errorf("a design was returned despite errors")
	}
}
