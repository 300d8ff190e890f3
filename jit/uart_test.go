//go:build amd64 && (linux || darwin || freebsd || netbsd || openbsd)

package jit_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math/rand"
	"path/filepath"
	"testing"

	"github.com/weft-hdl/weft/compile"
	"github.com/weft-hdl/weft/jit"
	"github.com/weft-hdl/weft/kernels"
	"github.com/weft-hdl/weft/sir"
	"github.com/weft-hdl/weft/sir/interp"
)

func uartKernels(t testing.TB) *kernels.Program {
	t.Helper()
	dir := "../examples/uart/rtl"
	var files []string
	for _, n := range []string{"uart_pkg.sv", "uart_fifo.sv", "uart_tx.sv", "uart_rx.sv", "uart_top.sv"} {
		files = append(files, filepath.Join(dir, n))
	}
	p, err := compile.NewBuilder().Files(files...).Top("uart_top").NoCache().Build()
	if err != nil {
		t.Fatalf("build uart: %v", err)
	}
	t.Cleanup(func() { p.Close() })
	return p.Kernels
}

type pair struct {
	u  *sir.Unit
	fi *interp.Func
	k  *jit.Kernel
}

func uartPairs(t testing.TB, kp *kernels.Program) []pair {
	units := []*sir.Unit{kp.Settle, kp.Event, kp.Initial}
	for _, e := range kp.Events {
		units = append(units, e.Fused)
	}
	for _, tk := range kp.Ticks {
		units = append(units, tk.Unit)
	}
	var ps []pair
	for _, u := range units {
		if u == nil {
			continue
		}
		fi, err := interp.Compile(u, kp.Layout, interp.Options{})
		if err != nil {
			t.Fatal(err)
		}
		k, err := jit.Compile(u, kp.Layout, jit.Options{StateSize: kp.StateSize})
		var ue *jit.UnsupportedError
		if errors.As(err, &ue) {
			t.Logf("%s: falls back: %v", u.Name, err)
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", u.Name, err)
		}
		t.Cleanup(func() { k.Close() })
		ps = append(ps, pair{u, fi, k})
	}
	return ps
}

// TestUART compiles the UART's kernels and runs random sequences of them
// from random states on both backends, comparing status and state after
// every kernel.
func TestUART(t *testing.T) {
	kp := uartKernels(t)
	ps := uartPairs(t, kp)
	if len(ps) == 0 {
		t.Fatal("no UART kernel compiled natively")
	}
	for _, p := range ps {
		t.Logf("%s: %d insts, %d regs, %d code bytes, arena %d", p.u.Name, p.u.NumInsts(), len(p.u.Regs), p.k.CodeSize(), p.k.ArenaSize())
	}
	rng := rand.New(rand.NewSource(4))
	size := kp.StateSize
	for seq := 0; seq < 20; seq++ {
		ref := make([]byte, size)
		if seq > 0 {
			rng.Read(ref)
		}
		buf := make([]byte, size+8+8*4096)
		copy(buf, ref)
		for step := 0; step < 200; step++ {
			p := ps[rng.Intn(len(ps))]
			for _, tk := range kp.Ticks {
				if p.u == tk.Unit { // a few edges, not a random 64-bit count
					off := kp.Layout.Offset(tk.Count)
					binary.LittleEndian.PutUint64(ref[off:], uint64(rng.Intn(4)))
					copy(buf[off:off+8], ref[off:off+8])
				}
			}
			ws := p.fi.Run(ref)
			gs := p.k.Run(buf)
			if ws != gs || !bytes.Equal(ref, buf[:size]) {
				t.Fatalf("seq %d step %d %s: status native %v interp %v, state equal %v", seq, step, p.u.Name, gs, ws, bytes.Equal(ref, buf[:size]))
			}
		}
	}
}

func BenchmarkUARTSettle(b *testing.B) {
	kp := uartKernels(b)
	var p *pair
	ps := uartPairs(b, kp)
	for i := range ps {
		if ps[i].u == kp.Settle {
			p = &ps[i]
		}
	}
	if p == nil {
		b.Skip("settle not native")
	}
	b.Run("interp", func(b *testing.B) {
		st := make([]byte, kp.StateSize)
		for b.Loop() {
			p.fi.Run(st)
		}
	})
	b.Run("native", func(b *testing.B) {
		st := make([]byte, p.k.Size())
		for b.Loop() {
			p.k.Run(st)
		}
	})
}
