package sim_test

import (
	"bytes"
	"testing"

	"github.com/weft-hdl/weft/compile"
	"github.com/weft-hdl/weft/program"
	"github.com/weft-hdl/weft/sim"
)

// bench is a compiled design with its output buffer and a few helpers.
type bench struct {
	t   testing.TB
	p   *compile.Program
	s   *sim.Simulator
	out *bytes.Buffer
}

func build(t testing.TB, src string, opt ...func(*compile.Builder)) *bench {
	t.Helper()
	out := &bytes.Buffer{}
	b := compile.NewBuilder().Source("t.sv", src).Output(out)
	for _, o := range opt {
		o(b)
	}
	p, err := b.Build()
	if err != nil {
		t.Fatalf("build: %v", err)
	}
	t.Cleanup(func() { p.Close() })
	return &bench{t: t, p: p, s: p.Sim, out: out}
}

func (b *bench) home(name string) *program.Signal {
	b.t.Helper()
	h, ok := b.s.Lookup(name)
	if !ok {
		b.t.Fatalf("no signal %q", name)
	}
	return h
}

func (b *bench) set(name string, v uint64) {
	b.t.Helper()
	if err := b.s.SetInput(b.home(name), v); err != nil {
		b.t.Fatal(err)
	}
}

func (b *bench) get(name string) uint64 {
	b.t.Helper()
	v, err := b.s.Get(b.home(name), 0)
	if err != nil {
		b.t.Fatal(err)
	}
	return v
}

func (b *bench) step() {
	b.t.Helper()
	if err := b.s.Step(); err != nil {
		b.t.Fatal(err)
	}
}

func (b *bench) tick(clk string, n int) {
	b.t.Helper()
	if _, err := b.s.Tick(b.home(clk), n); err != nil {
		b.t.Fatal(err)
	}
}

func (b *bench) expect(name string, want uint64) {
	b.t.Helper()
	if got := b.get(name); got != want {
		b.t.Errorf("%s = %#x, want %#x", name, got, want)
	}
}
