package program_test

import (
	"io"
	"path/filepath"
	"testing"

	"github.com/weft-hdl/weft/compile"
	"github.com/weft-hdl/weft/program"
)

func BenchmarkZZDecodeCores(b *testing.B) {
	root, _ := filepath.Abs("..")
	cp, err := compile.NewBuilder().Files(filepath.Join(root, "examples/cores/rtl/cores.sv")).Top("cores").Output(io.Discard).Build()
	if err != nil {
		b.Fatal(err)
	}
	img, _ := program.Encode(cp.Program, program.Meta{})
	b.ResetTimer()
	for b.Loop() {
		program.Decode(img)
	}
}
