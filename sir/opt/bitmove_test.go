package opt

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/weft-hdl/weft/sir"
)

// runBitmove runs bitmove alone on body (runPassOn).
func runBitmove(t *testing.T, body string) *sir.Unit {
	t.Helper()
	return runPassOn(t, "bitmove", body)
}

func countOps(u *sir.Unit, op sir.Op) int {
	n := 0
	for _, b := range u.Blocks {
		for _, in := range b.Insts {
			if in.Op == op {
				n++
			}
		}
	}
	return n
}

// reverseBody is a 32-bit word stored, then copied bit by bit in reverse
// order into another home (an ALU's shifter input written as 32 assigns).
func reverseBody(w int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "b0:\n  r1:%d = load.%d h0+0\n  store.%d h1+0, r1\n", w, w/8, w/8)
	for j := 0; j < w; j++ {
		src := w - 1 - j
		fmt.Fprintf(&b, "  r%d:1 = loadbits h1+%d, %d\n", j+2, src/8, src%8)
		fmt.Fprintf(&b, "  storebits h2+%d, %d, r%d\n", j/8, j%8, j+2)
	}
	b.WriteString("  ret ok\n")
	return b.String()
}

// TestBitmoveReverse: the reversed copy reads the stored register, not
// memory, and is one swap network and one store.
func TestBitmoveReverse(t *testing.T) {
	for _, w := range []int{8, 16, 32, 64} {
		u := runBitmove(t, reverseBody(w))
		if n := countOps(u, sir.OpStoreBits); n != 0 {
			t.Errorf("w=%d: %d storebits left\n%s", w, n, u)
		}
		if n := countOps(u, sir.OpLoadBits); n != 0 {
			t.Errorf("w=%d: %d loadbits left (not forwarded)\n%s", w, n, u)
		}
		steps := 0
		for s := w / 2; s >= 1; s /= 2 {
			steps++
		}
		if n := countOps(u, sir.OpLShr); n != steps {
			t.Errorf("w=%d: %d right shifts, want a swap network of %d steps\n%s", w, n, steps, u)
		}
		if n := countOps(u, sir.OpStore); n != 2 {
			t.Errorf("w=%d: %d stores, want 2\n%s", w, n, u)
		}
	}
}

// TestBitmoveForward: loads of bits a store wrote read the register; not
// after the register is assigned again, not across a store to those bits,
// not when the load straddles two stores; the zero extension reads 0.
func TestBitmoveForward(t *testing.T) {
	u := runBitmove(t, `
b0:
  r1:32 = load.4 h0+0
  store.4 h1+0, r1
  r2:8 = loadbits h1+1, 3
  r3:16 = load.2 h1+2
  r4:5 = load.1 h0+8
  store.2 h1+8, r4
  r5:3 = loadbits h1+8, 2
  r6:8 = load.1 h1+9
  r7:4 = loadbits h1+8, 3
  r1:32 = const 7
  r8:8 = loadbits h1+1, 0
  store.4 h2+0, r2
  store.4 h2+4, r3
  store.4 h2+8, r5
  store.4 h2+12, r6
  store.4 h2+16, r7
  store.4 h2+20, r8
  storebits h1+20, 4, r4
  store.1 h1+21, r4
  r9:8 = loadbits h1+20, 4
  store.1 h2+24, r9
  ret ok
`)
	want := []string{
		"r2:8 = extract r1, 11",
		"r3:16 = extract r1, 16",
		"r5:3 = extract r4, 2",
		"r6:8 = const 0",
		"r7:4 = loadbits h1+8, 3", // bits 3..6: two from r4, two of its zero extension
		"r8:8 = loadbits h1+1, 0", // r1 assigned again
		"r9:8 = loadbits h1+20, 4",
	}
	got := u.String()
	for _, w := range want {
		if !strings.Contains(got, w) {
			t.Errorf("want %q in\n%s", w, got)
		}
	}
}

// TestBitmovePartialWord: a run that writes some bits of a word keeps the
// others (read once, at the first store), and a load of the word between
// two stores ends the run there.
func TestBitmovePartialWord(t *testing.T) {
	u := runBitmove(t, `
b0:
  r1:32 = load.4 h0+0
  r2:1 = extract r1, 3
  storebits h1+0, 0, r2
  r3:1 = extract r1, 4
  storebits h1+0, 1, r3
  r4:2 = extract r1, 9
  storebits h1+1, 6, r4
  r5:16 = load.2 h1+0
  storebits h1+0, 2, r2
  storebits h1+0, 3, r3
  store.2 h2+0, r5
  ret ok
`)
	if n := countOps(u, sir.OpStoreBits); n != 0 {
		t.Errorf("%d storebits left\n%s", n, u)
	}
	if n := countOps(u, sir.OpStore); n != 3 {
		t.Errorf("%d stores, want 3 (two packed runs and h2)\n%s", n, u)
	}
}

