package opt

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/weft-hdl/weft/sir"
)

// TestDSERandom: dse alone keeps every unit's behaviour (random units
// over few bytes, many stores and reloads across blocks), and finds
// enough dead stores for the comparison to mean something.
func TestDSERandom(t *testing.T) {
	n := 3000
	if testing.Short() {
		n = 400
	}
	rng := rand.New(rand.NewSource(11))
	removed := 0
	for i := range n {
		var u *sir.Unit
		if i%2 == 0 {
			u = genGVNUnit(rng)
		} else {
			u = genUnit(rng)
		}
		orig := u.Clone()
		stores := countOps(u, sir.OpStore)
		dse(u, nil)
		if err := sir.Check(u); err != nil {
			t.Fatalf("unit %d: %v\nbefore:\n%s\nafter:\n%s", i, err, orig, u)
		}
		removed += stores - countOps(u, sir.OpStore)
		behaveAlike(t, fmt.Sprintf("unit %d", i), orig, u, rng, 4)
	}
	if removed < n/10 {
		t.Errorf("dse removed only %d stores in %d units", removed, n)
	}
	t.Logf("%d units: %d stores removed", n, removed)
}

// TestDSECases: which stores dse removes.
func TestDSECases(t *testing.T) {
	for _, c := range []struct {
		name, src string
		stores    int // stores left
	}{
		{"defaults every case arm stores again", `
unit "defaults"
b0:
  r1:8 = const 0
  store.1 h0+0, r1
  store.1 h0+1, r1
  r2:1 = load.1 h1+0
  branch r2, b1, b2
b1:
  r3:8 = const 1
  store.1 h0+0, r3
  store.1 h0+1, r3
  jump b3
b2:
  r4:8 = const 2
  store.2 h0+0, r4
  jump b3
b3:
  ret ok
`, 3},
		{"an arm that does not store keeps the default", `
unit "partial"
b0:
  r1:8 = const 0
  store.1 h0+0, r1
  r2:1 = load.1 h1+0
  branch r2, b1, b2
b1:
  r3:8 = const 1
  store.1 h0+0, r3
  jump b2
b2:
  ret ok
`, 2},
		{"a read in between keeps it", `
unit "read"
b0:
  r1:8 = const 0
  store.1 h0+0, r1
  r2:1 = load.1 h1+0
  branch r2, b1, b2
b1:
  r5:8 = load.1 h0+0
  store.1 h2+0, r5
  jump b2
b2:
  r3:8 = const 1
  store.1 h0+0, r3
  ret ok
`, 3},
		{"a dynamic load in between keeps it", `
unit "dynamic"
b0:
  r1:8 = const 0
  store.1 h0+5, r1
  r2:2 = load.1 h1+0
  r6:1 = load.1 h1+1
  branch r6, b1, b2
b1:
  r5:8 = load.1 h0+4[r2*1<4]
  store.1 h2+0, r5
  jump b2
b2:
  r3:8 = const 1
  store.1 h0+5, r3
  ret ok
`, 3},
		{"a storebits keeps the bits a load then reads", `
unit "bits"
b0:
  r1:8 = const 0
  store.1 h0+0, r1
  jump b1
b1:
  r2:1 = const 1
  storebits h0+0, 3, r2
  jump b2
b2:
  r3:8 = load.1 h0+0
  store.1 h2+0, r3
  r4:8 = const 1
  store.1 h0+0, r4
  ret ok
`, 3},
		{"a loop's back edge keeps the stores before it", `
unit "loop"
b0:
  r1:8 = const 3
  jump b1
b1:
  r2:8 = const 0
  store.1 h0+0, r2
  r3:8 = const 1
  r1:8 = sub r1, r3
  r4:8 = const 0
  r5:1 = ne r1, r4
  branch r5, b1, b2
b2:
  store.1 h0+0, r1
  ret ok
`, 2},
		{"a back edge as the branch's second target keeps them too", `
unit "loop2"
b0:
  r1:8 = const 3
  jump b1
b1:
  r2:8 = const 0
  store.1 h0+0, r2
  r3:8 = const 1
  r1:8 = sub r1, r3
  r4:8 = const 0
  r5:1 = eq r1, r4
  branch r5, b2, b1
b2:
  store.1 h0+0, r1
  ret ok
`, 2},
	} {
		t.Run(c.name, func(t *testing.T) {
			checkCase(t, c.src, func(u *sir.Unit) *sir.Unit { dse(u, nil); return u }, sir.OpStore, c.stores)
		})
	}
}

// TestDSEScopes: a store that a later segment's store overwrites stays
// (the last segment's would be overwritten by the code after the run,
// the others by the next segment), one its own segment overwrites goes,
// in every segment alike.
func TestDSEScopes(t *testing.T) {
	src := `
unit "segments"
b0:
  r1:8 = const 1
  store.1 h0+0, r1
  jump b1
b1:
  store.1 h1+0, r1
  jump b2
b2:
  store.1 h1+0, r1
  store.1 h2+0, r1
  store.1 h0+0, r1
  jump b3
b3:
  store.1 h1+0, r1
  jump b4
b4:
  store.1 h1+0, r1
  store.1 h2+0, r1
  store.1 h0+0, r1
  jump b5
b5:
  store.1 h0+0, r1
  store.1 h2+0, r1
  ret ok
`
	u, err := sir.Parse(strings.TrimSpace(src))
	if err != nil {
		t.Fatal(err)
	}
	// Segment k: blocks 1+2k and 2+2k.
	scope := func(b sir.BlockID, i int) Scope {
		if b < 1 || b > 4 {
			return Scope{}
		}
		return Scope{Run: 1, Seg: int(b-1) / 2, Pos: int(b-1)%2*10 + i}
	}
	orig := u.Clone()
	dse(u, scope)
	// Removed: each segment's first h1 store (its second block overwrites
	// it). Kept: the h0 store before the run and the h0 and h2 stores of
	// each segment (the next segment's, or the code after the run,
	// overwrite them).
	want := []int{1, 0, 3, 0, 3, 2}
	for i, b := range u.Blocks {
		if got := countOpIn(b, sir.OpStore); got != want[i] {
			t.Errorf("b%d keeps %d stores, want %d:\n%s", i, got, want[i], u)
		}
	}
	behaveAlike(t, "scoped", orig, u, rand.New(rand.NewSource(4)), 10)
}
