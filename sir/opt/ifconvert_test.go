package opt

import (
	"fmt"
	"math/rand"
	"testing"

	"github.com/weft-hdl/weft/sir"
)

// genIfs builds a unit of consecutive if/else and if-only shapes with
// short random arms (the random generator's instruction mix: stores of
// every width, loads after stores, dynamic indexes, events, registers
// assigned again), some of which ifconvert may convert.
func genIfs(rng *rand.Rand) *sir.Unit {
	g := newGen(rng, "ifs")
	g.narrow = rng.Intn(2) == 0
	b := g.b
	// Each if has a location both arms may store, at its exact place or
	// shifted so that it overlaps partly.
	var size int
	var loc sir.Addr
	armBody := func() {
		g.local = map[int][]sir.Reg{}
		for n := 1 + rng.Intn(4); n > 0; n-- {
			g.inst()
		}
		if rng.Intn(2) == 0 {
			a := loc
			if rng.Intn(3) == 0 {
				a.Offset = max(0, min(a.Offset+rng.Intn(2*size-1)-size+1, 64-size))
			}
			b.Store(size, a, g.operand(8*size))
			if k := loc.Offset / size; k > 0 && rng.Intn(2) == 0 {
				// Read it back through an index whose first element lies
				// below it: only the indexed range shows the overlap.
				dyn := sir.Addr{Home: loc.Home, Offset: loc.Offset - k*size, Index: b.Const(8, uint64(k)), Stride: size, Count: k + 1}
				v := b.Load(8*size, size, dyn)
				b.Store(size, sir.Addr{Home: 7, Offset: 8 * rng.Intn(8)}, v)
			}
		}
	}
	for n := 1 + rng.Intn(4); n > 0; n-- {
		cond := g.operand(1)
		if rng.Intn(2) == 0 {
			cond = b.Load(1, 1, sir.Addr{Home: sir.HomeID(rng.Intn(8)), Offset: rng.Intn(64)})
		}
		size = []int{1, 2, 4, 8}[rng.Intn(4)]
		loc = g.addr(size)
		loc.Index, loc.Stride, loc.Count = sir.NoReg, 0, 0
		t, e, join := b.NewBlock(), b.NewBlock(), b.NewBlock()
		shape := rng.Intn(3) // 0: if/else, 1: then only, 2: else only
		switch shape {
		case 0:
			b.Branch(cond, t, e)
		case 1:
			b.Branch(cond, t, join)
		default:
			b.Branch(cond, join, e)
		}
		for k, arm := range []sir.BlockID{t, e} {
			b.SetBlock(arm)
			if shape == 0 || shape == 1 && k == 0 || shape == 2 && k == 1 {
				armBody()
			}
			b.Jump(join)
		}
		b.SetBlock(join)
		g.local = map[int][]sir.Reg{}
	}
	b.Return(sir.StatusOK)
	return b.U
}

// TestIfConvertDifferential: random ifs behave the same before and after
// ifconvert alone and after the whole pipeline, and enough of them convert
// for the comparison to mean something.
func TestIfConvertDifferential(t *testing.T) {
	n := 3000
	if testing.Short() {
		n = 400
	}
	rng := rand.New(rand.NewSource(7))
	converted, branches := 0, 0
	for i := 0; i < n; i++ {
		u := genIfs(rng)
		if err := sir.Check(u); err != nil {
			t.Fatalf("generator made a bad unit: %v\n%s", err, u)
		}
		orig := u.Clone()
		before := countBranches(u)
		if err := RunPass(u, "ifconvert"); err != nil {
			t.Fatal(err)
		}
		if err := sir.Check(u); err != nil {
			t.Fatalf("unit %d: %v\nbefore:\n%s\nafter:\n%s", i, err, orig, u)
		}
		branches += before
		converted += before - countBranches(u)
		behaveAlike(t, fmt.Sprintf("unit %d", i), orig, u, rng, 4)
		full := orig.Clone()
		if err := Run(full, Options{Check: true}); err != nil {
			t.Fatalf("unit %d: %v\nbefore:\n%s", i, err, orig)
		}
		behaveAlike(t, fmt.Sprintf("unit %d (pipeline)", i), orig, full, rng, 1)
	}
	t.Logf("%d of %d branches converted", converted, branches)
	if converted*8 < branches {
		t.Fatalf("only %d of %d branches converted: the test no longer exercises ifconvert", converted, branches)
	}
}

func countBranches(u *sir.Unit) int {
	n := 0
	reach := u.Reachable()
	for i, b := range u.Blocks {
		if reach[i] && b.Term.Kind == sir.TermBranch {
			n++
		}
	}
	return n
}
