package opt

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/weft-hdl/weft/sir"
)

// genGVNUnit builds units for gvn: forward branches and counted
// self-loops like genUnit, over few bytes (narrow), where blocks emit
// again the loads and operations of earlier blocks (dominating or not),
// often after a store into the loaded bytes in an arm, a loop or the block
// itself.
func genGVNUnit(rng *rand.Rand) *sir.Unit {
	g := newGen(rng, "gvn")
	g.narrow = true
	b := g.b
	one8, zero8 := b.Const(8, 1), b.Const(8, 0)
	nb := 2 + rng.Intn(8)
	counters := make([]sir.Reg, nb)
	for i := 1; i < nb; i++ {
		if rng.Intn(5) == 0 {
			counters[i] = b.Const(8, uint64(1+rng.Intn(3)))
		}
		b.NewBlock()
	}
	var earlier []sir.Inst // re-emittable: loads and operations on entry registers
	for i := 0; i < nb; i++ {
		b.SetBlock(sir.BlockID(i))
		g.local = map[int][]sir.Reg{}
		for n := 2 + rng.Intn(8); n > 0; n-- {
			if len(earlier) > 0 && rng.Intn(2) == 0 {
				in := earlier[rng.Intn(len(earlier))]
				if in.Op.IsMem() && rng.Intn(3) == 0 {
					g.storeInto(in)
				}
				in.Dst = g.dst(b.Width(in.Dst))
				b.Emit(in)
				for _, r := range g.fresh {
					g.local[b.Width(r)] = append(g.local[b.Width(r)], r)
				}
				g.fresh = g.fresh[:0]
				size := sizeFor(b.Width(in.Dst), rng)
				b.Store(size, sir.Addr{Home: sir.HomeID(2 + rng.Intn(6)), Offset: rng.Intn(64 - size + 1)}, in.Dst)
				continue
			}
			start := len(b.U.Blocks[i].Insts)
			g.inst()
			for _, in := range b.U.Blocks[i].Insts[start:] {
				if in.Op.Pure() && in.Op != sir.OpConst && in.Op != sir.OpCopy && onlyEntryRegs(b.U, in) {
					earlier = append(earlier, in)
				}
			}
		}
		next := func() sir.BlockID { return sir.BlockID(i + 1 + rng.Intn(nb-i-1)) }
		switch {
		case i == nb-1:
			b.Return(sir.StatusOK)
		case counters[i] != sir.NoReg:
			b.OpTo(counters[i], sir.OpSub, counters[i], one8, sir.NoReg)
			b.Branch(b.Ne(counters[i], zero8), sir.BlockID(i), next())
		case rng.Intn(3) == 0:
			b.Jump(next())
		default:
			b.Branch(g.operand(1), next(), next())
		}
	}
	return b.U
}

// onlyEntryRegs reports whether in reads only registers the entry block
// defines (readable in every block).
func onlyEntryRegs(u *sir.Unit, in sir.Inst) bool {
	defined := map[sir.Reg]bool{}
	for _, e := range u.Blocks[0].Insts {
		defined[e.Dst] = true
	}
	args := [3]sir.Reg{in.A, in.B, in.C}
	for i := range in.Op.NumArgs() {
		if !defined[args[i]] {
			return false
		}
	}
	return !in.Addr.Dynamic() || defined[in.Addr.Index]
}

// TestGVNRandom: gvn alone keeps every unit's behaviour, and reuses
// values often enough that the comparison means something.
func TestGVNRandom(t *testing.T) {
	n := 2000
	if testing.Short() {
		n = 300
	}
	rng := rand.New(rand.NewSource(7))
	reused := 0
	for i := range n {
		u := genGVNUnit(rng)
		if err := sir.Check(u); err != nil {
			t.Fatalf("generator made a bad unit: %v\n%s", err, u)
		}
		orig := u.Clone()
		copies := countOps(u, sir.OpCopy)
		gvn(u, nil)
		if err := sir.Check(u); err != nil {
			t.Fatalf("unit %d: %v\nbefore:\n%s\nafter:\n%s", i, err, orig, u)
		}
		reused += countOps(u, sir.OpCopy) - copies
		behaveAlike(t, fmt.Sprintf("unit %d", i), orig, u, rng, 4)
	}
	if reused < n/2 {
		t.Errorf("gvn reused only %d values in %d units", reused, n)
	}
	t.Logf("%d units: %d values reused", n, reused)
}

