package jit

import (
	"fmt"
	"strings"
	"testing"

	"github.com/weft-hdl/weft/sir"
)

// TestPerfMapBlocks: the blocks a lowering reports tile its code exactly,
// in layout order, and become one perf map line each.
func TestPerfMapBlocks(t *testing.T) {
	u, err := sir.Parse(`unit "fused posedge t.clk"
b0:
  r1:32 = load.4 h0+0
  r2:1 = eq r1, r1
  branch r2, b1, b2
b1:
  r3:32 = const 5
  store.4 h0+4, r3
  jump b2
b2:
  store.4 h0+8, r1
  ret ok
`)
	if err != nil {
		t.Fatal(err)
	}
	l, size := sir.PackedLayout([]int{32}, 0)
	low, err := lower(u, l, size, (size+7)&^7, 0, allocatable)
	if err != nil {
		t.Fatal(err)
	}
	at := 0
	for _, bc := range low.blocks {
		if bc.lo != at || bc.hi < bc.lo {
			t.Fatalf("blocks %v do not tile the code (%d bytes)", low.blocks, len(low.code))
		}
		at = bc.hi
	}
	if at != len(low.code) || len(low.blocks) != 3 {
		t.Fatalf("blocks %v, code %d bytes", low.blocks, len(low.code))
	}
	lines := perfMapLines(u.Name, 0x1000, low.blocks)
	want := fmt.Sprintf("1000 %x weft:fused_posedge_t.clk:b0\n", low.blocks[0].hi)
	if !strings.HasPrefix(lines, want) || strings.Count(lines, "\n") != 3 {
		t.Errorf("perf map lines:\n%s\nwant first %q", lines, want)
	}
}