// TestBitmoveSourceChanges: a source register assigned between two stores
// of a run makes the run an insert per store (each reads it where it
// stood), never a gather of its later value.
func TestBitmoveSourceChanges(t *testing.T) {
	u := runBitmove(t, `
b0:
  r1:8 = load.1 h0+0
  r2:1 = extract r1, 0
  storebits h1+0, 7, r2
  r3:1 = extract r1, 1
  storebits h1+0, 6, r3
  r1:8 = load.1 h0+1
  r4:1 = extract r1, 2
  storebits h1+0, 5, r4
  r5:1 = extract r1, 3
  storebits h1+0, 4, r5
  ret ok
`)
	if n := countOps(u, sir.OpInsert); n != 4 {
		t.Errorf("%d inserts, want 4\n%s", n, u)
	}
}

// genBitmove builds units that move bits between homes the way RTL bit
// assigns do: fields of a few source registers stored bit by bit into a
// small window of h1 in random orders (reversals among them), whole stores
// among them, loads of h1 (forwarded or ending runs), sources assigned
// again, dynamic accesses, and blocks split by branches.
func genBitmove(rng *rand.Rand) *sir.Unit {
	b := sir.NewBuilder("bits")
	widths := []int{8, 13, 16, 32, 64}
	var srcs []sir.Reg
	for i := range 4 {
		w := widths[rng.Intn(len(widths))]
		r := b.Reg(w)
		b.Emit(sir.Inst{Op: sir.OpLoad, Dst: r, Size: sizeFor(w, rng), Addr: sir.Addr{Home: 0, Offset: 8 * i}})
		srcs = append(srcs, r)
	}
	var outs []sir.Reg
	window := 8 * rng.Intn(2)
	nblocks := 1 + rng.Intn(2)
	for blk := range nblocks {
		for range 10 + rng.Intn(40) {
			x := srcs[rng.Intn(len(srcs))]
			xw := b.U.Width(x)
			switch k := rng.Intn(20); {
			case k < 10: // a field of a source, stored bit-aligned
				w := 1
				if rng.Intn(3) == 0 {
					w = 1 + rng.Intn(min(xw, 12))
				}
				lo := rng.Intn(xw - w + 1)
				v := b.Reg(w)
				b.Emit(sir.Inst{Op: sir.OpExtract, Dst: v, A: x, Lo: lo})
				bit := rng.Intn(64 - w + 1)
				b.Emit(sir.Inst{Op: sir.OpStoreBits, A: v, Lo: bit % 8, Addr: sir.Addr{Home: 1, Offset: window + bit/8}})
			case k < 11 && xw%8 == 0: // a source reversed bit by bit
				order := rng.Perm(xw)
				for _, j := range order {
					v := b.Reg(1)
					b.Emit(sir.Inst{Op: sir.OpExtract, Dst: v, A: x, Lo: xw - 1 - j})
					b.Emit(sir.Inst{Op: sir.OpStoreBits, A: v, Lo: j % 8, Addr: sir.Addr{Home: 1, Offset: window + j/8}})
				}
			case k < 13: // a whole store into the window
				s := []int{1, 2, 4}[rng.Intn(3)]
				off := s * rng.Intn(8/s)
				v := x
				if xw > 8*s {
					v = b.Reg(8 * s)
					b.Emit(sir.Inst{Op: sir.OpTrunc, Dst: v, A: x})
				}
				b.Emit(sir.Inst{Op: sir.OpStore, A: v, Size: s, Addr: sir.Addr{Home: 1, Offset: window + off}})
			case k < 16: // a load of the window, kept
				w := 1 + rng.Intn(16)
				lo := rng.Intn(64 - w + 1)
				v := b.Reg(w)
				if rng.Intn(2) == 0 && lo%8 == 0 {
					b.Emit(sir.Inst{Op: sir.OpLoad, Dst: v, Size: (w + 7) / 8, Addr: sir.Addr{Home: 1, Offset: window + lo/8}})
				} else {
					b.Emit(sir.Inst{Op: sir.OpLoadBits, Dst: v, Lo: lo % 8, Addr: sir.Addr{Home: 1, Offset: window + lo/8}})
				}
				outs = append(outs, v)
			case k < 18: // a source assigned again
				b.Emit(sir.Inst{Op: sir.OpLoad, Dst: x, Size: sizeFor(xw, rng), Addr: sir.Addr{Home: 0, Offset: 32 + rng.Intn(24)}})
			case k < 19: // a source's field stored through a register assigned again later
				v := b.Reg(1)
				b.Emit(sir.Inst{Op: sir.OpExtract, Dst: v, A: x, Lo: rng.Intn(xw)})
				b.Emit(sir.Inst{Op: sir.OpStoreBits, A: v, Lo: rng.Intn(8), Addr: sir.Addr{Home: 1, Offset: window + rng.Intn(8)}})
				b.Emit(sir.Inst{Op: sir.OpLoadBits, Dst: v, Lo: rng.Intn(8), Addr: sir.Addr{Home: 0, Offset: rng.Intn(8)}})
				b.Emit(sir.Inst{Op: sir.OpStoreBits, A: v, Lo: rng.Intn(8), Addr: sir.Addr{Home: 1, Offset: window + rng.Intn(8)}})
			default: // a dynamic access to the window's home
				idx := b.Reg(3)
				b.Emit(sir.Inst{Op: sir.OpLoad, Dst: idx, Size: 1, Addr: sir.Addr{Home: 0, Offset: 60}})
				a := sir.Addr{Home: 1, Offset: window, Index: idx, Stride: 1, Count: 8}
				if rng.Intn(2) == 0 {
					v := b.Reg(8)
					b.Emit(sir.Inst{Op: sir.OpLoad, Dst: v, Size: 1, Addr: a})
					outs = append(outs, v)
				} else {
					v := x
					if xw > 8 {
						v = b.Reg(8)
						b.Emit(sir.Inst{Op: sir.OpTrunc, Dst: v, A: x})
					}
					b.Emit(sir.Inst{Op: sir.OpStore, A: v, Size: 1, Addr: a})
				}
			}
		}
		if blk+1 < nblocks {
			next := b.NewBlock()
			b.Jump(next)
			b.SetBlock(next)
		}
	}
	for i, r := range append(srcs, outs...) {
		if i >= 24 {
			break
		}
		b.Emit(sir.Inst{Op: sir.OpStore, A: r, Size: sizeFor(b.U.Width(r), rng), Addr: sir.Addr{Home: 2, Offset: 0}})
		b.Emit(sir.Inst{Op: sir.OpStore, A: r, Size: 8, Addr: sir.Addr{Home: 3, Offset: 8 * (i % 7)}})
	}
	b.Return(sir.StatusOK)
	return b.U
}

