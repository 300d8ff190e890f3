package jit

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/weft-hdl/weft/sir"
)

// TestReuseAcrossBlocks: a register file's write tests, each in its own
// block, compile to less code when the enable and address are loaded
// once (opt.Reuse) than when each block reloads them, and both match the
// interpreter.
func TestReuseAcrossBlocks(t *testing.T) {
	var sb strings.Builder
	sb.WriteString("unit \"regfile\"\nb0:\n  jump b1\n")
	const n = 12
	for i := 1; i <= n; i++ {
		b := 2*i - 1
		fmt.Fprintf(&sb, "b%d:\n  r%d:1 = load.1 h0+0\n  r%d:4 = load.1 h0+1\n  r%d:4 = const %d\n  r%d:1 = eq r%d, r%d\n  r%d:1 = and r%d, r%d\n  branch r%d, b%d, b%d\n",
			b, 10*i, 10*i+1, 10*i+2, i, 10*i+3, 10*i+1, 10*i+2, 10*i+4, 10*i, 10*i+3, 10*i+4, b+1, b+2)
		fmt.Fprintf(&sb, "b%d:\n  r%d:32 = load.4 h0+4\n  store.4 h1+%d, r%d\n  jump b%d\n", b+1, 10*i+5, 4*i, 10*i+5, b+2)
	}
	fmt.Fprintf(&sb, "b%d:\n  ret ok\n", 2*n+1)
	u, err := sir.Parse(sb.String())
	if err != nil {
		t.Fatal(err)
	}
	l, size := sir.PackedLayout([]int{8, 4 * (n + 1)}, 0)
	sizes := map[bool]int{}
	for _, on := range []bool{false, true} {
		restore := SetReuse(on)
		fi, k := compileBoth(t, u, l, size)
		restore()
		rng := rand.New(rand.NewSource(3))
		for run := range 200 {
			state := make([]byte, size)
			rng.Read(state[:8])
			state[0] &= 1
			state[1] = byte(rng.Intn(n + 2))
			if d := diffRun(t, fi, k, state); d != "" {
				t.Fatalf("reuse %v, run %d: %s", on, run, d)
			}
		}
		sizes[on] = k.CodeSize()
	}
	if sizes[true] >= sizes[false] {
		t.Errorf("code with reuse %d bytes, without %d: the reloads were not removed", sizes[true], sizes[false])
	}
}
