package elab

import "testing"

// An assignment pattern overrides a parameter only through the
// parameter's declared type.
func TestPatternOverrideNeedsType(t *testing.T) {
	expectError(t, `module sub #(parameter A = 1) (); endmodule
module t; sub #(.A('{4, 5})) u (); endmodule`, Options{},
		"t.sv:2:17: error: parameter 'A' has no declared type, so an assignment pattern cannot override it; declare its type (parameter int A [3] = ...)")
}
