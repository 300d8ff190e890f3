package kernels

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden SIR dumps in testdata/")

// Golden dumps (layout, formats, every optimized unit, as the exported
// program writes them) of tiny designs.
// Regenerate with: go test ./kernels -run Golden -update
func TestGoldenDumps(t *testing.T) {
	cases := map[string]string{
		"counter": `
module counter(input logic clk, input logic rst_n, input logic en, output logic [7:0] q, output logic zero);
  always_ff @(posedge clk or negedge rst_n)
    if (!rst_n) q <= '0;
    else if (en) q <= q + 8'd1;
  assign zero = (q == 0);
endmodule`,
		"widemem": `
module widemem(input logic clk, input logic we, input logic [1:0] a, input logic [99:0] d, output logic [99:0] q, output logic [3:0] nib);
  logic [99:0] m [0:2];
  always_ff @(posedge clk) begin
    if (we) m[a] <= d;
    if (a == 2'd3) $display("a=%0d d=%h", a, d);
  end
  assign q = m[a] + d;
  assign nib = d[a*4 +: 4];
endmodule`,
	}
	for name, src := range cases {
		t.Run(name, func(t *testing.T) {
			d := elabSrc(t, name, src)
			p := mustBuild(t, d, Options{})
			prog, err := p.Export()
			if err != nil {
				t.Fatal(err)
			}
			var b strings.Builder
			if err := prog.WriteSIR(&b); err != nil {
				t.Fatal(err)
			}
			path := filepath.Join("testdata", name+".sir")
			if *update {
				if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if b.String() != string(want) {
				t.Fatalf("dump of %s differs from %s (run with -update after checking the change):\n%s", name, path, b.String())
			}
		})
	}
}
