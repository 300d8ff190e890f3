package program_test

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/vmihailenco/msgpack/v5"
	"github.com/weft-hdl/weft/compile"
	"github.com/weft-hdl/weft/program"
)

func sz(v any) int {
	b, err := msgpack.Marshal(v)
	_ = err
	return len(b)
}
func szA(v any) int {
	var buf = &bytesBuf{}
	enc := msgpack.NewEncoder(buf)
	enc.UseArrayEncodedStructs(true)
	enc.UseCompactInts(true)
	enc.Encode(v)
	return len(buf.b)
}

type bytesBuf struct{ b []byte }

func (w *bytesBuf) Write(p []byte) (int, error) { w.b = append(w.b, p...); return len(p), nil }

func TestZZBreak(t *testing.T) {
	root, _ := filepath.Abs("..")
	t.Chdir(root)
	cp, err := compile.NewBuilder().Files(filepath.Join(root, "examples/cores/rtl/cores.sv")).Top("cores").Output(io.Discard).Build()
	if err != nil {
		t.Fatal(err)
	}
	p := cp.Program
	units := append(p.Units(), p.TaskUnits()...)
	fmt.Fprintf(os.Stderr, "units %d\n", szA(units))
	fmt.Fprintf(os.Stderr, "signals %d scopes %d layout %d formats %d plan %d parallel %d loops %d\n", szA(p.Signals), szA(p.Scopes), szA(p.Layout), szA(p.Formats), szA(p.Plan), szA(p.Parallel), szA(p.Loops))
	fmt.Fprintf(os.Stderr, "layout init %d objects %d\n", szA(p.Layout.Init), szA(p.Layout.Objects))
	n := 0
	for _, u := range units {
		n += u.NumInsts()
	}
	fmt.Fprintf(os.Stderr, "insts %d, units %d\n", n, len(units))
	img, _ := program.Encode(p, program.Meta{})
	t0 := time.Now()
	var q *program.Program
	for range 5 {
		q, _, err = program.Decode(img)
	}
	fmt.Fprintf(os.Stderr, "decode %v\n", time.Since(t0)/5)
	t0 = time.Now()
	for range 5 {
		q.Link()
	}
	fmt.Fprintf(os.Stderr, "link %v\n", time.Since(t0)/5)
}
