package kernels

import (
	"testing"

	"github.com/weft-hdl/weft/ordering"
)

// TestReorder: waits follow the final footprints a backend reports.
func TestReorder(t *testing.T) {
	src := `module m(input logic clk, input logic [15:0] x, output logic [15:0] a, output logic [15:0] b);
  always_ff @(posedge clk) a <= (a * 16'd3 + x) ^ (a >> 2) ^ ((a + x) * (x | 16'd1));
  always_ff @(posedge clk) b <= (b * 16'd5 + x) ^ (b >> 3) ^ ((b + x) * (x | 16'd7));
endmodule`
	p := mustBuild(t, elabSrc(t, "m", src), Options{Partition: PartitionOptions{Lanes: 2, Always: true}})
	if p.Parallel == nil || len(p.Parallel.Kernels()) == 0 {
		t.Fatalf("nothing partitioned: %v", p.Parallel.Reasons)
	}
	count := func() (n int) {
		for _, k := range p.Parallel.Kernels() {
			for _, tk := range k.Tasks() {
				n += len(tk.Waits)
			}
		}
		return n
	}
	before := count()

	// The SIR footprint itself: nothing changes.
	if err := p.Parallel.Reorder(func(tk *Task) ([]ordering.Range, bool) { return tk.Effects.Footprint, true }); err != nil {
		t.Fatal(err)
	}
	if got := count(); got != before {
		t.Fatalf("same footprints: %d waits, had %d", got, before)
	}

	// A code generator that stores over the whole state on lane 1: every
	// lane-1 task now conflicts with what lane 0 touches, and must wait
	// for (or be waited for by) it.
	size := p.Layout.StateSize()
	err := p.Parallel.Reorder(func(tk *Task) ([]ordering.Range, bool) {
		if tk.Lane != 1 {
			return nil, false
		}
		return []ordering.Range{{Lo: 0, Hi: size}}, true
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := count(); got <= before {
		t.Errorf("widened footprints: %d waits, had %d", got, before)
	}
	for _, k := range p.Parallel.Kernels() {
		for _, tk := range k.Tasks() {
			if tk.Lane == 1 && (len(tk.Effects.Footprint) != 1 || tk.Effects.Footprint[0].Hi != size) {
				t.Errorf("%s task %d keeps footprint %v", k.Name, tk.Index, tk.Effects.Footprint)
			}
		}
	}
}
