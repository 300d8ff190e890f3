package sir_test

import (
	"fmt"

	"github.com/weft-hdl/weft/sir"
	"github.com/weft-hdl/weft/sir/interp"
)

// A unit for "y = sel ? a + b : a" built with the Builder, printed and run.
func ExampleBuilder() {
	b := sir.NewBuilder("example")
	a := b.Load(8, 1, sir.Addr{Home: 0})
	x := b.Load(8, 1, sir.Addr{Home: 1})
	sel := b.Load(1, 1, sir.Addr{Home: 2})
	y := b.Reg(8)
	b.CopyTo(y, a)
	then, done := b.NewBlock(), b.NewBlock()
	b.Branch(sel, then, done)
	b.SetBlock(then)
	b.OpTo(y, sir.OpAdd, a, x, sir.NoReg)
	b.Jump(done)
	b.SetBlock(done)
	b.Store(1, sir.Addr{Home: 3}, y)
	b.Return(sir.StatusOK)
	u, err := b.Finish()
	if err != nil {
		panic(err)
	}
	fmt.Print(u)

	l, size := sir.PackedLayout([]int{1, 1, 1, 1}, 0)
	state := make([]byte, size)
	state[0], state[8], state[16] = 200, 100, 1
	st, _ := interp.Run(u, l, state)
	fmt.Println(st, state[24])
	// Output:
	// unit "example"
	// b0:
	//   r1:8 = load.1 h0+0
	//   r2:8 = load.1 h1+0
	//   r3:1 = load.1 h2+0
	//   r4:8 = copy r1
	//   branch r3, b1, b2
	// b1:
	//   r4:8 = add r1, r2
	//   jump b2
	// b2:
	//   store.1 h3+0, r4
	//   ret ok
	// ok 44
}
