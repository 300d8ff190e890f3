package interp

import (
	"testing"

	"github.com/weft-hdl/weft/sir"
)

// BenchmarkRunALU256 measures one Run of a 256-instruction straight-line
// unit (loads, adds, xors, stores): interpreter cost per instruction.
func BenchmarkRunALU256(b *testing.B) {
	bl := sir.NewBuilder("bench")
	x := bl.Load(32, 4, sir.Addr{Home: 0})
	y := bl.Load(32, 4, sir.Addr{Home: 0, Offset: 4})
	for i := 0; i < 84; i++ {
		x = bl.Add(x, y)
		y = bl.Xor(y, x)
		bl.Store(4, sir.Addr{Home: 0, Offset: 8 + 4*(i%8)}, x)
	}
	bl.Return(sir.StatusOK)
	l, size := sir.PackedLayout([]int{64}, 0)
	f, err := Compile(bl.U, l, Options{})
	if err != nil {
		b.Fatal(err)
	}
	state := make([]byte, size)
	b.ReportAllocs()
	for b.Loop() {
		f.Run(state)
	}
}
