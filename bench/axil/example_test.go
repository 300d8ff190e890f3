package axil_test

import (
	"fmt"
	"io"

	"github.com/weft-hdl/weft/bench"
	"github.com/weft-hdl/weft/bench/axil"
	"github.com/weft-hdl/weft/compile"
)

// A Master on the register file of testdata/regfile.sv, outside Ginkgo:
// whole words, a partial write (wstrb), a read across two registers, and
// the slave's error answers, which are returned, not failures.
func ExampleMaster() {
	p, err := compile.NewBuilder().Files("testdata/regfile.sv").Top("axil_regfile").Output(io.Discard).Build()
	if err != nil {
		panic(err)
	}
	defer p.Close()
	tb := bench.New(p, bench.Options{Fail: func(m string, _ ...int) { panic(m) }, Output: io.Discard, Seed: 1})
	defer tb.Close()
	clk := tb.Clock(tb.Signal("clk"), 10*bench.NS).Signal()
	rst := tb.Signal("rst_n")
	tb.Reset(rst, bench.Inferred, 2)
	m := axil.NewMaster(tb, "s_axil", clk, axil.Options{Reset: rst, ResetActiveLow: true})

	id, resp := m.ReadWord(0x00)
	fmt.Printf("ID %#x %s\n", id, resp)
	fmt.Println(m.WriteWord(0x08, 0x11223344))
	fmt.Println(m.Write(0x09, []byte{0xaa, 0xbb, 0xcc, 0xdd})) // lanes 1..3 of 0x08, lane 0 of 0x0c
	data, resp := m.Read(0x08, 8)
	fmt.Printf("% x %s\n", data, resp)
	fmt.Println(m.WriteWord(0x00, 1), m.WriteWord(0x40, 1))
	// Output:
	// ID 0xa11e0010 OKAY
	// OKAY
	// OKAY
	// 44 aa bb cc dd 00 00 00 OKAY
	// SLVERR DECERR
}
