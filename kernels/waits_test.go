package kernels

import (
	"testing"

	"github.com/weft-hdl/weft/ordering"
)

// TestWaitsFor: waits follow the final footprints a backend reports,
// and recomputing them leaves the tasks as they were.
func TestWaitsFor(t *testing.T) {
	src := `module m(input logic clk, input logic [15:0] x, output logic [15:0] a, output logic [15:0] b);
  always_ff @(posedge clk) a <= (a * 16'd3 + x) ^ (a >> 2) ^ ((a + x) * (x | 16'd1));
  always_ff @(posedge clk) b <= (b * 16'd5 + x) ^ (b >> 3) ^ ((b + x) * (x | 16'd7));
endmodule`
	p := mustBuild(t, elabSrc(t, "m", src), Options{Partition: PartitionOptions{Lanes: 2, Always: true}})
	if p.Parallel == nil || len(p.Parallel.Kernels()) == 0 {
		t.Fatalf("nothing partitioned: %v", p.Parallel.Reasons)
	}
	count := func(waits func(k *Partitioned) [][][]ordering.Wait) (n int) {
		for _, k := range p.Parallel.Kernels() {
			for _, lane := range waits(k) {
				for _, ws := range lane {
					n += len(ws)
				}
			}
		}
		return n
	}
	recompute := func(final func(*Task) ([]ordering.Range, bool)) func(k *Partitioned) [][][]ordering.Wait {
		return func(k *Partitioned) [][][]ordering.Wait {
			w, err := k.WaitsFor(final)
			if err != nil {
				t.Fatal(err)
			}
			return w
		}
	}
	before := count(func(k *Partitioned) [][][]ordering.Wait {
		var w [][][]ordering.Wait
		for _, ts := range k.Lanes {
			var lane [][]ordering.Wait
			for _, tk := range ts {
				lane = append(lane, tk.Waits)
			}
			w = append(w, lane)
		}
		return w
	})

	// The SIR footprint itself: nothing changes.
	if got := count(recompute(func(tk *Task) ([]ordering.Range, bool) { return tk.Effects.Footprint, true })); got != before {
		t.Fatalf("same footprints: %d waits, had %d", got, before)
	}

	// A code generator that stores over the whole state on lane 1: every
	// lane-1 task now conflicts with what lane 0 touches, and must wait
	// for (or be waited for by) it. The tasks keep their own waits.
	size := p.Layout.StateSize()
	widened := count(recompute(func(tk *Task) ([]ordering.Range, bool) {
		if tk.Lane != 1 {
			return nil, false
		}
		return []ordering.Range{{Lo: 0, Hi: size}}, true
	}))
	if widened <= before {
		t.Errorf("widened footprints: %d waits, had %d", widened, before)
	}
	if got := count(recompute(func(*Task) ([]ordering.Range, bool) { return nil, false })); got != before {
		t.Errorf("after recomputing, the tasks have %d waits, had %d", got, before)
	}
}
