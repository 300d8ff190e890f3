package kernels

import "testing"

// TestTickKernels: which clocks get a fused tick loop.
func TestTickKernels(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		want      []string // clocks with a loop
	}{
		{"one clock and an async reset", `module m(input logic clk, input logic rst_n, output logic [3:0] q);
  always_ff @(posedge clk or negedge rst_n) if (!rst_n) q <= 0; else q <= q + 1;
endmodule`, []string{"m.clk", "m.rst_n"}},
		{"both edges", `module m(input logic clk, output logic [3:0] p, output logic [3:0] n);
  always_ff @(posedge clk) p <= p + 1;
  always_ff @(negedge clk) n <= n + 1;
endmodule`, []string{"m.clk"}},
		{"a derived clock: a loop that hands its edges back", `module m(input logic clk, output logic [3:0] q, output logic div);
  always_ff @(posedge clk) div <= ~div;
  always_ff @(posedge div) q <= q + 1;
endmodule`, []string{"m.clk"}},
		{"a derived clock and comb logic reading the clock: none", `module m(input logic clk, input logic en, output logic [3:0] q, output logic [3:0] p, output logic div);
  logic g;
  assign g = clk & en;
  always_ff @(posedge clk) div <= ~div;
  always_ff @(posedge div) q <= q + 1;
  always_ff @(posedge g) p <= p + 1;
endmodule`, nil},
		{"two events on one edge: none for that clock", `module m(input logic clk, output logic [3:0] p, output logic [3:0] a);
  always_ff @(posedge clk) p <= p + 1;
  always_ff @(edge clk) a <= a + 1;
endmodule`, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := mustBuild(t, elabSrc(t, "m", tc.src), Options{})
			var got []string
			for _, tk := range p.Ticks {
				got = append(got, tk.Clock.Path)
				if tk.Batch < 1 || tk.Batch > maxTickBatch || tk.Unit == nil {
					t.Errorf("%s: batch %d unit %v", tk, tk.Batch, tk.Unit)
				}
			}
			if len(got) != len(tc.want) {
				t.Fatalf("tick loops for %v, want %v", got, tc.want)
			}
			for i := range got {
				if got[i] != tc.want[i] {
					t.Errorf("tick loops for %v, want %v", got, tc.want)
				}
			}
			if p2 := mustBuild(t, elabSrc(t, "m", tc.src), Options{NoTick: true}); len(p2.Ticks) != 0 {
				t.Errorf("NoTick: %d loops", len(p2.Ticks))
			}
		})
	}
}
