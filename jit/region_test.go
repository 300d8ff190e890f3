package jit

import (
	"math/rand"
	"testing"

	"github.com/weft-hdl/weft/sir"
)

// regionHomes: h0 invariant inputs, h1 and h2 per-instance state (strides
// s1, s2), h3 per-instance results (stride 8) and shared results.
var regionHomes = []int{64, 4096, 4096, 512}

// genRegionUnit builds count instances of one random template of several
// blocks (a diamond on a comparison, with loads, stores, arithmetic on
// locals and invariants, an optional stepped constant, event, flag and
// indexed load), each instance's first block shared with the previous
// one's last, so that instance boundaries fall inside blocks.
func genRegionUnit(rng *rand.Rand, count int, fault int) *sir.Unit {
	b := sir.NewBuilder("region")
	w := []int{8, 16, 32, 64}[rng.Intn(4)]
	size := w / 8
	var inv []sir.Reg
	for i := range 2 {
		inv = append(inv, b.Load(w, size, sir.Addr{Home: 0, Offset: 8 * i}))
	}
	flag := b.Reg(1)
	b.ConstTo(flag, 0)
	s1 := size * (1 + rng.Intn(4))
	s2 := []int{size, 2 * size, 8}[rng.Intn(3)]
	stepped := rng.Intn(2) == 0
	event := rng.Intn(3) == 0
	indexed := rng.Intn(3) == 0
	useFlag := rng.Intn(2) == 0
	bitW := []int{0, 1, 2, 4}[rng.Intn(4)] // a field per instance in a shared packed vector
	liveOut := rng.Intn(3) == 0            // the last instance's load read after the run
	extra := make([]int, rng.Intn(4))      // invariants the template adds in
	for i := range extra {
		extra[i] = rng.Intn(2)
	}
	bad := 1 + rng.Intn(count-1)
	last := sir.NoReg
	for k := range count {
		a1 := sir.Addr{Home: 1, Offset: k * s1}
		a2 := sir.Addr{Home: 2, Offset: k * s2}
		if fault == 1 && k == bad { // breaks the stride
			a2.Offset += size
		}
		x := b.Load(w, size, a1)
		y := b.Load(w, size, a2)
		for _, e := range extra {
			x = b.Op(sir.OpXor, x, b.Op(sir.OpAdd, y, inv[e]))
		}
		c := b.Op(sir.OpULt, x, y)
		then, els, join := b.NewBlock(), b.NewBlock(), b.NewBlock()
		b.Branch(c, then, els)
		b.SetBlock(then)
		imm := uint64(3)
		if stepped {
			imm = uint64(3+5*k) & sir.Mask(w)
		}
		if fault == 2 && k == bad {
			imm += 100
		}
		t := b.Add(x, b.Const(w, imm))
		b.Store(size, a1, t)
		if event {
			b.Emit(sir.Inst{Op: sir.OpEvent, Ev: &sir.Event{Kind: sir.EvDisplay, Format: 1, Seq: uint32(10 + 2*k),
				Args: []sir.EventArg{{Words: []sir.Reg{t}, Width: w}}}})
		}
		b.Jump(join)
		b.SetBlock(els)
		t2 := b.Op(sir.OpXor, y, inv[1])
		b.Store(size, a2, t2)
		if useFlag {
			b.ConstTo(flag, 1)
		}
		b.Jump(join)
		b.SetBlock(join)
		z := b.Load(w, size, a1)
		if indexed {
			ix := b.Op(sir.OpTrunc, b.Op(sir.OpAnd, z, b.Const(w, 3)))
			if b.Width(ix) != 2 {
				ix = b.Op(sir.OpAnd, z, b.Const(w, 3))
			}
			z = b.Op(sir.OpAdd, z, b.Load(w, size, sir.Addr{Home: 2, Offset: k * s2, Index: ix, Stride: size, Count: 4}))
		}
		b.Store(8, sir.Addr{Home: 3, Offset: 8 * k}, b.Op(sir.OpZExt, z))
		if bitW > 0 {
			lo := k * bitW
			if fault == 4 && k == bad {
				lo++ // the field position does not step evenly
			}
			f := b.Op(sir.OpTrunc, z)
			if b.Width(f) != bitW {
				f = b.Reg(bitW)
				b.Emit(sir.Inst{Op: sir.OpTrunc, Dst: f, A: z})
			}
			b.Emit(sir.Inst{Op: sir.OpStoreBits, A: f, Lo: lo % 8, Addr: sir.Addr{Home: 3, Offset: 448 + lo/8}})
			g := b.Reg(bitW)
			b.Emit(sir.Inst{Op: sir.OpLoadBits, Dst: g, Lo: lo % 8, Addr: sir.Addr{Home: 3, Offset: 448 + lo/8}})
			b.Store(1, sir.Addr{Home: 3, Offset: 8*k + 7}, b.Op(sir.OpZExt, g))
		}
		if liveOut { // every instance loads it; the last one's is read after
			last = b.Load(w, size, a1)
		}
		if fault == 3 && k == bad { // reads the instance before's value
			b.Store(8, sir.Addr{Home: 3, Offset: 400}, b.Op(sir.OpZExt, x))
		}
	}
	b.Store(1, sir.Addr{Home: 3, Offset: 480}, flag)
	if last != sir.NoReg {
		b.Store(size, sir.Addr{Home: 3, Offset: 488}, last)
	}
	b.Return(sir.StatusOK)
	return b.U
}

// TestRegionRandom: instances of multi-block code compile to one loop
// when they may, never across a fault, and native code matches the
// interpreter on random states either way.
func TestRegionRandom(t *testing.T) {
	defer SetRegionMinRun(8)()
	rng := rand.New(rand.NewSource(41))
	l, size := sir.PackedLayout(regionHomes, 0)
	n := 300
	if testing.Short() {
		n = 60
	}
	looped, withBits, withReload, withSteps := 0, 0, 0, 0
	for i := range n {
		fault := i % 5
		count := 2 + rng.Intn(6)
		u := genRegionUnit(rng, count, fault)
		if err := sir.Check(u); err != nil {
			t.Fatalf("generator: %v\n%s", err, u)
		}
		runs := findRegions(u, l, layout(u), findRolls(u, l))
		for _, r := range runs {
			if len(r.bits) > 0 {
				withBits++
			}
			if len(r.reload) > 0 {
				withReload++
			}
			if len(r.steps) > 0 {
				withSteps++
			}
		}
		if len(runs) > 0 {
			looped++
			if fault != 0 && runs[0].count == count {
				t.Fatalf("unit %d: all %d instances looped despite fault %d\n%s", i, count, fault, u)
			}
		}
		fi, k := compileBoth(t, u, l, size)
		for range 3 {
			state := make([]byte, size)
			rng.Read(state)
			if msg := diffRun(t, fi, k, state); msg != "" {
				t.Fatalf("unit %d (fault %d, %d instances, %d runs): %s\n%s", i, fault, count, len(runs), msg, u)
			}
		}
	}
	t.Logf("%d of %d units looped: %d runs with stepped bit fields, %d with loads repeated after the loop, %d with stepped constants",
		looped, n, withBits, withReload, withSteps)
	if looped < n/8 || withBits == 0 || withReload == 0 || withSteps == 0 {
		t.Errorf("too few units looped, or some feature never looped")
	}
}
