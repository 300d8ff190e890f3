package elab

import "testing"

// Methods weft does not have yet are named errors, never a silent value.
func TestMethodErrors(t *testing.T) {
	tests := []struct{ name, src, want string }{
		{"enum name", `module t(output logic [7:0] y);
  typedef enum {A, B} e_t;
  e_t s;
  assign y = s.name();
endmodule`, "t.sv:4:14: error: enum method 'name' is not supported yet (weft has first, last, next, prev and num)"},
		{"vector method", `module t(output int y);
  logic [7:0] v;
  assign y = v.size();
endmodule`, "t.sv:3:14: error: method 'size' of 'v' is not supported yet (weft has the enum methods first, last, next, prev and num)"},
		{"non-constant step", `module t(input int k, output logic y);
  typedef enum {A, B} e_t;
  e_t s, n;
  assign n = s.next(k);
endmodule`, "t.sv:4:21: error: enum method step must be a constant expression"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { expectError(t, tc.src, Options{}, tc.want) })
	}
}
