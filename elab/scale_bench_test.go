package elab

import (
	"testing"

	"github.com/weft-hdl/weft/hdl"
	"github.com/weft-hdl/weft/internal/gendesign"
)

// BenchmarkElabChain elaborates a chain of 7,812 pipeline instances (10^6
// flop bits): the per-instance cost of elaboration, copying instances
// from a template and building each.
//
//	go test ./elab -run XXX -bench ElabChain -benchtime 3x
func BenchmarkElabChain(b *testing.B) {
	st, fs, err := hdl.ParseString("chain.sv", gendesign.Chain(1000000))
	if err != nil {
		b.Fatal(err)
	}
	for _, each := range []bool{false, true} {
		name := "templates"
		if each {
			name = "each-instance"
		}
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				diags := hdl.NewDiagnostics(fs)
				if d := Elaborate(st, fs, Options{Top: "top", EachInstance: each}, diags); d == nil {
					b.Fatal(diags.List)
				}
			}
		})
	}
}