// TestBitmoveRandom: bitmove alone and the whole pipeline behave like the
// original on units full of bit moves, and bitmove packs most of them.
func TestBitmoveRandom(t *testing.T) {
	n := 600
	if testing.Short() {
		n = 100
	}
	rng := rand.New(rand.NewSource(11))
	before, after := 0, 0
	for i := range n {
		u := genBitmove(rng)
		if err := sir.Check(u); err != nil {
			t.Fatalf("generator made a bad unit: %v\n%s", err, u)
		}
		orig := u.Clone()
		if err := RunPass(u, "bitmove"); err != nil {
			t.Fatal(err)
		}
		if err := sir.Check(u); err != nil {
			t.Fatalf("unit %d after bitmove: %v\n%s", i, err, u)
		}
		before += countOps(orig, sir.OpStoreBits)
		after += countOps(u, sir.OpStoreBits)
		behaveAlike(t, fmt.Sprintf("unit %d, bitmove", i), orig, u, rng, 3)
		full := orig.Clone()
		if err := Run(full, Options{Check: true}); err != nil {
			t.Fatalf("unit %d: %v", i, err)
		}
		behaveAlike(t, fmt.Sprintf("unit %d, pipeline", i), orig, full, rng, 2)
	}
	t.Logf("%d units: %d storebits before, %d after", n, before, after)
	if after*2 > before {
		t.Errorf("bitmove packed only %d of %d storebits", before-after, before)
	}
}

// TestBitmoveForwardWindow: a load far after the store reads memory: the
// register is not kept alive across the stretch in between.
func TestBitmoveForwardWindow(t *testing.T) {
	var b strings.Builder
	b.WriteString("b0:\n  r1:32 = load.4 h0+0\n  store.4 h1+0, r1\n")
	for k := 0; k < bitmoveForwardWindow; k++ {
		fmt.Fprintf(&b, "  r%d:8 = load.1 h0+%d\n  store.1 h2+%d, r%d\n", k+10, k%8, k%8, k+10)
	}
	b.WriteString("  r2:8 = loadbits h1+1, 3\n  store.1 h3+0, r2\n  ret ok\n")
	u := runBitmove(t, b.String())
	if !strings.Contains(u.String(), "r2:8 = loadbits h1+1, 3") {
		t.Errorf("a load %d instructions after the store was forwarded", 2*bitmoveForwardWindow)
	}
}
