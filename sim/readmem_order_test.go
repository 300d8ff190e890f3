package sim_test

import (
	"strings"
	"testing"

	"github.com/weft-hdl/weft/compile"
)

// The simulator loads $readmemh files before any initial block runs. Where
// that differs from source order, the build must say so rather than give
// silently different memory contents.
func TestReadmemOrderRestrictions(t *testing.T) {
	for _, tc := range []struct {
		name, body, want string
	}{
		{"run-time condition", `
  initial if (sel) $readmemh("m.hex", m);`,
			"t.sv:5:20: $readmemh under a run-time condition or loop is not supported yet"},
		{"memory also assigned", `
  initial begin
    $readmemh("m.hex", m);
    m[0] = 8'h11;
  end`,
			"t.sv:6:5: $readmemh loads t.m, which an initial block also assigns"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := `
module t(input logic clk, input logic sel, output logic [7:0] q);
  logic [7:0] m [0:3];
  assign q = m[0];` + tc.body + `
endmodule`
			p, err := compile.NewBuilder().Source("t.sv", src).Build()
			if err == nil {
				p.Close()
				t.Fatal("build succeeded, want an error")
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %q\nwant it to contain %q", err, tc.want)
			}
		})
	}
}
