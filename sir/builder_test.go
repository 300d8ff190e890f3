package sir_test

import (
	"testing"

	"github.com/weft-hdl/weft/sir"
)

// Past its limit a builder keeps no more instructions and hands out one
// register per width, so a runaway lowering runs in bounded memory.
func TestBuilderLimit(t *testing.T) {
	b := sir.NewBuilder("big")
	b.SetLimit(100)
	x := b.Const(64, 1)
	for range 100000 {
		x = b.Add(x, b.Const(64, 3))
		b.Trunc(7, x)
	}
	if !b.Over() || b.Emitted() != 1+3*100000 {
		t.Fatalf("Over %v, Emitted %d", b.Over(), b.Emitted())
	}
	if n := b.U.NumInsts(); n != 100 {
		t.Errorf("%d instructions kept, want 100", n)
	}
	if n := len(b.U.Regs); n > 200 {
		t.Errorf("%d registers", n)
	}
	if w := b.Width(b.Trunc(7, x)); w != 7 {
		t.Errorf("a 7-bit result has width %d", w)
	}
}