// TestGVNCases: what gvn must and must not reuse.
func TestGVNCases(t *testing.T) {
	for _, c := range []struct {
		name, src string
		loads     int // loads left after gvn, copyprop and deadcode
	}{
		{"an if-chain reloads its enable and address once", `
unit "chain"
b0:
  r1:1 = load.1 h0+0
  r2:5 = load.1 h0+1
  r3:5 = const 1
  r4:1 = eq r2, r3
  r5:1 = and r1, r4
  branch r5, b1, b2
b1:
  r6:32 = load.4 h0+4
  store.4 h1+4, r6
  jump b2
b2:
  r7:1 = load.1 h0+0
  r8:5 = load.1 h0+1
  r9:5 = const 2
  r10:1 = eq r8, r9
  r11:1 = and r7, r10
  branch r11, b3, b4
b3:
  r12:32 = load.4 h0+4
  store.4 h1+8, r12
  jump b4
b4:
  ret ok
`, 4}, // the data's load in b1 does not dominate b3's
		{"a store in one arm ends a load's reuse at the join", `
unit "arm"
b0:
  r1:8 = load.1 h0+0
  r2:1 = load.1 h0+1
  branch r2, b1, b2
b1:
  r3:8 = const 7
  store.1 h0+0, r3
  jump b2
b2:
  r4:8 = load.1 h0+0
  store.1 h1+0, r4
  store.1 h1+1, r1
  ret ok
`, 3},
		{"a store in a loop ends a load's reuse in its header", `
unit "loop"
b0:
  r1:8 = load.1 h0+0
  r2:8 = load.1 h0+1
  jump b1
b1:
  r3:8 = load.1 h0+0
  r4:8 = add r3, r2
  store.1 h0+0, r4
  r5:8 = const 1
  r6:8 = sub r2, r5
  r7:8 = const 0
  r8:1 = ne r6, r7
  branch r8, b2, b3
b2:
  jump b1
b3:
  store.1 h1+0, r1
  ret ok
`, 3},
		{"a stored value is reloaded from its register", `
unit "forward"
b0:
  r1:16 = load.2 h0+0
  store.2 h1+0, r1
  r2:1 = load.1 h0+2
  branch r2, b1, b2
b1:
  r3:16 = load.2 h1+0
  store.2 h1+2, r3
  jump b2
b2:
  ret ok
`, 2},
	} {
		t.Run(c.name, func(t *testing.T) {
			checkCase(t, c.src, func(u *sir.Unit) *sir.Unit {
				if r := Reuse(u, nil); r != nil {
					return r
				}
				return u
			}, sir.OpLoad, c.loads)
		})
	}
}

// checkCase parses src, transforms it (pass may change the unit it is
// given), and checks that the result passes sir.Check, has want
// instructions of op, and behaves as the unit it came from.
func checkCase(t *testing.T, src string, pass func(*sir.Unit) *sir.Unit, op sir.Op, want int) {
	t.Helper()
	u, err := sir.Parse(strings.TrimSpace(src))
	if err != nil {
		t.Fatal(err)
	}
	orig := u.Clone()
	u = pass(u)
	if err := sir.Check(u); err != nil {
		t.Fatalf("%v\n%s", err, u)
	}
	if got := countOps(u, op); got != want {
		t.Errorf("%d %s instructions left, want %d:\n%s", got, op, want, u)
	}
	behaveAlike(t, "case", orig, u, rand.New(rand.NewSource(1)), 20)
}

// TestGVNScopes: with scopes (the instances of a module the native backend
// loops over), values are reused within a segment only, and a value read
// after the run stays computed in every segment, so that the segments
// still match each other.
func TestGVNScopes(t *testing.T) {
	var sb strings.Builder
	sb.WriteString("unit \"segments\"\nb0:\n  jump b1\n")
	// Segment k: blocks 3k+1 .. 3k+3. h0 is shared, h(1+k) is instance
	// k's.
	for k := range 3 {
		a, b, c := 3*k+1, 3*k+2, 3*k+3
		r := 10 * (k + 1)
		fmt.Fprintf(&sb, "b%d:\n  r%d:1 = load.1 h0+0\n  r%d:8 = load.1 h%d+0\n  branch r%d, b%d, b%d\n", a, r, r+1, 1+k, r, b, c)
		fmt.Fprintf(&sb, "b%d:\n  store.1 h4+%d, r%d\n  jump b%d\n", b, k, r+1, c)
		fmt.Fprintf(&sb, "b%d:\n  r%d:1 = load.1 h0+0\n  r%d:8 = load.1 h%d+0\n  r%d:8 = zext r%d\n  r%d:8 = add r%d, r%d\n  store.1 h5+%d, r%d\n  jump b%d\n",
			c, r+2, r+3, 1+k, r+4, r+2, r+5, r+3, r+4, k, r+5, c+1)
	}
	sb.WriteString("b10:\n  store.1 h6+0, r33\n  ret ok\n") // the last segment's reload, read after the run
	u, err := sir.Parse(sb.String())
	if err != nil {
		t.Fatal(err)
	}
	scope := func(b sir.BlockID, i int) Scope {
		if b < 1 || b > 9 {
			return Scope{}
		}
		return Scope{Run: 1, Seg: int(b-1) / 3, Pos: int(b-1)%3*100 + i}
	}
	r := Reuse(u, scope)
	if r == nil {
		t.Fatal("nothing reused")
	}
	if err := sir.Check(r); err != nil {
		t.Fatalf("%v\n%s", err, r)
	}
	behaveAlike(t, "scoped", u, r, rand.New(rand.NewSource(2)), 20)
	// Per segment: the shared and the instance's loads in its first block,
	// and the instance's reload (read after the run in the last segment):
	// the shared reload reuses the segment's own load.
	loads := make([]int, 3)
	for k := range 3 {
		for _, id := range []int{3*k + 1, 3*k + 2, 3*k + 3} {
			loads[k] += countOpIn(r.Blocks[id], sir.OpLoad)
		}
	}
	for k, n := range loads {
		if n != 3 {
			t.Errorf("segment %d keeps %d loads, want 3 (every segment alike):\n%s", k, n, r)
		}
	}
	// Without scopes the shared value is loaded once for all.
	if all := Reuse(u, nil); all == nil || countOps(all, sir.OpLoad) >= countOps(r, sir.OpLoad) {
		t.Errorf("unscoped reuse should load less than scoped reuse")
	}
}

func countOpIn(b *sir.Block, op sir.Op) int {
	n := 0
	for _, in := range b.Insts {
		if in.Op == op {
			n++
		}
	}
	return n
}
